// Random conversions between Def 4.10 distributed layouts that share their
// warp bits (so every one stays inside a warp): the classification against a
// brute-force search of where A holds each element of B, and every plan run
// on the virtual warp.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <random>

#include "analysis/conversion.h"
#include "reference/analysis/warp_simulator.h"
#include "reference/catalog/tests/test_support.h"
#include "testkit/random_tensor_layouts.h"

namespace f2lay::ref::analysis {
namespace {

using testkit::TensorShape;
using testkit::unit;

struct Shape {
  TensorShape tensor;
  int warpBits, zeroLanes, zeroRegsA, zeroRegsB;
};

// The tensor bits left after the warp bits, shuffled: lanes first (with
// zeroLanes zero bases inserted at random lane bits), then registers.
LinearLayout side(std::mt19937_64& rng, const Shape& s, std::vector<int> rest,
                  const std::vector<Basis>& warp, int zeroRegs) {
  std::shuffle(rest.begin(), rest.end(), rng);
  std::vector<Basis> lane, reg;
  for (size_t i = 0; i < rest.size(); ++i)
    (static_cast<int>(i) < 5 - s.zeroLanes ? lane : reg).push_back(unit(s.tensor, rest[i]));
  testkit::insertZeros(rng, lane, s.zeroLanes);
  testkit::insertZeros(rng, reg, zeroRegs);
  return LinearLayout(
      LayoutValue{{{"register", reg}, {"lane", lane}, {"warp", warp}}, s.tensor.outDims()});
}

std::pair<LinearLayout, LinearLayout> randomPair(std::mt19937_64& rng, const Shape& s) {
  std::vector<int> perm = testkit::shuffledBits(rng, s.tensor);
  std::vector<Basis> warp;
  for (int i = 0; i < s.warpBits; ++i) warp.push_back(unit(s.tensor, perm[i]));
  std::vector<int> rest(perm.begin() + s.warpBits, perm.end());
  LinearLayout a = side(rng, s, rest, warp, s.zeroRegsA);
  LinearLayout b = side(rng, s, rest, warp, s.zeroRegsB);
  return {a, b};
}

// a with its register bases in another random order.
LinearLayout shuffledRegisters(std::mt19937_64& rng, const LinearLayout& a) {
  LayoutValue v = a.value();
  for (InDim& in : v.in_dims)
    if (in.name == "register") std::shuffle(in.bases.begin(), in.bases.end(), rng);
  return LinearLayout(v);
}

uint64_t countOf(const LinearLayout& l, const char* dim) {
  return uint64_t{1} << l.getInDimSizeLog2(dim);
}

DimValues at(uint64_t r, uint64_t t, uint64_t w) {
  return {{"register", r}, {"lane", t}, {"warp", w}};
}

// The least level any source allows, by searching all of A's locations.
ConversionKind bruteForceKind(const LinearLayout& a, const LinearLayout& b) {
  std::map<DimValues, std::vector<std::pair<uint64_t, uint64_t>>> holders;  // (lane, warp)
  for (uint64_t w = 0; w < countOf(a, "warp"); ++w)
    for (uint64_t t = 0; t < countOf(a, "lane"); ++t)
      for (uint64_t r = 0; r < countOf(a, "register"); ++r)
        holders[a.apply(at(r, t, w))].push_back({t, w});
  bool equal = countOf(a, "register") >= countOf(b, "register");
  ConversionKind worst = ConversionKind::kNoOp;
  for (uint64_t w = 0; w < countOf(b, "warp"); ++w)
    for (uint64_t t = 0; t < countOf(b, "lane"); ++t)
      for (uint64_t r = 0; r < countOf(b, "register"); ++r) {
        DimValues e = b.apply(at(r, t, w));
        if (equal && r < countOf(a, "register") && a.apply(at(r, t, w)) == e) continue;
        equal = false;
        ConversionKind k = ConversionKind::kSharedMemory;
        for (const auto& [lane, warp] : holders[e]) {
          if (lane == t && warp == w) k = std::min(k, ConversionKind::kRegisterPermutation);
          if (warp == w) k = std::min(k, ConversionKind::kWarpShuffle);
        }
        worst = std::max(worst, k);
      }
  return equal ? ConversionKind::kNoOp : std::max(worst, ConversionKind::kRegisterPermutation);
}

TEST(ShuffleRandom, EveryPlanReachesB) {
  std::mt19937_64 rng(20250704);
  const uint64_t widths[] = {1, 2, 4, 8};
  int simulated = 0, shuffles = 0, permutations = 0, noOps = 0, refused = 0;
  for (int trial = 0; trial < 400; ++trial) {
    Shape s{{3 + static_cast<int>(rng() % 3), 2 + static_cast<int>(rng() % 3)},
            static_cast<int>(rng() % 3),
            0,
            0,
            0};
    if (trial % 4 == 1) s.zeroRegsA = 1;
    if (trial % 4 == 2) s.zeroRegsB = 1 + static_cast<int>(rng() % 2);
    if (trial % 4 == 3) s.zeroLanes = 1;  // in both, at bits chosen independently
    s.warpBits = std::min(s.warpBits, s.tensor.bits() - (5 - s.zeroLanes));
    auto [a, b] = randomPair(rng, s);
    if (trial % 8 == 5) b = shuffledRegisters(rng, a);  // a register permutation or no-op
    Classification c = classifyConversion(a, b);
    ASSERT_EQ(c.minimalKind, bruteForceKind(a, b)) << a << b;
    ASSERT_GE(c.kind, c.minimalKind);
    if (s.zeroRegsA == 0 && s.zeroLanes == 0) {
      ASSERT_EQ(c.kind, c.minimalKind) << a << b;
    }
    ASSERT_NE(c.kind, ConversionKind::kSharedMemory) << a << b;
    uint64_t width = widths[rng() % 4];
    ShufflePlan plan = shufflePlan(a, b, width);
    WarpSimulation sim = simulateShufflePlan(a, b, plan);
    ASSERT_TRUE(sim.ok()) << a << b << "element bytes " << width << ": "
                          << ::testing::PrintToString(sim.mismatches);
    ASSERT_EQ(sim.warps, countOf(a, "warp"));
    ++simulated;
    shuffles += c.kind == ConversionKind::kWarpShuffle;
    permutations += c.kind == ConversionKind::kRegisterPermutation;
    noOps += c.kind == ConversionKind::kNoOp;
  }
  // Lane broadcasts in one layout only: refused with the lane bit named.
  for (int trial = 0; trial < 50; ++trial) {
    Shape s{{3, 3}, 0, 1, 0, 0};
    LinearLayout a = randomPair(rng, s).first;
    Shape t{{3, 3}, 0, 0, 0, 0};
    LinearLayout b = randomPair(rng, t).first;
    std::string error = catalog::errorMessage([&] { (void)shufflePlan(a, b, 4); });
    if (catalog::contains(error, "needs shared memory")) continue;  // cannot happen: no warps
    EXPECT_PRED2(catalog::contains, error, "is a broadcast in A but not in B");
    ++refused;
  }
  EXPECT_EQ(simulated, 400);
  EXPECT_GT(shuffles, 300);
  EXPECT_GT(permutations + noOps, 30);
  EXPECT_EQ(refused, 50);
  RecordProperty("simulated", simulated);
  std::cout << "simulated " << simulated << " plans: " << shuffles << " shuffles, " << permutations
            << " register permutations, " << noOps << " no-ops; refused " << refused
            << " one-sided lane broadcasts\n";
}

}  // namespace
}  // namespace f2lay::ref::analysis
