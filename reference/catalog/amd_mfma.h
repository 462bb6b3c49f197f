// AMD MFMA accumulator layouts: Triton's AMDMfmaEncodingAttr, Gluon's
// ttgl.amd.AMDMFMALayout (CDNA: version 1 gfx908, 2 gfx90a, 3 gfx942, 4
// gfx950), one 64-lane wavefront per warp.
//
// AMD's matrix instruction calculator (github.com/ROCm/
// amd_matrix_instruction_calculator) prints where D[i][j] lives. For
// v_mfma_f32_32x32x8f16: lane = j + 32 * ((i / 4) % 2), item = i % 4 + 4 * (i /
// 8); for the 16x16 ones: lane = j + 16 * (i / 4), item = i % 4; for the
// 4x64 ("4x4 with 16 blocks") ones: lane = j, item = i. So a lane holds 4
// consecutive rows (Triton's "height") of one column, the lanes first cover
// the row's N columns, and further lanes and registers move down the rows.
// With 64-bit elements (v_mfma_f64_16x16x4f64: lane = j + 16 * (i % 4), item
// = i / 4) a lane holds one row per register. "transposed" swaps the roles of
// rows and columns (each lane then holds consecutive columns of a row).
// Triton's tiling of that instruction tile over tiles_per_warp, warps and the
// shape is in amd_tiling.h.
#pragma once

#include "reference/catalog/amd_tiling.h"

namespace f2lay::ref::catalog {

struct AmdMfmaParams {
  // 1..4 (the architecture; it does not change the accumulator's layout).
  uint64_t version;
  // [M, N, K]: (M, N) one of (32, 32), (16, 16), (4, 64), (64, 4); K is not
  // part of the accumulator's layout and is not checked (Triton does not).
  std::vector<uint64_t> instrShape;
  bool transposed;
  // Warps per CTA, per dim (powers of two); its length is the rank (2 or 3).
  std::vector<uint64_t> warpsPerCta;
  // 32 or 64: the output element's width.
  uint64_t elementBitwidth = 32;
  // Instruction tiles per warp, per dim (powers of two); empty means all 1.
  std::vector<uint64_t> tilesPerWarp;
  // The CGA as block -> dims; empty means one CTA.
  std::optional<LinearLayout> cgaLayout;
};

// register, lane, warp, block -> dim0.. for a tensor of `shape`. Throws
// f2lay::Error naming the parameter that breaks a rule.
LinearLayout amdMfma(const AmdMfmaParams& params, const Shape& shape);

// Checks every parameter for a tensor of `shape` (rank 2 or 3); returns
// tiles_per_warp with its default (all 1) filled in. Shared with the MFMA
// dot operands and scales.
std::vector<uint64_t> checkAmdMfmaParams(const AmdMfmaParams& params, const Shape& shape);

}  // namespace f2lay::ref::catalog
