// A virtual warp that runs a ShufflePlan (paper §5.4), to check the plan
// against the layouts themselves.
//
// Each lane has two register files: A's, filled by A.apply (the logical
// coordinate of the element each register holds), and B's, poisoned. Each
// round, every lane reads the vector that its srcLane offers (shfl
// semantics: the operand of lane srcLane, i.e. srcLane's sendRegister) into
// its recvRegister vector; then the plan's register copies run. At the end
// every lane's B registers must hold what B.apply says. The simulator uses
// nothing of the plan's construction: only LinearLayout::apply and the
// plan's table. It runs every warp (and CTA) separately.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/conversion.h"
#include "reference/linear_layout.h"

namespace f2lay::ref::analysis {

struct WarpSimulation {
  uint64_t warps = 0;                   // (warp, block) pairs simulated
  uint64_t locations = 0;               // (lane, B register) pairs checked, over all warps
  std::vector<std::string> mismatches;  // the first few, each one sentence
  bool ok() const { return mismatches.empty(); }
};

// Throws f2lay::Error when the layouts do not fit a simulation (more than
// 2^10 warps times CTAs, 2^22 locations per warp); a plan that misbehaves
// (a lane or register out of range, a wrong or missing element) is reported
// in mismatches, never thrown.
WarpSimulation simulateShufflePlan(const LinearLayout& a, const LinearLayout& b,
                                   const ShufflePlan& plan);

}  // namespace f2lay::ref::analysis
