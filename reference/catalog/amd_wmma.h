// AMD WMMA accumulator layouts: Triton's AMDWmmaEncodingAttr, Gluon's
// ttgl.amd.AMDWMMALayout, one 32-lane wavefront per warp: version 1 (RDNA3,
// gfx11), 2 (RDNA4, gfx12), 3 (gfx1250).
//
// The 16x16 f32 result D of one instruction, as AMD documents it (the RDNA3
// and RDNA4 ISA guides' WMMA sections; GPUOpen's "How to accelerate AI
// applications on RDNA 3 using WMMA"): column j is lane j % 16, and
//   version 1 (RDNA3): lanes 0-15 hold the even rows, 16-31 the odd ones:
//                      row = 2 * i + lane / 16 (VGPR i of 8);
//   version 2, 3:      lanes 0-15 hold rows 0-7, 16-31 rows 8-15:
//                      row = i + 8 * (lane / 16).
// "transposed" swaps rows and columns. Triton's tiling of that tile over
// tiles_per_warp, warps and the shape is in amd_tiling.h.
#pragma once

#include "amd_tiling.h"

namespace f2lay::ref::catalog {

struct AmdWmmaParams {
  // 1, 2 or 3.
  uint64_t version;
  bool transposed;
  // Warps per CTA, per dim (powers of two); its length is the rank (2 or 3).
  std::vector<uint64_t> warpsPerCta;
  // [M, N, K]; empty means Gluon's default [16, 16, 16]. Version 1 takes
  // [16, 16, 16]; 2 also [16, 16, 32]; 3 [16, 16, K] with K 4, 32, 64 or 128
  // (Triton's AMDWmmaEncodingAttr::verify).
  std::vector<uint64_t> instrShape;
  // Instruction tiles per warp, per dim (powers of two); empty means all 1.
  std::vector<uint64_t> tilesPerWarp;
  // The CGA as block -> dims; empty means one CTA.
  std::optional<LinearLayout> cgaLayout;
};

// register, lane, warp, block -> dim0.. for a tensor of `shape`. Throws
// f2lay::Error naming the parameter that breaks a rule, and, as Triton
// asserts, when the M or N extent of `shape` is neither 1 nor at least 16.
LinearLayout amdWmma(const AmdWmmaParams& params, const Shape& shape);

}  // namespace f2lay::ref::catalog
