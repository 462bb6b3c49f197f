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

#include "analysis/layout_api.h"
#include "analysis/space.h"

namespace f2lay::analysis {

// register, lane, warp (, block) -> offset (, block): dist.invertAndCompose
// (shared), the offset of the element each location holds.
//   Requires: dist and shared have the same out dims (names, order, sizes);
//     shared has an in dim "offset" and is invertible (Def 4.14).
//   Throws f2lay::Error otherwise: "offsets: the distributed and the memory
//     layout map to different out dims", "offsets: out dim d has size ...
//     in the distributed layout but ... in the memory layout", "offsets: the
//     memory layout has no in dim 'offset'", "offsets: the memory layout is
//     not invertible (Def 4.14)".
//   Ensures: the result's in dims are dist's, its out dims shared's in dims;
//     shared(result(x)) == dist(x) for every location x.
template <LayoutApi L>
[[nodiscard]] L offsetsOf(const L& dist, const L& shared);

// §5.1: the number k of register bits such that register bit i (i < k) lands
// at offset 2^i, so registers 0 .. 2^k - 1 are 2^k contiguous elements.
//   Requires: `offsets` as offsetsOf makes it (out dim "offset"; without a
//     register dim, or without an offset dim, the answer is 0).
//   Ensures: 0 <= k <= the register bits. Never throws.
template <LayoutApi L>
[[nodiscard]] int contiguousRegisterBits(const L& offsets);

// §5.3 "Generalized Vectorization": register bits, in the order of the offsets
// 1, 2, 4, ... they land on, as long as some register bit lands on the next
// one. Permuting these to the front makes them contiguous.
//   Requires: as contiguousRegisterBits.
//   Ensures: distinct register bits; result[i] lands at offset 2^i (the
//     lowest such bit); result.size() >= contiguousRegisterBits(offsets).
//     Never throws.
template <LayoutApi L>
[[nodiscard]] std::vector<int> vectorRegisterBits(const L& offsets);

// Instruction tiles of Theorem 5.1: register (and lane) -> offset.
//   vector(n):   ld/st.shared of n elements, identity register -> offset.
//     Requires n = 0 or a power of two; throws identity1D's f2lay::Error
//     ("identity1D: size n is not a power of two") otherwise. Ensures
//     L::identity1D(n, "register", "offset") (empty for n = 0).
//   matrix(w):   ldmatrix/stmatrix rows for elements of w bytes (w <= 4):
//                id(4/w) register -> offset, then lanes 0, 1 -> the next two
//                offset bits: each row is 16 contiguous bytes given by 4 lanes.
//     Requires w = 1, 2 or 4; throws f2lay::Error "matrix tile: element_bytes
//     must be 1, 2 or 4 (got w)" otherwise. Ensures in dims register
//     (log2(4/w) bits) and lane (2 bits), one out dim offset of 16/w.
template <LayoutApi L>
[[nodiscard]] L vectorTile(uint64_t elements);
template <LayoutApi L>
[[nodiscard]] L matrixTile(uint64_t elementBytes);

template <LayoutApi L>
struct TileDivision {
  std::vector<int> registerOrder;  // new register bit i is old bit registerOrder[i]
  L permuted;                      // `offsets` with registers in that order
  L quotient;                      // permuted / tile (Def 4.4)
};

// Theorem 5.1 with the register permutation of "Generalized Vectorization":
// the tile's register bits are taken from vectorRegisterBits (lanes cannot be
// permuted).
//   Requires: nothing beyond two layouts (tile as vectorTile or matrixTile
//     make them, over out dim "offset").
//   Ensures: nullopt when no such register order makes `offsets` divisible
//     (Def 4.4); otherwise registerOrder is a permutation of offsets'
//     register bits starting with the tile's (vectorRegisterBits' first),
//     permuted is offsets with its register bases in that order, and
//     tile * quotient == permuted. Never throws.
template <LayoutApi L>
[[nodiscard]] std::optional<TileDivision<L>> divideByTile(const L& offsets, const L& tile);

// §5.1 "Broadcasting": duplicated data is zero columns.
struct Duplication {
  // per in dim, in dist's order, a mask of the bits whose basis is zero
  std::vector<std::pair<std::string, uint64_t>> zeroBits;
  uint64_t heldElements;      // 2^(input bits): register slots over all threads
  uint64_t distinctElements;  // 2^rank: distinct tensor elements among them
};
// dist's duplication.
//   Requires: dist has fewer than 64 input bits.
//   Throws f2lay::Error "duplication: 64 input bits do not fit a count"
//     otherwise.
//   Ensures: distinctElements <= heldElements, both powers of two; their
//     ratio is 2^(the free input bits, getFreeVariableMasks).
template <LayoutApi L>
[[nodiscard]] Duplication duplication(const L& dist);

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
// The stores of a reduction of dist along out dim `axis`.
//   Requires: axis is an out dim of dist; fewer than 64 input bits.
//   Throws f2lay::Error "reduction: the layout has no out dim 'axis'"
//     otherwise.
//   Ensures: both counts are powers of two.
template <LayoutApi L>
[[nodiscard]] ReductionStores reductionStores(const L& dist, const std::string& axis);

}  // namespace f2lay::analysis
