// dot_operand with an nvidia_mma parent: Triton's published cases, PTX's
// operand fragment tables element by element, and the parameter errors.
#include "reference/catalog/dot_operand.h"

#include <gtest/gtest.h>

#include <random>

#include "definitions/cga_tiling.h"
#include "definitions/layout_literals.h"
#include "definitions/mma_fragments.h"
#include "reference/catalog/tests/test_support.h"

namespace f2lay::ref::catalog {
namespace {

DotOperandParams dotV2(uint64_t index, std::vector<uint64_t> warps, uint64_t kWidth) {
  std::vector<uint64_t> instr =
      warps.size() == 2 ? std::vector<uint64_t>{16, 8} : std::vector<uint64_t>{1, 16, 8};
  return {index, {{2, 0}, warps, instr, std::nullopt}, kWidth};
}
DotOperandParams dotV3(std::vector<uint64_t> warps, uint64_t kWidth) {
  return {0, {{3, 0}, warps, {16, 16, 8}, std::nullopt}, kWidth};
}

const std::vector<Basis> kLanesA8 = {{0, 8}, {0, 16}, {1, 0}, {2, 0}, {4, 0}};
const std::vector<Basis> kLanesB8 = {{8, 0}, {16, 0}, {0, 1}, {0, 2}, {0, 4}};

// Triton LinearLayoutConversionsTest DotMMAv2_tile_kwidth8: one warp tile of
// A (16 x 64) and of B (64 x 8).
TEST(DotOperand, TritonDotMMAv2_tile_kwidth8) {
  EXPECT_EQ(
      dotOperand(dotV2(0, {1, 1}, 8), {16, 64}),
      testkit::distributed({{0, 1}, {0, 2}, {0, 4}, {8, 0}, {0, 32}}, kLanesA8, {}, {}, {16, 64}));
  EXPECT_EQ(dotOperand(dotV2(1, {1, 1}, 8), {64, 8}),
            testkit::distributed({{1, 0}, {2, 0}, {4, 0}, {32, 0}}, kLanesB8, {}, {}, {64, 8}));
}

// Triton LinearLayoutConversionsTest DotMMAv2_large_warp4_kwidth8: B's warps
// lie along M and are broadcast.
TEST(DotOperand, TritonDotMMAv2_large_warp4_kwidth8) {
  EXPECT_EQ(dotOperand(dotV2(0, {4, 1}, 8), {128, 128}),
            testkit::distributed({{0, 1}, {0, 2}, {0, 4}, {8, 0}, {0, 32}, {0, 64}, {64, 0}},
                                 kLanesA8, {{16, 0}, {32, 0}}, {}, {128, 128}));
  EXPECT_EQ(
      dotOperand(dotV2(1, {4, 1}, 8), {128, 64}),
      testkit::distributed({{1, 0}, {2, 0}, {4, 0}, {32, 0}, {64, 0}, {0, 8}, {0, 16}, {0, 32}},
                           kLanesB8, {{0, 0}, {0, 0}}, {}, {128, 64}));
  EXPECT_EQ(
      dotOperand(dotV2(1, {4, 1}, 8), {64, 128}),
      testkit::distributed({{1, 0}, {2, 0}, {4, 0}, {32, 0}, {0, 8}, {0, 16}, {0, 32}, {0, 64}},
                           kLanesB8, {{0, 0}, {0, 0}}, {}, {64, 128}));
}

// Triton LinearLayoutConversionsTest DotMMAv2_split_warp_kwidth8.
TEST(DotOperand, TritonDotMMAv2_split_warp_kwidth8) {
  EXPECT_EQ(dotOperand(dotV2(0, {2, 2}, 8), {32, 64}),
            testkit::distributed({{0, 1}, {0, 2}, {0, 4}, {8, 0}, {0, 32}}, kLanesA8,
                                 {{0, 0}, {16, 0}}, {}, {32, 64}));
  EXPECT_EQ(dotOperand(dotV2(1, {2, 2}, 8), {64, 16}),
            testkit::distributed({{1, 0}, {2, 0}, {4, 0}, {32, 0}}, kLanesB8, {{0, 8}, {0, 0}}, {},
                                 {64, 16}));
  EXPECT_EQ(dotOperand(dotV2(0, {2, 2}, 8), {64, 128}),
            testkit::distributed({{0, 1}, {0, 2}, {0, 4}, {8, 0}, {0, 32}, {0, 64}, {32, 0}},
                                 kLanesA8, {{0, 0}, {16, 0}}, {}, {64, 128}));
  EXPECT_EQ(dotOperand(dotV2(1, {2, 2}, 8), {128, 32}),
            testkit::distributed({{1, 0}, {2, 0}, {4, 0}, {32, 0}, {64, 0}, {0, 16}}, kLanesB8,
                                 {{0, 8}, {0, 0}}, {}, {128, 32}));
}

// Triton LinearLayoutConversionsTest DotMMAv2_3D: a batch dim, warps
// [2, 4, 2].
TEST(DotOperand, TritonDotMMAv2_3D) {
  EXPECT_EQ(
      dotOperand(dotV2(0, {2, 4, 2}, 8), {16, 128, 128}),
      testkit::distributed({{0, 0, 1},
                            {0, 0, 2},
                            {0, 0, 4},
                            {0, 8, 0},
                            {0, 0, 32},
                            {0, 0, 64},
                            {0, 64, 0},
                            {2, 0, 0},
                            {4, 0, 0},
                            {8, 0, 0}},
                           {{0, 0, 8}, {0, 0, 16}, {0, 1, 0}, {0, 2, 0}, {0, 4, 0}},
                           {{0, 0, 0}, {0, 16, 0}, {0, 32, 0}, {1, 0, 0}}, {}, {16, 128, 128}));
  EXPECT_EQ(dotOperand(dotV2(1, {2, 4, 2}, 8), {8, 128, 64}),
            testkit::distributed({{0, 1, 0},
                                  {0, 2, 0},
                                  {0, 4, 0},
                                  {0, 32, 0},
                                  {0, 64, 0},
                                  {0, 0, 16},
                                  {0, 0, 32},
                                  {2, 0, 0},
                                  {4, 0, 0}},
                                 {{0, 8, 0}, {0, 16, 0}, {0, 0, 1}, {0, 0, 2}, {0, 0, 4}},
                                 {{0, 0, 8}, {0, 0, 0}, {0, 0, 0}, {1, 0, 0}}, {}, {8, 128, 64}));
}

// Triton LinearLayoutConversionsTest DotMMAv3_warp4_kwidth2: A of wgmma in
// registers is laid out like the accumulator.
TEST(DotOperand, TritonDotMMAv3_warp4_kwidth2) {
  const std::vector<Basis> lanes = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
  const std::vector<Basis> warps = {{16, 0}, {32, 0}};
  EXPECT_EQ(dotOperand(dotV3({4, 1}, 2), {64, 16}),
            testkit::distributed({{0, 1}, {8, 0}, {0, 8}}, lanes, warps, {}, {64, 16}));
  EXPECT_EQ(dotOperand(dotV3({4, 1}, 2), {128, 16}),
            testkit::distributed({{0, 1}, {8, 0}, {0, 8}, {64, 0}}, lanes, warps, {}, {128, 16}));
  EXPECT_EQ(dotOperand(dotV3({4, 1}, 2), {128, 32}),
            testkit::distributed({{0, 1}, {8, 0}, {0, 8}, {0, 16}, {64, 0}}, lanes, warps, {},
                                 {128, 32}));
}

// Triton LinearLayoutConversionsTest DotMMAv3_mixed_warp_kwidth4.
TEST(DotOperand, TritonDotMMAv3_mixed_warp_kwidth4) {
  EXPECT_EQ(dotOperand(dotV3({4, 2}, 4), {128, 64}),
            testkit::distributed({{0, 1}, {0, 2}, {8, 0}, {0, 16}, {0, 32}, {64, 0}},
                                 {{0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 0}},
                                 {{16, 0}, {32, 0}, {0, 0}}, {}, {128, 64}));
}

// PTX's operand fragment tables (tf32 k8, 16-bit k16, 8-bit k32 are kWidth
// 1, 2, 4), tiled and repeated or cut to the shape, at every element.
TEST(DotOperand, MatchesPtxFragmentTables) {
  for (unsigned index : {0u, 1u})
    for (uint64_t kWidth : {1, 2, 4})
      for (std::vector<uint64_t> warps : {std::vector<uint64_t>{1, 1}, {2, 2}, {4, 1}, {1, 4}})
        for (std::vector<uint64_t> shape :
             {std::vector<uint64_t>{16, 16}, {64, 32}, {8, 4}, {128, 1}}) {
          SCOPED_TRACE(std::to_string(index) + " k_width " + std::to_string(kWidth) + " " +
                       ::testing::PrintToString(warps) + " " + ::testing::PrintToString(shape));
          expectMatchesElementwise(dotOperand(dotV2(index, warps, kWidth), shape),
                                   ptx::Operand{index, kWidth, warps, shape});
        }
}

std::string errorOf(const DotOperandParams& p, const Shape& shape) {
  return errorMessage([&] { dotOperand(p, shape); });
}

TEST(DotOperand, ParameterErrors) {
  EXPECT_PRED2(contains, errorOf(dotV2(2, {1, 1}, 2), {16, 16}),
               "operand_index = 2 is out of range");
  EXPECT_PRED2(contains, errorOf(dotV2(0, {1, 1}, 3), {16, 16}),
               "k_width = 3 is not a power of two");
  EXPECT_PRED2(contains, errorOf(dotV2(0, {1, 1}, 0), {16, 16}), "k_width = 0");
  DotOperandParams b3 = dotV3({4, 1}, 2);
  b3.operandIndex = 1;
  EXPECT_PRED2(contains, errorOf(b3, {64, 64}), "wgmma reads B from shared memory");
  EXPECT_PRED2(contains, errorOf(dotV2(0, {1, 3}, 2), {16, 16}), "warps_per_cta[1] = 3");
  // A parent's CGA over other dims than the shape's (the catalog fuzzer's
  // crash: its K entry was zeroed out of bounds).
  DotOperandParams wrongCga = dotV2(1, {1, 1}, 2);
  wrongCga.parent.cgaLayout = testkit::cgaFromBases({{1}}, 1);
  EXPECT_PRED2(contains, errorOf(wrongCga, {16, 16}),
               "cga_layout: the parent's CGA has 1 dims, the shape 2");
}

// Gluon 3.9.0's answer (to_linear_layout of DotOperandLayout(1, parent, 2)
// whose parent has cga_layout [[1, 0], [0, 1]]): B's CTAs split N as the
// parent's do; the parent's split of M, which is B's K, becomes a copy.
TEST(DotOperand, GluonCgaParent) {
  DotOperandParams p = dotV2(1, {2, 2}, 2);
  p.parent.cgaLayout = testkit::cgaFromBases({{1, 0}, {0, 1}}, 2);
  EXPECT_EQ(dotOperand(p, {128, 128}),
            testkit::distributed({{1, 0}, {8, 0}, {16, 0}, {32, 0}, {64, 0}, {0, 16}, {0, 32}},
                                 {{2, 0}, {4, 0}, {0, 1}, {0, 2}, {0, 4}}, {{0, 8}, {0, 0}},
                                 {{0, 0}, {0, 64}}, {128, 128}));
}

// The CGA of a parent with split M and N, and the operand's CGA derived from
// it (Gluon's DotOperandLayout.cga_layout): K entries 0, sizes re-inferred.
TEST(DotOperand, OperandCga) {
  LinearLayout parent = testkit::cgaFromBases({{1, 0}, {0, 1}, {2, 0}}, 2);
  EXPECT_EQ(dotOperandCga(parent, 1, 2), testkit::cgaFromBases({{1, 0}, {0, 0}, {2, 0}}, 2));
  EXPECT_EQ(dotOperandCga(parent, 0, 2), testkit::cgaFromBases({{0, 0}, {0, 1}, {0, 0}}, 2));
  EXPECT_EQ(dotOperandCga(std::nullopt, 0, 2), singleCtaLayout(2));
}

// A CGA parent, element by element (cga_tiling.h): the one-CTA operand at
// each CTA's share, moved by its tile origin; the CTAs splitting the
// accumulator's other dim need the whole K, so K is never split. The
// one-CTA operand is checked against the PTX fragments above.
TEST(DotOperand, CgaParentIsTheOneCtaOperandTiledOverCtas) {
  std::mt19937 rng(20261126);
  for (int i = 0; i < 25; ++i) {
    uint64_t index = rng() % 2;
    DotOperandParams p = dotV2(index, {uint64_t{1} << (rng() % 2), uint64_t{1} << (rng() % 2)},
                               uint64_t{1} << (rng() % 3));
    CgaBases cga = randomCga2D(rng);
    p.parent.cgaLayout = testkit::cgaFromBases(cga, 2);
    CgaBases seen = withDimZero(cga, index == 0 ? 1 : 0);
    Shape share = {uint64_t{64} << (rng() % 2), uint64_t{64} << (rng() % 2)};
    DotOperandParams one = p;
    one.parent.cgaLayout.reset();
    EXPECT_EQ(cgaTilingMismatch(dotOperand(p, tiledShape(seen, share)), dotOperand(one, share),
                                seen, share),
              "")
        << "case " << i;
  }
}

}  // namespace
}  // namespace f2lay::ref::catalog
