// The warp-shuffle gather of paper §5.5 on packed layouts: the contract,
// results and messages of reference/analysis/gather.h, which explains the
// rounds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "optimized/opt_linear_layout.h"

namespace f2lay::opt::analysis {

struct GatherLocality {
  bool warpLocal;
  std::string reason;
};
GatherLocality gatherLocality(const LinearLayout& l, size_t axis);

struct AxisSource {
  uint64_t registerMask;
  uint64_t laneMask;
};
struct GatherPlan {
  int laneBitsAlongAxis;
  int registerBitsAlongAxis;
  uint64_t paperRounds;
  uint64_t rounds;
  std::vector<AxisSource> axisSources;
  std::vector<std::vector<uint64_t>> sendRegisters;
};
GatherPlan gatherPlan(const LinearLayout& l, size_t axis);

}  // namespace f2lay::opt::analysis
