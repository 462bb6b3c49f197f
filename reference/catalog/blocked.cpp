#include "reference/catalog/blocked.h"

namespace f2lay::ref::catalog {

LinearLayout blocked(const BlockedParams& p, const Shape& shape) {
  size_t rank = shape.size();
  // Rank 0 would give a layout without in dims (the products below are empty).
  if (rank == 0) throw Error("shape: must have at least one dim");
  checkPowersOfTwo("shape", shape, rank);
  checkPowersOfTwo("size_per_thread", p.sizePerThread, rank);
  checkPowersOfTwo("threads_per_warp", p.threadsPerWarp, rank);
  checkPowersOfTwo("warps_per_cta", p.warpsPerCta, rank);
  checkOrder("order", p.order, rank);
  LinearLayout cta = identityStandardND("register", p.sizePerThread, p.order) *
                     identityStandardND("lane", p.threadsPerWarp, p.order) *
                     identityStandardND("warp", p.warpsPerCta, p.order);
  return combineCtaCgaWithShape(cta, p.cgaLayout ? *p.cgaLayout : singleCtaLayout(rank), shape,
                                /*broadcastRegisters=*/p.triton == TritonVersion::k3_6);
}

}  // namespace f2lay::ref::catalog
