// nvidia_mma accumulators: Triton's published cases, Gluon's value in
// device_tests/HARDWARE.md#triton-calibration, PTX's fragment tables element
// by element, and the parameter errors.
#include "reference/catalog/nvidia_mma.h"

#include <gtest/gtest.h>

#include "definitions/layout_literals.h"
#include "definitions/mma_fragments.h"
#include "reference/catalog/tests/test_support.h"

namespace f2lay::ref::catalog {
namespace {

const std::vector<Basis> kMmaLanes = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};

NvidiaMmaParams v2(std::vector<uint64_t> warps) {
  std::vector<uint64_t> instr =
      warps.size() == 2 ? std::vector<uint64_t>{16, 8} : std::vector<uint64_t>{1, 16, 8};
  return {{2, 0}, warps, instr, std::nullopt};
}
NvidiaMmaParams v3(std::vector<uint64_t> warps, std::vector<uint64_t> instr) {
  return {{3, 0}, warps, instr, std::nullopt};
}

// Triton LinearLayoutConversionsTest MMAv2_16x16: the 16x8 tile repeats once
// along dim1 (register bit 2).
TEST(NvidiaMma, TritonMMAv2_16x16) {
  EXPECT_EQ(nvidiaMma(v2({1, 1}), {16, 16}),
            testkit::distributed({{0, 1}, {8, 0}, {0, 8}}, kMmaLanes, {}, {}, {16, 16}));
}

// Triton LinearLayoutConversionsTest MMAv2_32x32: columns repeat first.
TEST(NvidiaMma, TritonMMAv2_32x32) {
  EXPECT_EQ(nvidiaMma(v2({1, 1}), {32, 32}),
            testkit::distributed({{0, 1}, {8, 0}, {0, 8}, {0, 16}, {16, 0}}, kMmaLanes, {}, {},
                                 {32, 32}));
}

// Triton LinearLayoutConversionsTest MMAv2_ExtendDim2.
TEST(NvidiaMma, TritonMMAv2_ExtendDim2) {
  EXPECT_EQ(nvidiaMma(v2({1, 1}), {16, 128}),
            testkit::distributed({{0, 1}, {8, 0}, {0, 8}, {0, 16}, {0, 32}, {0, 64}}, kMmaLanes, {},
                                 {}, {16, 128}));
}

// Triton LinearLayoutConversionsTest MMAv2_Cga and MMAv2_Small3D: rank 3,
// CTAsPerCGA [4,2,2], CTASplitNum [4,2,1], CTAOrder [2,1,0].
TEST(NvidiaMma, TritonMMAv2_CgaAndSmall3D) {
  NvidiaMmaParams p = v2({16, 1, 1});
  p.cgaLayout = makeCgaLayout({4, 2, 2}, {4, 2, 1}, {2, 1, 0});
  std::vector<Basis> reg = {{0, 0, 1},  {0, 8, 0},  {0, 0, 8},  {0, 0, 16},
                            {0, 0, 32}, {0, 0, 64}, {0, 16, 0}, {0, 32, 0}};
  std::vector<Basis> lane = {{0, 0, 2}, {0, 0, 4}, {0, 1, 0}, {0, 2, 0}, {0, 4, 0}};
  EXPECT_EQ(nvidiaMma(p, {64, 128, 128}),
            testkit::distributed(reg, lane, {{1, 0, 0}, {2, 0, 0}, {4, 0, 0}, {8, 0, 0}},
                                 {{0, 0, 0}, {0, 64, 0}, {16, 0, 0}, {32, 0, 0}}, {64, 128, 128}));
  EXPECT_EQ(nvidiaMma(p, {1, 128, 128}),
            testkit::distributed(reg, lane, {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}},
                                 {{0, 0, 0}, {0, 64, 0}, {0, 0, 0}, {0, 0, 0}}, {1, 128, 128}));
}

// Triton LinearLayoutConversionsTest MMAv3_64x16: the instruction's N (16 or
// 8) and K do not change a 64x16 accumulator.
TEST(NvidiaMma, TritonMMAv3_64x16) {
  for (std::vector<uint64_t> instr : {std::vector<uint64_t>{16, 16, 8}, {16, 8, 8}})
    EXPECT_EQ(nvidiaMma(v3({4, 1}, instr), {64, 16}),
              testkit::distributed({{0, 1}, {8, 0}, {0, 8}}, kMmaLanes, {{16, 0}, {32, 0}}, {},
                                   {64, 16}));
}

// Triton LinearLayoutConversionsTest MMAv3_128x16: rows repeat after the
// warpgroup's 64.
TEST(NvidiaMma, TritonMMAv3_128x16) {
  EXPECT_EQ(nvidiaMma(v3({4, 1}, {16, 16, 8}), {128, 16}),
            testkit::distributed({{0, 1}, {8, 0}, {0, 8}, {64, 0}}, kMmaLanes, {{16, 0}, {32, 0}},
                                 {}, {128, 16}));
}

// Triton LinearLayoutConversionsTest MMAv3_4x2Warps: a shape narrower than
// the warps' columns broadcasts the last warp bit.
TEST(NvidiaMma, TritonMMAv3_4x2Warps) {
  NvidiaMmaParams p = v3({4, 2}, {16, 32, 16});
  std::vector<Basis> reg = {{0, 1}, {8, 0}, {0, 8}, {0, 16}};
  EXPECT_EQ(nvidiaMma(p, {64, 32}),
            testkit::distributed(reg, kMmaLanes, {{16, 0}, {32, 0}, {0, 0}}, {}, {64, 32}));
  EXPECT_EQ(nvidiaMma(p, {64, 64}),
            testkit::distributed(reg, kMmaLanes, {{16, 0}, {32, 0}, {0, 32}}, {}, {64, 64}));
  reg.push_back({64, 0});
  EXPECT_EQ(nvidiaMma(p, {128, 64}),
            testkit::distributed(reg, kMmaLanes, {{16, 0}, {32, 0}, {0, 32}}, {}, {128, 64}));
  reg.push_back({128, 0});
  EXPECT_EQ(nvidiaMma(p, {256, 64}),
            testkit::distributed(reg, kMmaLanes, {{16, 0}, {32, 0}, {0, 32}}, {}, {256, 64}));
}

// Triton LinearLayoutConversionsTest MMAv3_4x4Warps: shapes smaller than the
// 64x64 warp grid.
TEST(NvidiaMma, TritonMMAv3_4x4Warps) {
  NvidiaMmaParams p = v3({4, 4}, {16, 16, 8});
  std::vector<Basis> reg = {{0, 1}, {8, 0}, {0, 8}};
  EXPECT_EQ(nvidiaMma(p, {16, 16}),
            testkit::distributed(reg, kMmaLanes, {{0, 0}, {0, 0}, {0, 0}, {0, 0}}, {}, {16, 16}));
  EXPECT_EQ(nvidiaMma(p, {32, 16}),
            testkit::distributed(reg, kMmaLanes, {{16, 0}, {0, 0}, {0, 0}, {0, 0}}, {}, {32, 16}));
  EXPECT_EQ(
      nvidiaMma(p, {64, 32}),
      testkit::distributed(reg, kMmaLanes, {{16, 0}, {32, 0}, {0, 16}, {0, 0}}, {}, {64, 32}));
}

// device_tests/HARDWARE.md#triton-calibration:
// NVMMADistributedLayout(version=[3,0], warps_per_cta=[4,1],
// instr_shape=[16,64,16]) at 64x64, as Gluon's to_linear_layout (Triton 3.6)
// prints it.
TEST(NvidiaMma, HardwareMdWgmmaValue) {
  EXPECT_EQ(nvidiaMma(v3({4, 1}, {16, 64, 16}), {64, 64}),
            testkit::distributed({{0, 1}, {8, 0}, {0, 8}, {0, 16}, {0, 32}}, kMmaLanes,
                                 {{16, 0}, {32, 0}}, {}, {64, 64}));
}

// PTX's mma.m16n8 accumulator table, tiled over warps and repeated or cut to
// the shape, at every element.
TEST(NvidiaMma, MmaSyncMatchesPtxFragmentTable) {
  for (std::vector<uint64_t> warps : {std::vector<uint64_t>{1, 1}, {2, 2}, {4, 1}, {1, 4}, {8, 2}})
    for (std::vector<uint64_t> shape :
         {std::vector<uint64_t>{16, 8}, {16, 16}, {32, 32}, {128, 64}, {8, 8}, {1, 4}, {64, 1}}) {
      SCOPED_TRACE(::testing::PrintToString(warps) + " " + ::testing::PrintToString(shape));
      expectMatchesElementwise(nvidiaMma(v2(warps), shape),
                               ptx::Accumulator{false, 8, warps, shape});
    }
}

// PTX's wgmma .m64nNk16 accumulator table, likewise.
TEST(NvidiaMma, WgmmaMatchesPtxFragmentTable) {
  struct Instr {
    uint64_t n;
    std::vector<uint64_t> warps;
  };
  for (const Instr& c : {Instr{8, {4, 1}}, Instr{8, {8, 1}}, Instr{16, {4, 2}}, Instr{64, {4, 1}},
                         Instr{64, {8, 2}}, Instr{256, {4, 1}}})
    for (std::vector<uint64_t> shape :
         {std::vector<uint64_t>{64, 64}, {128, 32}, {64, 8}, {16, 16}}) {
      SCOPED_TRACE(std::to_string(c.n) + " " + ::testing::PrintToString(c.warps) + " " +
                   ::testing::PrintToString(shape));
      expectMatchesElementwise(nvidiaMma(v3(c.warps, {16, c.n, 16}), shape),
                               ptx::Accumulator{true, c.n, c.warps, shape});
    }
}

std::string errorOf(const NvidiaMmaParams& p, const Shape& shape) {
  return errorMessage([&] { nvidiaMma(p, shape); });
}

TEST(NvidiaMma, ParameterErrors) {
  EXPECT_PRED2(contains, errorOf({{1, 0}, {1, 1}, {16, 8}, {}}, {16, 16}), "version = [1, 0]");
  EXPECT_PRED2(contains, errorOf({{5, 0}, {1, 1}, {16, 8}, {}}, {16, 16}), "unsupported");
  EXPECT_PRED2(contains, errorOf(v2({3, 1}), {16, 16}),
               "warps_per_cta[0] = 3 is not a power of two");
  EXPECT_PRED2(contains, errorOf(v2({1, 1}), {16, 24}), "shape[1] = 24 is not a power of two");
  EXPECT_PRED2(contains, errorOf(v2({1, 1, 1}), {16, 16}),
               "warps_per_cta: has 3 entries, expected 2");
  EXPECT_PRED2(contains, errorOf({{2, 0}, {1, 1}, {16, 16}, {}}, {16, 16}), "needs [16, 8]");
  EXPECT_PRED2(contains, errorOf(v3({4, 1}, {16, 24, 16}), {64, 64}), "instr_shape[1] = 24");
  EXPECT_PRED2(contains, errorOf(v3({4, 1}, {32, 64, 16}), {64, 64}), "instr_shape[0] = 32");
  EXPECT_PRED2(contains, errorOf(v3({4, 1}, {16, 64, 12}), {64, 64}), "instr_shape[2] = 12");
  EXPECT_PRED2(contains, errorOf(v3({1, 4, 1}, {16, 64, 16}), {2, 64, 64}), "rank 2 only");
  EXPECT_PRED2(contains, errorOf(v2({1}), {16}), "rank 1 is unsupported");
}

}  // namespace
}  // namespace f2lay::ref::catalog
