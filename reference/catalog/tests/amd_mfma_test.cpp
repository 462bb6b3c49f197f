// amd_mfma accumulators: Triton's published LinearLayoutConversionsTest cases,
// Gluon's values, AMD's instruction tables element by element, and the
// parameter errors.
#include "reference/catalog/amd_mfma.h"

#include <gtest/gtest.h>

#include <random>

#include "definitions/amd_fragments.h"
#include "definitions/cga_tiling.h"
#include "definitions/layout_literals.h"
#include "reference/catalog/tests/test_support.h"

namespace f2lay::ref::catalog {
namespace {

using testkit::distributed;

AmdMfmaParams mfma(std::vector<uint64_t> warps, std::vector<uint64_t> instr, bool transposed,
                   std::vector<uint64_t> tilesPerWarp = {}, uint64_t bits = 32) {
  return {3, instr, transposed, warps, bits, tilesPerWarp, std::nullopt};
}

const std::vector<Basis> kLanes32 = {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {4, 0}};
const std::vector<Basis> kLanes32T = {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {0, 4}};
const std::vector<Basis> kLanes16 = {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {4, 0}, {8, 0}};
const std::vector<Basis> kLanes16T = {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 4}, {0, 8}};

// Triton LinearLayoutConversionsTest MFMA32_2x4Warps: version 3, instrShape
// [32, 32, 8], warps [2, 4], plain and transposed.
TEST(AmdMfma, TritonMFMA32_2x4Warps) {
  AmdMfmaParams nt = mfma({2, 4}, {32, 32, 8}, false);
  std::vector<Basis> reg = {{1, 0}, {2, 0}, {8, 0}, {16, 0}};
  EXPECT_EQ(amdMfma(nt, {32, 32}),
            distributed(reg, kLanes32, {{0, 0}, {0, 0}, {0, 0}}, {}, {32, 32}));
  EXPECT_EQ(amdMfma(nt, {64, 32}),
            distributed(reg, kLanes32, {{0, 0}, {0, 0}, {32, 0}}, {}, {64, 32}));
  std::vector<Basis> reg128 = reg;
  reg128.push_back({64, 0});
  EXPECT_EQ(amdMfma(nt, {128, 128}),
            distributed(reg128, kLanes32, {{0, 32}, {0, 64}, {32, 0}}, {}, {128, 128}));

  AmdMfmaParams t = mfma({2, 4}, {32, 32, 8}, true);
  std::vector<Basis> regT = {{0, 1}, {0, 2}, {0, 8}, {0, 16}};
  EXPECT_EQ(amdMfma(t, {32, 32}),
            distributed(regT, kLanes32T, {{0, 0}, {0, 0}, {0, 0}}, {}, {32, 32}));
  EXPECT_EQ(amdMfma(t, {64, 32}),
            distributed(regT, kLanes32T, {{0, 0}, {0, 0}, {32, 0}}, {}, {64, 32}));
  regT.push_back({64, 0});
  EXPECT_EQ(amdMfma(t, {128, 128}),
            distributed(regT, kLanes32T, {{0, 32}, {0, 64}, {32, 0}}, {}, {128, 128}));
}

// Triton LinearLayoutConversionsTest MFMA16_2x4Warps.
TEST(AmdMfma, TritonMFMA16_2x4Warps) {
  EXPECT_EQ(amdMfma(mfma({2, 4}, {16, 16, 16}, false), {16, 16}),
            distributed({{1, 0}, {2, 0}}, kLanes16, {{0, 0}, {0, 0}, {0, 0}}, {}, {16, 16}));
}

// Triton LinearLayoutConversionsTest MFMA16_2x4Warps_F64: one row per
// register, the lanes' upper bits take rows 1 and 2.
TEST(AmdMfma, TritonMFMA16_2x4Warps_F64) {
  EXPECT_EQ(amdMfma(mfma({2, 4}, {16, 16, 4}, false, {}, 64), {16, 16}),
            distributed({{4, 0}, {8, 0}}, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 0}, {2, 0}},
                        {{0, 0}, {0, 0}, {0, 0}}, {}, {16, 16}));
}

// Triton LinearLayoutConversionsTest MFMA32_2x4Warps_tpw_2_2: tiles per warp
// go N first, then the registers that repeat along N, then M.
TEST(AmdMfma, TritonMFMA32_2x4Warps_tpw_2_2) {
  for (bool transposed : {false, true}) {
    SCOPED_TRACE(transposed);
    AmdMfmaParams p = mfma({2, 4}, {32, 32, 8}, transposed, {2, 2});
    std::vector<Basis> tileRegs = transposed ? std::vector<Basis>{{0, 1}, {0, 2}, {0, 8}, {0, 16}}
                                             : std::vector<Basis>{{1, 0}, {2, 0}, {8, 0}, {16, 0}};
    const std::vector<Basis>& lanes = transposed ? kLanes32T : kLanes32;
    auto regs = [&](std::vector<Basis> more) {
      std::vector<Basis> r = tileRegs;
      r.insert(r.end(), more.begin(), more.end());
      return r;
    };
    EXPECT_EQ(amdMfma(p, {32, 32}),
              distributed(regs({{0, 0}, {0, 0}}), lanes, {{0, 0}, {0, 0}, {0, 0}}, {}, {32, 32}));
    EXPECT_EQ(amdMfma(p, {128, 128}), distributed(regs({{0, 32}, {32, 0}}), lanes,
                                                  {{0, 64}, {0, 0}, {64, 0}}, {}, {128, 128}));
    EXPECT_EQ(amdMfma(p, {256, 256}), distributed(regs({{0, 32}, {32, 0}, {128, 0}}), lanes,
                                                  {{0, 64}, {0, 128}, {64, 0}}, {}, {256, 256}));
  }
}

// Triton LinearLayoutConversionsTest MFMA16_2x4Warps_tpw_2_2.
TEST(AmdMfma, TritonMFMA16_2x4Warps_tpw_2_2) {
  for (bool transposed : {false, true}) {
    SCOPED_TRACE(transposed);
    AmdMfmaParams p = mfma({2, 4}, {16, 16, 16}, transposed, {2, 2});
    Basis r0 = transposed ? Basis{0, 1} : Basis{1, 0}, r1 = transposed ? Basis{0, 2} : Basis{2, 0};
    const std::vector<Basis>& lanes = transposed ? kLanes16T : kLanes16;
    EXPECT_EQ(amdMfma(p, {32, 32}), distributed({r0, r1, {0, 16}, {16, 0}}, lanes,
                                                {{0, 0}, {0, 0}, {0, 0}}, {}, {32, 32}));
    EXPECT_EQ(amdMfma(p, {128, 128}), distributed({r0, r1, {0, 16}, {16, 0}, {64, 0}}, lanes,
                                                  {{0, 32}, {0, 64}, {32, 0}}, {}, {128, 128}));
    EXPECT_EQ(amdMfma(p, {256, 256}),
              distributed({r0, r1, {0, 16}, {0, 128}, {16, 0}, {64, 0}, {128, 0}}, lanes,
                          {{0, 32}, {0, 64}, {32, 0}}, {}, {256, 256}));
  }
}

// Triton LinearLayoutConversionsTest MFMA32_2x4x1Warps: rank 3, warps
// [batch 2, M 4, N 1]; batch warps come last.
TEST(AmdMfma, TritonMFMA32_2x4x1Warps) {
  std::vector<Basis> lanes = {{0, 0, 1}, {0, 0, 2}, {0, 0, 4}, {0, 0, 8}, {0, 0, 16}, {0, 4, 0}};
  std::vector<Basis> reg = {{0, 1, 0}, {0, 2, 0}, {0, 8, 0}, {0, 16, 0}};
  AmdMfmaParams nt = mfma({2, 4, 1}, {32, 32, 8}, false);
  std::vector<Basis> reg128 = reg;
  reg128.insert(reg128.end(), {{0, 0, 32}, {0, 0, 64}});
  EXPECT_EQ(amdMfma(nt, {1, 128, 128}),
            distributed(reg128, lanes, {{0, 32, 0}, {0, 64, 0}, {0, 0, 0}}, {}, {1, 128, 128}));
  EXPECT_EQ(amdMfma(nt, {2, 32, 32}),
            distributed(reg, lanes, {{0, 0, 0}, {0, 0, 0}, {1, 0, 0}}, {}, {2, 32, 32}));
  EXPECT_EQ(amdMfma(nt, {2, 64, 32}),
            distributed(reg, lanes, {{0, 32, 0}, {0, 0, 0}, {1, 0, 0}}, {}, {2, 64, 32}));

  std::vector<Basis> lanesT = {{0, 1, 0}, {0, 2, 0}, {0, 4, 0}, {0, 8, 0}, {0, 16, 0}, {0, 0, 4}};
  std::vector<Basis> regT = {{0, 0, 1}, {0, 0, 2}, {0, 0, 8}, {0, 0, 16}};
  AmdMfmaParams t = mfma({2, 4, 1}, {32, 32, 8}, true);
  std::vector<Basis> regT128 = regT;
  regT128.insert(regT128.end(), {{0, 0, 32}, {0, 0, 64}});
  EXPECT_EQ(amdMfma(t, {1, 128, 128}),
            distributed(regT128, lanesT, {{0, 32, 0}, {0, 64, 0}, {0, 0, 0}}, {}, {1, 128, 128}));
  EXPECT_EQ(amdMfma(t, {2, 32, 32}),
            distributed(regT, lanesT, {{0, 0, 0}, {0, 0, 0}, {1, 0, 0}}, {}, {2, 32, 32}));
  EXPECT_EQ(amdMfma(t, {2, 64, 32}),
            distributed(regT, lanesT, {{0, 32, 0}, {0, 0, 0}, {1, 0, 0}}, {}, {2, 64, 32}));
}

// Gluon to_linear_layout, Triton 3.6: AMDMFMALayout(3, [4, 64, 4], False,
// [1, 1]) and its transposed twin [64, 4, 4] at 64x64.
TEST(AmdMfma, Gluon4x64And64x4) {
  std::vector<Basis> rows = {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {32, 0}};
  std::vector<Basis> cols = {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}};
  EXPECT_EQ(amdMfma(mfma({1, 1}, {4, 64, 4}, false), {64, 64}),
            distributed(rows, cols, {}, {}, {64, 64}));
  EXPECT_EQ(amdMfma(mfma({1, 1}, {64, 4, 4}, true), {64, 64}),
            distributed(cols, rows, {}, {}, {64, 64}));
}

// Gluon to_linear_layout, Triton 3.6: with cga_layout [[0, 1], [1, 0]] at
// 128x128 the registers that repeat along N are counted from the global
// shape, so one becomes a broadcast zero in each CTA's 64x64 share.
TEST(AmdMfma, GluonCgaCountsNRepeatsFromTheGlobalShape) {
  AmdMfmaParams p = mfma({2, 2}, {32, 32, 8}, false);
  p.cgaLayout = testkit::cgaFromBases({{0, 1}, {1, 0}}, 2);
  EXPECT_EQ(amdMfma(p, {128, 128}),
            distributed({{1, 0}, {2, 0}, {8, 0}, {16, 0}, {0, 0}}, kLanes32, {{0, 32}, {32, 0}},
                        {{0, 64}, {64, 0}}, {128, 128}));
}

// Gluon 3.9.0's answers (gluon_ir to_linear_layout of AMDMFMALayout(3,
// [16, 16, 16], False, [2, 1], tiles_per_warp=[1, 2], cga_layout=[[1, 0],
// [0, 1]]) at [64, 128], and of AMDMFMALayout(3, [32, 32, 8], True, [1, 2],
// cga_layout=[[0, 1], [0, 0]]) at [32, 256]): N's repeats reach the whole
// N, the last ones cut to broadcast zeros in each CTA's share.
TEST(AmdMfma, GluonCgaAnswers) {
  AmdMfmaParams a = mfma({2, 1}, {16, 16, 16}, false, {1, 2});
  a.cgaLayout = testkit::cgaFromBases({{1, 0}, {0, 1}}, 2);
  EXPECT_EQ(amdMfma(a, {64, 128}), distributed({{1, 0}, {2, 0}, {0, 16}, {0, 32}, {0, 0}}, kLanes16,
                                               {{16, 0}}, {{32, 0}, {0, 64}}, {64, 128}));
  AmdMfmaParams b = mfma({1, 2}, {32, 32, 8}, true);
  b.cgaLayout = testkit::cgaFromBases({{0, 1}, {0, 0}}, 2);
  EXPECT_EQ(amdMfma(b, {32, 256}),
            distributed({{0, 1}, {0, 2}, {0, 8}, {0, 16}, {0, 64}, {0, 0}}, kLanes32T, {{0, 32}},
                        {{0, 128}, {0, 0}}, {32, 256}));
}

amd::Accumulator model(const AmdMfmaParams& p, const Shape& shape) {
  std::vector<uint64_t> tiles =
      p.tilesPerWarp.empty() ? std::vector<uint64_t>(shape.size(), 1) : p.tilesPerWarp;
  return {false,           0,  p.elementBitwidth == 64, p.transposed, p.instrShape[0],
          p.instrShape[1], 64, p.warpsPerCta,           tiles,        shape};
}

// Triton's rule with a CGA (LinearLayoutConversions.cpp, the MFMA
// accumulator, written for its dot lowering's N-first tile order): the tiles
// repeat along N up to the whole tensor's N, along M and the batch dim up
// to the CTA's share; then each CTA wraps to its share and moves by its tile
// origin (cga_tiling.h's OverCtas).
OverCtas<amd::Accumulator> overCtas(const AmdMfmaParams& p, const CgaBases& cga,
                                    const Shape& shape) {
  OverCtas<amd::Accumulator> o{model(p, shape), cga, shape};
  Shape counted = o.share();
  counted.back() = shape.back();
  o.cta = model(p, counted);
  return o;
}

// Every (M, N), both result widths, transposed or not, rank 2 and 3, warps,
// tiles, CGAs splitting any dim or holding copies, shapes above and below
// the CTAs' tiles: at every element.
TEST(AmdMfma, CgaMatchesTheWholeTensorRepeatRule) {
  std::mt19937 rng(20261201);
  for (int i = 0; i < 150; ++i) {
    auto [instr, warps, tiles, shape, cga] = drawMfmaCga(rng);
    size_t rank = shape.size();
    AmdMfmaParams p = mfma(warps, instr, instr[0] == 64 || rng() % 2, tiles, 32u << rng() % 2);
    p.cgaLayout = testkit::cgaFromBases(cga, rank);
    SCOPED_TRACE(::testing::Message()
                 << "case " << i << " " << ::testing::PrintToString(instr)
                 << (p.transposed ? " T " : " ") << p.elementBitwidth << " warps "
                 << ::testing::PrintToString(warps) << " tiles " << ::testing::PrintToString(tiles)
                 << " cga " << ::testing::PrintToString(cga) << " shape "
                 << ::testing::PrintToString(shape));
    expectMatchesElementwise(amdMfma(p, shape), overCtas(p, cga, shape));
  }
}

// AMD's MFMA tables (amd_fragments.h), tiled as Triton tiles them, at every
// element of shapes larger and smaller than the tile.
TEST(AmdMfma, MatchesAmdInstructionTables) {
  struct Instr {
    std::vector<uint64_t> shape;
    bool transposed;
    uint64_t bits;
  };
  std::vector<Instr> instrs = {
      {{32, 32, 8}, false, 32}, {{32, 32, 8}, true, 32},  {{16, 16, 16}, false, 32},
      {{16, 16, 16}, true, 32}, {{4, 64, 4}, false, 32},  {{4, 64, 4}, true, 32},
      {{64, 4, 4}, true, 32},   {{16, 16, 4}, false, 64}, {{16, 16, 4}, true, 64},
      {{32, 32, 4}, false, 64}, {{4, 64, 4}, false, 64}};
  struct Grid {
    std::vector<uint64_t> warps, tiles, shape;
  };
  std::vector<Grid> grids = {
      {{1, 1}, {1, 1}, {64, 64}},          {{2, 4}, {1, 1}, {128, 128}},
      {{2, 2}, {2, 2}, {128, 64}},         {{4, 1}, {1, 2}, {32, 128}},
      {{2, 2}, {2, 1}, {16, 8}},           {{1, 8}, {1, 1}, {1, 64}},
      {{2, 1, 2}, {1, 2, 2}, {2, 64, 32}}, {{1, 2, 1}, {1, 1, 1}, {2, 8, 128}}};
  for (const Instr& in : instrs)
    for (const Grid& g : grids) {
      SCOPED_TRACE(::testing::PrintToString(in.shape) + (in.transposed ? " T " : " ") +
                   std::to_string(in.bits) + " warps " + ::testing::PrintToString(g.warps) +
                   " tiles " + ::testing::PrintToString(g.tiles) + " shape " +
                   ::testing::PrintToString(g.shape));
      AmdMfmaParams p = mfma(g.warps, in.shape, in.transposed, g.tiles, in.bits);
      expectMatchesElementwise(amdMfma(p, g.shape), model(p, g.shape));
    }
}

std::string errorOf(const AmdMfmaParams& p, const Shape& shape) {
  return errorMessage([&] { amdMfma(p, shape); });
}

TEST(AmdMfma, ParameterErrors) {
  AmdMfmaParams v5 = mfma({1, 1}, {32, 32, 8}, false);
  v5.version = 5;
  EXPECT_PRED2(contains, errorOf(v5, {32, 32}), "version = 5");
  EXPECT_PRED2(contains, errorOf(mfma({1, 1}, {32, 16, 8}, false), {32, 32}),
               "(M, N) must be (32, 32), (16, 16), (64, 4) or (4, 64)");
  EXPECT_PRED2(contains, errorOf(mfma({1, 1}, {32, 32}, false), {32, 32}), "expected [M, N, K]");
  EXPECT_PRED2(contains, errorOf(mfma({1, 1}, {64, 4, 4}, false), {64, 64}),
               "64x4 mfma must have transposed = true");
  EXPECT_PRED2(contains, errorOf(mfma({1, 1}, {32, 32, 8}, false, {}, 16), {32, 32}),
               "element_bitwidth = 16");
  EXPECT_PRED2(contains, errorOf(mfma({3, 1}, {32, 32, 8}, false), {32, 32}),
               "warps_per_cta[0] = 3 is not a power of two");
  EXPECT_PRED2(contains, errorOf(mfma({1, 1}, {32, 32, 8}, false, {1, 3}), {32, 32}),
               "tiles_per_warp[1] = 3 is not a power of two");
  EXPECT_PRED2(contains, errorOf(mfma({1, 1}, {32, 32, 8}, false, {1, 1, 1}), {32, 32}),
               "tiles_per_warp: has 3 entries, expected 2");
  EXPECT_PRED2(contains, errorOf(mfma({1, 1, 1}, {32, 32, 8}, false), {32, 32}),
               "warps_per_cta: has 3 entries, expected 2");
  EXPECT_PRED2(contains, errorOf(mfma({1}, {32, 32, 8}, false), {32}), "rank 1 is unsupported");
  EXPECT_PRED2(contains, errorOf(mfma({1, 1}, {32, 32, 8}, false), {32, 48}),
               "shape[1] = 48 is not a power of two");
}

}  // namespace
}  // namespace f2lay::ref::catalog
