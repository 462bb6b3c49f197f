// The laws of the §5 analyses: conversions deliver, the classification
// agrees with its plan and with brute force, the optimal swizzle is optimal
// and maximally vectorized; and ref == opt on every oracle op.
#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <set>

#include "analysis/conversion.h"
#include "analysis/optimal_swizzle.h"
#include "analysis/swizzle_optimum.h"
#include "optimized/analysis/bank_conflicts.h"
#include "oracle/op_requests.h"
#include "oracle/op_table.h"
#include "properties/conversion_case.h"
#include "properties/law_support.h"
#include "properties/laws.h"
#include "reference/analysis/bank_conflicts.h"
#include "reference/analysis/f2_space.h"
#include "reference/analysis/shared_roundtrip.h"
#include "reference/analysis/warp_simulator.h"
#include "testkit/columns.h"
#include "testkit/evaluate.h"
#include "testkit/outcome.h"
#include "testkit/subspaces.h"
#include "testkit/swizzle_search.h"

namespace f2lay::properties {

namespace {

using namespace ref::analysis;
using Layout = ref::LinearLayout;

// The input of l with bit i of `dim` set and every other bit clear.
ref::DimValues unitPlace(const Layout& l, const std::string& dim, int i) {
  ref::DimValues place;
  for (const std::string& d : l.getInDimNames())
    place.push_back({d, d == dim ? uint64_t{1} << i : 0});
  return place;
}

std::string shufflePlanDelivers(const Case& c) {
  const auto& p = conversionCase<Layout>(c);
  const Layout &a = p.a, &b = p.b;
  if (p.classification().kind == ConversionKind::kSharedMemory) return "";
  std::optional<ShufflePlan> plan = p.plan();
  if (!plan) return "";
  WarpSimulation run = simulateShufflePlan(a, b, *plan);
  return run.ok() ? "" : run.mismatches.front();
}

std::string sharedRoundTripDelivers(const Case& c) {
  const auto& p = conversionCase<Layout>(c);
  const Layout &a = p.a, &b = p.b;
  OptimalSwizzle s = p.swizzle();
  RoundTrip trip = simulateSharedRoundTrip(a, b, s.shared, elementBytes(c));
  return unless(trip.wrongElements == 0, trip.firstWrong);
}

// The kind by brute force over the elements each place holds: the same
// element everywhere is a no-op; each lane already holding what B wants of
// it, a register permutation; each warp, a shuffle; else shared memory.
ConversionKind bruteForceKind(const Layout& a, const Layout& b) {
  // (place, element) pairs, sorted, a place being (block, warp[, lane]).
  auto holdings = [](const Layout& l, bool perLane) {
    std::vector<std::pair<uint64_t, uint64_t>> held;
    int regs = l.getInDimSizeLog2("register"), lanes = l.getInDimSizeLog2("lane");
    std::vector<uint64_t> cols = testkit::columnsOf(l.value());
    for (uint64_t x = 0; x < (uint64_t{1} << cols.size()); ++x)
      held.push_back({perLane ? x >> regs : x >> (regs + lanes), testkit::applyColumns(cols, x)});
    std::sort(held.begin(), held.end());
    held.erase(std::unique(held.begin(), held.end()), held.end());
    return held;
  };
  auto within = [](const auto& need, const auto& have) {
    return std::includes(have.begin(), have.end(), need.begin(), need.end());
  };
  // No-op: every place of B (register, lane, warp, block) already holds
  // B's element in A, A's further registers unused. Both are linear, so
  // B's places agree with A's where each unit place does (Def 4.1): B's
  // column of each in-dim bit is A's of the same bit.
  bool same = b.getInDimSizeLog2("register") <= a.getInDimSizeLog2("register");
  for (const std::string& dim : b.getInDimNames())
    for (int i = 0; same && i < b.getInDimSizeLog2(dim); ++i)
      same = a.hasInDim(dim) && i < a.getInDimSizeLog2(dim) &&
             a.apply(unitPlace(a, dim, i)) == b.apply(unitPlace(b, dim, i));
  if (same) return ConversionKind::kNoOp;
  if (within(holdings(b, true), holdings(a, true))) return ConversionKind::kRegisterPermutation;
  if (within(holdings(b, false), holdings(a, false))) return ConversionKind::kWarpShuffle;
  return ConversionKind::kSharedMemory;
}

// The kind f2lay must answer, like Triton's minimalCvtLayout (§5.4): the
// brute-force kind, raised by one documented rule (properties/README.md).
// pull = B.invertAndCompose(A) reads bit j of B's level (register, lane or
// warp) from the same bit of A only where A's basis there holds data, or
// where Triton's broadcasting heuristic sets the whole level aside (equal
// bases in A and B; the generated layouts are Def 4.10, so equal bases also
// own their output bits, the heuristic's second condition). Elsewhere a bit
// that A broadcasts is read from another place (free bits zero), so the
// kind reaches that level even where every place already holds its data.
ConversionKind expectedKind(const Layout& a, const Layout& b, ConversionKind brute) {
  auto columns = [](const Layout& l, const std::string& level) {
    int below = 0;  // the in dims before `level`, flattened below it
    for (const std::string& name : l.getInDimNames()) {
      if (name == level) break;
      below += l.getInDimSizeLog2(name);
    }
    std::vector<uint64_t> all = testkit::columnsOf(l.value());
    return std::vector<uint64_t>(all.begin() + below,
                                 all.begin() + below + l.getInDimSizeLog2(level));
  };
  ConversionKind expected = brute;
  const std::pair<const char*, ConversionKind> levels[] = {
      {"register", ConversionKind::kRegisterPermutation},
      {"lane", ConversionKind::kWarpShuffle},
      {"warp", ConversionKind::kSharedMemory}};
  for (const auto& [level, kind] : levels) {
    std::vector<uint64_t> ca = columns(a, level), cb = columns(b, level);
    bool aBroadcasts = false;  // a bit that B has and A broadcasts
    for (size_t j = 0; j < std::min(ca.size(), cb.size()); ++j) aBroadcasts |= ca[j] == 0;
    if (aBroadcasts && ca != cb) expected = std::max(expected, kind);
  }
  return expected;
}

std::string classificationMatchesPlan(const Case& c) {
  const auto& p = conversionCase<Layout>(c);
  const Layout &a = p.a, &b = p.b;
  Classification got = p.classification();
  ConversionKind brute = bruteForceKind(a, b), expected = expectedKind(a, b, brute);
  // Exact both ways: cheaper than the data allows would leave elements
  // behind; dearer wastes a shuffle or a trip through shared memory.
  if (got.kind != expected)
    return "classified " + toString(got.kind) + ", expected " + toString(expected) +
           " (the data needs " + toString(brute) + ")";
  if (got.minimalKind != brute)
    return "minimal kind " + toString(got.minimalKind) + ", but the data needs " + toString(brute);
  ConversionKind kind = got.kind;
  if (kind == ConversionKind::kSharedMemory) return "";
  std::optional<ShufflePlan> plan = p.plan();
  if (!plan) return "";
  if (plan->kind != kind) return "plan made for " + toString(plan->kind);
  bool crossesLanes = false;
  for (const auto& round : plan->rounds)
    for (const ShuffleStep& s : round) crossesLanes |= s.srcLane != s.lane;
  return unless(
      crossesLanes == (kind == ConversionKind::kWarpShuffle),
      "a " + toString(kind) + (crossesLanes ? " reads" : " never reads") + " other lanes");
}

WavefrontReport simulate(const Layout& dist, const Layout& shared, uint64_t w, AccessKind kind,
                         uint64_t vectorBytes) {
  return simulateBankConflicts(dist, shared, {kind, w, vectorBytes, Instruction::kVector, {}});
}

uint64_t totalWavefronts(const Layout& a, const Layout& b, const Layout& s, uint64_t w,
                         uint64_t vectorBytes) {
  return simulate(a, s, w, AccessKind::kStore, vectorBytes).wavefronts +
         simulate(b, s, w, AccessKind::kLoad, vectorBytes).wavefronts;
}

// Lemma 9.5: with 32-lane warps the construction's Idx avoids both sides'
// phases, so where each vector covers a bank (Lemma 9.4 exact) both accesses
// run without conflicts, as the simulator counts them.
std::string swizzleMeetsTheBound(const Case& c) {
  const auto& p = conversionCase<Layout>(c);
  const Layout &a = p.a, &b = p.b;
  uint64_t w = elementBytes(c);
  OptimalSwizzle s = p.swizzle();
  if (s.vectorBytes < 4) return "";
  WavefrontReport store = simulate(a, s.shared, w, AccessKind::kStore, s.vectorBytes);
  WavefrontReport load = simulate(b, s.shared, w, AccessKind::kLoad, s.vectorBytes);
  if (store.wavefronts != store.idealWavefronts)
    return "the store takes " + str(store.wavefronts) + " wavefronts, " +
           str(store.idealWavefronts) + " ideal";
  return unless(load.wavefronts == load.idealWavefronts, "the load takes " + str(load.wavefronts) +
                                                             " wavefronts, " +
                                                             str(load.idealWavefronts) + " ideal");
}

// The swizzle optimum (swizzle_optimum.h) on the simulator, which shares no
// code with it: the conversion delivers every element, each side costs
// exactly what the optimum predicts (at its own vector width), no side costs
// less than its own bound, the total is at most §5.4's construction's, and
// the total, instructions and bounds are the exhaustive search's where it
// finishes.
std::string optimumIsPredictedAndBounded(const Case& c) {
  const auto& p = conversionCase<Layout>(c);
  uint64_t w = elementBytes(c);
  const SwizzleOptimum<Layout>& s = p.optimum();
  RoundTrip trip = simulateSharedRoundTrip(p.a, p.b, s.shared, w);
  if (trip.wrongElements != 0)
    return str(trip.wrongElements) + " elements wrong: " + trip.firstWrong;
  const Layout storing = storingWarps(p.a);  // A's warps that hold copies do not store
  WavefrontReport store = simulate(storing, s.shared, w, AccessKind::kStore, s.store.vectorBytes);
  WavefrontReport load = simulate(p.b, s.shared, w, AccessKind::kLoad, s.load.vectorBytes);
  if (store.wavefronts != s.store.wavefronts() || store.instructions != s.store.instructions)
    return "the store takes " + str(store.wavefronts) + " wavefronts in " +
           str(store.instructions) + " instructions, predicted " + str(s.store.wavefronts()) +
           " in " + str(s.store.instructions);
  if (load.wavefronts != s.load.wavefronts() || load.instructions != s.load.instructions)
    return "the load takes " + str(load.wavefronts) + " wavefronts in " + str(load.instructions) +
           " instructions, predicted " + str(s.load.wavefronts()) + " in " +
           str(s.load.instructions);
  if (s.store.wavefronts() < s.storeBound.wavefronts() ||
      s.load.wavefronts() < s.loadBound.wavefronts())
    return "a side costs less than its own lower bound";
  const OptimalSwizzle<Layout>& paper = p.swizzle();
  uint64_t paperTotal = totalWavefronts(p.a, p.b, paper.shared, w, paper.vectorBytes);
  if (s.wavefronts() > paperTotal)
    return "the optimum costs " + str(s.wavefronts()) + " wavefronts, §5.4's construction " +
           str(paperTotal);
  // The exhaustive search over memory layouts (testkit/swizzle_search.h),
  // where it finishes within its budget: the same minimum and bounds.
  using testkit::SearchInstruction;
  testkit::SearchSide sa{&storing.value(), true, SearchInstruction::kVector};
  testkit::SearchSide sb{&c.layouts[1], false, SearchInstruction::kVector};
  constexpr uint64_t kBudget = 200'000;
  auto best = testkit::searchSwizzleMinimum(sa, sb, w, kBudget);
  if (!best) return "";
  if (best->total != s.wavefronts() || best->instructions != s.instructions())
    return "the exhaustive search finds " + str(best->total) + " wavefronts in " +
           str(best->instructions) + " instructions, the optimum " + str(s.wavefronts()) + " in " +
           str(s.instructions());
  auto storeBound = testkit::searchSideMinimum(sa, w, kBudget);
  auto loadBound = testkit::searchSideMinimum(sb, w, kBudget);
  if (storeBound && storeBound->total != s.storeBound.wavefronts())
    return "the store's bound is " + str(s.storeBound.wavefronts()) + ", the search finds " +
           str(storeBound->total);
  return unless(!loadBound || loadBound->total == s.loadBound.wavefronts(),
                "the load's bound is " + str(s.loadBound.wavefronts()) + ", the search finds " +
                    str(loadBound ? loadBound->total : 0));
}

// The memory layout with Vec, the bank completion and the given Idx.
Layout alternative(const Layout& a, const OptimalSwizzle<Layout>& s, const Vecs& idx) {
  int d = a.getTotalOutDimSizeLog2();
  Vecs vIdx = s.sets.V, bits = s.sets.V;
  vIdx.insert(vIdx.end(), idx.begin(), idx.end());
  Vecs bank = completeWithUnits(vIdx, d);
  bits.insert(bits.end(), bank.begin(), bank.end());
  bits.insert(bits.end(), idx.begin(), idx.end());
  return Layout(testkit::memoryFrom(a.value(), bits));
}

// No memory layout with the same Vec does better: every Idx subspace when
// there are at most params.idx_trials (default 300), else that many random
// ones, at most 20 (params.seed picks them). The fuzzers try a few an input
// (a simulation each costs what the rest of the input does) and leave the
// choice to the input's bytes.
std::string swizzleIsOptimal(const Case& c) {
  const auto& p = conversionCase<Layout>(c);
  const Layout &a = p.a, &b = p.b;
  uint64_t w = elementBytes(c);
  OptimalSwizzle s = p.swizzle();
  if (s.vectorBytes < 4) return "";  // narrower: not optimal, optimal_swizzle.h says why
  uint64_t ours = totalWavefronts(a, b, s.shared, w, s.vectorBytes);
  Vecs quotient = completeWithUnits(s.sets.V, a.getTotalOutDimSizeLog2());
  const uint64_t trials = c.params.value("idx_trials", uint64_t{300});
  uint64_t count = 1;
  for (int i = 0; i < s.idxBits && count <= trials; ++i)
    count = count * ((uint64_t{1} << (quotient.size() - i)) - 1) / ((uint64_t{1} << (i + 1)) - 1);
  std::string found;
  auto tryIdx = [&](const Vecs& idx) {
    uint64_t theirs = totalWavefronts(a, b, alternative(a, s, idx), w, s.vectorBytes);
    if (theirs < ours && found.empty())
      found = "Idx " + str(idx.size()) + " vectors give " + str(theirs) + " wavefronts, ours " +
              str(ours);
  };
  if (count <= trials) {
    f2lay::testkit::forEachSubspace(quotient, s.idxBits, tryIdx);
    return found;
  }
  std::mt19937_64 rng(c.params.value("seed", uint64_t{1}));
  for (uint64_t trial = 0; trial < std::min<uint64_t>(trials, 20); ++trial) {
    Vecs idx, span = s.sets.V;
    while (static_cast<int>(idx.size()) < s.idxBits) {
      Vec x = 0;
      for (Vec q : quotient)
        if (rng() & 1) x ^= q;
      if (x && !inSpan(span, x)) {
        idx.push_back(x);
        span.push_back(x);
      }
    }
    tryIdx(idx);
  }
  return found;
}

// §5.1: Vec is as wide as both sides allow: the elements A's registers
// hold at lane 0 and warp 0, met with B's, up to 16 bytes.
std::string vectorizationIsMaximal(const Case& c) {
  const auto& p = conversionCase<Layout>(c);
  const Layout &a = p.a, &b = p.b;
  uint64_t w = elementBytes(c);
  auto registerElements = [](const Layout& l) {
    std::set<uint64_t> s;
    std::vector<uint64_t> cols = testkit::columnsOf(l.value());
    for (uint64_t r = 0; r < (uint64_t{1} << l.getInDimSizeLog2("register")); ++r)
      s.insert(testkit::applyColumns(cols, r));
    return s;
  };
  std::set<uint64_t> sa = registerElements(a), sb = registerElements(b);
  uint64_t common = 0;
  for (uint64_t e : sa) common += sb.count(e);
  uint64_t expected = std::min<uint64_t>(16, w * common);
  OptimalSwizzle s = p.swizzle();
  if (s.vectorBytes != expected)
    return "Vec is " + str(s.vectorBytes) + " bytes; the registers share " + str(common) +
           " elements of " + str(w) + " bytes";
  RoundTrip trip = simulateSharedRoundTrip(a, b, s.shared, w);
  return unless(
      trip.storeVectorElements * w >= s.vectorBytes && trip.loadVectorElements * w >= s.vectorBytes,
      "the round trip moves narrower vectors than Vec");
}

// Every op of the op table that both implementations answer, on the case's
// layouts (self, and other and shared from every layout of the case when the
// op reads them), its other keys drawn for it (oracle/op_requests.h) from a
// generator seeded by the case, so that a case always asks the same: ref
// and opt give the same answer or the same error.
std::string refEqualsOpt(const Case& c) {
  std::string seedText;
  for (const LayoutValue& l : c.layouts) seedText += writeJsonLayout(l);
  std::mt19937_64 rng(std::hash<std::string>{}(seedText));
  for (const oracle::Op& op : oracle::opTable()) {
    if (!op.runOpt) continue;
    bool pairs = false;
    for (const oracle::OpArg& arg : op.doc.args)
      pairs = pairs || std::string(arg.key) == "other" || std::string(arg.key) == "shared";
    for (const LayoutValue& x : c.layouts)
      for (const LayoutValue& y : pairs ? c.layouts : std::vector<LayoutValue>{x}) {
        f2lay::oracle::DrawnRequest request([&](uint64_t n) { return rng() % n; }, {x, y, y});
        Json r = oracle::attempt(op.run, request), o = oracle::attempt(op.runOpt, request);
        if (r != o)
          return op.doc.name + " (" + request.describe() + "): ref says " + r.dump() +
                 ", opt says " + o.dump();
      }
  }
  return "";
}

// Padded memory (analysis/padding.h): A stores into, and B loads from, the
// identity memory layout of the tensor padded by the case's pair; every
// element arrives, and ref's bank simulator and opt's models agree at the
// padded addresses for the store per A and the load per B (Lemma 9.4
// answers null where the padding pads inside).
std::string paddedMemoryDelivers(const Case& c) {
  const LayoutValue& av = c.layouts[0];
  Layout a(av), b(c.layouts[1]);
  LayoutValue mv{{{"offset", {}}}, av.out_dims};
  size_t rank = av.out_dims.size();
  std::vector<size_t> order(rank);
  for (size_t d = 0; d < rank; ++d)
    order[d] = c.params.at("row_major").get<uint64_t>() ? rank - 1 - d : d;
  for (size_t d : order)
    for (uint64_t x = 1; x < av.out_dims[d].size; x *= 2) {
      Basis basis(rank, 0);
      basis[d] = x;
      mv.in_dims[0].bases.push_back(basis);
    }
  Layout memory(mv);
  f2lay::analysis::Padding padding = {{c.params.at("padding_interval").get<uint64_t>(),
                                       c.params.at("padding_amount").get<uint64_t>()}};
  RoundTrip trip = simulateSharedRoundTrip(a, b, memory, elementBytes(c), padding);
  if (trip.wrongElements) return "round trip: " + trip.firstWrong;
  opt::LinearLayout oa(av), ob(c.layouts[1]), om(mv);
  for (bool store : {true, false}) {
    AccessSpec access{store ? AccessKind::kStore : AccessKind::kLoad, elementBytes(c), std::nullopt,
                      Instruction::kVector, padding};
    const Layout& dist = store ? a : b;
    std::string byRef = f2lay::testkit::outcome([&] {
      auto r = simulateBankConflicts(dist, memory, access);
      return std::to_string(r.instructions) + " " + std::to_string(r.wavefronts) + " " +
             std::to_string(r.idealWavefronts) + " " + std::to_string(r.vectorBytes);
    });
    std::string byOpt = f2lay::testkit::outcome([&] {
      auto r = opt::analysis::bankConflicts(store ? oa : ob, om, access);
      return std::to_string(r.instructions) + " " + std::to_string(r.wavefronts) + " " +
             std::to_string(r.idealWavefronts) + " " + std::to_string(r.vectorBytes);
    });
    if (byRef != byOpt)
      return std::string(store ? "store" : "load") + ": ref " + byRef + ", opt " + byOpt;
    if (f2lay::analysis::paddedInside(memory, access) &&
        f2lay::testkit::outcome(
            [&] { return lemma94(dist, memory, access).has_value() ? "1" : "0"; }) == "1")
      return "Lemma 9.4 answered on padded memory";
  }
  return "";
}

}  // namespace

std::string conversionTag(const Case& c) {
  const auto& p = conversionCase<Layout>(c);
  bool wide = p.swizzle().vectorBytes >= 4;
  return toString(p.classification().kind) + (wide ? ", vec >= 4 bytes" : ", vec < 4 bytes");
}

std::string classificationTag(const Case& c) {
  const auto& p = conversionCase<Layout>(c);
  const Layout &a = p.a, &b = p.b;
  ConversionKind brute = bruteForceKind(a, b), expected = expectedKind(a, b, brute);
  return toString(expected) + (expected == brute ? "" : " (data: " + toString(brute) + ")");
}

bool shufflePlanApplies(const Case& c) {
  const auto& p = conversionCase<Layout>(c);
  return p.classification().kind != ConversionKind::kSharedMemory && p.plan();
}

std::string shuffleTag(const Case& c) {
  const auto& p = conversionCase<Layout>(c);
  if (p.classification().kind == ConversionKind::kSharedMemory) return "shared_memory";
  std::optional<ShufflePlan> plan = p.plan();
  if (!plan) return "refused";
  uint64_t bytes = plan->vectorElements * std::min<uint64_t>(elementBytes(c), 8);
  return toString(plan->kind) + ", " + str(plan->rounds.size()) + " round" +
         (plan->rounds.size() == 1 ? "" : "s") + " of " + str(bytes) + "-byte vectors";
}

void addAnalysisLaws(std::map<std::string, Law>& laws) {
  laws["shuffle_plan_delivers"] = shufflePlanDelivers;
  laws["shared_round_trip_delivers"] = sharedRoundTripDelivers;
  laws["classification_matches_plan"] = classificationMatchesPlan;
  laws["swizzle_meets_the_bound"] = swizzleMeetsTheBound;
  laws["swizzle_is_optimal"] = swizzleIsOptimal;
  laws["optimum_is_predicted_and_bounded"] = optimumIsPredictedAndBounded;
  laws["vectorization_is_maximal"] = vectorizationIsMaximal;
  laws["ref_equals_opt"] = refEqualsOpt;
  laws["padded_memory_delivers"] = paddedMemoryDelivers;
}

}  // namespace f2lay::properties
