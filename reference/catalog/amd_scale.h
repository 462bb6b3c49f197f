// The register layouts of the scale operands of AMD's scaled matrix
// instructions (OCP microscaling: one E8M0 scale per `scale_factor`
// consecutive K elements of A or B): Gluon's
// ttgl.amd.cdna4.get_mfma_scale_layout and ttgl.amd.cdna5.get_wmma_scale_layout
// (gluon_ir.get_amd_mfma_scale_layout / get_amd_wmma_scale_layout, Triton
// 3.9.0's chooseScaledMfmaScaleLayout / chooseScaledWmmaScaleLayout).
//
// A scale tensor is [non-K, K / scale_factor] for both operands: A's scale
// is M x K/32, B's is N x K/32 (dim0 the operand's non-K dim, dim1 its K
// groups). Rank 2 only: Triton has no rule for a batch dim, and Gluon 3.9.0
// aborts on some rank-3 requests and answers others by its rank-2 indices
// (adapters/FINDINGS.md N3), so f2lay refuses a rank-3 shape or parent.
//
// Sources. The MFMA rule is Triton's written one: chooseScaledMfmaScaleLayout
// (lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp), which Gluon 3.9.0
// calls with the same arguments (op_idx, shape, M, tiles_per_warp,
// warps_per_cta). For WMMA only the declaration of Triton 3.9's
// chooseScaledWmmaScaleLayout(ctx, idx, shape, M, N, transposed,
// scale_factor, ctaLayout, cgaLayout) was found (LinearLayoutConversions.h);
// the definitions found are of earlier releases (placing the scales by the
// warp bases alone, or by tiles_per_warp and warps_per_cta), so the rule
// below is fitted to Gluon 3.9.0's answers (gluon_check.py, 0 disagreements)
// and stated element by element in amd_operand_fragments.h's WmmaScale.
//
// - MFMA (CDNA4 ISA, V_MFMA_SCALE_F32_{32X32X64,16X16X128}_F8F6F4): a lane
//   reads 32 consecutive K elements of one row of A (column of B) and the
//   one scale that covers them. So the scale tile follows the operand's: the
//   instruction's M (16 or 32) lanes along non-K, the remaining 64 / M lanes
//   along K (one scale group each); registers then run along K from 64 / M
//   groups up to the scale's K, and along non-K over tiles_per_warp
//   instruction tiles. Warps as the accumulator's, row-major, those along K
//   beyond the scale's K broadcast. One CTA (Triton ignores the parent's
//   CGA here).
// - WMMA (gfx1250, V_WMMA_SCALE_F32_16X16X128_F8F6F4 and 32x16 forms): a
//   lane holds 128 / scale_factor consecutive scales (one instruction's K
//   of 128 elements) of one row; 16 lanes take 16 rows. Where the
//   accumulator tile is 32 wide along the operand's non-K dim, lanes 16-31
//   take rows 16-31; otherwise they hold copies of lanes 0-15, except that
//   with the 16x16 instructions Triton gives them the first register that
//   moves along non-K instead (the next tile). Registers run along K up to
//   the scale's K first; the
//   accumulator's tile grid places the tiles along non-K, K moves dropped
//   (as the operand's, amd_dot_operand.h), then the tile is fitted to the
//   shape; the CGA is the operand's (parent's with K zeroed), in the scale's
//   coordinates.
#pragma once

#include "reference/catalog/amd_dot_operand.h"

namespace f2lay::ref::catalog {

// register, lane, warp, block -> dim0 (non-K), dim1 (K groups) of a scale
// tensor of `shape`, for the operand `operand` (its parent's instr_shape,
// tiles, warps, bases; its k_width is not used). `scaleFactor`: elements per
// scale, 32 for MFMA, 16 or 32 for WMMA. Throw f2lay::Error naming the
// parameter that breaks a rule.
LinearLayout amdMfmaScale(const AmdMfmaDotOperandParams& operand, const Shape& shape,
                          uint64_t scaleFactor = 32);
LinearLayout amdWmmaScale(const AmdWmmaDotOperandParams& operand, const Shape& shape,
                          uint64_t scaleFactor = 32);

}  // namespace f2lay::ref::catalog
