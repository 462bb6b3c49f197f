// The swizzle optimum: the memory layout through which a tensor written per
// distributed layout A and read per B moves with the fewest shared-memory
// wavefronts, judged by the H100's rule (device_tests/HARDWARE.md), not by
// the paper's model. §5.4's construction (optimal_swizzle.h) is optimal in
// the paper's model, where every access covers whole banks and both sides use
// Vec's width; for 1- and 2-byte elements, and where another vector width
// costs less, it is not.
//
// The objective, in this order:
//   1. the fewest wavefronts, A's stores plus B's loads, summed over every
//      warp instruction of the CTA (as ncu's .sum counters add them);
//   2. among those, the fewest warp instructions (stores plus loads).
// Time mostly follows (device_tests/RESULTS.md, 2026-11-27: 6,000 sides
// measured, the conversion kernel timed on 480 random pairs at equal
// occupancy, at most 2 of about 100 a width measurably slower than §5.4's
// construction), but not always: on the 64x64 fp32 rows-to-columns
// transpose (the "One Bit Off" swizzle walk-through's 16x32 transpose, scaled
// up; oracle/analysis_ops/catalog_pairs.cpp) the optimum's 8-byte stores take
// 15 % longer than the classic XOR swizzle's 4-byte ones, with as many
// wavefronts; ncu puts the difference in the benchmark kernel's other
// instructions, not in shared memory.
//
// Over: every invertible memory layout S (offset -> tensor), and for each
// side every vector width the layout allows on S (analysis/bank_access.h:
// register bits at offsets 1, 2, 4, ..., every other basis aligned), the two
// sides' widths chosen apart. A side's instruction (ld/st.shared, ldmatrix,
// stmatrix, .trans) is the one requested; it is not chosen. Each element is
// stored once: A's warps that hold copies of another warp's data (a zero warp
// basis) do not store, as a compiler predicates them off (Triton 3.9.0 does:
// adapters/FINDINGS.md S1). So the store side is storingWarps(A): A without
// its zero warp bases, its stores costed as bank_access.h's of that layout.
// Every warp of B loads (each needs the data in its registers).
//
// The cost, from the structure of the rule. Byte address bits 0-1 lie inside
// a 4-byte word, bits 2-6 choose the bank, bits 7 and up the 128-byte row.
// As offset bits (element w = 2^ω bytes): W, the span of S's offset bits below
// 2 - ω; R, those at or above 7 - ω. One phase of an instruction touches the
// words of c + T, where T is spanned by the offsets of the phase's lanes (its
// rows, for a matrix) and of the lane's own vector: the words are the cosets
// of W, and the distinct words in one bank differ by R, so every phase costs
//   2^e,  e = dim(T ∩ (W + R)) - dim(T ∩ W)          (wavefronts)
// and a side costs instructions * phases * 2^e. Instructions and phases
// follow from the width and the lanes (bank_access.h, HARDWARE.md's phases
// and quad merge); T, W and R from the choice of S.
//
// The search (swizzle_optimum_impl.h), exhaustive over what the cost depends
// on:
//   * the vectors: each side's vector is an ordered run of its own register
//     bases at offsets 1, 2, 4, ...; the shorter run is a prefix of the longer
//     (one S holds both). Every such pair of runs is tried (in blocks whose
//     order changes no cost);
//   * W: where the runs leave offset bits below a word free (1- and 2-byte
//     elements), the subspace W' filling them: the cost depends on W' only
//     through the dimensions of W' ∩ N_A and W' ∩ N_B (N_X: the part of the
//     free space that X's phase already spans), so one W' of each kind is
//     tried;
//   * R: with the runs and W fixed, working modulo W in H (the span the free
//     offset bits must fill), each side's e is at least
//     max(0, dim(T_X ∩ H) + r - dim H), and one R meets both sides' bounds at
//     once (H split as C ⊕ (T_A ∩ T_B) ⊕ T_A' ⊕ T_B': R takes C, then the
//     sums of paired vectors of T_A' and T_B', which meet neither side —
//     §5.4's G — then the longer one's leftovers, then the intersection).
// So each candidate is costed by a few ranks, never by simulating it.
//
// The certificate. Each side's lower bound is the same search with that side
// alone: the least it can cost on any memory layout. Where the answer meets
// both, nothing can do better; where it cannot, the search above is the
// certificate, and tests check both against an exhaustive search over memory
// layouts judged by the simulator (reference/analysis/tests, tensors of up to
// 13 bits; device_tests/swizzle_certificate.cu on the GPU, 12 to 14 bits).
#pragma once

#include <cstdint>

#include "analysis/bank_access.h"
#include "analysis/layout_api.h"
#include "analysis/optimal_swizzle.h"

namespace f2lay::analysis {

// What one side's accesses cost on a memory layout.
struct SideCost {
  uint64_t vectorBytes = 0;   // per lane (16 for a matrix row)
  uint64_t instructions = 0;  // warp instructions, all warps
  uint64_t phases = 0;        // per instruction (the ideal wavefronts)
  int conflictBits = 0;       // log2 of the wavefronts of one phase
  // instructions * phases * 2^conflictBits.
  [[nodiscard]] uint64_t wavefronts() const { return instructions * phases << conflictBits; }
  friend bool operator==(const SideCost&, const SideCost&) = default;
};

template <LayoutApi L>
struct SwizzleOptimum {
  L shared;              // offset -> A's out dims
  SideCost store, load;  // A's stores and B's loads on `shared`, as predicted
  // Each side's least cost on any memory layout, alone (a lower bound).
  SideCost storeBound, loadBound;
  // The objective: both sides' wavefronts, then both sides' instructions.
  [[nodiscard]] uint64_t wavefronts() const { return store.wavefronts() + load.wavefronts(); }
  [[nodiscard]] uint64_t instructions() const { return store.instructions + load.instructions; }
  // Whether each side costs its bound: then no memory layout does better.
  [[nodiscard]] bool meetsBounds() const {
    return store.wavefronts() == storeBound.wavefronts() &&
           load.wavefronts() == loadBound.wavefronts();
  }
};

// A without its zero warp bases: the warps that store, one of each group
// that holds the same data.
//   Ensures: a's dims in a's order; the warp dim (when a has one) keeps its
//     nonzero bases in order, so it has fewer bits where a broadcasts across
//     warps; every other dim is unchanged. Never throws.
template <LayoutApi L>
[[nodiscard]] L storingWarps(const L& a);

// The swizzle optimum for A storing and B loading elements of elementBytes
// (w) bytes with the instructions of `options` (see above).
//   Requires: optimalSwizzle's preconditions (distributed layouts with 32
//     lanes and a block of size 1 at most, over one tensor, each holding all
//     of it; w 1, 2, 4, 8 or 16; w = 2 for ldmatrix/stmatrix), and a memory
//     layout that can serve the requested ldmatrix/stmatrix rows.
//   Throws f2lay::Error otherwise: optimalSwizzle's messages for the layouts
//     and w, "optimal_swizzle: ldmatrix/stmatrix tiles are for 2-byte
//     elements (b16), got w", "swizzle optimum: <A or B> has no register to fill a
//     32-bit ldmatrix/stmatrix register", "swizzle optimum: no memory layout
//     serves A and B with the requested instructions (...)"; an "internal:"
//     message would be a broken invariant.
//   Ensures: shared maps offset (d bits) to A's out dims and is invertible;
//     store and load are A's stores (storingWarps(a)) and B's loads on it;
//     no memory layout the search covers costs fewer wavefronts, or as many
//     with fewer instructions; store.wavefronts() >= storeBound.wavefronts()
//     and load.wavefronts() >= loadBound.wavefronts().
template <LayoutApi L>
[[nodiscard]] SwizzleOptimum<L> swizzleOptimum(const L& a, const L& b, uint64_t elementBytes,
                                               const SwizzleOptions& options = {});

}  // namespace f2lay::analysis
