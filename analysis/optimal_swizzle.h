// Optimal swizzling (paper §5.4 "Optimal Swizzling", §9.2): the memory layout
// through which a tensor written per distributed layout A and read per B
// moves with maximal vectorization and the fewest bank conflicts on both
// sides. Vectors are flattened tensor vectors (space.h). For either
// implementation's layouts L (instantiated by reference/ and optimized/).
//
// The construction, with the paper's names:
//   V       a basis of A_Reg ∩ B_Reg (Vec), cut to 16 bytes, the widest
//           ld/st.shared; v = |V|.
//   b       log2(128 / (2^v w)) bank bits (one 128-byte row of 32 banks),
//           at most d - v; l = d - v - b index (segment) bits.
//   A_Bank  the lane vectors that share one phase of A's stores: all 32
//           lanes up to 4 bytes; a wider vector is served in half- or
//           quarter-warp phases, so lanes of different phases never conflict
//           (the "Transaction split" step of the "One Bit Off" swizzle
//           walk-through: drop the last log2(2^v w / 4) lanes).
//           B_Bank likewise for B's loads, where a lane reading the address
//           of lane l^1 or l^2 of its quad is served with it (a zero lane bit
//           0 or 1; device_tests/HARDWARE.md#quad-merge), so the phase
//           reaches one lane bit further. Zero vectors (broadcast lanes) are
//           dropped.
//   P       span(V ∪ A_Bank) ∪ span(V ∪ B_Bank): reported as its two bases.
//   I       span(V ∪ A_Bank) ∩ span(V ∪ B_Bank), beyond V.
//   E, F    A_Bank's and B_Bank's vectors that extend V ∪ I, in lane order.
//   G       e_i ^ f_i for i < min(|E|, |F|) (the paper's H in §5.4, G in §9.2).
//   C       unit vectors completing span(V ∪ A_Bank ∪ B_Bank) to F2^d.
//   Idx     l vectors: C, then G (both meet neither side's phase). With
//           32-lane warps they always suffice: a phase never has more than b
//           independent lanes, so conflict-free accesses are always possible
//           in Lemma 9.4's regime (the paper's fallback, adding vectors of
//           A_Thr, is for wider warps and is not needed here).
//           For accesses narrower than a bank (2^v w < 4) the lemma is not
//           exact and this construction is not optimal: the exhaustive test
//           found 1-byte pairs where another Idx gives 12 wavefronts, not 16.
//   Bank    unit vectors completing V ∪ Idx (lowest bits first).
// The memory layout S maps offset bits, lowest first, to V, Bank, Idx.
//
// Extension (Triton's later GenericSwizzling): either side may use ldmatrix
// / stmatrix (b16) instead of ld/st.shared. Each matrix row is 16 contiguous
// bytes, so Vec must be the instruction's tile (non-transposed: a register
// bit and lane bits 0, 1; .trans: lane bits 2, 3, 4), and the vectors that
// separate the 8 rows of one matrix (non-transposed: lane bits 2, 3, 4;
// .trans: a register bit and lane bits 0, 1) take the place of the thread set.
#pragma once

#include <cstdint>

#include "analysis/bank_access.h"
#include "analysis/layout_api.h"
#include "analysis/space.h"

namespace f2lay::analysis {

struct SwizzleOptions {
  Instruction write = Instruction::kVector;  // how A stores
  Instruction read = Instruction::kVector;   // how B loads
};

struct SwizzleSets {
  Vecs V, ABank, BBank, I, E, F, G, C, Idx, Bank;
};

template <LayoutApi L>
struct OptimalSwizzle {
  L shared;  // offset -> A's out dims
  SwizzleSets sets;
  uint64_t vectorBytes = 0;  // 2^v w: the bytes of one Vec
  int bankBits = 0, idxBits = 0;
  // log2 of the wavefronts per instruction the construction predicts for
  // each side: dim(span(V ∪ Idx) ∩ span(V ∪ X_Bank)) - v (Lemma 9.4).
  int writeConflictBits = 0, readConflictBits = 0;
};

// The memory layout of the construction above, for A storing and B loading
// elements of elementBytes (w) bytes with the instructions of `options`.
//   Requires: A and B are distributed layouts (in dims register, lane of
//     exactly 32, warp, and optionally a block of size 1) with the same out
//     dims (names, order, sizes), each surjective; w is 1, 2, 4, 8 or 16; an
//     ldmatrix/stmatrix side needs w = 2 and a row of 8 distinct elements,
//     and two matrix sides the same rows.
//   Throws f2lay::Error otherwise, naming the side and the rule:
//     "optimal_swizzle: element_bytes must be 1, 2, 4, 8 or 16 (got w)",
//     "optimal_swizzle: self (A, the writer) has in dim 'x'; expected
//     register, lane, warp (and a block of size 1)", "... must have a lane dim
//     of 32 ...", "... does not hold every element of the tensor (not
//     surjective)", "optimal_swizzle: A and B map to different out dims
//     (names, order or sizes)", "optimal_swizzle: ldmatrix/stmatrix tiles are
//     for 2-byte elements (b16), got w", and the ldmatrix/stmatrix row's
//     ("... has no register to fill a 32-bit ldmatrix/stmatrix register",
//     "...'s ldmatrix/stmatrix row is not 8 distinct elements (a broadcast
//     lane)", "... the stmatrix and ldmatrix tiles of A and B are different
//     rows").
//   Ensures: shared has one in dim, offset, of d bits (d = A's output bits),
//     and A's out dims, and is invertible: its offset bits, lowest first, are
//     sets.V, then sets.Bank, then sets.Idx; |V| + bankBits + idxBits == d;
//     vectorBytes == 2^|V| * w; writeConflictBits, readConflictBits >= 0.
template <LayoutApi L>
[[nodiscard]] OptimalSwizzle<L> optimalSwizzle(const L& a, const L& b, uint64_t elementBytes,
                                               const SwizzleOptions& options = {});

}  // namespace f2lay::analysis
