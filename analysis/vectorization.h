// Vectorization and instruction tiles (paper §5.1 "Contiguous elements", §5.3
// "Using SIMD Hardware Primitives", §5.1 "Broadcasting"), for either
// implementation's layouts L (instantiated by reference/ and optimized/).
//
// All of these look at M = shared^-1 ∘ dist: register, lane, warp -> offset,
// the memory offset of each element a thread holds (§5.3: "L = A^-1 B").
// `shared` is any invertible map offset -> tensor; for global memory pass the
// tensor's row-major map (an unswizzled layout).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/space.h"

namespace f2lay::analysis {

// register, lane, warp (, block) -> offset (, block): dist.invertAndCompose
// (shared). Throws f2lay::Error when shared is not invertible or the two do
// not map to the same tensor.
template <class L>
L offsetsOf(const L& dist, const L& shared);

// §5.1: the number of register bits k such that register bit i (i < k) lands
// at offset 2^i, so registers 0 .. 2^k - 1 are 2^k contiguous elements.
template <class L>
int contiguousRegisterBits(const L& offsets);

// §5.3 "Generalized Vectorization": register bits, in the order of the offsets
// 1, 2, 4, ... they land on, as long as some register bit lands on the next
// one. Permuting these to the front makes them contiguous.
template <class L>
std::vector<int> vectorRegisterBits(const L& offsets);

// Instruction tiles of Theorem 5.1: register (and lane) -> offset.
//   vector(n):   ld/st.shared of n elements, identity register -> offset.
//   matrix(w):   ldmatrix/stmatrix rows for elements of w bytes (w <= 4):
//                id(4/w) register -> offset, then lanes 0, 1 -> the next two
//                offset bits: each row is 16 contiguous bytes given by 4 lanes.
template <class L>
L vectorTile(uint64_t elements);
template <class L>
L matrixTile(uint64_t elementBytes);

template <class L>
struct TileDivision {
  std::vector<int> registerOrder;  // new register bit i is old bit registerOrder[i]
  L permuted;                      // `offsets` with registers in that order
  L quotient;                      // permuted / tile (Def 4.4)
};

// Theorem 5.1 with the register permutation of "Generalized Vectorization":
// the tile's register bits are taken from vectorRegisterBits (lanes cannot be
// permuted). nullopt when no register order makes `offsets` divisible.
template <class L>
std::optional<TileDivision<L>> divideByTile(const L& offsets, const L& tile);

// §5.1 "Broadcasting": duplicated data is zero columns.
struct Duplication {
  // per in dim, a mask of the bits whose basis is zero
  std::vector<std::pair<std::string, uint64_t>> zeroBits;
  uint64_t heldElements;      // 2^(input bits): register slots over all threads
  uint64_t distinctElements;  // 2^rank: distinct tensor elements among them
};
template <class L>
Duplication duplication(const L& dist);

// A reduction along `axis` (an out dim of dist): each warp reduces what it
// holds, then the warps combine partial results through shared memory. The
// partials that must be stored are the distinct pairs (output element, the
// warp's part of the axis); warps or lanes holding duplicates store nothing
// more (§5.1, §6 Table 3).
struct ReductionStores {
  uint64_t distinctPartials;  // stores needed with duplicates skipped
  // One store per (warp, lane, register left after the thread's own
  // reduction): what a layout-blind lowering stores.
  uint64_t naiveStores;
};
template <class L>
ReductionStores reductionStores(const L& dist, const std::string& axis);

}  // namespace f2lay::analysis
