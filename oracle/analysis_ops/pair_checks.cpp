#include "oracle/analysis_ops/pair_checks.h"

#include "analysis/conversion.h"
#include "analysis/gather.h"
#include "analysis/optimal_swizzle.h"
#include "analysis/swizzle_optimum.h"
#include "analysis/vectorization.h"
#include "oracle/analysis_ops/catalog_pairs.h"
#include "oracle/op_table.h"
#include "reference/analysis/bank_conflicts.h"
#include "reference/analysis/gather_simulator.h"
#include "reference/analysis/shared_roundtrip.h"
#include "reference/analysis/warp_simulator.h"
#include "reference/catalog/shared.h"

namespace f2lay::oracle {

namespace {

using analysis::AccessKind;
using analysis::Instruction;

// Each check appends a failure description, or nothing.
using Failures = std::vector<std::string>;

// The conversion through `shared` delivers every element (the simulator).
void checkRoundTrip(const char* what, const CatalogPair& p, const Layout& a, const Layout& b,
                    const Layout& shared, Failures& f) {
  ref::analysis::RoundTrip trip =
      ref::analysis::simulateSharedRoundTrip(a, b, shared, p.elementBytes);
  if (trip.wrongElements != 0)
    f.push_back(std::string(what) + ": " + std::to_string(trip.wrongElements) +
                " elements wrong through shared memory; first: " + trip.firstWrong);
}

void checkSwizzle(const CatalogPair& p, const Layout& a, const Layout& b, Failures& f) {
  analysis::OptimalSwizzle s = analysis::optimalSwizzle(a, b, p.elementBytes, {p.write, p.read});
  checkRoundTrip("optimal_swizzle", p, a, b, s.shared, f);
  if (s.vectorBytes < 4) return;  // Lemma 9.4 is exact only from 4 bytes
  auto side = [&](const Layout& l, AccessKind kind, Instruction instruction, int bits,
                  const char* what) {
    std::optional<uint64_t> bytes;
    if (instruction == Instruction::kVector) bytes = s.vectorBytes;
    analysis::WavefrontReport r = ref::analysis::simulateBankConflicts(
        l, s.shared, {kind, p.elementBytes, bytes, instruction, {}});
    // Each phase (ideal wavefront) costs 2^bits wavefronts.
    if (r.wavefronts != r.idealWavefronts << bits)
      f.push_back(std::string("optimal_swizzle: ") + what + " takes " +
                  std::to_string(r.wavefronts) + " wavefronts in " +
                  std::to_string(r.idealWavefronts) + " phases; the construction predicts " +
                  std::to_string(uint64_t{1} << bits) + " per phase");
  };
  side(a, AccessKind::kStore, p.write, s.writeConflictBits, "the store");
  side(b, AccessKind::kLoad, p.read, s.readConflictBits, "the load");
}

// The optimum: correct through shared memory, each side costs on the
// simulator what it predicts, and no more in all than §5.4's construction.
void checkOptimum(const CatalogPair& p, const Layout& a, const Layout& b, Failures& f) {
  analysis::SwizzleOptimum s = analysis::swizzleOptimum(a, b, p.elementBytes, {p.write, p.read});
  checkRoundTrip("swizzle optimum", p, a, b, s.shared, f);
  auto simulated = [&](const Layout& l, const Layout& shared, AccessKind kind,
                       Instruction instruction, uint64_t vectorBytes) {
    std::optional<uint64_t> bytes;
    if (instruction == Instruction::kVector) bytes = vectorBytes;
    return ref::analysis::simulateBankConflicts(l, shared,
                                                {kind, p.elementBytes, bytes, instruction, {}})
        .wavefronts;
  };
  // A's warps that hold copies do not store (swizzle_optimum.h).
  uint64_t store = simulated(analysis::storingWarps(a), s.shared, AccessKind::kStore, p.write,
                             s.store.vectorBytes);
  uint64_t load = simulated(b, s.shared, AccessKind::kLoad, p.read, s.load.vectorBytes);
  if (store != s.store.wavefronts() || load != s.load.wavefronts())
    f.push_back("swizzle optimum: predicts " + std::to_string(s.store.wavefronts()) + " + " +
                std::to_string(s.load.wavefronts()) + " wavefronts, the simulator finds " +
                std::to_string(store) + " + " + std::to_string(load));
  analysis::OptimalSwizzle paper =
      analysis::optimalSwizzle(a, b, p.elementBytes, {p.write, p.read});
  uint64_t paperTotal = simulated(a, paper.shared, AccessKind::kStore, p.write, paper.vectorBytes) +
                        simulated(b, paper.shared, AccessKind::kLoad, p.read, paper.vectorBytes);
  if (store + load > paperTotal)
    f.push_back("swizzle optimum: " + std::to_string(store + load) +
                " wavefronts, more than §5.4's construction's " + std::to_string(paperTotal));
}

void checkLemma(const CatalogPair& p, const Layout& a, const Layout& b, Failures& f) {
  std::vector<unsigned> order{1, 0};
  Layout unswizzled = ref::catalog::unswizzledShared(order, {64, 64});
  Layout optimal = analysis::optimalSwizzle(a, b, p.elementBytes).shared;
  for (const Layout* shared : {&unswizzled, &optimal})
    for (const Layout* l : {&a, &b})
      for (AccessKind kind : {AccessKind::kLoad, AccessKind::kStore}) {
        analysis::AccessSpec spec{kind, p.elementBytes, std::nullopt, Instruction::kVector, {}};
        auto closed = ref::analysis::lemma94(*l, *shared, spec);
        if (!closed) continue;
        auto simulated = ref::analysis::simulateBankConflicts(*l, *shared, spec);
        if (!(*closed == simulated))
          f.push_back("bank_conflicts: Lemma 9.4 gives " + std::to_string(closed->wavefronts) +
                      " wavefronts, the simulator " + std::to_string(simulated.wavefronts) +
                      (shared == &optimal ? " (optimal layout)" : " (unswizzled)"));
      }
}

void checkVectorization(const CatalogPair& p, const Layout& a, Failures& f) {
  std::vector<unsigned> order{1, 0};
  Layout offsets = analysis::offsetsOf(a, ref::catalog::unswizzledShared(order, {64, 64}));
  uint64_t elements = uint64_t{1} << analysis::vectorRegisterBits(offsets).size();
  if (!analysis::divideByTile(offsets, analysis::vectorTile<Layout>(elements)))
    f.push_back("vectorization: " + std::to_string(elements) +
                " elements found, but the layout does not divide by that tile");
  (void)p;
}

// Within a warp, the shuffle plan runs on a virtual warp; across warps the
// data goes through shared memory, which checkSwizzle simulates.
void checkConversion(const CatalogPair& p, const Layout& a, const Layout& b, Failures& f) {
  analysis::Classification c = analysis::classifyConversion(a, b);
  if (c.kind == analysis::ConversionKind::kSharedMemory) return;
  analysis::ShufflePlan plan = analysis::shufflePlan(a, b, p.elementBytes);
  if (plan.kind != c.kind)
    f.push_back("shuffle_plan: made for " + toString(plan.kind) + ", classified " +
                toString(c.kind));
  bool crossesLanes = false;
  for (const auto& round : plan.rounds)
    for (const analysis::ShuffleStep& s : round) crossesLanes |= s.srcLane != s.lane;
  if (crossesLanes != (c.kind == analysis::ConversionKind::kWarpShuffle))
    f.push_back("shuffle_plan: a " + toString(c.kind) + (crossesLanes ? " reads" : " never reads") +
                " from other lanes");
  ref::analysis::WarpSimulation run = ref::analysis::simulateShufflePlan(a, b, plan);
  for (const std::string& m : run.mismatches) f.push_back("shuffle_plan: " + m);
}

// Every axis along which the gather stays in a warp is run on a virtual warp.
void checkGather(const Layout& l, Failures& f) {
  for (size_t axis = 0; axis < l.value().out_dims.size(); ++axis)
    if (auto fault = gatherPlanFault(l, axis)) f.push_back(*fault);
}

// f2lay::ref and f2lay::opt give the same answer to every op the pair can be
// asked (the oracle's --check), so the catalog's layouts go through both.
void checkImplementationsAgree(const CatalogPair& p, const Layout& a, const Layout& b,
                               Failures& f) {
  Json la = layoutJson(a), lb = layoutJson(b);
  Json shared = layoutJson(ref::catalog::unswizzledShared({1, 0}, {64, 64}));
  uint64_t w = p.elementBytes;
  std::vector<Json> requests = {
      {{"op", "invert_and_compose"}, {"self", la}, {"other", lb}},
      {{"op", "invert_and_compose"}, {"self", lb}, {"other", la}},
      {{"op", "pseudoinvert"}, {"layout", la}},
      {{"op", "free_variable_masks"}, {"layout", lb}},
      {{"op", "classify_conversion"}, {"self", la}, {"other", lb}},
      {{"op", "shuffle_plan"},
       {"self", la},
       {"other", lb},
       {"element_bytes", std::min<uint64_t>(w, 8)}},
      {{"op", "optimal_swizzle"}, {"self", la}, {"other", lb}, {"element_bytes", w}},
      {{"op", "optimal_swizzle"},
       {"self", la},
       {"other", lb},
       {"element_bytes", w},
       {"construction", "paper"}},
  };
  for (const Json* l : {&la, &lb}) {
    requests.push_back({{"op", "vectorization"}, {"layout", *l}, {"shared", shared}});
    requests.push_back({{"op", "divide_by_tile"},
                        {"layout", *l},
                        {"shared", shared},
                        {"tile", "vector"},
                        {"elements", 4}});
    requests.push_back({{"op", "duplication"}, {"layout", *l}, {"axis", "dim1"}});
    for (size_t axis : {0, 1})
      requests.push_back({{"op", "gather_plan"}, {"layout", *l}, {"axis", axis}});
    for (const char* access : {"load", "store"})
      requests.push_back({{"op", "bank_conflicts"},
                          {"layout", *l},
                          {"shared", shared},
                          {"element_bytes", w},
                          {"access", access}});
  }
  for (const Json& r : requests) {
    Json answer = oracle::answer(r, Impl::kCheck);
    if (answer.contains("check_failed"))
      f.push_back(r["op"].get<std::string>() + ": " + answer["error"].get<std::string>());
  }
}

}  // namespace

std::vector<CaseResult> runCatalogPairChecks() {
  std::vector<CaseResult> results;
  std::vector<CatalogPair> pairs;
  try {
    pairs = catalogPairs();
  } catch (const Error& e) {
    return {{"catalog pairs (analyses)", "building the pairs", "every catalog request answered",
             false, e.what()}};
  }
  for (const CatalogPair& p : pairs) {
    CaseResult r{"catalog pairs (analyses)", p.name, "consistency with the simulators", false, ""};
    Failures failures;
    try {
      checkSwizzle(p, p.a, p.b, failures);
      checkOptimum(p, p.a, p.b, failures);
      checkLemma(p, p.a, p.b, failures);
      checkVectorization(p, p.a, failures);
      checkVectorization(p, p.b, failures);
      checkConversion(p, p.a, p.b, failures);
      checkGather(p.a, failures);
      checkGather(p.b, failures);
      checkImplementationsAgree(p, p.a, p.b, failures);
    } catch (const Error& e) {
      failures.push_back(std::string("error: ") + e.what());
    }
    r.passed = failures.empty();
    for (const std::string& s : failures) r.detail += (r.detail.empty() ? "" : "; ") + s;
    results.push_back(r);
  }
  return results;
}

std::optional<std::string> gatherPlanFault(const ref::LinearLayout& l, size_t axis) {
  if (!analysis::gatherLocality(l, axis).warpLocal) return std::nullopt;
  ref::analysis::GatherSimulation run =
      ref::analysis::simulateGather(l, axis, analysis::gatherPlan(l, axis), axis + 1);
  if (run.ok) return std::nullopt;
  return "gather_plan along axis " + std::to_string(axis) + ": " + run.detail;
}

}  // namespace f2lay::oracle
