// Vectorization and instruction tiles (paper §5.1 "Contiguous elements", §5.3
// "Using SIMD Hardware Primitives", §5.1 "Broadcasting").
//
// All of these look at M = shared^-1 ∘ dist: register, lane, warp -> offset,
// the memory offset of each element a thread holds (§5.3: "L = A^-1 B").
// `shared` is any invertible map offset -> tensor; for global memory pass the
// tensor's row-major map (an unswizzled layout).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reference/linear_layout.h"

namespace f2lay::ref::analysis {

// register, lane, warp (, block) -> offset (, block): dist.invertAndCompose
// (shared). Throws f2lay::Error when shared is not invertible or the two do
// not map to the same tensor.
LinearLayout offsetsOf(const LinearLayout& dist, const LinearLayout& shared);

// §5.1: the number of register bits k such that register bit i (i < k) lands
// at offset 2^i, so registers 0 .. 2^k - 1 are 2^k contiguous elements.
int contiguousRegisterBits(const LinearLayout& offsets);

// §5.3 "Generalized Vectorization": register bits, in the order of the offsets
// 1, 2, 4, ... they land on, as long as some register bit lands on the next
// one. Permuting these to the front makes them contiguous.
std::vector<int> vectorRegisterBits(const LinearLayout& offsets);

// Instruction tiles of Theorem 5.1: register (and lane) -> offset.
//   vector(n):   ld/st.shared of n elements, identity register -> offset.
//   matrix(w):   ldmatrix/stmatrix rows for elements of w bytes (w <= 4):
//                id(4/w) register -> offset, then lanes 0, 1 -> the next two
//                offset bits: each row is 16 contiguous bytes given by 4 lanes.
LinearLayout vectorTile(uint64_t elements);
LinearLayout matrixTile(uint64_t elementBytes);

struct TileDivision {
  std::vector<int> registerOrder;  // new register bit i is old bit registerOrder[i]
  LinearLayout permuted;           // `offsets` with registers in that order
  LinearLayout quotient;           // permuted / tile (Def 4.4)
};

// Theorem 5.1 with the register permutation of "Generalized Vectorization":
// the tile's register bits are taken from vectorRegisterBits (lanes cannot be
// permuted). nullopt when no register order makes `offsets` divisible.
std::optional<TileDivision> divideByTile(const LinearLayout& offsets, const LinearLayout& tile);

// §5.1 "Broadcasting": duplicated data is zero columns.
struct Duplication {
  DimValues zeroBits;         // per in dim, a mask of the bits whose basis is zero
  uint64_t heldElements;      // 2^(input bits): register slots over all threads
  uint64_t distinctElements;  // 2^rank: distinct tensor elements among them
};
Duplication duplication(const LinearLayout& dist);

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
ReductionStores reductionStores(const LinearLayout& dist, const std::string& axis);

}  // namespace f2lay::ref::analysis
