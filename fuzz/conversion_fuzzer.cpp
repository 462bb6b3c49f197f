// libFuzzer target: layout conversions (§5.2, §5.3). The input's bytes
// choose a conversion pair (A, B) and an element width through the
// properties' generator; then the conversion is classified and planned, and
// each plan is executed on a simulator that shares no code with it: the
// warp-shuffle plan on a virtual warp, the shared-memory round trip through
// the optimal swizzle. Every element must arrive where B wants it, and the
// classification must agree with its plan and never be cheaper than brute
// force says. ref and opt must classify and plan alike (the reference's
// answers are those the laws checked, built once: conversion_case.h).
// And the warp-shuffle gather of §5.5 on A and on B, along each axis where it
// stays in a warp: its plan run on a virtual warp against the gather's
// definition (oracle::gatherPlanFault, by gather_simulator.h), ref's plan
// and opt's alike, its counts held to §5.5's definition.
#include <optional>
#include <string>
#include <tuple>

#include "analysis/gather.h"
#include "fuzz/fuzz_support.h"
#include "oracle/analysis_ops/pair_checks.h"
#include "properties/conversion_case.h"
#include "properties/generators.h"

namespace {

using namespace f2lay;

void gatherDelivers(const properties::Case& c) {
  for (const LayoutValue& v : {c.layouts[0], c.layouts[1]})
    for (size_t axis = 0; axis < v.out_dims.size(); ++axis) {
      ref::LinearLayout l(v);
      if (!analysis::gatherLocality(l, axis).warpLocal) continue;
      std::optional<std::string> fault;
      try {
        fault = oracle::gatherPlanFault(l, axis);
      } catch (const Error&) {
        continue;  // over the planned table's 2^20 entries: refused with a message
      }
      if (fault) fuzz::fail("conversion", *fault + "\n  case: " + properties::caseToJson(c).dump());
      // §5.5's counts by their definition: the lane and register bases with
      // a nonzero component along the axis.
      auto along = [&](const char* dim) {
        int n = 0;
        for (const InDim& d : v.in_dims)
          for (const Basis& b : d.bases) n += d.name == dim && b[axis] != 0;
        return n;
      };
      fuzz::checkBoth("conversion", "gather_plan", c, [&]<class L>() {
        analysis::GatherPlan p = analysis::gatherPlan(L(v), axis);
        if (p.laneBitsAlongAxis != along("lane") || p.registerBitsAlongAxis != along("register") ||
            p.paperRounds != uint64_t{1} << along("lane"))
          fuzz::fail("conversion", "gather_plan along axis " + std::to_string(axis) +
                                       ": its lane or register bits along the axis, or "
                                       "paper_rounds, are not §5.5's\n  case: " +
                                       properties::caseToJson(c).dump());
        std::vector<uint64_t> all = {p.rounds, p.paperRounds};
        for (const analysis::AxisSource& s : p.axisSources)
          all.insert(all.end(), {s.registerMask, s.laneMask});
        for (const auto& row : p.sendRegisters) all.insert(all.end(), row.begin(), row.end());
        return all;
      });
    }
}

}  // namespace

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
  // §5.3: a shuffle moves 32 bits, so a plan packs elements into one only up
  // to 4 bytes (a wider element goes alone, in several).
  std::optional<analysis::ShufflePlan> plan;
  try {
    plan = properties::conversionCase<ref::LinearLayout>(c).plan();
  } catch (const Error&) {
    // a conversion through shared memory has no shuffle plan
  }
  if (plan && plan->vectorElements > 1 && plan->vectorElements * properties::elementBytes(c) > 4)
    fuzz::fail("conversion",
               "shuffle_plan packs " + std::to_string(plan->vectorElements) + " elements of " +
                   std::to_string(properties::elementBytes(c)) +
                   " bytes into one 32-bit shuffle\n  case: " + properties::caseToJson(c).dump());
  gatherDelivers(c);
  properties::forgetConversionCases<ref::LinearLayout, opt::LinearLayout>();
  return 0;
}
