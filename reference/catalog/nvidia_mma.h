// NVIDIA tensor-core accumulator layouts: Triton's NvidiaMmaEncodingAttr,
// Gluon's NVMMADistributedLayout, for mma.sync (version 2, Ampere, instr_shape
// [16, 8]) and wgmma (version 3, Hopper, instr_shape [16, N, K]).
//
// One warp holds a 16 x n tile the way PTX's mma fragment tables say (PTX ISA
// "Matrix Fragments for mma.m16n8k16", "wgmma .m64nNk16 register fragment
// D"): lane = 4 * groupID + threadID_in_group; c_i sits at row groupID +
// 8 * bit1(i), column 8 * (i / 4) + 2 * threadID_in_group + bit0(i). As a
// linear layout (paper §4.2, "MMA ... layouts are linear"), register bit 0 is
// column 1, lane bits 0-1 columns 2 and 4, lane bits 2-4 rows 1, 2 and 4,
// register bit 1 row 8, further register bits columns 8, 16, ... Warps tile
// that warp tile: row-major (dim1 fastest) for version 2, column-major for
// version 3, where the 4 warps of a warpgroup hold its 64 rows (PTX: warp w
// of the warpgroup holds rows 16 w .. 16 w + 15). Then the tile repeats over
// more registers (columns first) or is cut down to the shape (shape_fit.h).
#pragma once

#include "reference/catalog/shape_fit.h"

namespace f2lay::ref::catalog {

struct NvidiaMmaParams {
  // [major, minor]: [2, 0] or [3, 0].
  std::vector<uint64_t> version;
  // Warps per CTA, per dim (powers of two); its length is the rank.
  std::vector<uint64_t> warpsPerCta;
  // Version 2: [16, 8] (rank 2) or [1, 16, 8] (rank 3, a leading batch dim).
  // Version 3: [16, N, K], N a power of two from 8 to 256, K one of 8, 16, 32,
  // 256 (wgmma's K for tf32, 16-bit, 8-bit and b1 inputs; K does not change
  // the accumulator's layout).
  std::vector<uint64_t> instrShape;
  // The CGA as block -> dims; empty means one CTA (see makeCgaLayout).
  std::optional<LinearLayout> cgaLayout;
};

// register, lane, warp, block -> dim0.. for a tensor of `shape`. Throws
// f2lay::Error naming the parameter that breaks a rule.
LinearLayout nvidiaMma(const NvidiaMmaParams& params, const Shape& shape);

// Checks every parameter but the CGA for a tensor of rank `rank`; returns the
// major version (2 or 3).
int checkNvidiaMmaParams(const NvidiaMmaParams& params, size_t rank);

// The registers and lanes of one warp's tile (Triton's nvidiaMmaTile), with
// out dims in `repOrder` (the order in which the tile later repeats):
// `kWidth` registers then 4 lanes along order[0] (the inner dim), 8 lanes
// along order[1] (the outer dim), then tileShape[outer] / 8 registers along
// the outer dim and tileShape[inner] / (4 kWidth) registers along the inner
// dim. Shared by the accumulator (kWidth 2) and the dot operands.
LinearLayout nvidiaMmaTile(const std::vector<uint64_t>& tileShape, uint64_t kWidth,
                           const std::vector<unsigned>& order,
                           const std::vector<unsigned>& repOrder);

// Triton's order of an mma layout's elements and register repeats: row-major,
// [rank-1, ..., 0].
std::vector<unsigned> rowMajorOrder(size_t rank);

// Triton's warp order of an mma layout: row-major for version 2, [0, 1] for
// version 3 (warpgroups stack along M).
std::vector<unsigned> mmaWarpOrder(int major, size_t rank);

}  // namespace f2lay::ref::catalog
