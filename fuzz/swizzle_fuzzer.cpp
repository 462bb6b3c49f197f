// libFuzzer target: the optimal swizzle (§5.4, Lemma 9.5) and the swizzle
// optimum by the H100's rule (swizzle_optimum.h: each side costs on the
// simulator what it predicts, within its bounds, no more than §5.4's). The input's
// bytes choose a conversion pair (A, B) and an element width through the
// properties' generator; then the swizzle's laws are checked against the
// bank-conflict simulator, which shares no code with the construction: both
// accesses meet the bound where Lemma 9.4 is exact, no other Idx subspace
// needs fewer wavefronts (two an input, chosen by its bytes: each costs two
// simulations), Vec is the widest both sides allow. ref and opt must build
// the same swizzle (the reference's is the one the laws checked, built
// once: conversion_case.h). Then the bank-conflict models, ref's simulator
// against opt's rank and enumeration paths, on a memory layout the input
// chooses (bankModelsAgree).
#include <bit>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "fuzz/fuzz_support.h"
#include "oracle/analysis_ops/bank_models.h"
#include "properties/conversion_case.h"
#include "properties/generators.h"
#include "testkit/columns.h"

namespace {

using namespace f2lay;
using analysis::Instruction;

// The flat tensor bit that bit j of in dim `dim` of a Def 4.10 layout holds,
// or -1 (a zero basis, or no such bit).
int tensorBitOf(const LayoutValue& l, const std::string& dim, int j) {
  for (const InDim& d : l.in_dims)
    if (d.name == dim && j < static_cast<int>(d.bases.size()))
      if (uint64_t image = testkit::flatOut(l, d.bases[j])) return std::countr_zero(image);
  return -1;
}

// One side of the pair stores into, or loads from, a Def 4.14 memory layout
// of the input's choosing, by ld/st.shared or ldmatrix/stmatrix (.trans):
// ref's simulator and Lemma 9.4 against opt's models (the one §5 analysis
// written twice: oracle/analysis_ops/bank_models.h). The swizzle's own memory
// layouts are aligned and conflict-light; these are not, so they reach the
// vector width's alignment rule, the enumeration of wide accesses and the
// cases where the lemma is not exact. For ldmatrix the offsets 1, 2, 4 hold
// a matrix row's elements (a register bit and lane bits 0, 1; .trans: lane
// bits 2, 3, 4), so that the layout can mostly be lowered onto the tile.
void bankModelsAgree(properties::Choices& choices, const properties::Case& pair) {
  Instruction instruction = static_cast<Instruction>(choices.inRange(0, 3));
  bool store = choices.inRange(0, 2) == 1;
  const LayoutValue& dist = pair.layouts[store ? 0 : 1];
  std::vector<int> first, tensorBits;
  for (const OutDim& d : dist.out_dims) tensorBits.push_back(std::countr_zero(d.size));
  std::vector<std::pair<const char*, int>> row;
  if (instruction == Instruction::kMatrix)
    row = {{"register", choices.inRange(0, 4)}, {"lane", 0}, {"lane", 1}};
  if (instruction == Instruction::kMatrixTrans) row = {{"lane", 2}, {"lane", 3}, {"lane", 4}};
  for (const auto& [dim, j] : row)
    if (int bit = tensorBitOf(dist, dim, j); bit >= 0) first.push_back(bit);
  properties::Case bank = pair;
  bank.layouts.push_back(properties::makeMemory(choices, tensorBits, first));
  bank.params["bank_store"] = store;
  bank.params["bank_instruction"] = static_cast<int>(instruction);
  uint64_t bytes = instruction == Instruction::kVector ? properties::elementBytes(pair) : 2;
  analysis::AccessSpec access{store ? analysis::AccessKind::kStore : analysis::AccessKind::kLoad,
                              bytes,
                              std::nullopt,
                              instruction,
                              {}};
  fuzz::checkBoth("swizzle", "bank conflicts", bank, [&]<class L>() {
    using Models = oracle::BankModels<L>;
    L d(dist), memory(bank.layouts.back());
    return std::tuple(Models::bankConflicts(d, memory, access), Models::lemma94(d, memory, access));
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace f2lay;
  FuzzedDataProvider in(data, size);
  fuzz::FuzzChoices choices(in);
  properties::Case c = properties::makeConversionPair(choices);
  c.params["seed"] = in.ConsumeIntegral<uint32_t>();  // which Idx subspaces to try
  c.params["idx_trials"] = 2;
  fuzz::checkLaws("swizzle",
                  {"swizzle_meets_the_bound", "swizzle_is_optimal", "vectorization_is_maximal",
                   "optimum_is_predicted_and_bounded"},
                  c);
  fuzz::checkBoth("swizzle", "optimal_swizzle", c, [&]<class L>() {
    const auto& s = properties::conversionCase<L>(c).swizzle();
    const analysis::SwizzleSets& x = s.sets;
    return std::tuple(s.shared.value(), s.vectorBytes, s.bankBits, s.idxBits, s.writeConflictBits,
                      s.readConflictBits, x.V, x.ABank, x.BBank, x.I, x.E, x.F, x.G, x.C, x.Idx,
                      x.Bank);
  });
  fuzz::checkBoth("swizzle", "swizzle optimum", c, [&]<class L>() {
    const auto& s = properties::conversionCase<L>(c).optimum();
    return std::tuple(s.shared.value(), s.store, s.load, s.storeBound, s.loadBound);
  });
  bankModelsAgree(choices, c);
  properties::forgetConversionCases<ref::LinearLayout, opt::LinearLayout>();
  return 0;
}
