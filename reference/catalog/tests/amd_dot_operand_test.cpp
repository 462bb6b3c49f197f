// dot_operand with amd_mfma and amd_wmma parents, and the AMD scale layouts:
// Triton's published cases, Gluon 3.9.0's answers, AMD's operand tables
// element by element (amd_operand_fragments.h), and the parameter errors.
#include "reference/catalog/amd_dot_operand.h"

#include <gtest/gtest.h>

#include <random>

#include "definitions/amd_operand_fragments.h"
#include "definitions/cga_tiling.h"
#include "definitions/layout_literals.h"
#include "reference/catalog/amd_scale.h"
#include "reference/catalog/tests/test_support.h"

namespace f2lay::ref::catalog {
namespace {

AmdMfmaParams mfmaParent(std::vector<uint64_t> warps, std::vector<uint64_t> instr,
                         bool transposed = false, std::vector<uint64_t> tiles = {}) {
  return {3, instr, transposed, warps, 32, tiles, std::nullopt};
}

AmdWmmaParams wmmaParent(uint64_t version, bool transposed, std::vector<Basis> warp,
                         std::vector<Basis> reg, std::vector<uint64_t> instr) {
  return {version, transposed, warp, reg, instr, std::nullopt};
}

// Triton LinearLayoutConversionsTest MFMA32_warp1onK_lhs_kwidth8: all 8 warps
// along N, which is K for A: every warp holds the same data.
TEST(AmdDotOperand, TritonMFMA32_warp1onK_lhs_kwidth8) {
  AmdMfmaDotOperandParams p{0, mfmaParent({1, 8}, {32, 32, 8}), 8};
  const std::vector<Basis> lanes = {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {0, 8}};
  const std::vector<Basis> noWarps = {{0, 0}, {0, 0}, {0, 0}};
  EXPECT_EQ(
      amdMfmaDotOperand(p, {128, 128}),
      testkit::distributed({{0, 1}, {0, 2}, {0, 4}, {0, 16}, {0, 32}, {0, 64}, {32, 0}, {64, 0}},
                           lanes, noWarps, {}, {128, 128}));
  EXPECT_EQ(amdMfmaDotOperand(p, {128, 256}),
            testkit::distributed(
                {{0, 1}, {0, 2}, {0, 4}, {0, 16}, {0, 32}, {0, 64}, {0, 128}, {32, 0}, {64, 0}},
                lanes, noWarps, {}, {128, 256}));
  EXPECT_EQ(amdMfmaDotOperand(p, {32, 64}),
            testkit::distributed({{0, 1}, {0, 2}, {0, 4}, {0, 16}, {0, 32}}, lanes, noWarps, {},
                                 {32, 64}));
  EXPECT_EQ(amdMfmaDotOperand(p, {16, 16}),
            testkit::distributed({{0, 1}, {0, 2}, {0, 4}},
                                 {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 0}, {0, 8}}, noWarps, {},
                                 {16, 16}));
}

// Triton LinearLayoutConversionsTest MFMA32_warp1onK_rhs_kwidth8: B's warps
// run along N.
TEST(AmdDotOperand, TritonMFMA32_warp1onK_rhs_kwidth8) {
  AmdMfmaDotOperandParams p{1, mfmaParent({1, 8}, {32, 32, 8}), 8};
  const std::vector<Basis> lanes = {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {8, 0}};
  EXPECT_EQ(amdMfmaDotOperand(p, {128, 128}),
            testkit::distributed({{1, 0}, {2, 0}, {4, 0}, {16, 0}, {32, 0}, {64, 0}}, lanes,
                                 {{0, 32}, {0, 64}, {0, 0}}, {}, {128, 128}));
  EXPECT_EQ(amdMfmaDotOperand(p, {128, 256}),
            testkit::distributed({{1, 0}, {2, 0}, {4, 0}, {16, 0}, {32, 0}, {64, 0}}, lanes,
                                 {{0, 32}, {0, 64}, {0, 128}}, {}, {128, 256}));
  EXPECT_EQ(amdMfmaDotOperand(p, {32, 64}),
            testkit::distributed({{1, 0}, {2, 0}, {4, 0}, {16, 0}}, lanes,
                                 {{0, 32}, {0, 0}, {0, 0}}, {}, {32, 64}));
  EXPECT_EQ(amdMfmaDotOperand(p, {256, 256}),
            testkit::distributed({{1, 0}, {2, 0}, {4, 0}, {16, 0}, {32, 0}, {64, 0}, {128, 0}},
                                 lanes, {{0, 32}, {0, 64}, {0, 128}}, {}, {256, 256}));
}

// Gluon 3.9.0's answers (gluon_ir to_linear_layout of DotOperandLayout):
// tiles_per_warp along M, and a parent CGA kept whole (K too).
TEST(AmdDotOperand, GluonMfmaTilesAndCga) {
  AmdMfmaDotOperandParams p{0, mfmaParent({2, 2}, {16, 16, 16}, true, {2, 2}), 8};
  EXPECT_EQ(amdMfmaDotOperand(p, {64, 128}),
            testkit::distributed({{0, 1}, {0, 2}, {0, 4}, {0, 32}, {0, 64}, {16, 0}},
                                 {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 8}, {0, 16}},
                                 {{0, 0}, {32, 0}}, {}, {64, 128}));
  AmdMfmaDotOperandParams c{0, mfmaParent({2, 2}, {32, 32, 8}, true), 4};
  c.parent.cgaLayout = testkit::cgaFromBases({{1, 0}, {0, 1}}, 2);
  EXPECT_EQ(amdMfmaDotOperand(c, {128, 128}),
            testkit::distributed({{0, 1}, {0, 2}, {0, 8}, {0, 16}, {0, 32}, {0, 0}},
                                 {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {0, 4}},
                                 {{0, 0}, {32, 0}}, {{64, 0}, {0, 64}}, {128, 128}));
}

// Gluon 3.9.0's answers: WMMA versions 1-3, the K moves of the tile grid
// dropped, version 3's 32x16 tile transposed (16 rows, 32 columns).
TEST(AmdDotOperand, GluonWmma) {
  AmdWmmaDotOperandParams v2{0, wmmaParent(2, false, {{0, 1}, {1, 0}}, {}, {16, 16, 16}), 16};
  EXPECT_EQ(amdWmmaDotOperand(v2, {64, 64}),
            testkit::distributed({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 32}, {32, 0}},
                                 {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 16}}, {{0, 0}, {16, 0}}, {},
                                 {64, 64}));
  AmdWmmaDotOperandParams v1{0, wmmaParent(1, false, {{0, 1}, {1, 0}}, {}, {16, 16, 16}), 16};
  EXPECT_EQ(amdWmmaDotOperand(v1, {64, 64}),
            testkit::distributed({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}, {32, 0}},
                                 {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 0}}, {{0, 0}, {16, 0}}, {},
                                 {64, 64}));
  AmdWmmaDotOperandParams b{1, wmmaParent(3, true, {{1, 0}, {0, 1}}, {{0, 2}}, {32, 16, 128}), 8};
  EXPECT_EQ(amdWmmaDotOperand(b, {256, 64}),
            testkit::distributed(
                {{1, 0}, {2, 0}, {4, 0}, {16, 0}, {32, 0}, {64, 0}, {0, 16}, {0, 0}, {128, 0}},
                {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {8, 0}}, {{0, 0}, {0, 32}}, {}, {256, 64}));
  AmdWmmaDotOperandParams c{0, wmmaParent(2, false, {{0, 1}, {1, 0}}, {}, {16, 16, 16}), 8};
  c.parent.cgaLayout = testkit::cgaFromBases({{1, 0}, {0, 1}}, 2);
  EXPECT_EQ(amdWmmaDotOperand(c, {128, 128}),
            testkit::distributed({{0, 1}, {0, 2}, {0, 4}, {0, 16}, {0, 32}, {0, 64}, {32, 0}},
                                 {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 8}}, {{0, 0}, {16, 0}},
                                 {{64, 0}, {0, 0}}, {128, 128}));
}

// The MFMA operand tables (amd_operand_fragments.h) at every element: every
// (M, N), both operands, k_width 1 to 16, tiles, warps, rank 3, shapes below
// and above the tiles.
TEST(AmdDotOperand, MfmaMatchesOperandTables) {
  struct Grid {
    std::vector<uint64_t> warps, tiles;
    Shape shape;
  };
  const std::vector<Grid> grids = {
      {{1, 1}, {1, 1}, {32, 32}},           {{2, 4}, {1, 2}, {128, 64}},
      {{4, 1}, {2, 1}, {16, 256}},          {{2, 2}, {2, 2}, {8, 8}},
      {{1, 2}, {4, 1}, {256, 16}},          {{2, 2, 1}, {1, 1, 1}, {4, 64, 32}},
      {{1, 2, 2}, {1, 2, 1}, {2, 16, 128}},
  };
  const std::vector<std::vector<uint64_t>> instrs = {
      {32, 32, 8}, {16, 16, 16}, {4, 64, 4}, {64, 4, 4}};
  for (const auto& instr : instrs)
    for (uint64_t index : {0, 1})
      for (uint64_t kWidth : {1, 4, 16})
        for (const Grid& g : grids) {
          SCOPED_TRACE(::testing::Message()
                       << ::testing::PrintToString(instr) << " op " << index << " k_width "
                       << kWidth << " warps " << ::testing::PrintToString(g.warps) << " tiles "
                       << ::testing::PrintToString(g.tiles) << " shape "
                       << ::testing::PrintToString(g.shape));
          AmdMfmaParams parent{3, instr, instr[0] == 64, g.warps, 32, g.tiles, std::nullopt};
          amd::Operand model =
              amd::mfmaOperandModel(instr, g.warps, g.tiles, index, kWidth, g.shape);
          expectMatchesElementwise(amdMfmaDotOperand({index, parent, kWidth}, g.shape), model);
        }
}

// The WMMA operand tables at every element: every version and instruction
// shape, both operands, transposed or not, tile grids with K moves and
// broadcasts, rank 3.
TEST(AmdDotOperand, WmmaMatchesOperandTables) {
  struct Grid {
    std::vector<Basis> warp, reg;
    Shape shape;
  };
  const std::vector<Grid> grids = {
      {{}, {}, {16, 16}},
      {{{0, 1}, {1, 0}}, {}, {64, 64}},
      {{{1, 0}, {0, 1}}, {{0, 2}}, {128, 32}},
      {{{0, 0}, {2, 0}}, {{1, 0}, {0, 0}}, {32, 256}},
      {{{0, 2}}, {{1, 0}, {0, 1}}, {8, 16}},
      {{{1, 0, 0}, {0, 0, 1}}, {{2, 0, 0}, {0, 1, 0}}, {8, 64, 64}},
  };
  struct Instr {
    uint64_t version;
    std::vector<uint64_t> shape;
    uint64_t kWidth;
  };
  const std::vector<Instr> instrs = {
      {1, {16, 16, 16}, 16}, {1, {16, 16, 16}, 8},   {2, {16, 16, 32}, 4}, {2, {16, 16, 16}, 16},
      {3, {16, 16, 4}, 8},   {3, {32, 16, 128}, 16}, {3, {32, 16, 64}, 1}};
  for (const Instr& in : instrs)
    for (bool transposed : {false, true})
      for (uint64_t index : {0, 1})
        for (const Grid& g : grids) {
          SCOPED_TRACE(::testing::Message()
                       << "v" << in.version << " " << ::testing::PrintToString(in.shape)
                       << (transposed ? " T" : "") << " op " << index << " k_width " << in.kWidth
                       << " warp_bases " << ::testing::PrintToString(g.warp) << " reg_bases "
                       << ::testing::PrintToString(g.reg) << " shape "
                       << ::testing::PrintToString(g.shape));
          amd::Operand model = amd::wmmaOperandModel(in.version, transposed, in.shape, g.warp,
                                                     g.reg, index, in.kWidth, g.shape);
          AmdWmmaParams parent = wmmaParent(in.version, transposed, g.warp, g.reg, in.shape);
          expectMatchesElementwise(amdWmmaDotOperand({index, parent, in.kWidth}, g.shape), model);
        }
}

// Gluon 3.9.0's answers for get_mfma_scale_layout and get_wmma_scale_layout.
TEST(AmdScale, GluonAnswers) {
  AmdMfmaDotOperandParams a{0, mfmaParent({2, 2}, {32, 32, 64}, true), 16};
  EXPECT_EQ(
      amdMfmaScale(a, {64, 8}),
      testkit::distributed({{0, 2}, {0, 4}}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {0, 1}},
                           {{0, 0}, {32, 0}}, {}, {64, 8}));
  AmdMfmaDotOperandParams b{1, mfmaParent({2, 4}, {16, 16, 128}, true, {4, 2}), 16};
  EXPECT_EQ(amdMfmaScale(b, {128, 16}),
            testkit::distributed({{0, 4}, {0, 8}, {16, 0}},
                                 {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 1}, {0, 2}},
                                 {{32, 0}, {64, 0}, {0, 0}}, {}, {128, 16}));
  // WMMA: lanes 16-31 take the next tile along non-K (here the register
  // tile of reg_bases [2, 0], 32 rows on).
  AmdWmmaDotOperandParams w{0, wmmaParent(3, false, {{0, 1}, {1, 0}}, {{2, 0}}, {16, 16, 128}), 16};
  EXPECT_EQ(amdWmmaScale(w, {128, 8}),
            testkit::distributed({{0, 1}, {0, 2}, {0, 4}, {64, 0}},
                                 {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {32, 0}}, {{0, 0}, {16, 0}}, {},
                                 {128, 8}));
  EXPECT_EQ(amdWmmaScale(w, {16, 2}, 16),
            testkit::distributed({{0, 1}, {0, 0}, {0, 0}}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 0}},
                                 {{0, 0}, {0, 0}}, {}, {16, 2}));
}

// The MFMA scale tables at every element.
TEST(AmdScale, MfmaMatchesScaleTables) {
  for (uint64_t m : {16, 32})
    for (uint64_t index : {0, 1})
      for (std::vector<uint64_t> warps : {std::vector<uint64_t>{1, 1}, {2, 4}, {4, 1}})
        for (uint64_t tiles : {1, 2, 4})
          for (Shape shape : {Shape{16, 1}, Shape{64, 8}, Shape{256, 16}, Shape{32, 2}}) {
            SCOPED_TRACE(::testing::Message()
                         << "M " << m << " op " << index << " warps "
                         << ::testing::PrintToString(warps) << " tiles " << tiles << " shape "
                         << ::testing::PrintToString(shape));
            std::vector<uint64_t> tpw =
                index == 0 ? std::vector<uint64_t>{tiles, 1} : std::vector<uint64_t>{1, tiles};
            AmdMfmaDotOperandParams p{index, mfmaParent(warps, {m, m, 64}, false, tpw), 16};
            expectMatchesElementwise(
                amdMfmaScale(p, shape),
                amd::MfmaScale{index == 0, m, tiles, warps[0], warps[1], shape});
          }
}

// The WMMA scale placement at every element: 16x16 and 32x16 instructions,
// both operands, transposed or not, tile grids with K moves and broadcasts.
TEST(AmdScale, WmmaMatchesScalePlacement) {
  struct Grid {
    std::vector<Basis> warp, reg;
  };
  const std::vector<Grid> grids = {{{}, {}},
                                   {{{0, 1}, {1, 0}}, {}},
                                   {{{1, 0}, {0, 1}}, {{0, 2}}},
                                   {{{0, 0}, {2, 0}}, {{1, 0}, {0, 0}}},
                                   {{{0, 2}}, {{1, 0}, {0, 1}}},
                                   {{}, {{2, 0}, {1, 0}}}};
  const std::vector<std::vector<uint64_t>> instrs = {{16, 16, 128}, {32, 16, 128}, {16, 16, 32}};
  for (const auto& instr : instrs)
    for (bool transposed : {false, true})
      for (uint64_t index : {0, 1})
        for (uint64_t factor : {16, 32})
          for (const Grid& g : grids)
            for (Shape shape : {Shape{16, 4}, Shape{1, 1}, Shape{64, 8}, Shape{256, 2}}) {
              SCOPED_TRACE(::testing::Message()
                           << ::testing::PrintToString(instr) << (transposed ? " T" : "") << " op "
                           << index << " scale_factor " << factor << " warp_bases "
                           << ::testing::PrintToString(g.warp) << " reg_bases "
                           << ::testing::PrintToString(g.reg) << " shape "
                           << ::testing::PrintToString(shape));
              bool isA = index == 0;
              size_t nonKDim = isA ? 0 : 1;
              amd::WmmaScale model{
                  instr[0], (isA != transposed) ? instr[0] : 16, 128 / factor, {}, {}, shape};
              for (const Basis& b : g.reg)
                if (b[nonKDim] != 0) model.gridRegNonK.push_back(b[nonKDim]);
              for (const Basis& b : g.warp) model.gridWarpNonK.push_back(b[nonKDim]);
              AmdWmmaDotOperandParams p{index, wmmaParent(3, transposed, g.warp, g.reg, instr), 8};
              expectMatchesElementwise(amdWmmaScale(p, shape, factor), model);
            }
}

TEST(AmdDotOperand, ParameterErrors) {
  AmdMfmaDotOperandParams m{0, mfmaParent({1, 1}, {32, 32, 8}), 0};
  EXPECT_PRED2(contains, errorMessage([&] { amdMfmaDotOperand(m, {32, 32}); }), "k_width = 0");
  m.kWidth = 4;
  m.operandIndex = 2;
  EXPECT_PRED2(contains, errorMessage([&] {
                 amdMfmaDotOperand(m, {32, 32});
               }),
               "operand_index = 2");
  AmdWmmaDotOperandParams w{0, wmmaParent(1, false, {}, {}, {16, 16, 16}), 4};
  EXPECT_PRED2(contains, errorMessage([&] {
                 amdWmmaDotOperand(w, {16, 16});
               }),
               "WMMA version 1 takes 8 or 16");
  w.parent.version = 2;
  w.kWidth = 2;
  EXPECT_PRED2(contains, errorMessage([&] {
                 amdWmmaDotOperand(w, {16, 16});
               }),
               "WMMA version 2 takes 4, 8 or 16");
  AmdMfmaDotOperandParams s{0, mfmaParent({1, 1}, {4, 64, 4}), 4};
  EXPECT_PRED2(contains, errorMessage([&] { amdMfmaScale(s, {16, 4}); }), "M is 16 or 32");
  s.parent.instrShape = {32, 32, 64};
  EXPECT_PRED2(contains, errorMessage([&] { amdMfmaScale(s, {16, 4}, 16); }), "scale_factor = 16");
  EXPECT_PRED2(contains, errorMessage([&] { amdMfmaScale(s, {2, 16, 4}); }), "rank 3");
  AmdWmmaDotOperandParams ws{0, wmmaParent(3, false, {}, {}, {16, 16, 128}), 8};
  EXPECT_PRED2(contains, errorMessage([&] { amdWmmaScale(ws, {16, 4}, 8); }), "scale_factor = 8");
}

// Rank 3 (FINDINGS.md N3): Gluon 3.9.0 aborts on a rank-3 MFMA scale shape,
// asserts on a WMMA parent and shape of different ranks, and answers the
// rest by its rank-2 indices; f2lay refuses every rank-3 shape and parent.
TEST(AmdScale, RefusesRank3) {
  AmdMfmaDotOperandParams m{0, mfmaParent({1, 2, 2}, {32, 32, 64}, true), 16};
  EXPECT_PRED2(contains, errorMessage([&] {
                 amdMfmaScale(m, {64, 8});
               }),
               "warps_per_cta = [1, 2, 2]: a scale's parent has rank 2");
  EXPECT_PRED2(contains, errorMessage([&] {
                 amdMfmaScale(m, {2, 64, 8});
               }),
               "shape: rank 3 is unsupported");
  AmdWmmaDotOperandParams w{0, wmmaParent(3, false, {{0, 0, 1}, {0, 1, 0}}, {}, {16, 16, 128}), 8};
  EXPECT_PRED2(contains, errorMessage([&] {
                 amdWmmaScale(w, {2, 64, 8});
               }),
               "shape: rank 3 is unsupported");
  EXPECT_PRED2(contains, errorMessage([&] {
                 amdWmmaScale(w, {64, 8});
               }),
               "warp_bases: a basis of rank 3: a scale's parent has rank 2");
  w.parent.warpBases = {};
  w.parent.regBases = {{0, 1, 0}};
  EXPECT_PRED2(contains, errorMessage([&] {
                 amdWmmaScale(w, {64, 8});
               }),
               "reg_bases: a basis of rank 3");
}

// A WMMA parent with a CGA, element by element (cga_tiling.h): the one-CTA
// operand at each CTA's share, moved by its tile origin; the operand's CTAs
// never split K (Gluon's DotOperandLayout.cga_layout). (An MFMA operand's
// CTAs keep the parent's split, K too, and count K's repeats from the whole
// tensor: MfmaCgaParentMatchesTheWholeTensorRepeatRule.)
TEST(AmdDotOperand, WmmaCgaParentIsTheOneCtaOperandTiledOverCtas) {
  std::mt19937 rng(20261129);
  for (int i = 0; i < 20; ++i) {
    uint64_t index = rng() % 2;
    CgaBases cga = randomCga2D(rng);
    CgaBases seen = withDimZero(cga, index == 0 ? 1 : 0);
    Shape share = {uint64_t{64} << (rng() % 2), uint64_t{64} << (rng() % 2)};
    AmdWmmaDotOperandParams p{index, wmmaParent(2, false, {{0, 1}, {1, 0}}, {}, {16, 16, 16}), 8};
    LinearLayout tile = amdWmmaDotOperand(p, share);
    p.parent.cgaLayout = testkit::cgaFromBases(cga, 2);
    EXPECT_EQ(cgaTilingMismatch(amdWmmaDotOperand(p, tiledShape(seen, share)), tile, seen, share),
              "")
        << "case " << i;
  }
}

// Gluon 3.9.0's answer (to_linear_layout of DotOperandLayout(1,
// AMDMFMALayout(3, [16, 16, 16], False, [2, 2], cga_layout=[[0, 1], [1,
// 0]]), 8) at [128, 64]): B's K registers reach the whole K (the last cut
// to a broadcast zero in the 64 x 32 share), its CTAs split K too.
TEST(AmdDotOperand, GluonMfmaCgaSplitsK) {
  AmdMfmaDotOperandParams p{1, mfmaParent({2, 2}, {16, 16, 16}), 8};
  p.parent.cgaLayout = testkit::cgaFromBases({{0, 1}, {1, 0}}, 2);
  EXPECT_EQ(amdMfmaDotOperand(p, {128, 64}),
            testkit::distributed({{1, 0}, {2, 0}, {4, 0}, {32, 0}, {0, 0}},
                                 {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {8, 0}, {16, 0}},
                                 {{0, 16}, {0, 0}}, {{0, 32}, {64, 0}}, {128, 64}));
}

// An MFMA parent with a CGA at every element: Triton's mfmaDotToLinearLayout
// repeats the operand tile along K up to the whole tensor's K and along
// non-K and batch up to the CTA's share; each CTA then wraps to its share
// and moves by its tile origin (cga_tiling.h's OverCtas), the parent's CGA
// as it is (K split too).
TEST(AmdDotOperand, MfmaCgaParentMatchesTheWholeTensorRepeatRule) {
  std::mt19937 rng(20261202);
  for (int i = 0; i < 150; ++i) {
    auto [instr, warps, tiles, shape, cga] = drawMfmaCga(rng);
    size_t rank = shape.size();
    uint64_t index = rng() % 2, kWidth = uint64_t{1} << rng() % 5;
    AmdMfmaParams parent{3, instr, instr[0] == 64, warps, 32, tiles, std::nullopt};
    parent.cgaLayout = testkit::cgaFromBases(cga, rank);
    SCOPED_TRACE(::testing::Message()
                 << "case " << i << " " << ::testing::PrintToString(instr) << " op " << index
                 << " k_width " << kWidth << " warps " << ::testing::PrintToString(warps)
                 << " tiles " << ::testing::PrintToString(tiles) << " cga "
                 << ::testing::PrintToString(cga) << " shape " << ::testing::PrintToString(shape));
    size_t kDim = index == 0 ? rank - 1 : rank - 2;
    OverCtas<amd::Operand> model{amd::mfmaOperandModel(instr, warps, tiles, index, kWidth, shape),
                                 cga, shape};
    Shape counted = model.share();
    counted[kDim] = shape[kDim];
    model.cta = amd::mfmaOperandModel(instr, warps, tiles, index, kWidth, counted);
    expectMatchesElementwise(amdMfmaDotOperand({index, parent, kWidth}, shape), model);
  }
}

}  // namespace
}  // namespace f2lay::ref::catalog
