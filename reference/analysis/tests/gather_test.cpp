// The §5.5 gather plan: golden cases by hand, and a simulation of the rounds
// on random layouts and random index tensors against the gather's definition.
#include "analysis/gather.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <random>

#include "definitions/layout_literals.h"
#include "reference/analysis/gather_simulator.h"
#include "reference/catalog/tests/test_support.h"
#include "testkit/random_tensor_layouts.h"

namespace f2lay::ref::analysis {
namespace {

using catalog::contains;
using catalog::errorMessage;
using catalog::testkit::distributed;

TEST(GatherPlan, OneRegisterBitAlongTheAxis) {
  // Triton's #trivial_layout_wider_reg_stride_1: register 1, lanes 2..32.
  LinearLayout l(LayoutValue{
      {{"register", {{1}}}, {"lane", {{2}, {4}, {8}, {16}, {32}}}, {"warp", {}}, {"block", {}}},
      {{"dim0", 64}}});
  GatherPlan p = gatherPlan(l, 0);
  EXPECT_EQ(p.laneBitsAlongAxis, 5);
  EXPECT_EQ(p.registerBitsAlongAxis, 1);
  EXPECT_EQ(p.paperRounds, 32u);
  EXPECT_EQ(p.rounds, 2u);  // the column's two registers, one shuffle each
  ASSERT_EQ(p.axisSources.size(), 6u);
  EXPECT_EQ(p.axisSources[0].registerMask, 1u);
  EXPECT_EQ(p.axisSources[0].laneMask, 0u);
  EXPECT_EQ(p.axisSources[1].registerMask, 0u);
  EXPECT_EQ(p.axisSources[1].laneMask, 1u);
  EXPECT_EQ(p.axisSources[5].laneMask, 16u);
  EXPECT_EQ(p.sendRegisters, (std::vector<std::vector<uint64_t>>{{0, 1}, {1, 0}}));
}

TEST(GatherPlan, AxisReachedByARegisterCombination) {
  // Register 2 holds dim0 = 3 (= 1 ^ 2), so dim0 = 2 is registers 1 ^ 2 away:
  // the register moves along the axis are 0b01 and 0b11, whose span is every
  // register (0, 1, 3, 2). Each index register's rounds send all four.
  LinearLayout l(LayoutValue{{{"register", {{1, 0}, {3, 0}}},
                              {"lane", {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}}},
                              {"warp", {}},
                              {"block", {}}},
                             {{"dim0", 4}, {"dim1", 32}}});
  GatherPlan p = gatherPlan(l, 0);
  EXPECT_EQ(p.rounds, 4u);
  ASSERT_EQ(p.axisSources.size(), 2u);
  EXPECT_EQ(p.axisSources[0].registerMask, 1u);
  EXPECT_EQ(p.axisSources[1].registerMask, 3u);
  ASSERT_EQ(p.sendRegisters.size(), 4u);
  for (uint64_t r = 0; r < 4; ++r) {
    std::vector<uint64_t> sent = p.sendRegisters[r];
    std::sort(sent.begin(), sent.end());
    EXPECT_EQ(sent, (std::vector<uint64_t>{0, 1, 2, 3})) << "index register " << r;
  }
  for (uint64_t seed = 0; seed < 4; ++seed) {
    GatherSimulation s = simulateGather(l, 0, p, seed);
    EXPECT_TRUE(s.ok) << s.detail;
  }
}

TEST(GatherPlan, AlongLanesOnlyOneRound) {
  // 32x4: register (0,1), lanes along dim0, warp (0,2). Along dim0 every
  // column lies in one register of 32 lanes: one shuffle per index register.
  LinearLayout l =
      distributed({{0, 1}}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}}, {{0, 2}}, {}, {32, 4});
  GatherPlan p = gatherPlan(l, 0);
  EXPECT_EQ(p.laneBitsAlongAxis, 5);
  EXPECT_EQ(p.registerBitsAlongAxis, 0);
  EXPECT_EQ(p.rounds, 1u);
  EXPECT_EQ(p.sendRegisters, (std::vector<std::vector<uint64_t>>{{0}, {1}}));
  // Along dim1 the warp bit moves: not warp-local.
  GatherLocality across = gatherLocality(l, 1);
  EXPECT_FALSE(across.warpLocal);
  EXPECT_EQ(across.reason,
            "warp bit 0 maps to [0, 2], which moves along dim1: the elements of a column lie in "
            "several warps");
  EXPECT_EQ(errorMessage([&] { (void)gatherPlan(l, 1); }),
            "gather plan: not warp-local: warp bit 0 maps to [0, 2], which moves along dim1: the "
            "elements of a column lie in several warps");
}

TEST(GatherPlan, Span2dCols) {
  // Triton's #span_2d_cols: register (1,0), lanes (2,0) (4,0) (8,0) (16,0)
  // (0,1); along dim0 one register bit and four lane bits.
  LinearLayout l =
      distributed({{1, 0}}, {{2, 0}, {4, 0}, {8, 0}, {16, 0}, {0, 1}}, {}, {}, {32, 2});
  GatherPlan p = gatherPlan(l, 0);
  EXPECT_EQ(p.laneBitsAlongAxis, 4);
  EXPECT_EQ(p.paperRounds, 16u);
  EXPECT_EQ(p.rounds, 2u);
}

TEST(GatherPlan, ZeroAxisPartIsNotEnoughBeyondDef410) {
  // The warp basis (0,1) has no dim0 part, but (1,0) = lane (1,1) ^ warp
  // (0,1): moving one step along dim0 changes the warp.
  LinearLayout l =
      distributed({}, {{1, 1}, {2, 0}, {4, 0}, {8, 0}, {16, 0}}, {{0, 1}}, {}, {32, 2});
  GatherLocality g = gatherLocality(l, 0);
  EXPECT_FALSE(g.warpLocal);
  EXPECT_EQ(g.reason,
            "bit 0 of dim0 is reached only with warp or block bits: moving along the axis "
            "crosses warps");
  EXPECT_PRED2(contains, errorMessage([&] { (void)gatherPlan(l, 2); }), "axis 2 is not an out dim");
}

TEST(GatherPlan, RandomLayoutsAndIndicesMatchTheDefinition) {
  std::mt19937_64 rng(55);
  int simulated = 0, refused = 0;
  for (int trial = 0; trial < 120; ++trial) {
    testkit::TensorShape t{3 + static_cast<int>(rng() % 3), 2 + static_cast<int>(rng() % 3)};
    int zeroLanes = static_cast<int>(rng() % 2);
    int warpBits = static_cast<int>(rng() % 2);
    int zeroRegs = static_cast<int>(rng() % 2);
    LinearLayout l(testkit::randomDistributed(rng, t, warpBits, zeroLanes, zeroRegs));
    for (size_t axis = 0; axis < 2; ++axis) {
      GatherLocality where = gatherLocality(l, axis);
      if (!where.warpLocal) {
        EXPECT_PRED2(contains, errorMessage([&] { (void)gatherPlan(l, axis); }), "not warp-local");
        ++refused;
        continue;
      }
      GatherPlan plan = gatherPlan(l, axis);
      EXPECT_EQ(plan.rounds, uint64_t{1} << plan.registerBitsAlongAxis) << l;
      for (int indices = 0; indices < 3; ++indices) {
        GatherSimulation s = simulateGather(l, axis, plan, rng());
        ASSERT_TRUE(s.ok) << l << "axis " << axis << ": " << s.detail;
        ++simulated;
      }
    }
  }
  EXPECT_GT(simulated, 300);
  EXPECT_GT(refused, 10);
  std::cout << "gather: simulated " << simulated << " random index tensors, refused " << refused
            << " layouts that are not warp-local\n";
}

}  // namespace
}  // namespace f2lay::ref::analysis
