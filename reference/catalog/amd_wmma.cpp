#include "amd_wmma.h"

namespace f2lay::ref::catalog {

namespace {

constexpr uint64_t kWavefront = 32;
constexpr uint64_t kTile = 16;

void checkWmmaInstrShape(uint64_t version, const std::vector<uint64_t>& instr) {
  using S = std::vector<uint64_t>;
  std::vector<S> valid;
  std::string which;
  if (version == 1) {
    valid = {S{16, 16, 16}};
    which = "[16, 16, 16]";
  } else if (version == 2) {
    valid = {S{16, 16, 16}, S{16, 16, 32}};
    which = "[16, 16, 16] or [16, 16, 32]";
  } else {
    valid = {S{16, 16, 4}, S{16, 16, 32}, S{16, 16, 64}, S{16, 16, 128}};
    which = "[16, 16, K] with K 4, 32, 64 or 128";
  }
  for (const S& s : valid)
    if (instr == s) return;
  throw Error("instr_shape = " + listText(instr) + ": WMMA version " + std::to_string(version) +
              " takes " + which);
}

}  // namespace

LinearLayout amdWmma(const AmdWmmaParams& p, const Shape& shape) {
  if (p.version < 1 || p.version > 3)
    throw Error("version = " + std::to_string(p.version) +
                ": AMDWMMALayout supports 1 (RDNA3), 2 (RDNA4) and 3 (gfx1250)");
  std::vector<uint64_t> instr = p.instrShape.empty() ? std::vector<uint64_t>{16, 16, 16}
                                                     : p.instrShape;
  checkWmmaInstrShape(p.version, instr);
  std::vector<uint64_t> tiles =
      p.tilesPerWarp.empty() ? std::vector<uint64_t>(p.warpsPerCta.size(), 1) : p.tilesPerWarp;
  checkAmdRankAndSizes("wmma", p.warpsPerCta, tiles, shape);
  size_t rank = shape.size();
  for (size_t d : {rank - 2, rank - 1})
    if (shape[d] != 1 && shape[d] < kTile)
      throw Error("shape[" + std::to_string(d) + "] = " + std::to_string(shape[d]) +
                  ": a WMMA layout's M and N extents must be 1 or at least 16 (Triton asserts)");
  // Version 1: one row per VGPR, the two lane halves interleaved by row
  // (height 1); versions 2 and 3: 8 consecutive rows per lane (height 8).
  uint64_t height = p.version == 1 ? 1 : 8;
  std::vector<std::string> names = standardOutDimNames(rank);
  LinearLayout tile = amdInstrTileLayout({kTile, kTile, p.transposed, height, kWavefront},
                                         names[rank - 2], names[rank - 1]);
  return amdTileOverCta(tile, kTile, tiles, p.warpsPerCta, p.cgaLayout, shape);
}

}  // namespace f2lay::ref::catalog
