// libFuzzer target: layout conversions (§5.2, §5.3). The input's bytes
// choose a conversion pair (A, B) and an element width through the
// properties' generator; then the conversion is classified and planned, and
// each plan is executed on a simulator that shares no code with it: the
// warp-shuffle plan on a virtual warp, the shared-memory round trip through
// the optimal swizzle. Every element must arrive where B wants it, and the
// classification must agree with its plan and never be cheaper than brute
// force says. ref and opt must classify and plan alike (the reference's
// answers are those the laws checked, built once: conversion_case.h).
#include <tuple>

#include "fuzz/fuzz_support.h"
#include "properties/conversion_case.h"
#include "properties/generators.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace f2lay;
  FuzzedDataProvider in(data, size);
  fuzz::FuzzChoices choices(in);
  properties::Case c = properties::makeConversionPair(choices);
  fuzz::checkLaws(
      "conversion",
      {"classification_matches_plan", "shuffle_plan_delivers", "shared_round_trip_delivers"}, c);
  fuzz::checkBoth("conversion", "classify_conversion", c, [&]<class L>() {
    const auto& k = properties::conversionCase<L>(c).classification();
    return std::tuple(k.kind, k.minimalKind, k.bInvA.value(), k.pull.value(), k.reason);
  });
  fuzz::checkBoth("conversion", "shuffle_plan", c, [&]<class L>() {
    const auto& p = properties::conversionCase<L>(c).plan();
    if (!p) return std::vector<uint64_t>{};  // refused alike: an unpaired broadcast
    std::vector<uint64_t> all = {static_cast<uint64_t>(p->kind), p->vectorElements,
                                 p->rounds.size()};
    for (const analysis::Vecs* set :
         {&p->V, &p->I, &p->E, &p->F, &p->G, &p->R, &p->sendOffsets, &p->recvOffsets}) {
      all.push_back(set->size());
      all.insert(all.end(), set->begin(), set->end());
    }
    for (const auto& round : p->rounds)
      for (const analysis::ShuffleStep& s : round)
        all.insert(all.end(), {s.lane, s.sendRegister, s.srcLane, s.recvRegister});
    for (const analysis::RegisterCopy& copy : p->copies)
      all.insert(all.end(), {copy.dstRegister, copy.srcRegister});
    return all;
  });
  properties::forgetConversionCases<ref::LinearLayout, opt::LinearLayout>();
  return 0;
}
