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

}  // namespace f2lay::ref::catalog
