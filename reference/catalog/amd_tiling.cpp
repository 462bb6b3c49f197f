#include "reference/catalog/amd_tiling.h"

namespace f2lay::ref::catalog {

LinearLayout amdInstrTileLayout(const AmdInstrTile& t, const std::string& mName,
                                const std::string& nName) {
  // Basis values are [n, m]: index 0 is the N dim, as in Triton's tile.
  size_t regDim = t.registersAlongN ? 0 : 1, laneDim = 1 - regDim;
  uint64_t regDimSize = t.registersAlongN ? t.n : t.m;
  uint64_t laneSpan = t.registersAlongN ? t.m : t.n;
  auto basis = [](size_t dim, uint64_t value) {
    Basis b{0, 0};
    b[dim] = value;
    return b;
  };
  std::vector<Basis> reg, lane;
  uint64_t covered = 1;  // elements of the register dim covered so far
  for (; covered < t.height; covered *= 2) reg.push_back(basis(regDim, covered));
  for (uint64_t v = 1; v < laneSpan; v *= 2) lane.push_back(basis(laneDim, v));
  for (uint64_t v = laneSpan; v < t.warpSize; v *= 2, covered *= 2)
    lane.push_back(basis(regDim, covered));
  for (; covered < regDimSize; covered *= 2) reg.push_back(basis(regDim, covered));
  LayoutValue v{{{"register", reg}, {"lane", lane}}, {{nName, t.n}, {mName, t.m}}};
  return LinearLayout(std::move(v));
}

LinearLayout amdTileOverCta(const LinearLayout& instrTile, uint64_t n,
                            const std::vector<uint64_t>& tilesPerWarp,
                            const std::vector<uint64_t>& warpsPerCta,
                            const std::optional<LinearLayout>& cgaLayout, const Shape& shape) {
  size_t rank = shape.size();
  size_t mIndex = rank - 2, nIndex = rank - 1;
  std::vector<std::string> names = standardOutDimNames(rank);
  const std::string &dimM = names[mIndex], &dimN = names[nIndex];
  LinearLayout cta = instrTile * LinearLayout::identity1D(tilesPerWarp[nIndex], "register", dimN) *
                     LinearLayout::identity1D(warpsPerCta[nIndex], "warp", dimN);
  // Along N the registers already cover the whole tensor here (Triton divides
  // the global shape, so with a CGA the extra registers end as broadcast
  // zeros when the tile is cut to the CTA's share).
  uint64_t nCovered = n * warpsPerCta[nIndex] * tilesPerWarp[nIndex];
  if (shape[nIndex] > nCovered)
    cta = cta * LinearLayout::identity1D(shape[nIndex] / nCovered, "register", dimN);
  cta = cta * LinearLayout::identity1D(tilesPerWarp[mIndex], "register", dimM) *
        LinearLayout::identity1D(warpsPerCta[mIndex], "warp", dimM);
  if (rank == 3)
    cta = cta * LinearLayout::identity1D(1, "register", names[0]) *
          LinearLayout::identity1D(1, "lane", names[0]) *
          LinearLayout::identity1D(warpsPerCta[0], "warp", names[0]);
  return combineCtaCgaWithShape(cta, cgaLayout ? *cgaLayout : singleCtaLayout(rank), shape);
}

void checkAmdRankAndSizes(const std::string& family, const std::vector<uint64_t>& warpsPerCta,
                          const std::vector<uint64_t>& tilesPerWarp, const Shape& shape) {
  size_t rank = shape.size();
  if (rank != 2 && rank != 3)
    throw Error("shape: rank " + std::to_string(rank) + " is unsupported, " + family +
                " layouts have rank 2 or 3 (a leading batch dim)");
  checkPowersOfTwo("shape", shape, rank);
  checkPowersOfTwo("warps_per_cta", warpsPerCta, rank);
  checkPowersOfTwo("tiles_per_warp", tilesPerWarp, rank);
}

}  // namespace f2lay::ref::catalog
