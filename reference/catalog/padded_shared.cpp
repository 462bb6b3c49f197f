#include "reference/catalog/padded_shared.h"

#include <algorithm>
#include <bit>
#include <string>

namespace f2lay::ref::catalog {

namespace {

const std::string kOp = "padded_shared: ";

std::string shapeText(const Shape& s) {
  std::string t;
  for (uint64_t x : s) t += (t.empty() ? "" : "x") + std::to_string(x);
  return t;
}

// The bits each basis of `bases` (one of Gluon's keys) sets, per dim, checked:
// one nonzero power-of-two value per basis (a zero basis only where
// zerosAllowed), and per dim the bits 0, 1, ... each once. Returns the number
// of bits per dim.
std::vector<uint64_t> bitsPerDim(const std::vector<Basis>& bases, const std::string& key,
                                 size_t rank, bool zerosAllowed) {
  std::vector<std::vector<int>> bits(rank);  // per dim: the basis index of each bit, or -1
  for (size_t i = 0; i < bases.size(); ++i) {
    const Basis& b = bases[i];
    std::string at = kOp + key + "[" + std::to_string(i) + "]";
    if (b.size() != rank)
      throw Error(at + ": has " + std::to_string(b.size()) + " values, expected one per dim (" +
                  std::to_string(rank) + ")");
    size_t moving = 0, dim = 0;
    for (size_t d = 0; d < rank; ++d)
      if (b[d] != 0) ++moving, dim = d;
    if (moving == 0) {
      if (zerosAllowed) continue;
      throw Error(at +
                  ": is zero; Triton refuses broadcasting in the offset dim (each offset "
                  "must hold its own element)");
    }
    if (moving > 1)
      throw Error(at + ": moves in " + std::to_string(moving) +
                  " dims; Triton requires each basis to move in at most one dimension");
    if (!std::has_single_bit(b[dim]) || b[dim] > (uint64_t{1} << 62))
      throw Error(at + ": value " + std::to_string(b[dim]) + " in dim" + std::to_string(dim) +
                  " is not a power of two (Triton: each basis must be 0 or a power of two)");
    size_t bit = static_cast<size_t>(std::countr_zero(b[dim]));
    if (bits[dim].size() <= bit) bits[dim].resize(bit + 1, -1);
    if (bits[dim][bit] >= 0)
      throw Error(at + ": equals " + key + "[" + std::to_string(bits[dim][bit]) + "]" +
                  (zerosAllowed ? "; Triton's CGA layout must be invertible on its nonzero bases"
                                : "; two offsets would hold one element (Triton refuses "
                                  "broadcasting in the offset dim)"));
    bits[dim][bit] = static_cast<int>(i);
  }
  std::vector<uint64_t> count(rank);
  for (size_t d = 0; d < rank; ++d) {
    for (size_t k = 0; k < bits[d].size(); ++k)
      if (bits[d][k] < 0)
        throw Error(kOp + key + ": dim" + std::to_string(d) + " reaches " +
                    std::to_string(uint64_t{1} << (bits[d].size() - 1)) + " but no basis is " +
                    std::to_string(uint64_t{1} << k) +
                    "; Triton's layout of these bases must be surjective onto the sizes they "
                    "imply (each dim's bases are 1, 2, 4, ... up to its size)");
    count[d] = bits[d].size();
  }
  return count;
}

}  // namespace

PaddedShared paddedShared(const PaddedSharedParams& p) {
  analysis::checkPadding(p.intervalPaddingPairs, kOp + "interval_padding_pairs");
  size_t rank = p.shape.size();
  if (rank == 0) throw Error(kOp + "shape must have at least one dim (Gluon 3.9)");
  checkPowersOfTwo(kOp + "shape", p.shape, rank);
  std::vector<uint64_t> offsetBits = bitsPerDim(p.offsetBases, "offset_bases", rank, false);
  std::vector<uint64_t> blockBits = bitsPerDim(p.cgaBases, "cga_layout", rank, true);
  Shape spanned(rank);
  for (size_t d = 0; d < rank; ++d) {
    if (offsetBits[d] + blockBits[d] > 62)
      throw Error(kOp + "dim" + std::to_string(d) + " would span 2^" +
                  std::to_string(offsetBits[d] + blockBits[d]) + " elements (at most 2^62)");
    spanned[d] = uint64_t{1} << (offsetBits[d] + blockBits[d]);
  }
  if (spanned != p.shape)
    throw Error(kOp + "shape = " + shapeText(p.shape) + " but offset_bases and cga_layout span " +
                shapeText(spanned) +
                "; Gluon 3.9 sizes the layout by its bases and takes only the rank from shape, "
                "so they must agree for the layout to describe this tensor");
  // LinearLayout(offset) * LinearLayout(block) (Gluon's get_padded_shared_layout):
  // the block bases land above each dim's offset bits.
  LayoutValue v{{{"offset", p.offsetBases}, {"block", {}}}, {}};
  for (const std::string& n : standardOutDimNames(rank)) v.out_dims.push_back({n, 0});
  for (size_t d = 0; d < rank; ++d) v.out_dims[d].size = spanned[d];
  for (const Basis& b : p.cgaBases) {
    Basis scaled(rank, 0);
    for (size_t d = 0; d < rank; ++d) scaled[d] = b[d] << offsetBits[d];
    v.in_dims[1].bases.push_back(scaled);
  }
  return {LinearLayout(std::move(v)), p.intervalPaddingPairs};
}

PaddedSharedParams paddedSharedIdentityFor(const analysis::Padding& pairs, const Shape& shape,
                                           const std::vector<unsigned>& order,
                                           const std::vector<Basis>& cgaBases) {
  size_t rank = shape.size();
  checkPowersOfTwo(kOp + "shape", shape, rank);
  checkOrder(kOp + "order", order, rank);
  // Gluon's _get_shape_per_cta: per dim, the largest block value times 2
  // CTAs (1 where every value is zero) divide the shape.
  Shape perCta = shape;
  for (size_t d = 0; d < rank; ++d) {
    uint64_t largest = 0;
    for (size_t i = 0; i < cgaBases.size(); ++i) {
      if (cgaBases[i].size() != rank)
        throw Error(kOp + "cga_layout[" + std::to_string(i) + "]: has " +
                    std::to_string(cgaBases[i].size()) + " values, expected one per dim (" +
                    std::to_string(rank) + ")");
      largest = std::max(largest, cgaBases[i][d]);
    }
    uint64_t ctas = largest == 0 ? 1 : largest * 2;
    if (largest > (uint64_t{1} << 62) || perCta[d] % ctas != 0)
      throw Error(kOp + "shape[" + std::to_string(d) + "] = " + std::to_string(shape[d]) +
                  " is not divisible by the cga_layout's " + std::to_string(ctas) + " CTAs");
    perCta[d] /= ctas;
  }
  PaddedSharedParams p{pairs, {}, cgaBases, shape};
  for (unsigned dim : order)
    for (uint64_t x = 1; x < perCta[dim]; x *= 2) {
      Basis b(rank, 0);
      b[dim] = x;
      p.offsetBases.push_back(b);
    }
  return p;
}

std::optional<PaddedShared> amdEfficientPaddedShared(const AmdPaddedParams& p) {
  const std::string op = "compute_amd_efficient_padded_shared_layout: ";
  if (p.shape.size() != 2) throw Error(op + "shape must have 2 dims ([BM, BK] or [BK, BN])");
  checkPowersOfTwo(op + "shape", p.shape, 2);
  if (p.operandIndex > 1)
    throw Error(op + "operand_index = " + std::to_string(p.operandIndex) + " must be 0 or 1");
  for (auto [name, v] : {std::pair<const char*, uint64_t>{"k_width", p.kWidth},
                         {"instr_shape", p.mfmaNonKDim},
                         {"dtype_bitwidth", p.dtypeBitwidth}})
    if (!std::has_single_bit(v) || v > 1024)
      throw Error(op + name + " = " + std::to_string(v) + " is not a power of two (at most 1024)");
  uint64_t elemBytes = std::max<uint64_t>(p.dtypeBitwidth / 8, 1);
  if (elemBytes != 1 && elemBytes != 2) return std::nullopt;
  size_t kDimIndex = p.operandIndex == 0 ? 1 : 0;
  uint64_t kDim = p.shape[kDimIndex], nonKDim = p.shape[1 - kDimIndex];
  if (p.mfmaNonKDim != 16 && p.mfmaNonKDim != 32) return std::nullopt;
  if (p.kWidth != 4 && p.kWidth != 8 && p.kWidth != 16) return std::nullopt;
  uint64_t kWidthBytes = p.kWidth * elemBytes;
  uint64_t vecSize = 16 / elemBytes, elemsPer8Bytes = 8 / elemBytes;
  uint64_t contigDim = p.kContig ? kDim : nonKDim, nonContigDim = p.kContig ? nonKDim : kDim;
  bool b128 = p.kContig && kWidthBytes == 16, b64Tr = !p.kContig && kWidthBytes >= 8;
  uint64_t elemPerBankRow = ((b128 || b64Tr) ? 64 : 32) * 4 / elemBytes;
  uint64_t padding = b128    ? (p.mfmaNonKDim == 16 ? 2 * p.kWidth : p.kWidth)
                     : b64Tr ? (p.mfmaNonKDim == 16 ? 16 : 32)
                             : elemsPer8Bytes;
  // Lanes along a row, at least 1: Triton 3.9 answers tiles whose rows are
  // narrower than a vector as if one lane held each row (checked against
  // Gluon 3.9.0 in adapters/gluon_shared_check.py).
  uint64_t contigLanes = std::max<uint64_t>(1, contigDim / vecSize);
  uint64_t wrap = std::min(contigDim, elemPerBankRow) / padding;
  if (wrap == 0) return std::nullopt;  // padding wider than a row
  // Rows to stagger over: fewer rows give 2x the conflicts per power of two.
  uint64_t requiredRows = p.warpSize / contigLanes * wrap;
  uint64_t xWay = nonContigDim >= requiredRows
                      ? 1
                      : static_cast<uint64_t>(std::countr_zero(requiredRows / nonContigDim)) + 1;
  if ((b128 && xWay > 1) || xWay > 2) return std::nullopt;
  if (xWay > 1) {
    wrap >>= xWay - 1;
    if (wrap == 0) return std::nullopt;
  }
  bool bestWrap = false;
  if (nonContigDim >= p.warpSize / contigLanes * 16 && 16 > wrap) bestWrap = true, wrap = 16;
  // Bases as [contig, nonContig] pairs.
  std::vector<Basis> bases;
  auto log2 = [](uint64_t x) { return std::countr_zero(x); };
  for (int e = 0; e < log2(contigDim); ++e) bases.push_back({uint64_t{1} << e, 0});
  uint64_t interval = p.warpSize * vecSize;
  size_t required = static_cast<size_t>(log2(interval));
  int rowBase = log2(wrap);
  for (; bases.size() < required; ++rowBase) bases.push_back({0, uint64_t{1} << rowBase});
  for (int r = 0; r < log2(wrap); ++r) bases.push_back({0, uint64_t{1} << r});
  for (; rowBase < log2(nonContigDim); ++rowBase) bases.push_back({0, uint64_t{1} << rowBase});
  if (b64Tr && p.mfmaNonKDim == 16 && kWidthBytes == 16) {
    // One ds_read_tr moves 8 bytes: the rows at 8 and 16 bytes trade places.
    size_t g0 = 0, g1 = 0;
    for (size_t i = 0; i < bases.size(); ++i) {
      if (bases[i][1] == 16 / elemBytes) g1 = i;
      if (bases[i][1] == 8 / elemBytes) g0 = i;
    }
    if (g0 == 0 || g1 == 0)
      throw Error(op + "Triton asserts here (no row at 8 or 16 bytes to exchange)");
    std::swap(bases[g0], bases[g1]);
  }
  if (b128 && p.mfmaNonKDim == 32 && bestWrap && kDim < 256 / elemBytes) {
    // Triton indexes the bases by log2 of a byte offset (256 for the wide
    // layout, 128 for the narrow) and by log2(contigDim) for the 16th row.
    size_t offsetIndex = p.kWidth == 16 / elemBytes ? 8 : 7;
    size_t row16Index = static_cast<size_t>(log2(contigDim));
    if (offsetIndex >= bases.size() || row16Index >= bases.size())
      throw Error(op + "Triton asserts here (fewer bases than the exchange needs)");
    std::swap(bases[offsetIndex], bases[row16Index]);
  }
  // To the tensor's dims: [contig, nonContig] is [dim1, dim0] when the
  // contiguous dim is dim1.
  size_t contigIndex = p.kContig ? kDimIndex : 1 - kDimIndex;
  std::vector<Basis> offsetBases;
  for (const Basis& b : bases)
    offsetBases.push_back(contigIndex == 0 ? Basis{b[0], b[1]} : Basis{b[1], b[0]});
  for (size_t i = 0; i < offsetBases.size(); ++i)
    for (size_t d = 0; d < 2; ++d)
      if (offsetBases[i][d] >= p.shape[d])
        throw Error(op + "Triton stacks offset " + std::to_string(i) + " past the shape (dim" +
                    std::to_string(d) + " = " + std::to_string(p.shape[d]) +
                    "), which PaddedSharedEncodingAttr::verify refuses (Triton aborts)");
  // One CTA: combineCtaCgaWithShape leaves the bases as they are.
  return paddedShared({{{interval, padding}}, offsetBases, {}, p.shape});
}

}  // namespace f2lay::ref::catalog
