#include "reference/catalog/amd_dot_operand.h"

#include <algorithm>

#include "reference/catalog/dot_operand.h"

namespace f2lay::ref::catalog {

namespace {

constexpr uint64_t kMfmaWavefront = 64;
constexpr uint64_t kWmmaWavefront = 32;
constexpr uint64_t kWmmaTile = 16;  // rows (columns) one WMMA lane group covers

void checkKWidth(uint64_t kWidth) {
  if (kWidth == 0 || !isPowerOfTwo(kWidth) || kWidth > 1024)
    throw Error("k_width = " + std::to_string(kWidth) +
                ": must be a power of two from 1 to 1024 (Triton refuses 0, "
                "and a linear layout needs a power of two)");
}

// The out dims a tile is built in: K, the other matrix dim, then batch.
struct OperandDims {
  size_t rank;
  unsigned kDim, nonKDim;
  std::vector<std::string> order;  // names, K first
};

OperandDims operandDims(uint64_t operandIndex, size_t rank) {
  auto kDim = static_cast<unsigned>(operandKDim(operandIndex, rank));
  std::vector<std::string> names = standardOutDimNames(rank), order;
  std::vector<unsigned> dims = dotOperandOrder(kDim, rank);
  for (unsigned d : dims) order.push_back(names[d]);
  return {rank, kDim, dims[1], order};
}

// Adds size-1 batch entries to a tile of out dims [K, non-K].
LinearLayout withBatch(LinearLayout tile, const OperandDims& d) {
  if (d.rank == 3)
    tile = tile * LinearLayout::identity1D(1, "register", d.order[2]) *
           LinearLayout::identity1D(1, "lane", d.order[2]);
  return tile;
}

}  // namespace

LinearLayout amdMfmaDotOperand(const AmdMfmaDotOperandParams& p, const Shape& shape) {
  std::vector<uint64_t> tiles = checkAmdMfmaParams(p.parent, shape);
  OperandDims d = operandDims(p.operandIndex, shape.size());
  checkKWidth(p.kWidth);
  uint64_t m = p.parent.instrShape[0], n = p.parent.instrShape[1];
  bool isA = p.operandIndex == 0;
  uint64_t nonK = isA ? m : n;
  const std::string &dimK = d.order[0], &dimNonK = d.order[1];
  LinearLayout tile = LinearLayout::identity1D(p.kWidth, "register", dimK) *
                      LinearLayout::identity1D(nonK, "lane", dimNonK) *
                      LinearLayout::identity1D(kMfmaWavefront / nonK, "lane", dimK);
  uint64_t kTile = kMfmaWavefront / nonK * p.kWidth;
  // The 64-wide operand of a 4x64 (64x4) instruction: 16 blocks along K.
  if ((m == 64 && n == 4 && isA) || (m == 4 && n == 64 && !isA)) {
    tile = tile * LinearLayout::identity1D(16, "register", dimK);
    kTile *= 16;
  }
  // Up to the whole tensor's K (Triton reads the global shape here).
  uint64_t kSize = shape[d.kDim];
  if (kSize > kTile) tile = tile * LinearLayout::identity1D(kSize / kTile, "register", dimK);
  tile = tile * LinearLayout::identity1D(tiles[d.nonKDim], "register", dimNonK);
  tile = withBatch(tile.transposeOuts({dimK, dimNonK}), d);
  size_t rank = shape.size();
  LinearLayout warps =
      identityStandardND("warp", p.parent.warpsPerCta, rowMajorOrder(rank)).transposeOuts(d.order);
  return combineCtaCgaWithShape(
      tile * warps, p.parent.cgaLayout ? *p.parent.cgaLayout : singleCtaLayout(rank), shape);
}

LinearLayout amdWmmaDotOperand(const AmdWmmaDotOperandParams& p, const Shape& shape) {
  std::vector<uint64_t> instr = checkAmdWmmaParams(p.parent, shape);
  OperandDims d = operandDims(p.operandIndex, shape.size());
  checkKWidth(p.kWidth);
  uint64_t version = p.parent.version;
  if (version == 1 && p.kWidth != 8 && p.kWidth != 16)
    throw Error("k_width = " + std::to_string(p.kWidth) +
                ": WMMA version 1 takes 8 or 16 (Triton's verifier)");
  if (version == 2 && p.kWidth != 4 && p.kWidth != 8 && p.kWidth != 16)
    throw Error("k_width = " + std::to_string(p.kWidth) +
                ": WMMA version 2 takes 4, 8 or 16 (Triton's verifier)");
  bool isA = p.operandIndex == 0;
  // The accumulator tile's extent along the operand's non-K dim: instr M
  // rows by 16 columns, transposed 16 rows by instr M columns.
  bool along = isA != p.parent.transposed;
  uint64_t nonK = along ? instr[0] : kWmmaTile;
  const std::string &dimK = d.order[0], &dimNonK = d.order[1];
  uint64_t depth = kWmmaWavefront / kWmmaTile;
  LinearLayout tile = LinearLayout::identity1D(p.kWidth, "register", dimK) *
                      LinearLayout::identity1D(kWmmaTile, "lane", dimNonK) *
                      (version == 1 ? LinearLayout::zeros1D(depth, "lane", dimK)
                                    : LinearLayout::identity1D(depth, "lane", dimK));
  // Registers up to the instruction's K (none when kWidth alone covers it).
  uint64_t kRepeat = instr[2] / (depth * p.kWidth);
  if (kRepeat > 1) tile = tile * LinearLayout::identity1D(kRepeat, "register", dimK);
  if (nonK > kWmmaTile)
    tile = tile * LinearLayout::identity1D(nonK / kWmmaTile, "register", dimNonK);
  tile = withBatch(tile, d);
  // The grid without its K moves: warps along K broadcast, registers along K
  // gone. The product scales the moves by the tile's extents.
  size_t rank = shape.size();
  LayoutValue grid = amdWmmaTileGrid(p.parent, rank).value();
  for (InDim& in : grid.in_dims) {
    std::vector<Basis> kept;
    for (Basis b : in.bases) {
      b[d.kDim] = 0;
      bool zero = std::all_of(b.begin(), b.end(), [](uint64_t v) { return v == 0; });
      if (!(zero && in.name == "register")) kept.push_back(b);
    }
    in.bases = kept;
  }
  grid.out_dims[d.kDim].size = 1;
  LinearLayout cta = tile * LinearLayout(std::move(grid)).transposeOuts(d.order);
  return combineCtaCgaWithShape(cta, dotOperandCga(p.parent.cgaLayout, d.kDim, rank), shape);
}

}  // namespace f2lay::ref::catalog
