// Optimal swizzling (paper §5.4 "Optimal Swizzling", §9.2): the memory layout
// through which a tensor written per distributed layout A and read per B
// moves with maximal vectorization and the fewest bank conflicts on both
// sides. Vectors are flattened tensor vectors (f2_space.h).
//
// The construction, with the paper's names:
//   V       a basis of A_Reg ∩ B_Reg (Vec), cut to 16 bytes, the widest
//           ld/st.shared; v = |V|.
//   b       log2(128 / (2^v w)) bank bits (one 128-byte row of 32 banks),
//           at most d - v; l = d - v - b index (segment) bits.
//   A_Bank  A's lane vectors without the last log2(max(1, 2^v w / 4)): a
//           wider vector is served in half- or quarter-warp phases, so lanes
//           of different phases never conflict (seed "Transaction split").
//           Zero vectors (broadcast lanes) are dropped. B_Bank likewise.
//   P       span(V ∪ A_Bank) ∪ span(V ∪ B_Bank): reported as its two bases.
//   I       span(V ∪ A_Bank) ∩ span(V ∪ B_Bank), beyond V.
//   E, F    A_Bank's and B_Bank's vectors that extend V ∪ I, in lane order.
//   G       e_i ^ f_i for i < min(|E|, |F|) (the paper's H in §5.4, G in §9.2).
//   C       unit vectors completing span(V ∪ A_Bank ∪ B_Bank) to F2^d.
//   Idx     l vectors: C, then G (both meet neither side's threads); when
//           that is not enough, conflicts are unavoidable (Lemma 9.5) and
//           the rest is chosen to cost as little as possible:
//             1. unpaired vectors of the larger of E and F: each doubles the
//                wavefronts of one side only;
//             2. then e_i of a pair (with g_i already in, f_i is too): each
//                doubles both sides.
//           The paper adds "vectors from A_Thr" directly; that is the same
//           when |E| = |F| and worse otherwise (step 1 is free for A), which
//           the exhaustive test of optimality catches.
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

#include "bank_conflicts.h"
#include "f2_space.h"
#include "linear_layout.h"

namespace f2lay::ref::analysis {

struct SwizzleOptions {
  Instruction write = Instruction::kVector;  // how A stores
  Instruction read = Instruction::kVector;   // how B loads
};

struct SwizzleSets {
  Vecs V, ABank, BBank, I, E, F, G, C, Idx, Bank;
};

struct OptimalSwizzle {
  LinearLayout shared;  // offset -> A's out dims
  SwizzleSets sets;
  uint64_t vectorBytes = 0;  // 2^v w: the bytes of one Vec
  int bankBits = 0, idxBits = 0;
  // log2 of the wavefronts per instruction the construction predicts for
  // each side: dim(span(V ∪ Idx) ∩ span(V ∪ X_Bank)) - v (Lemma 9.4).
  int writeConflictBits = 0, readConflictBits = 0;
};

// Throws f2lay::Error when A and B are not distributed layouts (register,
// lane of 32, warp; block of size 1) over the same tensor holding all of it,
// when w is not 1, 2, 4, 8 or 16, or when a requested ldmatrix/stmatrix tile
// does not apply (naming the lane or register that breaks it).
OptimalSwizzle optimalSwizzle(const LinearLayout& a, const LinearLayout& b, uint64_t elementBytes,
                              const SwizzleOptions& options = {});

}  // namespace f2lay::ref::analysis
