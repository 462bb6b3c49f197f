// The catalog fuzzer's tcgen05.ld/st register layouts (tmem_reg_layout)
// against the PTX fragment tables (tmem_fragments.h), in that definition's
// scope: 32-bit elements, packed, one CTA, no warp holding copies, and the
// 16-lane shapes only where lanes 16-31 of a warp are used.
#include <bit>
#include <cstdint>
#include <string>

#include "fuzz/catalog_decoder.h"
#include "fuzz/catalog_families.h"
#include "reference/catalog/tests/elementwise_compare.h"
#include "reference/catalog/tests/tmem_fragments.h"
#include "reference/catalog/tmem_reg_layout.h"

namespace f2lay::fuzz::catalog_fuzz {

void fuzzTmemRegLayout(Decoder& in) {
  const char* shapes[] = {"32x32b", "16x64b", "16x128b", "16x256b"};
  std::string variant = shapes[in.pick(0, 3)];
  uint64_t blockM = in.flag() ? 128 : 64;
  uint64_t blockN = uint64_t{1} << in.pick(0, 8);
  uint64_t m = uint64_t{64} << in.pick(blockM == 128 ? 1 : 0, 2);
  // At most 2^12 elements, so that every input is compared.
  uint64_t n = uint64_t{1} << in.pick(0, 12 - std::countr_zero(m));
  uint64_t warps = uint64_t{4} << in.pick(0, 2);
  ref::catalog::tmem::RegLayout def{{blockM, blockN, m, n}, variant, warps};
  // The definition's scope (tmem_test.cpp's): no copies, a use for lanes
  // 16-31, at least two columns a thread where only 32x32b reads them.
  if (def.groups() * def.shapeCols() > def.tmem.columns()) return;
  if (def.upper() == 3 && (variant != "32x32b" || def.chunk() < 2)) return;
  TmemRegParams p;
  p.shape = p.allocShape = {m, n};
  p.layout.block = {blockM, blockN};
  p.numWarps = warps;
  p.instrVariant = variant;
  Target t{"tmem_reg_layout",
           variant + " block " + std::to_string(blockM) + "x" + std::to_string(blockN) + " shape " +
               list(p.shape) + " warps " + std::to_string(warps),
           in};
  Built b = construct(t, [&] { return tmemRegLayout(p); });
  if (!accepted(t, b, true)) return;
  expectSame(t, outDimMismatch(*b.answer, p.shape));
  expectSame(t, distributedMismatch(*b.answer, def));
}

}  // namespace f2lay::fuzz::catalog_fuzz
