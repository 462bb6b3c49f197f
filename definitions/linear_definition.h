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
#include <utility>
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

// Random bases for the tests and the catalog fuzzer, chosen by pick(n), a
// number in 0..n-1: one basis per bit of `shape` and up to two zero bases,
// shuffled; then, with `change`, one change that may break Triton's rules (a
// basis dropped, repeated, or one of its values replaced by 0..2 size - 1):
// the definition above decides.
template <class Pick>
Bases drawBases(const std::vector<uint64_t>& shape, bool change, Pick pick) {
  size_t rank = shape.size();
  Bases bases;
  for (size_t d = 0; d < rank; ++d)
    for (uint64_t v = 1; v < shape[d]; v *= 2) {
      bases.emplace_back(rank, 0);
      bases.back()[d] = v;
    }
  for (size_t z = pick(3); z > 0; --z) bases.emplace_back(rank, 0);
  for (size_t i = bases.size(); i > 1; --i) std::swap(bases[i - 1], bases[pick(i)]);
  if (change && !bases.empty()) {
    size_t i = pick(bases.size());
    switch (pick(3)) {
      case 0:
        bases.erase(bases.begin() + static_cast<long>(i));
        break;
      case 1:
        bases.push_back(bases[i]);
        break;
      default:
        size_t d = pick(rank);
        bases[i][d] = pick(2 * shape[d]);
    }
  }
  return bases;
}

// A swizzle, `count` times: one basis, chosen by pick, XORed into another (a
// bijection stays one).
template <class Pick>
void xorSomeIntoOthers(Bases& bases, size_t count, Pick pick) {
  for (; count > 0 && bases.size() > 1; --count) {
    size_t a = pick(bases.size()), b = pick(bases.size());
    if (a != b)
      for (size_t d = 0; d < bases[a].size(); ++d) bases[a][d] ^= bases[b][d];
  }
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
