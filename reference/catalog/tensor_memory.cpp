#include "reference/catalog/tensor_memory.h"

#include "reference/catalog/shared.h"

namespace f2lay::ref::catalog {

namespace {

// The CGA (one CTA when absent), checked against a rank-2 shape, and the
// shape one CTA holds.
struct Cga {
  LinearLayout layout;
  Shape perCta;
};

Cga checkedCga(const std::string& op, const std::optional<LinearLayout>& cga, const Shape& shape) {
  if (shape.size() != 2)
    throw Error(op + ": shape must have 2 dims (tensor memory is 2-D), got " +
                std::to_string(shape.size()));
  checkPowersOfTwo(op + ": shape", shape, 2);
  LinearLayout l = cga ? *cga : singleCtaLayout(2);
  if (l.getOutDimNames() != standardOutDimNames(2))
    throw Error(op + ": cga_layout must map block to dim0, dim1");
  for (int d = 0; d < 2; ++d) {
    uint64_t split = l.getOutDimSize("dim" + std::to_string(d));
    if (split > shape[d])
      throw Error(op + ": cga_layout splits dim" + std::to_string(d) + " into " +
                  std::to_string(split) + " CTAs, more than shape[" + std::to_string(d) +
                  "] = " + std::to_string(shape[d]));
  }
  return {l, shapePerCta(l, shape)};
}

// The value of a layout with in dims row, col, block (block bases: the CGA's,
// scaled by the shape per CTA, Triton's tile * cgaLayout).
LinearLayout rowColBlock(std::vector<Basis> rows, std::vector<Basis> cols, const Cga& cga,
                         const Shape& shape) {
  std::vector<Basis> blocks;
  for (const Basis& b : cga.layout.value().in_dims[0].bases)
    blocks.push_back({b[0] * cga.perCta[0], b[1] * cga.perCta[1]});
  return LinearLayout(LayoutValue{
      {{"row", std::move(rows)}, {"col", std::move(cols)}, {"block", std::move(blocks)}},
      {{"dim0", shape[0]}, {"dim1", shape[1]}}});
}

}  // namespace

LinearLayout tensorMemory(const TensorMemoryParams& p, const Shape& shape) {
  const std::string op = "tensor_memory";
  auto [blockM, blockN] = p.block;
  if (blockM != 64 && blockM != 128)
    throw Error(op + ": block[0] = " + std::to_string(blockM) + " must be 64 or 128 (TMEM rows)");
  checkPowerOfTwoParam(op, "block[1]", blockN);
  checkPowerOfTwoParam(op, "col_stride", p.colStride);
  if (p.fp4Padded && p.colStride != 1)
    throw Error(op + ": fp4_padded requires col_stride 1, got " + std::to_string(p.colStride));
  if (p.twoCtas) {
    bool first10 = p.cgaLayout && !p.cgaLayout->value().in_dims[0].bases.empty() &&
                   p.cgaLayout->value().in_dims[0].bases[0] == Basis{1, 0};
    if (!first10) throw Error(op + ": two_ctas requires the first cga_layout basis to be [1, 0]");
  }
  Cga cga = checkedCga(op, p.cgaLayout, shape);
  const Shape& cta = cga.perCta;
  uint64_t n = std::min(blockN, cta[1]);

  std::vector<Basis> rows, cols;
  // Padding first: each column's unused 32-bit cells (unpacked elements, or
  // the second byte of a padded fp4 element).
  for (uint64_t s = 1; s < p.colStride * (p.fp4Padded ? 2 : 1); s *= 2) cols.push_back({0, 0});
  for (uint64_t c = 1; c < n; c *= 2) cols.push_back({0, c});
  uint64_t tileRows = blockM, tileCols = n;
  if (blockM == 64 && !p.twoCtas) {
    // A 64-row tile fills TMEM lanes 0-15 of each of the 4 warps' 32.
    for (uint64_t r = 1; r < 16; r *= 2) rows.push_back({r, 0});
    if (cta[0] > 64) {
      rows.push_back({64, 0});
      tileRows = 128;
    } else if (cta[1] > n) {
      rows.push_back({0, n});
      tileCols = 2 * n;
    } else {
      rows.push_back({0, 0});
    }
    rows.push_back({16, 0});
    rows.push_back({32, 0});
  } else {
    for (uint64_t r = 1; r < blockM; r *= 2) rows.push_back({r, 0});
    if (blockM == 64) {
      // Two CTAs of 64 rows: the tile's last column bit (a padding bit when
      // there is one column) takes the last row bit; the tile keeps its
      // columns' extent, so repeats along dim1 start past it.
      if (cols.empty())
        throw Error(op +
                    ": two_ctas with block[0] = 64 needs a column bit to move to the rows: "
                    "min(block[1], shape[1] per CTA) * col_stride must be at least 2");
      rows.push_back(cols.back());
      cols.pop_back();
    }
  }
  if (cta[0] < tileRows)
    throw Error(op + ": shape[0] per CTA = " + std::to_string(cta[0]) + " is below the tile's " +
                std::to_string(tileRows) + " rows (block[0] = " + std::to_string(blockM) + ")");
  for (uint64_t r = tileRows; r < cta[0]; r *= 2) cols.push_back({r, 0});
  for (uint64_t c = tileCols; c < cta[1]; c *= 2) cols.push_back({0, c});
  return rowColBlock(std::move(rows), std::move(cols), cga, shape);
}

LinearLayout tensorMemoryScales(const std::optional<LinearLayout>& cgaLayout, const Shape& shape) {
  Cga cga = checkedCga("tensor_memory_scales", cgaLayout, shape);
  const Shape& cta = cga.perCta;
  // Bases past the shape per CTA hold nothing (Triton's
  // ensureLayoutNotLargerThan): their values become 0.
  auto fit = [&](Basis b) {
    for (int d = 0; d < 2; ++d)
      if (b[d] >= cta[d]) b[d] = 0;
    return b;
  };
  std::vector<Basis> rows, cols;
  for (uint64_t r = 1; r < 32; r *= 2) rows.push_back(fit({r, 0}));
  rows.push_back({0, 0});  // the 4 warps read the same 32 rows
  rows.push_back({0, 0});
  cols = {fit({0, 1}), fit({0, 2}), fit({32, 0})};
  for (uint64_t r = 64; r < cta[0]; r *= 2) cols.push_back({r, 0});
  for (uint64_t c = 4; c < cta[1]; c *= 2) cols.push_back({0, c});
  return rowColBlock(std::move(rows), std::move(cols), cga, shape);
}

}  // namespace f2lay::ref::catalog
