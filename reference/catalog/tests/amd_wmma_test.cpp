// amd_wmma accumulators: Triton's published LinearLayoutConversionsTest cases,
// Gluon's values, AMD's WMMA result tables element by element, and the
// parameter errors.
#include <gtest/gtest.h>

#include "amd_fragments.h"
#include "amd_wmma.h"
#include "layout_literals.h"
#include "test_support.h"

namespace f2lay::ref::catalog {
namespace {

using testing::distributed;

AmdWmmaParams wmma(uint64_t version, std::vector<uint64_t> warps, bool transposed,
                   std::vector<uint64_t> tilesPerWarp = {}, std::vector<uint64_t> instr = {}) {
  return {version, transposed, warps, instr, tilesPerWarp, std::nullopt};
}

// Triton LinearLayoutConversionsTest WMMA_v1_2x4Warps.
TEST(AmdWmma, TritonWMMA_v1_2x4Warps) {
  AmdWmmaParams p = wmma(1, {2, 4}, false);
  std::vector<Basis> reg = {{2, 0}, {4, 0}, {8, 0}};
  std::vector<Basis> lane = {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 0}};
  EXPECT_EQ(amdWmma(p, {16, 16}), distributed(reg, lane, {{0, 0}, {0, 0}, {0, 0}}, {}, {16, 16}));
  EXPECT_EQ(amdWmma(p, {32, 16}), distributed(reg, lane, {{0, 0}, {0, 0}, {16, 0}}, {}, {32, 16}));
  EXPECT_EQ(amdWmma(p, {16, 32}), distributed(reg, lane, {{0, 16}, {0, 0}, {0, 0}}, {}, {16, 32}));
  EXPECT_EQ(amdWmma(p, {128, 128}),
            distributed({{2, 0}, {4, 0}, {8, 0}, {0, 64}, {32, 0}, {64, 0}}, lane,
                        {{0, 16}, {0, 32}, {16, 0}}, {}, {128, 128}));
}

// Triton LinearLayoutConversionsTest WMMA_v1_2x4x1Warps: rank 3, warps
// [batch 2, M 4, N 1].
TEST(AmdWmma, TritonWMMA_v1_2x4x1Warps) {
  AmdWmmaParams p = wmma(1, {2, 4, 1}, false);
  std::vector<Basis> reg = {{0, 2, 0}, {0, 4, 0}, {0, 8, 0}};
  std::vector<Basis> lane = {{0, 0, 1}, {0, 0, 2}, {0, 0, 4}, {0, 0, 8}, {0, 1, 0}};
  EXPECT_EQ(amdWmma(p, {1, 16, 16}),
            distributed(reg, lane, {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}, {}, {1, 16, 16}));
  EXPECT_EQ(amdWmma(p, {2, 16, 16}),
            distributed(reg, lane, {{0, 0, 0}, {0, 0, 0}, {1, 0, 0}}, {}, {2, 16, 16}));
  std::vector<Basis> reg8 = reg;
  reg8.insert(reg8.end(), {{2, 0, 0}, {4, 0, 0}});
  EXPECT_EQ(amdWmma(p, {8, 16, 16}),
            distributed(reg8, lane, {{0, 0, 0}, {0, 0, 0}, {1, 0, 0}}, {}, {8, 16, 16}));
}

// Triton LinearLayoutConversionsTest WMMA_v2_2x4Warps and TWMMA_v2_2x4Warps
// (transposed: registers along dim1, lanes along dim0 first).
TEST(AmdWmma, TritonWMMA_v2_2x4Warps) {
  for (bool transposed : {false, true}) {
    SCOPED_TRACE(transposed);
    AmdWmmaParams p = wmma(2, {2, 4}, transposed);
    std::vector<Basis> reg = transposed ? std::vector<Basis>{{0, 1}, {0, 2}, {0, 4}}
                                        : std::vector<Basis>{{1, 0}, {2, 0}, {4, 0}};
    std::vector<Basis> lane = transposed
                                  ? std::vector<Basis>{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 8}}
                                  : std::vector<Basis>{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {8, 0}};
    EXPECT_EQ(amdWmma(p, {16, 16}), distributed(reg, lane, {{0, 0}, {0, 0}, {0, 0}}, {}, {16, 16}));
    EXPECT_EQ(amdWmma(p, {32, 16}),
              distributed(reg, lane, {{0, 0}, {0, 0}, {16, 0}}, {}, {32, 16}));
    EXPECT_EQ(amdWmma(p, {16, 32}),
              distributed(reg, lane, {{0, 16}, {0, 0}, {0, 0}}, {}, {16, 32}));
    std::vector<Basis> reg64 = reg;
    reg64.insert(reg64.end(), {{0, 64}, {32, 0}});
    EXPECT_EQ(amdWmma(p, {64, 128}),
              distributed(reg64, lane, {{0, 16}, {0, 32}, {16, 0}}, {}, {64, 128}));
  }
}

// Triton LinearLayoutConversionsTest WMMA_v2_2x2x2Warps.
TEST(AmdWmma, TritonWMMA_v2_2x2x2Warps) {
  AmdWmmaParams p = wmma(2, {2, 2, 2}, false);
  std::vector<Basis> reg = {{0, 1, 0}, {0, 2, 0}, {0, 4, 0}};
  std::vector<Basis> lane = {{0, 0, 1}, {0, 0, 2}, {0, 0, 4}, {0, 0, 8}, {0, 8, 0}};
  EXPECT_EQ(amdWmma(p, {1, 16, 16}),
            distributed(reg, lane, {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}, {}, {1, 16, 16}));
  EXPECT_EQ(amdWmma(p, {2, 16, 16}),
            distributed(reg, lane, {{0, 0, 0}, {0, 0, 0}, {1, 0, 0}}, {}, {2, 16, 16}));
  std::vector<Basis> reg4 = reg;
  reg4.insert(reg4.end(), {{0, 0, 32}, {0, 32, 0}, {2, 0, 0}});
  EXPECT_EQ(amdWmma(p, {4, 64, 64}),
            distributed(reg4, lane, {{0, 0, 16}, {0, 16, 0}, {1, 0, 0}}, {}, {4, 64, 64}));
}

// Gluon to_linear_layout, Triton 3.6: AMDWMMALayout(2, False, [2, 2],
// tiles_per_warp=[2, 2]) at 128x128 and 16x16, and version 3 with
// instr_shape [16, 16, 32] at 64x64.
TEST(AmdWmma, GluonTilesPerWarpAndVersion3) {
  std::vector<Basis> lane = {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {8, 0}};
  AmdWmmaParams p = wmma(2, {2, 2}, false, {2, 2});
  EXPECT_EQ(amdWmma(p, {128, 128}),
            distributed({{1, 0}, {2, 0}, {4, 0}, {0, 16}, {0, 64}, {16, 0}, {64, 0}}, lane,
                        {{0, 32}, {32, 0}}, {}, {128, 128}));
  EXPECT_EQ(amdWmma(p, {16, 16}), distributed({{1, 0}, {2, 0}, {4, 0}, {0, 0}, {0, 0}}, lane,
                                              {{0, 0}, {0, 0}}, {}, {16, 16}));
  EXPECT_EQ(amdWmma(wmma(3, {2, 2}, false, {}, {16, 16, 32}), {64, 64}),
            distributed({{1, 0}, {2, 0}, {4, 0}, {0, 32}, {32, 0}}, lane, {{0, 16}, {16, 0}}, {},
                        {64, 64}));
}

amd::Accumulator model(const AmdWmmaParams& p, const Shape& shape) {
  std::vector<uint64_t> tiles = p.tilesPerWarp.empty() ? std::vector<uint64_t>(shape.size(), 1)
                                                       : p.tilesPerWarp;
  return {true, p.version, false, p.transposed, 16, 16, 32, p.warpsPerCta, tiles, shape};
}

// AMD's WMMA result tables (amd_fragments.h), tiled as Triton tiles them, at
// every element.
TEST(AmdWmma, MatchesAmdResultTables) {
  struct Grid {
    std::vector<uint64_t> warps, tiles, shape;
  };
  std::vector<Grid> grids = {{{1, 1}, {1, 1}, {16, 16}},       {{2, 4}, {1, 1}, {64, 128}},
                             {{2, 2}, {2, 2}, {256, 64}},      {{4, 1}, {1, 2}, {16, 256}},
                             {{2, 2}, {2, 1}, {16, 16}},       {{1, 8}, {1, 1}, {1, 64}},
                             {{2, 1, 2}, {1, 2, 2}, {4, 32, 64}},
                             {{1, 2, 1}, {1, 1, 1}, {2, 16, 1}}};
  for (uint64_t version : {1, 2, 3})
    for (bool transposed : {false, true})
      for (const Grid& g : grids) {
        SCOPED_TRACE("v" + std::to_string(version) + (transposed ? " T" : "") + " warps " +
                     ::testing::PrintToString(g.warps) + " tiles " +
                     ::testing::PrintToString(g.tiles) + " shape " +
                     ::testing::PrintToString(g.shape));
        std::vector<uint64_t> instr = version == 3 ? std::vector<uint64_t>{16, 16, 32}
                                                   : std::vector<uint64_t>{16, 16, 16};
        AmdWmmaParams p = wmma(version, g.warps, transposed, g.tiles, instr);
        expectMatchesElementwise(amdWmma(p, g.shape), model(p, g.shape));
      }
}

std::string errorOf(const AmdWmmaParams& p, const Shape& shape) {
  return errorMessage([&] { amdWmma(p, shape); });
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
  EXPECT_PRED2(contains, errorOf(wmma(2, {1, 1}, false), {8, 16}),
               "shape[0] = 8: a WMMA layout's M and N extents must be 1 or at least 16");
  EXPECT_PRED2(contains, errorOf(wmma(2, {1, 1, 1}, false), {4, 16, 2}), "shape[2] = 2");
  EXPECT_PRED2(contains, errorOf(wmma(2, {1, 6}, false), {16, 16}),
               "warps_per_cta[1] = 6 is not a power of two");
  EXPECT_PRED2(contains, errorOf(wmma(2, {1, 1}, false, {0, 1}), {16, 16}),
               "tiles_per_warp[0] = 0 is not a power of two");
  EXPECT_PRED2(contains, errorOf(wmma(2, {1, 1, 1, 1}, false), {1, 1, 16, 16}),
               "rank 4 is unsupported");
}

}  // namespace
}  // namespace f2lay::ref::catalog
