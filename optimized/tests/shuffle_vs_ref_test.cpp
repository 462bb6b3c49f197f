// The shuffle plan (analysis/shuffle_plan_impl.h) on f2lay::opt's backend
// against the reference's: pairs that share their warp bases (so the data
// stays in a warp), with broadcast lanes and registers, every element width;
// the same sets, rounds, copies and errors (analyses_vs_ref_test.cpp says
// what this compares).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "analysis/conversion.h"
#include "optimized/tests/both.h"
#include "testkit/random_tensor_layouts.h"

namespace f2lay {
namespace {

using testkit::outcome;
using testkit::randomDistributed;
using testkit::TensorShape;
using testkit::toOpt;

// b: a's register and lane vectors dealt out again at random (zero lanes and
// registers inserted), a's warp bases kept.
ref::LinearLayout sameWarps(std::mt19937_64& rng, const ref::LinearLayout& a, int zeroLanes,
                            int zeroRegisters) {
  LayoutValue v = a.value();
  std::vector<Basis> pool;
  for (size_t d = 0; d < 2; ++d)  // register, lane
    for (const Basis& x : v.in_dims[d].bases)
      if (x != Basis{0, 0}) pool.push_back(x);
  std::shuffle(pool.begin(), pool.end(), rng);
  size_t lanes = 5 - zeroLanes;
  v.in_dims[1].bases = {pool.begin(), pool.begin() + lanes};
  testkit::insertZeros(rng, v.in_dims[1].bases, zeroLanes);
  v.in_dims[0].bases = {pool.begin() + lanes, pool.end()};
  testkit::insertZeros(rng, v.in_dims[0].bases, zeroRegisters);
  return ref::LinearLayout(v);
}

template <class Plan>
std::string show(const Plan& p) {
  std::string s =
      std::to_string(static_cast<int>(p.kind)) + " n" + std::to_string(p.vectorElements);
  for (const auto* set : {&p.V, &p.I, &p.E, &p.F, &p.G, &p.R}) {
    s += " [";
    for (uint64_t x : *set) s += std::to_string(x) + ",";
    s += "]";
  }
  for (uint64_t o : p.sendOffsets) s += " s" + std::to_string(o);
  for (uint64_t o : p.recvOffsets) s += " r" + std::to_string(o);
  for (const auto& round : p.rounds) {
    s += " |";
    for (const auto& step : round)
      s += " " + std::to_string(step.lane) + ":" + std::to_string(step.sendRegister) + "<" +
           std::to_string(step.srcLane) + ">" + std::to_string(step.recvRegister);
  }
  for (const auto& c : p.copies)
    s += " c" + std::to_string(c.dstRegister) + "=" + std::to_string(c.srcRegister);
  return s;
}

TEST(ShuffleVsRef, RandomPairsInOneWarp) {
  std::mt19937_64 rng(41);
  static const uint64_t widths[] = {1, 2, 4, 8, 3};
  int planned = 0, refused = 0;
  for (int t = 0; t < 500; ++t) {
    TensorShape shape{2 + static_cast<int>(rng() % 4), 2 + static_cast<int>(rng() % 4)};
    int warpBits = static_cast<int>(rng() % 2);
    int zeroLanesA = rng() % 4 == 0, zeroLanesB = rng() % 4 == 0;
    if (shape.bits() < 5 + warpBits) continue;
    ref::LinearLayout a(randomDistributed(rng, shape, warpBits, zeroLanesA, rng() % 2));
    if (zeroLanesA && !zeroLanesB && rng() % 2) zeroLanesB = 1;  // mostly pairable
    if (shape.bits() - warpBits - 5 + zeroLanesA < 5 - zeroLanesB - (5 - zeroLanesA)) continue;
    ref::LinearLayout b = sameWarps(rng, a, zeroLanesA ? zeroLanesB : zeroLanesB && rng() % 3 == 0,
                                    static_cast<int>(rng() % 2));
    uint64_t w = widths[rng() % 5];
    std::string byRef = outcome([&] { return show(ref::analysis::shufflePlan(a, b, w)); });
    std::string byOpt = outcome([&] {
      return show(opt::analysis::shufflePlan(opt::LinearLayout(a.value()),
                                             opt::LinearLayout(b.value()), w));
    });
    ASSERT_EQ(byOpt, byRef) << a << b << "w " << w;
    (byRef.rfind("error", 0) == 0 ? refused : planned)++;
  }
  EXPECT_GT(planned, 200);
  EXPECT_GT(refused, 20);
}

}  // namespace
}  // namespace f2lay
