#include "reference/catalog/dot_operand.h"

namespace f2lay::ref::catalog {

namespace {

// Triton's broadcastedDotOperandLayout: warps along `order`, every warp bit
// along the K dim a zero basis (those warps hold the same operand data).
LinearLayout broadcastAlongK(const std::vector<uint64_t>& warps, const std::vector<unsigned>& order,
                             unsigned kDim) {
  std::vector<std::string> names = standardOutDimNames(warps.size());
  LinearLayout result;
  for (unsigned d : order)
    result = result * (d == kDim ? LinearLayout::zeros1D(warps[d], "warp", names[d])
                                 : LinearLayout::identity1D(warps[d], "warp", names[d]));
  return result;
}

}  // namespace

LinearLayout dotOperandCga(const std::optional<LinearLayout>& parentCga, size_t kDim, size_t rank) {
  if (!parentCga) return singleCtaLayout(rank);
  LayoutValue v = parentCga->value();
  // K is zeroed by index below, so the CGA must have the shape's dims.
  if (v.out_dims.size() != rank)
    throw Error("cga_layout: the parent's CGA has " + std::to_string(v.out_dims.size()) +
                " dims, the shape " + std::to_string(rank));
  for (InDim& in : v.in_dims)
    for (Basis& b : in.bases) b[kDim] = 0;
  for (OutDim& out : v.out_dims) out.size = 1;
  inferOutDimSizes(v);
  return LinearLayout(std::move(v));
}

// Triton's getOrderForDotOperand(opIdx, rank, kContig = true): K first, then
// the other matrix dim, then the batch dim. It is both the element order and
// the order in which the tile repeats.
std::vector<unsigned> dotOperandOrder(unsigned kDim, size_t rank) {
  unsigned other =
      kDim == rank - 1 ? static_cast<unsigned>(rank - 2) : static_cast<unsigned>(rank - 1);
  std::vector<unsigned> order = {kDim, other};
  if (rank == 3) order.push_back(0);
  return order;
}

size_t operandKDim(uint64_t operandIndex, size_t rank) {
  if (operandIndex > 1)
    throw Error("operand_index = " + std::to_string(operandIndex) +
                " is out of range: 0 (A) or 1 (B)");
  return operandIndex == 0 ? rank - 1 : rank - 2;
}

LinearLayout dotOperand(const DotOperandParams& p, const Shape& shape) {
  size_t rank = shape.size();
  checkPowersOfTwo("shape", shape, rank);
  int major = checkNvidiaMmaParams(p.parent, rank);
  size_t kDimIndex = operandKDim(p.operandIndex, rank);
  if (major == 3 && p.operandIndex == 1)
    throw Error(
        "operand_index = 1 with a version 3 parent: wgmma reads B from shared memory, "
        "only A (0) can be in registers");
  if (!isPowerOfTwo(p.kWidth) || p.kWidth > 1024)
    throw Error("k_width = " + std::to_string(p.kWidth) + " is not a power of two (at most 1024)");
  bool isA = p.operandIndex == 0;
  auto kDim = static_cast<unsigned>(kDimIndex);
  std::vector<uint64_t> tileShape(rank, 1);
  tileShape[rank - 2] = isA ? 16 : 8 * p.kWidth;
  tileShape[rank - 1] = isA ? 8 * p.kWidth : 8;
  std::vector<unsigned> order = dotOperandOrder(kDim, rank);
  LinearLayout cta = nvidiaMmaTile(tileShape, p.kWidth, order, order);
  cta = cta * broadcastAlongK(p.parent.warpsPerCta, mmaWarpOrder(major, rank), kDim)
                  .transposeOuts(cta.getOutDimNames());
  return combineCtaCgaWithShape(cta, dotOperandCga(p.parent.cgaLayout, kDim, rank), shape);
}

}  // namespace f2lay::ref::catalog
