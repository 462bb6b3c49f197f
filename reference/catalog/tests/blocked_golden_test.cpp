// Blocked layouts with Triton's legacy CTA parameters (CTAsPerCGA,
// CTASplitNum, CTAOrder): Triton's published conversion cases, each named
// after its test in Triton's unittest/Dialect/TritonGPU/
// LinearLayoutConversionsTest.cpp (expected values copied as facts), and the
// legacy parameters against Gluon's cga_layout (Triton 3.6 has no legacy form
// in Gluon; the equivalent block bases were worked by hand and measured).
#include <gtest/gtest.h>

#include "definitions/layout_literals.h"
#include "reference/catalog/blocked.h"
#include "reference/catalog/tests/test_support.h"

namespace f2lay::ref::catalog {
namespace {

using testkit::cgaFromBases;
using testkit::distributed;

// Triton's test helper blocked(spt, tpw, wpb, cpg, cSplit, ord, cOrd).
LinearLayout legacyBlocked(std::vector<uint64_t> spt, std::vector<uint64_t> tpw,
                           std::vector<uint64_t> wpb, std::vector<uint64_t> cpg,
                           std::vector<uint64_t> split, std::vector<unsigned> ord,
                           std::vector<unsigned> cord, const Shape& shape,
                           TritonVersion triton = kCurrentTriton) {
  return blocked({spt, tpw, wpb, ord, makeCgaLayout(cpg, split, cord), triton}, shape);
}

TEST(BlockedTriton, SimpleBlocked) {
  EXPECT_EQ(legacyBlocked({1}, {4}, {4}, {1}, {1}, {0}, {0}, {16}),
            distributed({}, {{1}, {2}}, {{4}, {8}}, {}, {16}));
}

TEST(BlockedTriton, CTADuplication) {
  EXPECT_EQ(legacyBlocked({1}, {4}, {4}, {4}, {2}, {0}, {0}, {32}),
            distributed({}, {{1}, {2}}, {{4}, {8}}, {{16}, {0}}, {32}));
}

TEST(BlockedTriton, CTABroadcast) {
  EXPECT_EQ(legacyBlocked({8, 1}, {8, 4}, {1, 4}, {1, 2}, {1, 2}, {0, 1}, {1, 0}, {64, 128}),
            distributed({{1, 0}, {2, 0}, {4, 0}, {0, 16}, {0, 32}},
                        {{8, 0}, {16, 0}, {32, 0}, {0, 1}, {0, 2}}, {{0, 4}, {0, 8}}, {{0, 64}},
                        {64, 128}));
}

TEST(BlockedTriton, ShapeLargerThanLayout) {
  EXPECT_EQ(legacyBlocked({1}, {4}, {4}, {1}, {1}, {0}, {0}, {128}),
            distributed({{16}, {32}, {64}}, {{1}, {2}}, {{4}, {8}}, {}, {128}));
}

TEST(BlockedTriton, ShapeLargerThanLayout2DDegenerate) {
  EXPECT_EQ(
      legacyBlocked({1, 1}, {4, 1}, {4, 1}, {1, 1}, {1, 1}, {0, 1}, {1, 0}, {128, 1}),
      distributed({{16, 0}, {32, 0}, {64, 0}}, {{1, 0}, {2, 0}}, {{4, 0}, {8, 0}}, {}, {128, 1}));
}

TEST(BlockedTriton, ShapeSmallerThanLayout) {
  EXPECT_EQ(legacyBlocked({4}, {4}, {4}, {1}, {1}, {0}, {0}, {8}),
            distributed({{1}, {2}}, {{4}, {0}}, {{0}, {0}}, {}, {8}));
}

TEST(BlockedTriton, ReversedOrder) {
  EXPECT_EQ(legacyBlocked({1, 1}, {32, 1}, {1, 8}, {1, 1}, {1, 1}, {0, 1}, {1, 0}, {1, 64}),
            distributed({{0, 8}, {0, 16}, {0, 32}}, {{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}},
                        {{0, 1}, {0, 2}, {0, 4}}, {}, {1, 64}));
}

TEST(BlockedTriton, ReplicateInRegisterDim) {
  EXPECT_EQ(legacyBlocked({2}, {4}, {1}, {1}, {1}, {0}, {0}, {32}),
            distributed({{1}, {8}, {16}}, {{2}, {4}}, {}, {}, {32}));
}

TEST(BlockedTriton, OneDimTooLargeAnotherTooSmall) {
  EXPECT_EQ(legacyBlocked({1, 4}, {8, 4}, {4, 1}, {2, 2}, {2, 1}, {1, 0}, {1, 0}, {128, 16}),
            distributed({{0, 1}, {0, 2}, {32, 0}}, {{0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 0}},
                        {{8, 0}, {16, 0}}, {{0, 0}, {64, 0}}, {128, 16}));
}

TEST(BlockedTriton, RepeatInCTGDimFirst) {
  EXPECT_EQ(legacyBlocked({1}, {1}, {4}, {2}, {2}, {0}, {0}, {4}),
            distributed({}, {}, {{1}, {0}}, {{2}}, {4}));
}

TEST(BlockedTriton, SmallerThanCTALayout) {
  EXPECT_EQ(legacyBlocked({1}, {1}, {1}, {4}, {4}, {0}, {0}, {2}),
            distributed({}, {}, {}, {{1}, {0}}, {2}));
}

TEST(BlockedTriton, Skinny) {
  EXPECT_EQ(legacyBlocked({8, 1}, {8, 4}, {1, 4}, {1, 2}, {1, 2}, {0, 1}, {0, 1}, {64, 1}),
            distributed({{1, 0}, {2, 0}, {4, 0}}, {{8, 0}, {16, 0}, {32, 0}, {0, 0}, {0, 0}},
                        {{0, 0}, {0, 0}}, {{0, 0}}, {64, 1}));
}

TEST(BlockedTriton, BlockedOrder) {
  EXPECT_EQ(legacyBlocked({2, 2}, {4, 8}, {2, 2}, {2, 2}, {2, 2}, {1, 0}, {1, 0}, {1024, 128}),
            distributed({{0, 1}, {1, 0}, {0, 32}, {16, 0}, {32, 0}, {64, 0}, {128, 0}, {256, 0}},
                        {{0, 2}, {0, 4}, {0, 8}, {2, 0}, {4, 0}}, {{0, 16}, {8, 0}},
                        {{0, 64}, {512, 0}}, {1024, 128}));
}

// Triton 3.6 kept the 4 registers past dim3's extent 1 as broadcasts; Gluon
// 3.9.0's to_linear_layout of the same BlockedLayout has none.
TEST(BlockedTriton, Blocked4D) {
  std::vector<Basis> lane = {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}};
  std::vector<Basis> warp = {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}};
  auto at = [](TritonVersion triton) {
    return legacyBlocked({1, 1, 1, 4}, {2, 1, 1, 16}, {1, 2, 4, 1}, {1, 1, 1, 1}, {1, 1, 1, 1},
                         {3, 0, 1, 2}, {3, 2, 1, 0}, {2, 1, 1, 1}, triton);
  };
  EXPECT_EQ(at(TritonVersion::k3_6),
            distributed({{0, 0, 0, 0}, {0, 0, 0, 0}}, lane, warp, {}, {2, 1, 1, 1}));
  EXPECT_EQ(at(TritonVersion::k3_9), distributed({}, lane, warp, {}, {2, 1, 1, 1}));
}

// The legacy CTA form and Gluon's cga_layout: makeCgaLayout gives the block
// bases written in `gluonBases`, and the blocked layout with either is the
// one Gluon's to_linear_layout printed (Triton 3.6) for cga_layout=gluonBases.
struct LegacyCase {
  const char* name;
  BlockedParams params;  // cgaLayout unset
  std::vector<uint64_t> ctasPerCga, ctaSplitNum;
  std::vector<unsigned> ctaOrder;
  std::vector<Basis> gluonBases;
  Shape shape;
  LinearLayout gluon;
};

TEST(BlockedLegacyCta, SameAsGluonCgaLayout) {
  const std::vector<LegacyCase> cases = {
      // Gluon: BlockedLayout([1],[4],[4],[0], cga_layout=[[1],[0]]) at [32].
      {"CTADuplication",
       {{1}, {4}, {4}, {0}, {}},
       {4},
       {2},
       {0},
       {{1}, {0}},
       {32},
       distributed({}, {{1}, {2}}, {{4}, {8}}, {{16}, {0}}, {32})},
      // Gluon: BlockedLayout([1,4],[8,4],[4,1],[1,0], cga_layout=[[0,0],[1,0]]) at [128,16].
      {"OneDimTooLargeAnotherTooSmall",
       {{1, 4}, {8, 4}, {4, 1}, {1, 0}, {}},
       {2, 2},
       {2, 1},
       {1, 0},
       {{0, 0}, {1, 0}},
       {128, 16},
       distributed({{0, 1}, {0, 2}, {32, 0}}, {{0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 0}},
                   {{8, 0}, {16, 0}}, {{0, 0}, {64, 0}}, {128, 16})},
      // Gluon: BlockedLayout([2,2],[4,8],[2,2],[1,0], cga_layout=[[0,1],[1,0]]) at [1024,128].
      {"BlockedOrder",
       {{2, 2}, {4, 8}, {2, 2}, {1, 0}, {}},
       {2, 2},
       {2, 2},
       {1, 0},
       {{0, 1}, {1, 0}},
       {1024, 128},
       distributed({{0, 1}, {1, 0}, {0, 32}, {16, 0}, {32, 0}, {64, 0}, {128, 0}, {256, 0}},
                   {{0, 2}, {0, 4}, {0, 8}, {2, 0}, {4, 0}}, {{0, 16}, {8, 0}}, {{0, 64}, {512, 0}},
                   {1024, 128})},
      // CTAOrder [0,1]: dim0's 4 CTAs first (2 distinct, then a copy), then
      // dim1's 2. Gluon: BlockedLayout([1,4],[8,4],[2,2],[1,0],
      // cga_layout=[[1,0],[0,0],[0,1]]) at [64,64].
      {"cta_order [0,1], split 2 of 4",
       {{1, 4}, {8, 4}, {2, 2}, {1, 0}, {}},
       {4, 2},
       {2, 2},
       {0, 1},
       {{1, 0}, {0, 0}, {0, 1}},
       {64, 64},
       distributed({{0, 1}, {0, 2}, {16, 0}}, {{0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 0}},
                   {{0, 16}, {8, 0}}, {{32, 0}, {0, 0}, {0, 32}}, {64, 64})},
  };
  for (const LegacyCase& c : cases) {
    SCOPED_TRACE(c.name);
    LinearLayout legacy = makeCgaLayout(c.ctasPerCga, c.ctaSplitNum, c.ctaOrder);
    EXPECT_EQ(legacy, cgaFromBases(c.gluonBases, c.shape.size()));
    BlockedParams withLegacy = c.params;
    withLegacy.cgaLayout = legacy;
    BlockedParams withGluon = c.params;
    withGluon.cgaLayout = cgaFromBases(c.gluonBases, c.shape.size());
    EXPECT_EQ(blocked(withLegacy, c.shape), c.gluon);
    EXPECT_EQ(blocked(withGluon, c.shape), c.gluon);
  }
}

TEST(BlockedLegacyCta, RejectsSplitLargerThanCtas) {
  EXPECT_PRED2(contains, errorMessage([] {
                 makeCgaLayout({2, 1}, {4, 1}, {1, 0});
               }),
               "CTASplitNum[0] = 4 is larger than CTAsPerCGA[0] = 2");
}

}  // namespace
}  // namespace f2lay::ref::catalog
