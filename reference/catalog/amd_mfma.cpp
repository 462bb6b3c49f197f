#include "reference/catalog/amd_mfma.h"

namespace f2lay::ref::catalog {

namespace {

constexpr uint64_t kWavefront = 64;

void checkMfmaParams(const AmdMfmaParams& p) {
  if (p.version < 1 || p.version > 4)
    throw Error("version = " + std::to_string(p.version) +
                ": AMDMFMALayout supports 1 (gfx908) to 4 (gfx950)");
  if (p.instrShape.size() != 3)
    throw Error("instr_shape = " + listText(p.instrShape) + ": expected [M, N, K]");
  uint64_t m = p.instrShape[0], n = p.instrShape[1];
  bool known =
      (m == 32 && n == 32) || (m == 16 && n == 16) || (m == 64 && n == 4) || (m == 4 && n == 64);
  if (!known)
    throw Error("instr_shape = " + listText(p.instrShape) +
                ": (M, N) must be (32, 32), (16, 16), (64, 4) or (4, 64)");
  // Triton asserts: it turns 64x4 into the equivalent transposed 4x64.
  if (m == 64 && n == 4 && !p.transposed)
    throw Error("instr_shape = " + listText(p.instrShape) +
                ": a 64x4 mfma must have transposed = true (Triton asserts it)");
  if (p.elementBitwidth != 32 && p.elementBitwidth != 64)
    throw Error("element_bitwidth = " + std::to_string(p.elementBitwidth) + ": must be 32 or 64");
}

}  // namespace

std::vector<uint64_t> checkAmdMfmaParams(const AmdMfmaParams& p, const Shape& shape) {
  std::vector<uint64_t> tiles =
      p.tilesPerWarp.empty() ? std::vector<uint64_t>(p.warpsPerCta.size(), 1) : p.tilesPerWarp;
  checkMfmaParams(p);
  checkAmdRankAndSizes("mfma", p.warpsPerCta, tiles, shape);
  return tiles;
}

LinearLayout amdMfma(const AmdMfmaParams& p, const Shape& shape) {
  std::vector<uint64_t> tiles = checkAmdMfmaParams(p, shape);
  uint64_t m = p.instrShape[0], n = p.instrShape[1];
  // 32-bit results come in groups of 4 consecutive rows (or columns) per lane;
  // 64-bit ones one per register.
  uint64_t height = p.elementBitwidth == 64 ? 1 : 4;
  std::vector<std::string> names = standardOutDimNames(shape.size());
  LinearLayout tile = amdInstrTileLayout({m, n, p.transposed, height, kWavefront},
                                         names[shape.size() - 2], names[shape.size() - 1]);
  return amdTileOverCta(tile, n, tiles, p.warpsPerCta, p.cgaLayout, shape);
}

}  // namespace f2lay::ref::catalog
