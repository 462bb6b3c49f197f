// Optimal swizzling (paper §5.4, §9.2) on packed layouts: the construction,
// results and messages of reference/analysis/optimal_swizzle.h, which
// explains every set; here the sets are found with opt's own subspace
// operations (subspace.h).
#pragma once

#include <cstdint>

#include "optimized/analysis/bank_conflicts.h"
#include "optimized/analysis/subspace.h"
#include "optimized/opt_linear_layout.h"

namespace f2lay::opt::analysis {

struct SwizzleOptions {
  Instruction write = Instruction::kVector;
  Instruction read = Instruction::kVector;
};

struct SwizzleSets {
  Vecs V, ABank, BBank, I, E, F, G, C, Idx, Bank;
};

struct OptimalSwizzle {
  LinearLayout shared;
  SwizzleSets sets;
  uint64_t vectorBytes = 0;
  int bankBits = 0, idxBits = 0;
  int writeConflictBits = 0, readConflictBits = 0;
};

OptimalSwizzle optimalSwizzle(const LinearLayout& a, const LinearLayout& b, uint64_t elementBytes,
                              const SwizzleOptions& options = {});

}  // namespace f2lay::opt::analysis
