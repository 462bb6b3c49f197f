// What AMD's MFMA (CDNA, 64-lane wavefronts) and WMMA (RDNA / gfx1250,
// 32-lane wavefronts) accumulator layouts share in Triton: the shape of one
// instruction's output tile as a linear layout (both families), and how
// Triton repeats an MFMA tile over tiles_per_warp, warps and registers
// (LinearLayoutConversions.cpp, AMDMfmaEncodingAttr::toLinearLayout; WMMA
// did the same in Triton 3.6, and places its tiles by bases since 3.9, see
// amd_wmma.h).
#pragma once

#include "reference/catalog/shape_fit.h"

namespace f2lay::ref::catalog {

// One instruction's m x n output tile, register and lane -> [N dim, M dim] (out
// dims `nName` then `mName`, the order Triton's tile has). Each lane holds
// `height` consecutive elements along the "register dim"; the lanes first run
// `laneSpan` elements along the other dim, the remaining lanes continue along
// the register dim above those `height`, and further registers (as many as
// needed to cover it) repeat along the register dim above all lanes. That
// reads both AMD's tables: mfma 32x32 f32 (height 4, laneSpan 32), wmma v1
// (height 1, laneSpan 16), wmma v2 (height 8, laneSpan 16), and their
// transposed forms (the register dim is N instead of M).
struct AmdInstrTile {
  uint64_t m, n;         // the instruction's output rows (M) and cols (N)
  bool registersAlongN;  // the "transposed" layouts
  uint64_t height;       // consecutive elements per lane along the register dim
  uint64_t warpSize;     // 64 (MFMA) or 32 (WMMA)
};
LinearLayout amdInstrTileLayout(const AmdInstrTile& tile, const std::string& mName,
                                const std::string& nName);

// The whole accumulator at `shape` (rank 2, or 3 with a leading batch dim),
// from the instruction tile (register, lane -> [N, M]) n columns wide. Triton
// orders the tiles N first across the whole tensor, because its dot lowering
// expects that order: registers for tiles_per_warp along N, warps along N,
// registers repeating along N up to shape[N] (the global shape, also with a
// CGA), registers for tiles_per_warp along M, warps along M, warps along the
// batch dim; then combineCtaCgaWithShape repeats along M and the batch dim or
// cuts to the shape. tiles_per_warp's batch entry is ignored, as in Triton.
LinearLayout amdTileOverCta(const LinearLayout& instrTile, uint64_t n,
                            const std::vector<uint64_t>& tilesPerWarp,
                            const std::vector<uint64_t>& warpsPerCta,
                            const std::optional<LinearLayout>& cgaLayout, const Shape& shape);

// The checks both families share: shape and warps_per_cta of rank 2 or 3,
// tiles_per_warp (when given) of the same rank; all powers of two.
void checkAmdRankAndSizes(const std::string& family, const std::vector<uint64_t>& warpsPerCta,
                          const std::vector<uint64_t>& tilesPerWarp, const Shape& shape);

}  // namespace f2lay::ref::catalog
