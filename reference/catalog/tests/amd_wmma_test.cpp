// amd_wmma accumulators: Triton's published LinearLayoutConversionsTest cases
// (Triton 3.6's warps_per_cta), Gluon's values (3.6 and 3.9.0), AMD's WMMA
// result tables element by element under both ways of placing the tiles
// (amd_fragments.h), and the parameter errors.
#include "reference/catalog/amd_wmma.h"

#include <gtest/gtest.h>

#include "definitions/amd_fragments.h"
#include "definitions/layout_literals.h"
#include "reference/catalog/tests/test_support.h"

namespace f2lay::ref::catalog {
namespace {

using testkit::distributed;

// Gluon 3.6's AMDWMMALayout(version, transposed, warps_per_cta, instr_shape,
// tiles_per_warp), built through gluon36WmmaBases at each shape.
struct Wmma36 {
  uint64_t version;
  std::vector<uint64_t> warps;
  bool transposed;
  std::vector<uint64_t> tilesPerWarp = {};
  std::vector<uint64_t> instr = {};

  LinearLayout at(const Shape& shape) const {
    AmdWmmaBases b = gluon36WmmaBases(warps, tilesPerWarp, shape);
    return amdWmma({version, transposed, b.warpBases, b.regBases, instr, std::nullopt}, shape);
  }
};

Wmma36 wmma(uint64_t version, std::vector<uint64_t> warps, bool transposed,
            std::vector<uint64_t> tilesPerWarp = {}, std::vector<uint64_t> instr = {}) {
  return {version, std::move(warps), transposed, std::move(tilesPerWarp), std::move(instr)};
}

// Gluon 3.9's AMDWMMALayout(version, transposed, warp_bases, reg_bases,
// instr_shape).
AmdWmmaParams wmma39(uint64_t version, bool transposed, std::vector<Basis> warpBases,
                     std::vector<Basis> regBases = {}, std::vector<uint64_t> instr = {}) {
  return {version,          transposed,  std::move(warpBases), std::move(regBases),
          std::move(instr), std::nullopt};
}

// Triton LinearLayoutConversionsTest WMMA_v1_2x4Warps.
TEST(AmdWmma, TritonWMMA_v1_2x4Warps) {
  Wmma36 p = wmma(1, {2, 4}, false);
  std::vector<Basis> reg = {{2, 0}, {4, 0}, {8, 0}};
  std::vector<Basis> lane = {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 0}};
  EXPECT_EQ(p.at({16, 16}), distributed(reg, lane, {{0, 0}, {0, 0}, {0, 0}}, {}, {16, 16}));
  EXPECT_EQ(p.at({32, 16}), distributed(reg, lane, {{0, 0}, {0, 0}, {16, 0}}, {}, {32, 16}));
  EXPECT_EQ(p.at({16, 32}), distributed(reg, lane, {{0, 16}, {0, 0}, {0, 0}}, {}, {16, 32}));
  EXPECT_EQ(p.at({128, 128}), distributed({{2, 0}, {4, 0}, {8, 0}, {0, 64}, {32, 0}, {64, 0}}, lane,
                                          {{0, 16}, {0, 32}, {16, 0}}, {}, {128, 128}));
}

// Triton LinearLayoutConversionsTest WMMA_v1_2x4x1Warps: rank 3, warps
// [batch 2, M 4, N 1].
TEST(AmdWmma, TritonWMMA_v1_2x4x1Warps) {
  Wmma36 p = wmma(1, {2, 4, 1}, false);
  std::vector<Basis> reg = {{0, 2, 0}, {0, 4, 0}, {0, 8, 0}};
  std::vector<Basis> lane = {{0, 0, 1}, {0, 0, 2}, {0, 0, 4}, {0, 0, 8}, {0, 1, 0}};
  EXPECT_EQ(p.at({1, 16, 16}),
            distributed(reg, lane, {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}, {}, {1, 16, 16}));
  EXPECT_EQ(p.at({2, 16, 16}),
            distributed(reg, lane, {{0, 0, 0}, {0, 0, 0}, {1, 0, 0}}, {}, {2, 16, 16}));
  std::vector<Basis> reg8 = reg;
  reg8.insert(reg8.end(), {{2, 0, 0}, {4, 0, 0}});
  EXPECT_EQ(p.at({8, 16, 16}),
            distributed(reg8, lane, {{0, 0, 0}, {0, 0, 0}, {1, 0, 0}}, {}, {8, 16, 16}));
}

// Triton LinearLayoutConversionsTest WMMA_v2_2x4Warps and TWMMA_v2_2x4Warps
// (transposed: registers along dim1, lanes along dim0 first).
TEST(AmdWmma, TritonWMMA_v2_2x4Warps) {
  for (bool transposed : {false, true}) {
    SCOPED_TRACE(transposed);
    Wmma36 p = wmma(2, {2, 4}, transposed);
    std::vector<Basis> reg = transposed ? std::vector<Basis>{{0, 1}, {0, 2}, {0, 4}}
                                        : std::vector<Basis>{{1, 0}, {2, 0}, {4, 0}};
    std::vector<Basis> lane = transposed
                                  ? std::vector<Basis>{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 8}}
                                  : std::vector<Basis>{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {8, 0}};
    EXPECT_EQ(p.at({16, 16}), distributed(reg, lane, {{0, 0}, {0, 0}, {0, 0}}, {}, {16, 16}));
    EXPECT_EQ(p.at({32, 16}), distributed(reg, lane, {{0, 0}, {0, 0}, {16, 0}}, {}, {32, 16}));
    EXPECT_EQ(p.at({16, 32}), distributed(reg, lane, {{0, 16}, {0, 0}, {0, 0}}, {}, {16, 32}));
    std::vector<Basis> reg64 = reg;
    reg64.insert(reg64.end(), {{0, 64}, {32, 0}});
    EXPECT_EQ(p.at({64, 128}),
              distributed(reg64, lane, {{0, 16}, {0, 32}, {16, 0}}, {}, {64, 128}));
  }
}

// Triton LinearLayoutConversionsTest WMMA_v2_2x2x2Warps.
TEST(AmdWmma, TritonWMMA_v2_2x2x2Warps) {
  Wmma36 p = wmma(2, {2, 2, 2}, false);
  std::vector<Basis> reg = {{0, 1, 0}, {0, 2, 0}, {0, 4, 0}};
  std::vector<Basis> lane = {{0, 0, 1}, {0, 0, 2}, {0, 0, 4}, {0, 0, 8}, {0, 8, 0}};
  EXPECT_EQ(p.at({1, 16, 16}),
            distributed(reg, lane, {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}, {}, {1, 16, 16}));
  EXPECT_EQ(p.at({2, 16, 16}),
            distributed(reg, lane, {{0, 0, 0}, {0, 0, 0}, {1, 0, 0}}, {}, {2, 16, 16}));
  std::vector<Basis> reg4 = reg;
  reg4.insert(reg4.end(), {{0, 0, 32}, {0, 32, 0}, {2, 0, 0}});
  EXPECT_EQ(p.at({4, 64, 64}),
            distributed(reg4, lane, {{0, 0, 16}, {0, 16, 0}, {1, 0, 0}}, {}, {4, 64, 64}));
}

// Gluon to_linear_layout, Triton 3.6: AMDWMMALayout(2, False, [2, 2],
// tiles_per_warp=[2, 2]) at 128x128 and 16x16, and version 3 with
// instr_shape [16, 16, 32] at 64x64.
TEST(AmdWmma, GluonTilesPerWarpAndVersion3) {
  std::vector<Basis> lane = {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {8, 0}};
  Wmma36 p = wmma(2, {2, 2}, false, {2, 2});
  EXPECT_EQ(p.at({128, 128}),
            distributed({{1, 0}, {2, 0}, {4, 0}, {0, 16}, {0, 64}, {16, 0}, {64, 0}}, lane,
                        {{0, 32}, {32, 0}}, {}, {128, 128}));
  EXPECT_EQ(p.at({16, 16}), distributed({{1, 0}, {2, 0}, {4, 0}, {0, 0}, {0, 0}}, lane,
                                        {{0, 0}, {0, 0}}, {}, {16, 16}));
  EXPECT_EQ(wmma(3, {2, 2}, false, {}, {16, 16, 32}).at({64, 64}),
            distributed({{1, 0}, {2, 0}, {4, 0}, {0, 32}, {32, 0}}, lane, {{0, 16}, {16, 0}}, {},
                        {64, 64}));
}

amd::Accumulator model(const Wmma36& p, const Shape& shape) {
  std::vector<uint64_t> tiles =
      p.tilesPerWarp.empty() ? std::vector<uint64_t>(shape.size(), 1) : p.tilesPerWarp;
  return {true, p.version, false, p.transposed, 16, 16, 32, p.warps, tiles, shape};
}

// AMD's WMMA result tables (amd_fragments.h), tiled as Triton 3.6 tiled them
// from warps_per_cta and tiles_per_warp, at every element.
TEST(AmdWmma, MatchesAmdResultTables) {
  struct Grid {
    std::vector<uint64_t> warps, tiles, shape;
  };
  std::vector<Grid> grids = {
      {{1, 1}, {1, 1}, {16, 16}},          {{2, 4}, {1, 1}, {64, 128}},
      {{2, 2}, {2, 2}, {256, 64}},         {{4, 1}, {1, 2}, {16, 256}},
      {{2, 2}, {2, 1}, {16, 16}},          {{1, 8}, {1, 1}, {1, 64}},
      {{2, 1, 2}, {1, 2, 2}, {4, 32, 64}}, {{1, 2, 1}, {1, 1, 1}, {2, 16, 1}}};
  for (uint64_t version : {1, 2, 3})
    for (bool transposed : {false, true})
      for (const Grid& g : grids) {
        SCOPED_TRACE(::testing::Message() << "v" << version << (transposed ? " T" : "") << " warps "
                                          << ::testing::PrintToString(g.warps) << " tiles "
                                          << ::testing::PrintToString(g.tiles) << " shape "
                                          << ::testing::PrintToString(g.shape));
        std::vector<uint64_t> instr =
            version == 3 ? std::vector<uint64_t>{16, 16, 32} : std::vector<uint64_t>{16, 16, 16};
        Wmma36 p = wmma(version, g.warps, transposed, g.tiles, instr);
        expectMatchesElementwise(p.at(g.shape), model(p, g.shape));
      }
}

// Gluon 3.9.0, AMDWMMALayout(2, False, warp_bases=[[0, 1], [1, 0]]) at 64x64
// (amd_wmma.h's example) and at 8x16, which Triton 3.6 asserted on.
TEST(AmdWmma, Gluon39WarpBases) {
  std::vector<Basis> lane = {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {8, 0}};
  AmdWmmaParams p = wmma39(2, false, {{0, 1}, {1, 0}});
  EXPECT_EQ(amdWmma(p, {64, 64}), distributed({{1, 0}, {2, 0}, {4, 0}, {0, 32}, {32, 0}}, lane,
                                              {{0, 16}, {16, 0}}, {}, {64, 64}));
  EXPECT_EQ(amdWmma(wmma39(2, false, {{0, 1}}), {8, 16}),
            distributed({{1, 0}, {2, 0}, {4, 0}}, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 0}},
                        {{0, 0}}, {}, {8, 16}));
}

// Gluon 3.9.0: reg_bases, broadcasts, rank 3, version 1 transposed.
TEST(AmdWmma, Gluon39RegBases) {
  std::vector<Basis> lane = {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {8, 0}};
  // AMDWMMALayout(2, False, [[0, 0], [0, 1]], reg_bases=[[0, 0]]) at 32x64.
  EXPECT_EQ(amdWmma(wmma39(2, false, {{0, 0}, {0, 1}}, {{0, 0}}), {32, 64}),
            distributed({{1, 0}, {2, 0}, {4, 0}, {0, 0}, {0, 32}, {16, 0}}, lane, {{0, 0}, {0, 16}},
                        {}, {32, 64}));
  // AMDWMMALayout(2, False, [[1, 0, 0], [0, 0, 1]], [[2, 0, 0], [0, 1, 0]],
  // rank=3) at 8x64x64.
  EXPECT_EQ(amdWmma(wmma39(2, false, {{1, 0, 0}, {0, 0, 1}}, {{2, 0, 0}, {0, 1, 0}}), {8, 64, 64}),
            distributed({{0, 1, 0},
                         {0, 2, 0},
                         {0, 4, 0},
                         {2, 0, 0},
                         {0, 16, 0},
                         {0, 0, 32},
                         {0, 32, 0},
                         {4, 0, 0}},
                        {{0, 0, 1}, {0, 0, 2}, {0, 0, 4}, {0, 0, 8}, {0, 8, 0}},
                        {{1, 0, 0}, {0, 0, 16}}, {}, {8, 64, 64}));
  // AMDWMMALayout(1, True, [[1, 0]], [[0, 1], [2, 0]]) at 64x64.
  EXPECT_EQ(amdWmma(wmma39(1, true, {{1, 0}}, {{0, 1}, {2, 0}}), {64, 64}),
            distributed({{0, 2}, {0, 4}, {0, 8}, {0, 16}, {32, 0}, {0, 32}},
                        {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 1}}, {{16, 0}}, {}, {64, 64}));
}

// Gluon 3.9.0: version 3's 32x16 instruction, and transposed (16 rows, 32
// columns).
TEST(AmdWmma, Gluon39Instr32x16) {
  EXPECT_EQ(
      amdWmma(wmma39(3, false, {{0, 1}, {1, 0}}, {}, {32, 16, 128}), {128, 128}),
      distributed({{1, 0}, {2, 0}, {4, 0}, {16, 0}, {0, 32}, {0, 64}, {64, 0}},
                  {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {8, 0}}, {{0, 16}, {32, 0}}, {}, {128, 128}));
  EXPECT_EQ(
      amdWmma(wmma39(3, true, {{0, 1}, {1, 0}}, {}, {32, 16, 64}), {64, 64}),
      distributed({{0, 1}, {0, 2}, {0, 4}, {0, 16}, {32, 0}},
                  {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 8}}, {{0, 32}, {16, 0}}, {}, {64, 64}));
}

// Gluon 3.9.0, AMDWMMALayout(2, False, [[0, 1]], [[1, 0]],
// cga_layout=[[0, 1], [1, 0]]) at 128x128: the CTA tile repeats over its
// 64x64 share.
TEST(AmdWmma, Gluon39Cga) {
  AmdWmmaParams p = wmma39(2, false, {{0, 1}}, {{1, 0}});
  p.cgaLayout = testkit::cgaFromBases({{0, 1}, {1, 0}}, 2);
  EXPECT_EQ(amdWmma(p, {128, 128}), distributed({{1, 0}, {2, 0}, {4, 0}, {16, 0}, {0, 32}, {32, 0}},
                                                {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {8, 0}}, {{0, 16}},
                                                {{0, 64}, {64, 0}}, {128, 128}));
}

// Gluon 3.6's warps [2, 2], tiles_per_warp [2, 2] at 128x128 are Gluon 3.9's
// warp_bases [[0, 2], [2, 0]], reg_bases [[0, 1], [0, 4], [1, 0]] (the N
// repeat [0, 4] before tiles_per_warp along M); Gluon 3.9.0 gives the layout
// Gluon 3.6 gave (GluonTilesPerWarpAndVersion3).
TEST(AmdWmma, Gluon36KeysAsBases) {
  AmdWmmaBases b = gluon36WmmaBases({2, 2}, {2, 2}, {128, 128});
  EXPECT_EQ(b.warpBases, (std::vector<Basis>{{0, 2}, {2, 0}}));
  EXPECT_EQ(b.regBases, (std::vector<Basis>{{0, 1}, {0, 4}, {1, 0}}));
  EXPECT_EQ(
      amdWmma(wmma39(2, false, {{0, 2}, {2, 0}}, {{0, 1}, {0, 4}, {1, 0}}), {128, 128}),
      distributed({{1, 0}, {2, 0}, {4, 0}, {0, 16}, {0, 64}, {16, 0}, {64, 0}},
                  {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {8, 0}}, {{0, 32}, {32, 0}}, {}, {128, 128}));
  // Rank 3: warps along N, M, then batch; tiles_per_warp's batch entry ignored.
  b = gluon36WmmaBases({2, 2, 2}, {2, 1, 2}, {4, 64, 64});
  EXPECT_EQ(b.warpBases, (std::vector<Basis>{{0, 0, 2}, {0, 1, 0}, {1, 0, 0}}));
  EXPECT_EQ(b.regBases, (std::vector<Basis>{{0, 0, 1}}));
}

// AMD's WMMA result tables placed by bases (amd_fragments.h's WmmaByBases),
// at every element: orders, broadcasts, rank 3, shapes below and above the
// tiles, every instruction shape.
TEST(AmdWmma, BasesMatchAmdResultTables) {
  struct Grid {
    std::vector<Basis> warp, reg;
    Shape shape;
  };
  std::vector<Grid> grids = {
      {{}, {}, {16, 16}},
      {{{0, 1}, {1, 0}}, {}, {64, 64}},
      {{{1, 0}, {0, 1}}, {{0, 2}}, {128, 32}},
      {{{0, 0}, {2, 0}}, {{1, 0}, {0, 0}}, {32, 256}},
      {{{0, 2}}, {{1, 0}, {0, 1}}, {8, 16}},
      {{{0, 1}}, {{2, 0}, {1, 0}}, {1, 64}},
      {{{1, 0, 0}, {0, 0, 1}}, {{2, 0, 0}, {0, 1, 0}}, {8, 64, 64}},
      {{{0, 1, 0}}, {{1, 0, 0}}, {2, 16, 1}},
  };
  const std::vector<std::vector<uint64_t>> instrs = {
      {16, 16, 16}, {16, 16, 32}, {16, 16, 4}, {32, 16, 64}};
  const uint64_t versions[] = {1, 2, 3, 3};
  for (size_t i = 0; i < instrs.size(); ++i)
    for (bool transposed : {false, true})
      for (const Grid& g : grids) {
        SCOPED_TRACE(::testing::Message()
                     << "v" << versions[i] << " " << ::testing::PrintToString(instrs[i])
                     << (transposed ? " T" : "") << " warp_bases "
                     << ::testing::PrintToString(g.warp) << " reg_bases "
                     << ::testing::PrintToString(g.reg) << " shape "
                     << ::testing::PrintToString(g.shape));
        AmdWmmaParams p = wmma39(versions[i], transposed, g.warp, g.reg, instrs[i]);
        expectMatchesElementwise(
            amdWmma(p, g.shape),
            amd::WmmaByBases{versions[i], transposed, instrs[i][0], g.warp, g.reg, g.shape});
      }
}

std::string errorOf(const AmdWmmaParams& p, const Shape& shape) {
  return errorMessage([&] { amdWmma(p, shape); });
}

std::string errorOf(const Wmma36& p, const Shape& shape) {
  return errorMessage([&] { p.at(shape); });
}

TEST(AmdWmma, ParameterErrors) {
  EXPECT_PRED2(contains, errorOf(wmma(4, {1, 1}, false), {16, 16}), "version = 4");
  EXPECT_PRED2(contains, errorOf(wmma(0, {1, 1}, false), {16, 16}), "version = 0");
  // Gluon's default [16, 16, 16] is not a version 3 shape.
  EXPECT_PRED2(contains, errorOf(wmma(3, {1, 1}, false), {16, 16}),
               "instr_shape = [16, 16, 16]: WMMA version 3 takes");
  EXPECT_PRED2(contains, errorOf(wmma(1, {1, 1}, false, {}, {16, 16, 32}), {16, 16}),
               "WMMA version 1 takes [16, 16, 16]");
  EXPECT_PRED2(contains, errorOf(wmma(2, {1, 1}, false, {}, {32, 16, 16}), {16, 16}),
               "instr_shape = [32, 16, 16]");
  EXPECT_PRED2(contains, errorOf(wmma39(3, false, {}, {}, {32, 16, 32}), {32, 16}),
               "instr_shape = [32, 16, 32]");
  EXPECT_PRED2(contains, errorOf(wmma(2, {1, 1}, false), {8, 16}),
               "shape[0] = 8: a WMMA layout's M and N extents must be 1 or at least 16 with "
               "warps_per_cta (Triton 3.6 asserts");
  EXPECT_PRED2(contains, errorOf(wmma(2, {1, 1, 1}, false), {4, 16, 2}), "shape[2] = 2");
  EXPECT_PRED2(contains, errorOf(wmma(2, {1, 6}, false), {16, 16}),
               "warps_per_cta[1] = 6 is not a power of two");
  EXPECT_PRED2(contains, errorOf(wmma(2, {1, 1}, false, {0, 1}), {16, 16}),
               "tiles_per_warp[0] = 0 is not a power of two");
  EXPECT_PRED2(contains, errorOf(wmma(2, {1, 1, 1, 1}, false), {1, 1, 16, 16}),
               "rank 4 is unsupported");
  EXPECT_PRED2(contains,
               errorOf(wmma(2, {1, uint64_t{1} << 20}, false, {1, uint64_t{1} << 40}), {16, 16}),
               "warps_per_cta[1] * tiles_per_warp[1] tiles of 16 span more than 2^62 elements");
}

// Gluon 3.9's bases: what Triton and Gluon assert on, refused naming the basis.
TEST(AmdWmma, BasesErrors) {
  EXPECT_PRED2(contains, errorOf(wmma39(2, false, {{0, 1, 0}}), {16, 16}),
               "warp_bases[0]: has 3 values, expected one per dim (2)");
  EXPECT_PRED2(contains, errorOf(wmma39(2, false, {{1, 1}}), {32, 32}),
               "warp_bases[0] = [1, 1]: a basis moves one dim by a power of two tiles");
  EXPECT_PRED2(contains, errorOf(wmma39(2, false, {{0, 3}}), {64, 64}),
               "warp_bases[0] = [0, 3]: a basis moves one dim by a power of two tiles");
  EXPECT_PRED2(contains, errorOf(wmma39(2, false, {{0, 1}}, {{0, 1}}), {64, 64}),
               "reg_bases[0] = [0, 1]: moves dim1 as warp_bases[0] does");
  EXPECT_PRED2(contains, errorOf(wmma39(2, false, {{0, 2}}), {64, 64}),
               "warp_bases[0]: moves dim1 by 2 tiles, but no basis moves it by 1 (Triton "
               "asserts the tile grid is surjective)");
  EXPECT_EQ(errorOf(wmma39(2, false, {}, {{0, 0, 1}}), {2, 16, 16}), "(no error)");
  EXPECT_PRED2(contains, errorOf(wmma39(2, false, {{uint64_t{1} << 63, 0}}), {16, 16}),
               "no basis moves it by 1");
  EXPECT_PRED2(contains, errorOf(wmma39(2, false, {}), {16}), "rank 1 is unsupported");
}

}  // namespace
}  // namespace f2lay::ref::catalog
