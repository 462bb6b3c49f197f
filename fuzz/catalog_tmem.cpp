// The catalog fuzzer's tcgen05.ld/st register layouts (tmem_reg_layout)
// against the PTX fragment tables (tmem_fragments.h), in that definition's
// scope (tmem::covers): 32-, 16- and 8-bit elements (packed, partly packed,
// unpacked, padded), a CGA of up to two CTA bits or a two-CTA pair, warps
// holding copies, 32x32b_splitn, and views of an allocation with twice the
// rows or columns.
// Outside it the constructor may answer or refuse (with f2lay::Error).
// Also tensor_memory and tensor_memory_scales against tmem::Layout and
// tmem::Scales, at every TMEM cell of every CTA.
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "definitions/elementwise_compare.h"
#include "definitions/tmem_fragments.h"
#include "definitions/tmem_scales.h"
#include "fuzz/catalog_decoder.h"
#include "fuzz/catalog_families.h"
#include "reference/catalog/tensor_memory.h"
#include "reference/catalog/tmem_reg_layout.h"

namespace f2lay::fuzz::catalog_fuzz {

namespace {

// A CGA of rank 2 from its bases ({dim0, dim1} in units of a CTA's share).
LinearLayout cgaLayout(const std::vector<std::array<uint64_t, 2>>& bases) {
  LayoutValue v{{{"block", {}}}, {{"dim0", 1}, {"dim1", 1}}};
  for (const auto& b : bases) {
    v.in_dims[0].bases.push_back({b[0], b[1]});
    for (int d = 0; d < 2; ++d)
      while (v.out_dims[d].size <= b[d]) v.out_dims[d].size *= 2;
  }
  return LinearLayout(v);
}

// None, one CTA bit along either dim, two (either order), or a pair of
// copies.
std::vector<std::array<uint64_t, 2>> drawCga(Decoder& in) {
  switch (in.pick(0, 5)) {
    case 1:
      return {{1, 0}};
    case 2:
      return {{0, 1}};
    case 3:
      return {{1, 0}, {0, 1}};
    case 4:
      return {{0, 1}, {1, 0}};
    case 5:
      return {{0, 0}};
    default:
      return {};
  }
}

std::string cgaText(const std::vector<std::array<uint64_t, 2>>& bases) {
  std::string s;
  for (const auto& b : bases) s += "[" + std::to_string(b[0]) + "," + std::to_string(b[1]) + "]";
  return s;
}

// "" when `l` has in dims row (7 bits), col, block of the definition's
// sizes and gives def.at(row, col, block) at every input.
template <class Def>
std::string tmemMismatch(const LinearLayout& l, const Def& def) {
  const std::vector<InDim>& dims = l.value().in_dims;
  if (dims.size() != 3 || dims[0].name != "row" || dims[0].bases.size() != 7 ||
      dims[1].name != "col" || uint64_t{1} << dims[1].bases.size() != def.columns() ||
      dims[2].name != "block" || uint64_t{1} << dims[2].bases.size() != def.blocks())
    return "in dims other than row (128), col (" + std::to_string(def.columns()) + "), block (" +
           std::to_string(def.blocks()) + ")";
  uint64_t colBits = dims[1].bases.size();
  return flatMismatch(l, [&](uint64_t x) {
    return def.at(x & 127, (x >> 7) & ((uint64_t{1} << colBits) - 1), x >> (7 + colBits));
  });
}

}  // namespace

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
  // Drawn last, so that earlier seeds keep their meaning.
  if (variant == "32x32b" && in.flag()) variant = "32x32b_splitn";
  int grow0 = in.pick(0, 1), grow1 = in.pick(0, 1);
  ref::catalog::tmem::RegLayout def{
      {blockM, blockN, m << grow0, n << grow1, st[1], false, two, {cga}}, variant, warps, {}};
  def.viewM = m;
  def.viewN = n;
  if (!ref::catalog::tmem::narrowOf(st[0], def.tmem, def.narrow)) return;
  bool cover = ref::catalog::tmem::covers(def);
  TmemRegParams p;
  p.elementBitwidth = st[0];
  p.shape = {m, n};
  p.allocShape = {m << grow0, n << grow1};
  p.layout.block = {blockM, blockN};
  p.layout.colStride = st[1];
  p.layout.twoCtas = two;
  if (!cga.empty()) p.layout.cgaLayout = cgaLayout(cga);
  p.numWarps = warps;
  p.instrVariant = variant;
  Target t{"tmem_reg_layout",
           variant + " " + std::to_string(st[0]) + "-bit col_stride " + std::to_string(st[1]) +
               " block " + std::to_string(blockM) + "x" + std::to_string(blockN) + " shape " +
               list(p.shape) + " alloc_shape " + list(p.allocShape) + " cga bits " +
               std::to_string(cga.size()) + (two ? " two_ctas" : "") + " warps " +
               std::to_string(warps),
           in};
  Built b = construct(t, [&] { return tmemRegLayout(p); });
  if (!accepted(t, b, cover) || !cover) return;
  expectSame(t, outDimMismatch(*b.answer, p.shape));
  expectSame(t, distributedMismatch(*b.answer, def));
}

// tensor_memory against tmem::Layout: blockM 64 or 128 (or a wild one),
// blockN, col_stride and the shape through the decoder (wild values break
// the powers-of-two rule), fp4_padded, two_ctas, a CGA; every rule of
// tensor_memory.h broken must be refused.
void fuzzTensorMemory(Decoder& in) {
  uint64_t blockM = in.flag() ? 128 : 64;
  if (in.oneIn16()) {
    in.wild = true;
    blockM = in.flag() ? 32 : 256;
    in.require(false, "block[0] = " + std::to_string(blockM) + " is not 64 or 128");
  }
  uint64_t blockN = in.size("block[1]", 8);
  uint64_t colStride = in.size("col_stride", 2);
  bool fp4 = in.pick(0, 3) == 0;
  std::vector<std::array<uint64_t, 2>> cga = drawCga(in);
  bool two = in.pick(0, 2) == 0;
  Shape shape = {in.size("shape[0]", 9), in.size("shape[1]", 5)};
  in.require(!(fp4 && colStride > 1), "fp4_padded with col_stride > 1");
  in.require(!two || (!cga.empty() && cga[0] == std::array<uint64_t, 2>{1, 0}),
             "two_ctas without a first CGA basis [1, 0]");
  ref::catalog::tmem::Layout def{blockM, blockN, shape[0], shape[1], colStride, fp4, two, {cga}};
  for (int d = 0; d < 2; ++d)
    in.require(def.cga.split(d) <= shape[d],
               "cga_layout splits dim" + std::to_string(d) + " into more CTAs than the shape has");
  if (in.broken.empty() && isPowerOfTwo(shape[0]) && isPowerOfTwo(shape[1])) {
    in.require(def.cm() >= def.tileRows(), "fewer rows per CTA than the tile");
    in.require(!(def.halves() && def.width() * def.pad() < 2),
               "two CTAs of 64 rows with a single column slot");
  }
  TensorMemoryParams p;
  p.block = {blockM, blockN};
  p.colStride = colStride;
  p.fp4Padded = fp4;
  p.twoCtas = two;
  if (!cga.empty()) p.cgaLayout = cgaLayout(cga);
  Target t{"tensor_memory",
           "block " + list(std::vector<uint64_t>{blockM, blockN}) + " col_stride " +
               std::to_string(colStride) + (fp4 ? " fp4_padded" : "") + (two ? " two_ctas" : "") +
               " cga " + cgaText(cga) + " shape " + list(shape),
           in};
  Built b = construct(t, [&] { return tensorMemory(p, shape); });
  if (!accepted(t, b, plainLegal(in))) return;
  expectSame(t, outDimMismatch(*b.answer, shape));
  expectSame(t, tmemMismatch(*b.answer, def));
}

// tensor_memory_scales against tmem::Scales: any shape (powers of two) and
// CGA that does not split a dim into more CTAs than it has.
void fuzzTensorMemoryScales(Decoder& in) {
  std::vector<std::array<uint64_t, 2>> cga = drawCga(in);
  Shape shape = {in.size("shape[0]", 8), in.size("shape[1]", 4)};
  ref::catalog::tmem::Scales def{shape[0], shape[1], {cga}};
  for (int d = 0; d < 2; ++d)
    in.require(def.cga.split(d) <= shape[d],
               "cga_layout splits dim" + std::to_string(d) + " into more CTAs than the shape has");
  std::optional<LinearLayout> layout;
  if (!cga.empty()) layout = cgaLayout(cga);
  Target t{"tensor_memory_scales", "cga " + cgaText(cga) + " shape " + list(shape), in};
  Built b = construct(t, [&] { return tensorMemoryScales(layout, shape); });
  if (!accepted(t, b, plainLegal(in))) return;
  expectSame(t, outDimMismatch(*b.answer, shape));
  expectSame(t, tmemMismatch(*b.answer, def));
}

}  // namespace f2lay::fuzz::catalog_fuzz
