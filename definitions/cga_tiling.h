// The definition of a CTA tiling (a CGA), element by element, not from
// combineCtaCgaWithShape: block b holds the one-CTA layout of the CTA's
// share of the tensor, moved by its tile origin, the XOR of the block bases
// of b's set bits (tile indices per dim) times the share.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "reference/linear_layout.h"
#include "testkit/evaluate.h"

namespace f2lay::ref::catalog {

using CgaBases = std::vector<std::vector<uint64_t>>;

// Block `block`'s tile origin: the XOR of the bases of its set bits (tile
// indices per dim) times the share per dim.
inline std::vector<uint64_t> tileOrigin(const CgaBases& blockBases, uint64_t block,
                                        const std::vector<uint64_t>& share) {
  std::vector<uint64_t> origin(share.size(), 0);
  for (size_t k = 0; k < blockBases.size(); ++k)
    if (block >> k & 1)
      for (size_t d = 0; d < share.size(); ++d) origin[d] ^= blockBases[k][d] * share[d];
  return origin;
}

// Some one-CTA layouts are not the layout of the CTA's share: Triton builds
// AMD's MFMA accumulator and operands with registers repeating along N (K)
// up to the whole tensor's extent, and only the other dims up to the share
// (FINDINGS.md N2). This is the CGA's part of Triton's rule as index
// arithmetic: `cta` (registers(), lanes(), warps(), at(reg, lane, warp, 0),
// its extents counted as Triton counts them) gives an element that is
// wrapped to the share (coordinates past it are copies) and moved by the
// block's tile origin. The CGA is first cut to the tensor: a basis moving a
// dim by its extent or more holds copies.
template <class Cta>
struct OverCtas {
  Cta cta;
  CgaBases bases;               // block bit -> tile steps per dim
  std::vector<uint64_t> shape;  // the whole tensor

  uint64_t cut(const std::vector<uint64_t>& b, size_t d) const {
    return b[d] < shape[d] ? b[d] : 0;
  }
  // The share per dim: the extent over the CTAs along it (twice the largest
  // step, or 1), at least 1.
  std::vector<uint64_t> share() const {
    std::vector<uint64_t> s;
    for (size_t d = 0; d < shape.size(); ++d) {
      uint64_t most = 0;
      for (const std::vector<uint64_t>& b : bases) most = std::max(most, cut(b, d));
      s.push_back(std::max<uint64_t>(1, shape[d] / (most == 0 ? 1 : 2 * most)));
    }
    return s;
  }
  uint64_t registers() const { return cta.registers(); }
  uint64_t lanes() const { return cta.lanes(); }
  uint64_t warps() const { return cta.warps(); }
  uint64_t blocks() const { return uint64_t{1} << bases.size(); }

  std::vector<uint64_t> at(uint64_t reg, uint64_t lane, uint64_t warp, uint64_t block) const {
    std::vector<uint64_t> s = share(), e = cta.at(reg, lane, warp, 0);
    for (size_t d = 0; d < e.size(); ++d) e[d] %= s[d];
    for (size_t k = 0; k < bases.size(); ++k)
      if (block >> k & 1)
        for (size_t d = 0; d < e.size(); ++d) e[d] ^= cut(bases[k], d) * s[d];
    return e;
  }
};

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
  f2lay::testkit::Evaluator atWhole(whole.value()), atTile(tile.value());
  for (uint64_t b = 0; b < (uint64_t{1} << blockBases.size()); ++b) {
    std::vector<uint64_t> origin = tileOrigin(blockBases, b, share);
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

// One or two CTA bits over `rank` dims, each splitting one dim (its next
// power of two) or holding copies.
template <class Rng>
CgaBases randomCga(Rng& rng, size_t rank) {
  CgaBases cga;
  std::vector<uint64_t> next(rank, 1);
  for (int b = 1 + static_cast<int>(rng() % 2); b > 0; --b) {
    size_t d = rng() % (rank + 1);
    std::vector<uint64_t> basis(rank, 0);
    if (d < rank) basis[d] = next[d], next[d] *= 2;
    cga.push_back(basis);
  }
  return cga;
}

// The MFMA CGA tests' draw (an accumulator's and its operands'): one of the
// four instructions, rank 2 or 3, 1 or 2 warps and tiles a dim, up to 2^7
// elements along the matrix dims and 2^2 along the batch, and a CGA.
struct MfmaCgaDraw {
  std::vector<uint64_t> instr, warps, tiles, shape;
  CgaBases cga;
};

template <class Rng>
MfmaCgaDraw drawMfmaCga(Rng& rng) {
  const std::vector<std::vector<uint64_t>> instrs = {
      {32, 32, 8}, {16, 16, 16}, {4, 64, 4}, {64, 4, 4}};
  MfmaCgaDraw g;
  g.instr = instrs[rng() % instrs.size()];
  size_t rank = 2 + rng() % 2;
  for (size_t d = 0; d < rank; ++d) {
    g.warps.push_back(uint64_t{1} << rng() % 2);
    g.tiles.push_back(uint64_t{1} << rng() % 2);
    g.shape.push_back(uint64_t{1} << (d + 2 < rank ? rng() % 3 : rng() % 8));
  }
  g.cga = randomCga(rng, rank);
  return g;
}

template <class Rng>
CgaBases randomCga2D(Rng& rng) {
  return randomCga(rng, 2);
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
