#include "reference/catalog/nvidia_mma.h"

namespace f2lay::ref::catalog {

namespace {

std::string list(const std::vector<uint64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// PTX mma.sync.m16n8kK: every Ampere accumulator tile is 16 x 8.
void checkAmpereInstrShape(const std::vector<uint64_t>& instr, size_t rank) {
  std::vector<uint64_t> want =
      rank == 2 ? std::vector<uint64_t>{16, 8} : std::vector<uint64_t>{1, 16, 8};
  if (instr != want)
    throw Error("instr_shape = " + list(instr) + ": version 2 (mma.sync m16n8) needs " +
                list(want) + " at rank " + std::to_string(rank));
}

// PTX wgmma.mma_async.m64nNkK: a warp holds 16 rows of the warpgroup's 64.
void checkHopperInstrShape(const std::vector<uint64_t>& instr, size_t rank) {
  if (rank != 2)
    throw Error("warps_per_cta: version 3 (wgmma) supports rank 2 only, got rank " +
                std::to_string(rank));
  if (instr.size() != 3)
    throw Error("instr_shape = " + list(instr) + ": version 3 (wgmma) needs [16, N, K]");
  if (instr[0] != 16)
    throw Error("instr_shape[0] = " + std::to_string(instr[0]) +
                ": version 3 (wgmma) gives each warp 16 rows");
  if (!isPowerOfTwo(instr[1]) || instr[1] < 8 || instr[1] > 256)
    throw Error("instr_shape[1] = " + std::to_string(instr[1]) +
                ": wgmma's N must be a power of two from 8 to 256");
  if (instr[2] != 8 && instr[2] != 16 && instr[2] != 32 && instr[2] != 256)
    throw Error("instr_shape[2] = " + std::to_string(instr[2]) +
                ": wgmma's K must be 8, 16, 32 or 256");
}

}  // namespace

std::vector<unsigned> rowMajorOrder(size_t rank) {
  std::vector<unsigned> order;
  for (size_t i = rank; i-- > 0;) order.push_back(static_cast<unsigned>(i));
  return order;
}

std::vector<unsigned> mmaWarpOrder(int major, size_t rank) {
  return major == 3 ? std::vector<unsigned>{0, 1} : rowMajorOrder(rank);
}

int checkNvidiaMmaParams(const NvidiaMmaParams& p, size_t rank) {
  if (p.version.size() != 2 || (p.version[0] != 2 && p.version[0] != 3) || p.version[1] != 0)
    throw Error("version = " + list(p.version) +
                ": unsupported, expected [2, 0] (Ampere mma.sync) or [3, 0] (Hopper wgmma)");
  if (rank != 2 && rank != 3)
    throw Error("shape: rank " + std::to_string(rank) +
                " is unsupported, mma layouts have rank 2 "
                "or 3 (a leading batch dim)");
  checkPowersOfTwo("warps_per_cta", p.warpsPerCta, rank);
  int major = static_cast<int>(p.version[0]);
  if (major == 2)
    checkAmpereInstrShape(p.instrShape, rank);
  else
    checkHopperInstrShape(p.instrShape, rank);
  return major;
}

LinearLayout nvidiaMmaTile(const std::vector<uint64_t>& tileShape, uint64_t kWidth,
                           const std::vector<unsigned>& order,
                           const std::vector<unsigned>& repOrder) {
  std::vector<std::string> names = standardOutDimNames(repOrder.size());
  unsigned inner = order[0], outer = order[1];
  uint64_t m = tileShape[outer], n = tileShape[inner];
  // Size-1 dims first, only to fix the out-dim order to repOrder: the order in
  // which ensureLayoutNotSmallerThan repeats the tile.
  LinearLayout tile =
      identityStandardND("register", std::vector<uint64_t>(repOrder.size(), 1), repOrder);
  return tile * LinearLayout::identity1D(kWidth, "register", names[inner]) *
         LinearLayout::identity1D(4, "lane", names[inner]) *
         LinearLayout::identity1D(8, "lane", names[outer]) *
         LinearLayout::identity1D(m / 8, "register", names[outer]) *
         LinearLayout::identity1D(n / (kWidth * 4), "register", names[inner]);
}

LinearLayout nvidiaMma(const NvidiaMmaParams& p, const Shape& shape) {
  size_t rank = shape.size();
  checkPowersOfTwo("shape", shape, rank);
  int major = checkNvidiaMmaParams(p, rank);
  // Version 3's tile is [M, N] of [M, N, K]; the accumulator is always 2
  // consecutive columns per register pair (kWidth 2, Triton's constant).
  std::vector<uint64_t> tileShape = p.instrShape;
  if (major == 3) tileShape.pop_back();
  std::vector<unsigned> order = rowMajorOrder(rank);
  LinearLayout cta = nvidiaMmaTile(tileShape, 2, order, order);
  cta = cta * identityStandardND("warp", p.warpsPerCta, mmaWarpOrder(major, rank))
                  .transposeOuts(cta.getOutDimNames());
  return combineCtaCgaWithShape(cta, p.cgaLayout ? *p.cgaLayout : singleCtaLayout(rank), shape);
}

}  // namespace f2lay::ref::catalog
