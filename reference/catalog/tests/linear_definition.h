// The definition of layouts given by their bases (Gluon's
// DistributedLinearLayout and SharedLinearLayout), written without the
// constructors' code: an input is held where the XOR of the bases of its set
// bits lands (the paper's Def 4.1), and Triton 3.9 accepts exactly the bases
// that, zero bases left out, reach every element of the shape once; each
// distributed basis moreover a single bit (isPermutationMatrixLayout: a value
// like 3 that would still biject is refused). Acceptance is decided by
// enumerating every input, not by rank. Shared by the catalog tests and the
// catalog fuzzer.
#pragma once

#include <bit>
#include <cstdint>
#include <set>
#include <vector>

namespace f2lay::ref::catalog::linear_definition {

using Basis = std::vector<uint64_t>;
using Bases = std::vector<Basis>;

inline Basis xorOf(const Bases& bases, uint64_t bits, size_t rank) {
  Basis sum(rank, 0);
  for (size_t k = 0; k < bases.size(); ++k)
    if (bits >> k & 1)
      for (size_t d = 0; d < rank; ++d) sum[d] ^= bases[k][d];
  return sum;
}

// Whether the non-zero bases, every combination XORed, reach each element of
// `shape` exactly once (values past the shape count as misses).
inline bool nonZeroBasesBiject(const Bases& all, const std::vector<uint64_t>& shape) {
  Bases kept;
  for (const Basis& b : all)
    if (b != Basis(b.size(), 0)) kept.push_back(b);
  uint64_t elements = 1;
  for (uint64_t s : shape) elements *= s;
  if (kept.size() >= 20 || (uint64_t{1} << kept.size()) != elements) return false;
  std::set<Basis> seen;
  for (uint64_t x = 0; x < elements; ++x) {
    Basis at = xorOf(kept, x, shape.size());
    for (size_t d = 0; d < shape.size(); ++d)
      if (at[d] >= shape[d]) return false;
    if (!seen.insert(at).second) return false;
  }
  return true;
}

// Zero, or one bit of one dim: a column of a permutation matrix.
inline bool isOneBitOrZero(const Basis& b) {
  int bits = 0;
  for (uint64_t v : b) bits += std::popcount(v);
  return bits <= 1;
}

// Whether Triton 3.9 takes these distributed bases (all of them, in any in
// dim, each of `shape`'s rank) at `shape`.
inline bool distributedLegal(const Bases& all, const std::vector<uint64_t>& shape) {
  for (const Basis& b : all)
    if (b.size() != shape.size() || !isOneBitOrZero(b)) return false;
  return nonZeroBasesBiject(all, shape);
}

// Gluon's shape of a SharedLinearLayout: per dim, the power of two above the
// largest value a basis gives it.
inline std::vector<uint64_t> sharedShape(const Bases& all, size_t rank) {
  std::vector<uint64_t> shape(rank, 1);
  for (const Basis& b : all)
    for (size_t d = 0; d < rank && d < b.size(); ++d)
      while (shape[d] <= b[d]) shape[d] *= 2;
  return shape;
}

// A distributed layout given by its bases, as elementwise_compare.h's
// distributedMismatch reads a model: the input bits in in-dim order
// (register, lane, warp, block).
struct Distributed {
  Bases reg, lane, warp, block;
  size_t rank;
  uint64_t registers() const { return uint64_t{1} << reg.size(); }
  uint64_t lanes() const { return uint64_t{1} << lane.size(); }
  uint64_t warps() const { return uint64_t{1} << warp.size(); }
  uint64_t blocks() const { return uint64_t{1} << block.size(); }
  Basis at(uint64_t r, uint64_t l, uint64_t w, uint64_t b) const {
    Bases all = reg;
    for (const Bases* more : {&lane, &warp, &block})
      all.insert(all.end(), more->begin(), more->end());
    size_t nr = reg.size(), nl = lane.size(), nw = warp.size();
    return xorOf(all, r | l << nr | w << (nr + nl) | b << (nr + nl + nw), rank);
  }
};

}  // namespace f2lay::ref::catalog::linear_definition
