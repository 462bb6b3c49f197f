// The definition of a CTA tiling (a CGA), element by element, not from
// combineCtaCgaWithShape: block b holds the one-CTA layout of the CTA's
// share of the tensor, moved by its tile origin, the XOR of the block bases
// of b's set bits (tile indices per dim) times the share.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "reference/linear_layout.h"
#include "testing/evaluate.h"

namespace f2lay::ref::catalog {

using CgaBases = std::vector<std::vector<uint64_t>>;

// "" when `whole` (register, lane, warp, block -> dims) is `tile` (the same
// without a block dim, at `share`) tiled by `blockBases`; else the first
// block and input that differ.
inline std::string cgaTilingMismatch(const LinearLayout& whole, const LinearLayout& tile,
                                     const CgaBases& blockBases,
                                     const std::vector<uint64_t>& share) {
  const std::vector<InDim>& dims = whole.value().in_dims;
  if (dims.empty() || dims.back().name != "block" || dims.back().bases.size() != blockBases.size())
    return "the layout's last in dim is not a block dim of " + std::to_string(blockBases.size()) +
           " bits";
  int tileBits = totalInBits(tile.value());
  f2lay::testing::Evaluator atWhole(whole.value()), atTile(tile.value());
  for (uint64_t b = 0; b < (uint64_t{1} << blockBases.size()); ++b) {
    std::vector<uint64_t> origin(share.size(), 0);
    for (size_t k = 0; k < blockBases.size(); ++k)
      if (b >> k & 1)
        for (size_t d = 0; d < share.size(); ++d) origin[d] ^= blockBases[k][d] * share[d];
    for (uint64_t x = 0; x < (uint64_t{1} << tileBits); ++x) {
      std::vector<uint64_t> want = atTile(x), got = atWhole(x | b << tileBits);
      for (size_t d = 0; d < share.size(); ++d) want[d] += origin[d];
      if (got != want)
        return "block " + std::to_string(b) + " input " + std::to_string(x) +
               ": the layout gives " + "another element than the tile moved by its origin";
    }
  }
  return "";
}

// One or two CTA bits over rank 2, each splitting dim 0 or 1 (its next power
// of two) or holding copies.
template <class Rng>
CgaBases randomCga2D(Rng& rng) {
  CgaBases cga;
  uint64_t next[2] = {1, 1};
  for (int b = 1 + static_cast<int>(rng() % 2); b > 0; --b) {
    size_t d = rng() % 3;
    std::vector<uint64_t> basis = {0, 0};
    if (d < 2) basis[d] = next[d], next[d] *= 2;
    cga.push_back(basis);
  }
  return cga;
}

// The bases with dim `dim` made 0 (an operand's K: its CTAs do not split it).
inline CgaBases withDimZero(CgaBases bases, size_t dim) {
  for (std::vector<uint64_t>& b : bases) b[dim] = 0;
  return bases;
}

// The tensor whose CTAs each hold `share`: share times the CTAs along each dim.
inline std::vector<uint64_t> tiledShape(const CgaBases& bases, std::vector<uint64_t> share) {
  for (const std::vector<uint64_t>& b : bases)
    for (size_t d = 0; d < share.size(); ++d)
      if (b[d]) share[d] *= 2;
  return share;
}

}  // namespace f2lay::ref::catalog
