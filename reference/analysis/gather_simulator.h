// A virtual warp that runs a GatherPlan (paper §5.5) against the gather's
// definition, out[pos] = src[pos with its axis coordinate replaced by
// index[pos]], for a random src and index tensor.
//
// Each lane works out its source lane and register from the plan's
// axisSources, sends sendRegisters[r][i] in round i (the value its source
// lane holds there, by LinearLayout::apply) and keeps it when it is the
// register it needs. Nothing of the plan's construction is used.
#pragma once

#include <cstdint>
#include <string>

#include "analysis/gather.h"
#include "reference/linear_layout.h"

namespace f2lay::ref::analysis {

struct GatherSimulation {
  bool ok = true;
  std::string detail;  // the first location that got a wrong value, or nothing
};

// index and src values are drawn from a generator seeded with `seed`.
GatherSimulation simulateGather(const LinearLayout& l, size_t axis, const GatherPlan& plan,
                                uint64_t seed);

}  // namespace f2lay::ref::analysis
