// The catalog fuzzer's tcgen05.ld/st register layouts (tmem_reg_layout)
// against the PTX fragment tables (tmem_fragments.h), in that definition's
// scope (tmem::covers): 32-, 16- and 8-bit elements (packed, unpacked,
// padded), a CGA of up to two CTA bits or a two-CTA pair, warps holding
// copies, and the 16-lane shapes only where lanes 16-31 of a warp are used.
// Outside it the constructor may answer or refuse (with f2lay::Error).
#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/catalog_decoder.h"
#include "fuzz/catalog_families.h"
#include "reference/catalog/tests/elementwise_compare.h"
#include "reference/catalog/tests/tmem_fragments.h"
#include "reference/catalog/tmem_reg_layout.h"

namespace f2lay::fuzz::catalog_fuzz {

void fuzzTmemRegLayout(Decoder& in) {
  const char* shapes[] = {"32x32b", "16x64b", "16x128b", "16x256b"};
  const uint64_t storage[][2] = {{32, 1}, {16, 1}, {16, 2}, {8, 1}, {8, 4}};
  std::string variant = shapes[in.pick(0, 3)];
  const uint64_t* st = storage[in.pick(0, 4)];
  uint64_t blockM = in.flag() ? 128 : 64;
  uint64_t blockN = uint64_t{1} << in.pick(0, 8);
  // A CGA: none, one or two CTA bits along dim0/dim1, or a two-CTA pair.
  int cgaKind = in.pick(0, 3);
  bool two = cgaKind == 3 && in.flag();
  std::vector<std::array<uint64_t, 2>> cga;
  if (cgaKind >= 1)
    cga.push_back(cgaKind == 3 ? std::array<uint64_t, 2>{1, 0} : std::array<uint64_t, 2>{0, 1});
  if (cgaKind == 2) cga.push_back({1, 0});
  uint64_t m = (uint64_t{64} << in.pick(blockM == 128 ? 1 : 0, 2)) << (cgaKind >= 2 ? 1 : 0);
  // At most 2^12 elements a CTA, so that every input is compared.
  uint64_t n =
      uint64_t{1} << in.pick(cgaKind == 1 || cgaKind == 2 ? 1 : 0, 12 - std::countr_zero(m));
  uint64_t warps = uint64_t{4} << in.pick(0, 3);
  ref::catalog::tmem::RegLayout def{
      {blockM, blockN, m, n, st[1], false, two, {cga}}, variant, warps, {}};
  if (!ref::catalog::tmem::narrowOf(st[0], def.tmem, def.narrow)) return;
  bool cover = ref::catalog::tmem::covers(def);
  TmemRegParams p;
  p.elementBitwidth = st[0];
  p.shape = p.allocShape = {m, n};
  p.layout.block = {blockM, blockN};
  p.layout.colStride = st[1];
  p.layout.twoCtas = two;
  if (!cga.empty()) {
    LayoutValue v{{{"block", {}}}, {{"dim0", 1}, {"dim1", 1}}};
    for (const auto& b : cga) {
      v.in_dims[0].bases.push_back({b[0], b[1]});
      for (int d = 0; d < 2; ++d)
        if (b[d]) v.out_dims[d].size *= 2;
    }
    p.layout.cgaLayout = LinearLayout(v);
  }
  p.numWarps = warps;
  p.instrVariant = variant;
  Target t{"tmem_reg_layout",
           variant + " " + std::to_string(st[0]) + "-bit col_stride " + std::to_string(st[1]) +
               " block " + std::to_string(blockM) + "x" + std::to_string(blockN) + " shape " +
               list(p.shape) + " cga bits " + std::to_string(cga.size()) +
               (two ? " two_ctas" : "") + " warps " + std::to_string(warps),
           in};
  Built b = construct(t, [&] { return tmemRegLayout(p); });
  if (!accepted(t, b, cover) || !cover) return;
  expectSame(t, outDimMismatch(*b.answer, p.shape));
  expectSame(t, distributedMismatch(*b.answer, def));
}

}  // namespace f2lay::fuzz::catalog_fuzz
