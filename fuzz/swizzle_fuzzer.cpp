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
// once: conversion_case.h).
#include <tuple>

#include "fuzz/fuzz_support.h"
#include "properties/conversion_case.h"
#include "properties/generators.h"

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
  properties::forgetConversionCases<ref::LinearLayout, opt::LinearLayout>();
  return 0;
}
