// The bank-conflict models of each implementation under one name, so that an
// oracle handler is written once as a template over the layout type L and
// answers for f2lay::ref (Op::run) and f2lay::opt (Op::runOpt) alike. They
// are the one §5 analysis written twice: the reference's simulator and
// f2lay::opt's rank and enumeration paths. Every other construction is
// written once, in analysis/, and called as f2lay::analysis::X(layouts).
#pragma once

#include "analysis/bank_access.h"
#include "optimized/analysis/bank_conflicts.h"
#include "optimized/opt_linear_layout.h"
#include "reference/analysis/bank_conflicts.h"

namespace f2lay::oracle {

template <class L>
struct BankModels;

template <>
struct BankModels<ref::LinearLayout> {
  static constexpr auto bankConflicts = &ref::analysis::simulateBankConflicts;
  static constexpr auto lemma94 = &ref::analysis::lemma94;
};

template <>
struct BankModels<opt::LinearLayout> {
  static constexpr auto bankConflicts = &opt::analysis::bankConflicts;
  static constexpr auto lemma94 = &opt::analysis::lemma94;
};

}  // namespace f2lay::oracle
