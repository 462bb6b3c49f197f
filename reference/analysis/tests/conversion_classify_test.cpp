// classifyConversion (§5.4): golden cases derived by hand, and broadcasts.
#include <gtest/gtest.h>

#include "analysis/conversion.h"
#include "definitions/layout_literals.h"
#include "reference/catalog/blocked.h"
#include "reference/catalog/nvidia_mma.h"
#include "reference/catalog/tests/test_support.h"

namespace f2lay::ref::analysis {
namespace {

using catalog::contains;
using catalog::errorMessage;
using catalog::testkit::distributed;

// The paper's Figure 1 layout A (linear_layout.h's worked example): 16x16,
// registers (0,1) (1,0), lanes (0,2) (0,4) (0,8) (2,0) (4,0), warp (8,0).
LinearLayout figure1A() {
  return distributed({{0, 1}, {1, 0}}, {{0, 2}, {0, 4}, {0, 8}, {2, 0}, {4, 0}}, {{8, 0}}, {},
                     {16, 16});
}

LinearLayout oneD(std::vector<Basis> reg, std::vector<Basis> lane, uint64_t size) {
  return LinearLayout(
      LayoutValue{{{"register", reg}, {"lane", lane}, {"warp", {}}}, {{"dim0", size}}});
}

TEST(ClassifyConversion, Figure1AIsBlocked) {
  // blocked [2,2] per thread, [4,8] threads, [2,1] warps, order [1,0].
  EXPECT_EQ(catalog::blocked({{2, 2}, {4, 8}, {2, 1}, {1, 0}, std::nullopt}, {16, 16}), figure1A());
}

TEST(ClassifyConversion, RegisterTransposeIsARegisterPermutation) {
  // B swaps the two register bits: B's register 1 holds (1,0), which A holds
  // in its register 2 of the same lane.
  LinearLayout b = distributed({{1, 0}, {0, 1}}, {{0, 2}, {0, 4}, {0, 8}, {2, 0}, {4, 0}}, {{8, 0}},
                               {}, {16, 16});
  Classification c = classifyConversion(figure1A(), b);
  EXPECT_EQ(c.kind, ConversionKind::kRegisterPermutation);
  EXPECT_EQ(c.minimalKind, ConversionKind::kRegisterPermutation);
  EXPECT_EQ(c.reason,
            "register bit 0 of B reads from register 2 of A instead of register 1: data moves "
            "between registers of a lane");
  // pull: out dims are A's in dims (register, lane, warp, block).
  EXPECT_EQ(c.pull.value().in_dims[0].bases, (std::vector<Basis>{{2, 0, 0, 0}, {1, 0, 0, 0}}));
  EXPECT_EQ(c.pull.value().in_dims[1].bases[3], (Basis{0, 8, 0, 0}));
  EXPECT_EQ(toString(c.kind), "register_permutation");
}

TEST(ClassifyConversion, BlockedThreadShapesAreAShuffle) {
  // [1,4] per thread on 8x32: [4,8] threads leave (4,0) to a register,
  // [8,4] threads leave (0,16) to a register, which A holds in lane 4.
  LinearLayout a = catalog::blocked({{1, 4}, {4, 8}, {1, 1}, {1, 0}, std::nullopt}, {8, 32});
  LinearLayout b = catalog::blocked({{1, 4}, {8, 4}, {1, 1}, {1, 0}, std::nullopt}, {8, 32});
  ASSERT_EQ(a, distributed({{0, 1}, {0, 2}, {4, 0}}, {{0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 0}}, {},
                           {}, {8, 32}));
  ASSERT_EQ(b, distributed({{0, 1}, {0, 2}, {0, 16}}, {{0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 0}}, {},
                           {}, {8, 32}));
  Classification c = classifyConversion(a, b);
  EXPECT_EQ(c.kind, ConversionKind::kWarpShuffle);
  EXPECT_EQ(c.reason,
            "register bit 2 of B reads from lane 4 of A instead of lane 0: data moves between "
            "lanes of a warp");
  EXPECT_EQ(toString(c.kind), "warp_shuffle");
}

TEST(ClassifyConversion, DifferentWarpsGoThroughSharedMemory) {
  // B swaps A's lane bit 4 (4,0) with its warp bit (8,0).
  LinearLayout b = distributed({{0, 1}, {1, 0}}, {{0, 2}, {0, 4}, {0, 8}, {2, 0}, {8, 0}}, {{4, 0}},
                               {}, {16, 16});
  Classification c = classifyConversion(figure1A(), b);
  EXPECT_EQ(c.kind, ConversionKind::kSharedMemory);
  EXPECT_EQ(c.reason,
            "lane bit 4 of B reads from warp 1 of A instead of warp 0: data crosses warps");
  EXPECT_EQ(toString(c.kind), "shared_memory");
  EXPECT_PRED2(contains, errorMessage([&] { (void)shufflePlan(figure1A(), b, 4); }),
               "needs shared memory");
}

TEST(ClassifyConversion, MmaV2AndTheSameMapWrittenLiterallyIsANoOp) {
  LinearLayout mma = catalog::nvidiaMma({{2, 0}, {1, 1}, {16, 8}, std::nullopt}, {16, 16});
  // Triton's MMAv2_16x16, with the in dims listed in another order.
  LinearLayout literal(LayoutValue{{{"lane", {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}},
                                    {"register", {{0, 1}, {8, 0}, {0, 8}}},
                                    {"warp", {}},
                                    {"block", {}}},
                                   {{"dim0", 16}, {"dim1", 16}}});
  Classification c = classifyConversion(mma, literal);
  EXPECT_EQ(c.kind, ConversionKind::kNoOp);
  EXPECT_EQ(c.minimalKind, ConversionKind::kNoOp);
  EXPECT_EQ(toString(c.kind), "no_op");
}

TEST(ClassifyConversion, EqualLayoutsWithZeroBasesAreANoOp) {
  LinearLayout l = oneD({{0}, {1}}, {{2}, {4}, {8}, {16}, {0}}, 32);
  Classification c = classifyConversion(l, l);
  EXPECT_EQ(c.kind, ConversionKind::kNoOp);
  EXPECT_EQ(c.reason,
            "every location of B reads the same location of A: the layouts are equal maps");
}

TEST(ClassifyConversion, BBroadcastingALaneBitThatAUsesIsNotARegisterPermutation) {
  // A: one element per lane. B: lane bit 4 broadcast, so lane 16 holds
  // elements 0 and 16, which A holds in lanes 0 and 16.
  LinearLayout a = oneD({}, {{1}, {2}, {4}, {8}, {16}}, 32);
  LinearLayout b = oneD({{16}}, {{1}, {2}, {4}, {8}, {0}}, 32);
  Classification c = classifyConversion(a, b);
  EXPECT_EQ(c.kind, ConversionKind::kWarpShuffle);
  EXPECT_EQ(c.minimalKind, ConversionKind::kWarpShuffle);
  EXPECT_EQ(c.reason,
            "register bit 0 of B reads from lane 16 of A instead of lane 0: data moves between "
            "lanes of a warp");
}

TEST(ClassifyConversion, ABroadcastingALaneBitMakesPullConservative) {
  // A: lanes t and t ^ 1 both hold elements (t & ~1) and (t | 1), so B's lane
  // t finds its element t in its own registers; pull's minimum-norm choice
  // reads lane 1's element 1 from A's lane 0 (register 1) instead.
  LinearLayout a = oneD({{1}}, {{0}, {2}, {4}, {8}, {16}}, 32);
  LinearLayout b = oneD({}, {{1}, {2}, {4}, {8}, {16}}, 32);
  Classification c = classifyConversion(a, b);
  EXPECT_EQ(c.kind, ConversionKind::kWarpShuffle);
  EXPECT_EQ(c.minimalKind, ConversionKind::kRegisterPermutation);
  EXPECT_PRED2(contains, c.reason, "lane bit 0 of B reads from lane 0 of A instead of lane 1");
  EXPECT_PRED2(contains, c.reason, "of kind register_permutation");
}

TEST(ClassifyConversion, RefusesWhatIsNotAConversion) {
  LinearLayout a = figure1A();
  EXPECT_PRED2(contains, errorMessage([&] {
                 (void)classifyConversion(
                     a, distributed({{0, 1}, {1, 0}}, {{0, 2}, {0, 4}, {0, 8}, {2, 0}, {4, 0}},
                                    {{8, 0}}, {}, {16, 32}));
               }),
               "differ from B's");
  LinearLayout offsets(LayoutValue{{{"offset", {{1}, {2}}}}, {{"dim0", 4}}});
  EXPECT_PRED2(contains, errorMessage([&] { (void)classifyConversion(offsets, offsets); }),
               "has in dim 'offset'");
  LinearLayout notOnto = oneD({{1}}, {{2}, {4}, {8}, {16}, {0}}, 64);
  EXPECT_PRED2(contains, errorMessage([&] { (void)classifyConversion(notOnto, notOnto); }),
               "not surjective");
  LinearLayout fewerLanes = oneD({{1}, {16}}, {{2}, {4}, {8}}, 32);
  EXPECT_PRED2(contains, errorMessage([&] {
                 (void)classifyConversion(oneD({}, {{1}, {2}, {4}, {8}, {16}}, 32), fewerLanes);
               }),
               "A has 32 lanes and B 8");
}

}  // namespace
}  // namespace f2lay::ref::analysis
