// The §5 analyses of each implementation under one name, so that an oracle
// handler is written once as a template over the layout type L and answers
// for f2lay::ref (Op::run) and f2lay::opt (Op::runOpt) alike. Only the
// analyses f2lay::opt has are listed for it.
#pragma once

#include "optimized/analysis/bank_conflicts.h"
#include "optimized/analysis/conversion.h"
#include "optimized/analysis/gather.h"
#include "optimized/analysis/optimal_swizzle.h"
#include "optimized/analysis/shuffle_plan.h"
#include "optimized/analysis/vectorization.h"
#include "optimized/opt_linear_layout.h"
#include "reference/analysis/bank_conflicts.h"
#include "reference/analysis/conversion.h"
#include "reference/analysis/gather.h"
#include "reference/analysis/optimal_swizzle.h"
#include "reference/analysis/vectorization.h"

namespace f2lay::tools {

template <class L>
struct Analyses;

template <>
struct Analyses<ref::LinearLayout> {
  static constexpr auto offsetsOf = &ref::analysis::offsetsOf;
  static constexpr auto contiguousRegisterBits = &ref::analysis::contiguousRegisterBits;
  static constexpr auto vectorRegisterBits = &ref::analysis::vectorRegisterBits;
  static constexpr auto vectorTile = &ref::analysis::vectorTile;
  static constexpr auto matrixTile = &ref::analysis::matrixTile;
  static constexpr auto divideByTile = &ref::analysis::divideByTile;
  static constexpr auto duplication = &ref::analysis::duplication;
  static constexpr auto reductionStores = &ref::analysis::reductionStores;
  static constexpr auto classifyConversion = &ref::analysis::classifyConversion;
  static constexpr auto shufflePlan = &ref::analysis::shufflePlan;
  static constexpr auto gatherLocality = &ref::analysis::gatherLocality;
  static constexpr auto gatherPlan = &ref::analysis::gatherPlan;
  using AccessSpec = ref::analysis::AccessSpec;
  static constexpr auto bankConflicts = &ref::analysis::simulateBankConflicts;
  static constexpr auto lemma94 = &ref::analysis::lemma94;
  static constexpr auto optimalSwizzle = &ref::analysis::optimalSwizzle;
};

template <>
struct Analyses<opt::LinearLayout> {
  static constexpr auto offsetsOf = &opt::analysis::offsetsOf;
  static constexpr auto contiguousRegisterBits = &opt::analysis::contiguousRegisterBits;
  static constexpr auto vectorRegisterBits = &opt::analysis::vectorRegisterBits;
  static constexpr auto vectorTile = &opt::analysis::vectorTile;
  static constexpr auto matrixTile = &opt::analysis::matrixTile;
  static constexpr auto divideByTile = &opt::analysis::divideByTile;
  static constexpr auto duplication = &opt::analysis::duplication;
  static constexpr auto reductionStores = &opt::analysis::reductionStores;
  static constexpr auto classifyConversion = &opt::analysis::classifyConversion;
  static constexpr auto shufflePlan = &opt::analysis::shufflePlan;
  static constexpr auto gatherLocality = &opt::analysis::gatherLocality;
  static constexpr auto gatherPlan = &opt::analysis::gatherPlan;
  using AccessSpec = opt::analysis::AccessSpec;
  static constexpr auto bankConflicts = &opt::analysis::bankConflicts;
  static constexpr auto lemma94 = &opt::analysis::lemma94;
  static constexpr auto optimalSwizzle = &opt::analysis::optimalSwizzle;
};

}  // namespace f2lay::tools
