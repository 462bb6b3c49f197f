// The register operands of AMD's matrix instructions: Triton's
// DotOperandEncodingAttr, Gluon's DotOperandLayout, with an amd_mfma or
// amd_wmma parent (Triton 3.9.0's mfmaDotToLinearLayout and
// wmmaDotOperandToLinearLayout, LinearLayoutConversions.cpp).
//
// Operand A (index 0) is M x K, K along the last dim; B (index 1) is K x N,
// K along the dim before. In both a lane holds kWidth consecutive K elements
// of one row of A (column of B), consecutive lanes take consecutive rows
// (columns), and the lanes left over continue along K:
//
// - MFMA (64-lane wavefronts; CDNA3 ISA section 7.1 "Dependency and Operand
//   Layout", AMD matrix instruction calculator): for v_mfma_f32_32x32x8f16,
//   A[i][k] sits in lane i + 32 * (k / 4), item k % 4; for 16x16x16f16, lane
//   i + 16 * (k / 4). So nonK lanes (the instruction's M for A, N for B),
//   then 64 / nonK lanes along K: one instruction reads (64 / nonK) * kWidth
//   K elements. The 4x64 and 64x4 instructions (16 blocks) read the 64-wide
//   operand 16 times along K. Triton then repeats registers along K up to
//   the whole tensor's K (the global shape, also with a CGA), tiles_per_warp
//   along the non-K dim, and places warps as the accumulator's (row-major):
//   the warps along K exceed the tensor's K and become broadcast zeros.
//   The CGA is the parent's own (Triton 3.9 does not zero its K part here).
//
// - WMMA (32-lane wavefronts; RDNA3 / RDNA4 ISA guides' WMMA operand
//   tables): 16 lanes take the 16 rows (columns), and the other 16 lanes hold
//   the same K elements (version 1: RDNA3 wants its inputs duplicated in
//   both half-waves) or the next kWidth ones (versions 2, 3). Registers then
//   repeat along K to cover the instruction's K, and along the non-K dim
//   where the accumulator tile is 32 wide there (version 3's 32x16: M for A;
//   transposed, N for B). The accumulator's tile grid (warp_bases,
//   reg_bases) places the operand tiles, its K moves dropped: warps moving
//   along K become broadcasts and registers moving along K are removed
//   (Triton's projectAwayOutDim and actionRemoveBroadcastedRegs). The CGA is
//   the parent's with its K part zeroed (dot_operand.h).
//
// The tile is fitted to the shape in the order K, non-K, batch.
#pragma once

#include "reference/catalog/amd_mfma.h"
#include "reference/catalog/amd_wmma.h"

namespace f2lay::ref::catalog {

struct AmdMfmaDotOperandParams {
  uint64_t operandIndex = 0;  // 0: A (M x K), 1: B (K x N)
  AmdMfmaParams parent;
  // Consecutive K elements per lane: a power of two (Triton requires one).
  uint64_t kWidth = 4;
};

struct AmdWmmaDotOperandParams {
  uint64_t operandIndex = 0;
  AmdWmmaParams parent;
  // Version 1: 8 or 16; version 2: 4, 8 or 16 (Triton's verifier); version
  // 3: any power of two.
  uint64_t kWidth = 8;
};

// register, lane, warp, block -> dim0.. for a tensor of `shape` (rank 2, or 3
// with a leading batch dim). Throw f2lay::Error naming the parameter that
// breaks a rule.
LinearLayout amdMfmaDotOperand(const AmdMfmaDotOperandParams& params, const Shape& shape);
LinearLayout amdWmmaDotOperand(const AmdWmmaDotOperandParams& params, const Shape& shape);

}  // namespace f2lay::ref::catalog
