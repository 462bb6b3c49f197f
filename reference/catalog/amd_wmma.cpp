#include "reference/catalog/amd_wmma.h"

#include <algorithm>
#include <map>

namespace f2lay::ref::catalog {

namespace {

constexpr uint64_t kWavefront = 32;
constexpr uint64_t kTile = 16;  // N of every instruction; M of the 16x16 ones

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
    valid = {S{16, 16, 4},   S{16, 16, 32}, S{16, 16, 64},
             S{16, 16, 128}, S{32, 16, 64}, S{32, 16, 128}};
    which = "[16, 16, K] with K 4, 32, 64 or 128, or [32, 16, K] with K 64 or 128";
  }
  for (const S& s : valid)
    if (instr == s) return;
  throw Error("instr_shape = " + listText(instr) + ": WMMA version " + std::to_string(version) +
              " takes " + which);
}

// The rules of AmdWmmaParams' bases. Per dim, the sorted moves must be
// exactly 1, 2, 4, ...: a gap leaves tiles no basis reaches, a repeat puts
// two inputs on one tile.
void checkTileBases(const AmdWmmaParams& p, size_t rank) {
  std::vector<std::map<uint64_t, std::string>> moves(rank);  // per dim: move -> its key
  auto read = [&](const std::string& key, const std::vector<Basis>& bases) {
    for (size_t i = 0; i < bases.size(); ++i) {
      std::string name = key + "[" + std::to_string(i) + "]";
      const Basis& b = bases[i];
      if (b.size() != rank)
        throw Error(name + ": has " + std::to_string(b.size()) + " values, expected one per dim (" +
                    std::to_string(rank) + ")");
      size_t nonZero =
          static_cast<size_t>(std::count_if(b.begin(), b.end(), [](uint64_t v) { return v != 0; }));
      size_t dim = static_cast<size_t>(
          std::find_if(b.begin(), b.end(), [](uint64_t v) { return v != 0; }) - b.begin());
      if (nonZero == 0) continue;  // a broadcast
      if (nonZero > 1 || !isPowerOfTwo(b[dim]))
        throw Error(name + " = " + listText(b) +
                    ": a basis moves one dim by a power of two tiles or is all 0 (Gluon asserts "
                    "the layout is a permutation once broadcasts are removed)");
      auto [it, fresh] = moves[dim].emplace(b[dim], name);
      if (!fresh)
        throw Error(name + " = " + listText(b) + ": moves dim" + std::to_string(dim) + " as " +
                    it->second +
                    " does (Gluon asserts the layout is a permutation "
                    "once broadcasts are removed)");
    }
  };
  read("warp_bases", p.warpBases);
  read("reg_bases", p.regBases);
  for (size_t dim = 0; dim < rank; ++dim) {
    uint64_t want = 1;
    for (const auto& [move, name] : moves[dim]) {
      if (move != want)
        throw Error(name + ": moves dim" + std::to_string(dim) + " by " + std::to_string(move) +
                    " tiles, but no basis moves it by " + std::to_string(want) +
                    " (Triton asserts the tile grid is surjective)");
      want *= 2;
    }
  }
}

}  // namespace

std::vector<uint64_t> checkAmdWmmaParams(const AmdWmmaParams& p, const Shape& shape) {
  if (p.version < 1 || p.version > 3)
    throw Error("version = " + std::to_string(p.version) +
                ": AMDWMMALayout supports 1 (RDNA3), 2 (RDNA4) and 3 (gfx1250)");
  std::vector<uint64_t> instr =
      p.instrShape.empty() ? std::vector<uint64_t>{16, 16, 16} : p.instrShape;
  checkWmmaInstrShape(p.version, instr);
  size_t rank = shape.size();
  if (rank != 2 && rank != 3)
    throw Error("shape: rank " + std::to_string(rank) +
                " is unsupported, wmma layouts have rank 2 or 3 (a leading batch dim)");
  checkPowersOfTwo("shape", shape, rank);
  checkTileBases(p, rank);
  return instr;
}

LinearLayout amdWmmaTileGrid(const AmdWmmaParams& p, size_t rank) {
  // Out-dim sizes inferred as Triton infers them (twice the largest move).
  LayoutValue grid{{{"register", p.regBases}, {"warp", p.warpBases}}, {}};
  for (const std::string& n : standardOutDimNames(rank)) grid.out_dims.push_back({n, 1});
  inferOutDimSizes(grid);
  return LinearLayout(std::move(grid));
}

LinearLayout amdWmma(const AmdWmmaParams& p, const Shape& shape) {
  std::vector<uint64_t> instr = checkAmdWmmaParams(p, shape);
  size_t rank = shape.size();
  std::vector<std::string> names = standardOutDimNames(rank);
  const std::string &dimM = names[rank - 2], &dimN = names[rank - 1];
  // Version 1: one row per VGPR, the two lane halves interleaved by row
  // (height 1); versions 2 and 3: 8 consecutive rows per lane (height 8).
  // Registers run along M (N when transposed) for instr_shape[0] elements.
  uint64_t height = p.version == 1 ? 1 : 8, regExtent = instr[0];
  AmdInstrTile shapeOfTile = p.transposed
                                 ? AmdInstrTile{kTile, regExtent, true, height, kWavefront}
                                 : AmdInstrTile{regExtent, kTile, false, height, kWavefront};
  // Out dims in standard order, as the grid's (a product needs one order).
  LinearLayout tile = amdInstrTileLayout(shapeOfTile, dimM, dimN).transposeOuts({dimM, dimN});
  // The product scales the grid's moves by the tile's extent in each dim (1
  // for batch).
  std::vector<std::string> nFirst = {dimN, dimM};
  if (rank == 3) nFirst.push_back(names[0]);
  LinearLayout cta = (tile * amdWmmaTileGrid(p, rank)).transposeOuts(nFirst);
  return combineCtaCgaWithShape(cta, p.cgaLayout ? *p.cgaLayout : singleCtaLayout(rank), shape);
}

AmdWmmaBases gluon36WmmaBases(const std::vector<uint64_t>& warpsPerCta,
                              const std::vector<uint64_t>& tilesPerWarp, const Shape& shape) {
  std::vector<uint64_t> tiles =
      tilesPerWarp.empty() ? std::vector<uint64_t>(warpsPerCta.size(), 1) : tilesPerWarp;
  checkAmdRankAndSizes("wmma", warpsPerCta, tiles, shape);
  size_t rank = shape.size(), m = rank - 2, n = rank - 1;
  // Bounded so that the tiles counted below fit in 64 bits.
  for (size_t d : {m, n})
    if (log2Exact(tiles[d]) + log2Exact(warpsPerCta[d]) > 58)
      throw Error("warps_per_cta[" + std::to_string(d) + "] * tiles_per_warp[" + std::to_string(d) +
                  "] tiles of 16 span more than 2^62 elements, more than "
                  "one dim of a layout holds");
  for (size_t d : {m, n})
    if (shape[d] != 1 && shape[d] < kTile)
      throw Error("shape[" + std::to_string(d) + "] = " + std::to_string(shape[d]) +
                  ": a WMMA layout's M and N extents must be 1 or at least 16 with "
                  "warps_per_cta (Triton 3.6 asserts; Gluon 3.9's warp_bases take any)");
  auto along = [rank](size_t dim, uint64_t tilesMoved) {
    Basis b(rank, 0);
    b[dim] = tilesMoved;
    return b;
  };
  AmdWmmaBases out;
  uint64_t reached = 1;  // tiles reached along the dim so far
  for (; reached < tiles[n]; reached *= 2) out.regBases.push_back(along(n, reached));
  for (uint64_t w = 1; w < warpsPerCta[n]; w *= 2, reached *= 2)
    out.warpBases.push_back(along(n, reached));
  for (; kTile * reached < shape[n]; reached *= 2) out.regBases.push_back(along(n, reached));
  reached = 1;
  for (; reached < tiles[m]; reached *= 2) out.regBases.push_back(along(m, reached));
  for (uint64_t w = 1; w < warpsPerCta[m]; w *= 2, reached *= 2)
    out.warpBases.push_back(along(m, reached));
  if (rank == 3)
    for (uint64_t w = 1; w < warpsPerCta[0]; w *= 2) out.warpBases.push_back(along(0, w));
  return out;
}

}  // namespace f2lay::ref::catalog
