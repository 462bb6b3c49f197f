// AMD WMMA accumulator layouts: Triton's AMDWmmaEncodingAttr, Gluon's
// ttgl.amd.AMDWMMALayout, one 32-lane wavefront per warp: version 1 (RDNA3,
// gfx11), 2 (RDNA4, gfx12), 3 (gfx1250). Triton 3.9.0's rules.
//
// The 16x16 f32 result D of one instruction, as AMD documents it (the RDNA3
// and RDNA4 ISA guides' WMMA sections; GPUOpen's "How to accelerate AI
// applications on RDNA 3 using WMMA"): column j is lane j % 16, and
//   version 1 (RDNA3): lanes 0-15 hold the even rows, 16-31 the odd ones:
//                      row = 2 * i + lane / 16 (VGPR i of 8);
//   version 2, 3:      lanes 0-15 hold rows 0-7, 16-31 rows 8-15:
//                      row = i + 8 * (lane / 16).
// Version 3's 32x16 result is two such tiles stacked along M, the second in
// VGPRs 8-15 (Triton 3.9: row = i % 8 + 8 * (lane / 16) + 16 * (i / 8)).
// "transposed" swaps rows and columns, so a transposed 32x16 instruction
// covers 16 rows and 32 columns (as Triton 3.9 builds it).
//
// Gluon 3.9 places the instruction tiles of a CTA by bases counted in tiles,
// one value per dim each (dim0 first): bit j of the warp index moves the tile
// by warp_bases[j], and the i-th register bit above one instruction's
// registers by reg_bases[i]. Triton multiplies the instruction tile by that
// tile grid, orders the out dims N, M, batch, and fits the result to the
// shape (combineCtaCgaWithShape, shape_fit.h): more registers repeat it along
// N, then M, then batch; a smaller shape cuts it (broadcast zeros). Example:
// version 2, warp_bases [[0, 1], [1, 0]], no reg_bases, at 64x64:
//   register: [1,0] [2,0] [4,0] (the tile), [0,32] [32,0] (the repeats)
//   lane:     [0,1] [0,2] [0,4] [0,8] [8,0]      warp: [0,16] [16,0]
//
// Gluon 3.6 took warps_per_cta and tiles_per_warp instead of the bases;
// gluon36WmmaBases gives the bases of the layout those named.
#pragma once

#include "reference/catalog/amd_tiling.h"

namespace f2lay::ref::catalog {

struct AmdWmmaParams {
  // 1, 2 or 3.
  uint64_t version;
  bool transposed;
  // In instruction tiles, one value per dim of the shape each. A basis is all
  // 0 (a broadcast) or moves one dim by a power of two; the moves are
  // distinct and, per dim, 1, 2, 4, ... up to the largest: Triton asserts
  // that the tile grid is surjective, and Gluon that the layout is a
  // permutation once broadcasts are removed.
  std::vector<Basis> warpBases;
  std::vector<Basis> regBases;
  // [M, N, K]; empty means Gluon's default [16, 16, 16]. Version 1 takes
  // [16, 16, 16]; 2 also [16, 16, 32]; 3 [16, 16, K] with K 4, 32, 64 or 128,
  // and [32, 16, K] with K 64 or 128 (Triton 3.9's AMDWmmaEncodingAttr::verify).
  std::vector<uint64_t> instrShape;
  // The CGA as block -> dims; empty means one CTA.
  std::optional<LinearLayout> cgaLayout;
};

// register, lane, warp, block -> dim0.. for a tensor of `shape` (rank 2, or 3
// with a leading batch dim; any extents, as Triton 3.9 takes them). Throws
// f2lay::Error naming the parameter that breaks a rule.
LinearLayout amdWmma(const AmdWmmaParams& params, const Shape& shape);

// Checks every parameter but the CGA for a tensor of `shape`; returns
// instr_shape with its default filled in. Shared with the WMMA dot operands.
std::vector<uint64_t> checkAmdWmmaParams(const AmdWmmaParams& params, const Shape& shape);

// The tile grid alone, in instruction tiles (Triton's getCtaLayout):
// register (reg_bases) and warp (warp_bases) -> dim0.., out-dim sizes
// inferred (twice the largest move). The bases must have been checked.
LinearLayout amdWmmaTileGrid(const AmdWmmaParams& params, size_t rank);

// Gluon 3.6's AMDWMMALayout(warps_per_cta, tiles_per_warp) with 16x16 tiles,
// as Gluon 3.9 bases that give the same layout at `shape`. Triton 3.6 put the
// registers of tiles_per_warp along N first, then the warps along N, then as
// many registers along N as the whole shape's N needs (the global shape, also
// with a CGA), then tiles_per_warp along M and the warps along M and batch
// (tiles_per_warp's batch entry is ignored). So where tiles_per_warp[M] > 1
// the N repeats are among reg_bases and the bases depend on the shape.
struct AmdWmmaBases {
  std::vector<Basis> warpBases, regBases;
};
// Throws f2lay::Error where Triton 3.6 refused or asserted: a rank other than
// 2 or 3, a size that is not a power of two, an M or N extent of `shape`
// neither 1 nor at least 16.
AmdWmmaBases gluon36WmmaBases(const std::vector<uint64_t>& warpsPerCta,
                              const std::vector<uint64_t>& tilesPerWarp, const Shape& shape);

}  // namespace f2lay::ref::catalog
