// Triton's blocked layout (the paper's §4.1 layout A is one; Def 4.10
// family): each thread holds a sizePerThread tile of registers, threads and
// warps tile the CTA along `order` (order[0] the most minor dim), CTAs tile
// the CGA.
#pragma once

#include "formats/triton_version.h"
#include "reference/catalog/shape_fit.h"

namespace f2lay::ref::catalog {

struct BlockedParams {
  std::vector<uint64_t> sizePerThread;
  std::vector<uint64_t> threadsPerWarp;
  std::vector<uint64_t> warpsPerCta;
  std::vector<unsigned> order;
  // The CGA as block -> dims; empty means one CTA (see makeCgaLayout for the
  // legacy CTAsPerCGA / CTASplitNum / CTAOrder form).
  std::optional<LinearLayout> cgaLayout;
  // Whose rules: registers past a smaller shape (size_per_thread larger than
  // a CTA's share) are removed in Triton 3.9; 3.6 kept them as broadcasts
  // (zero bases).
  TritonVersion triton = kCurrentTriton;
};

// register, lane, warp, block -> dim0.. for a tensor of `shape`. Throws
// f2lay::Error naming the parameter that breaks a rule.
LinearLayout blocked(const BlockedParams& params, const Shape& shape);

}  // namespace f2lay::ref::catalog
