// Memory layouts: golden cases stated literally, each naming its source.
// Triton's cases are from unittest/Dialect/TritonGPU/LinearLayoutConversionsTest.cpp
// (its shared(vec, perPhase, maxPhase, CTAsPerCGA, CTASplitNum, order,
// CTAOrder) and nvmmaShared(swizzle, transposed, bits, ...) with one CTA).
#include <gtest/gtest.h>

#include "reference/catalog/nvmma_shared.h"
#include "reference/catalog/shared.h"

namespace f2lay::ref::catalog {
namespace {

LinearLayout memory(std::vector<Basis> offset, const Shape& shape) {
  LayoutValue v{{{"offset", std::move(offset)}, {"block", {}}}, {}};
  for (size_t i = 0; i < shape.size(); ++i)
    v.out_dims.push_back({"dim" + std::to_string(i), shape[i]});
  return LinearLayout(v);
}

SwizzledSharedParams swizzled(uint64_t vec, uint64_t perPhase, uint64_t maxPhase,
                              std::vector<unsigned> order) {
  return {vec, perPhase, maxPhase, std::move(order), {}};
}

NvmmaSharedParams nvmma(uint64_t width, bool transposed, uint64_t bits, bool fp4 = false) {
  return {width, bits, transposed, fp4, {}};
}

// Triton LinearLayoutConversionsTest SharedSimple1D.
TEST(SharedGolden, TritonSharedSimple1D) {
  std::vector<Basis> offset;
  for (uint64_t x = 1; x < 1024; x *= 2) offset.push_back({x});
  EXPECT_EQ(swizzledShared(swizzled(1, 1, 1, {0}), {1024}), memory(offset, {1024}));
}

// Triton LinearLayoutConversionsTest SharedSimple2D and SharedSimple2D_Order01.
TEST(SharedGolden, TritonSharedSimple2DBothOrders) {
  std::vector<Basis> rowMajor, colMajor;
  for (uint64_t x = 1; x < 128; x *= 2) rowMajor.push_back({0, x}), colMajor.push_back({x, 0});
  for (uint64_t x = 1; x < 128; x *= 2) rowMajor.push_back({x, 0}), colMajor.push_back({0, x});
  EXPECT_EQ(swizzledShared(swizzled(1, 1, 1, {1, 0}), {128, 128}), memory(rowMajor, {128, 128}));
  EXPECT_EQ(swizzledShared(swizzled(1, 1, 1, {0, 1}), {128, 128}), memory(colMajor, {128, 128}));
  EXPECT_EQ(unswizzledShared({0, 1}, {128, 128}), memory(colMajor, {128, 128}));
}

// Triton LinearLayoutConversionsTest SharedSwizzled2D_MaxPhaseOnly.
TEST(SharedGolden, TritonSharedSwizzled2DMaxPhaseOnly) {
  EXPECT_EQ(
      swizzledShared(swizzled(1, 1, 4, {1, 0}), {32, 32}),
      memory({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {1, 1}, {2, 2}, {4, 0}, {8, 0}, {16, 0}},
             {32, 32}));
}

// Triton LinearLayoutConversionsTest SharedSwizzled2D_PerPhaseMaxPhase.
TEST(SharedGolden, TritonSharedSwizzled2DPerPhaseMaxPhase) {
  EXPECT_EQ(
      swizzledShared(swizzled(1, 2, 4, {1, 0}), {32, 32}),
      memory({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 1}, {4, 2}, {8, 0}, {16, 0}},
             {32, 32}));
}

// Triton LinearLayoutConversionsTest SharedSwizzled2D_Vec.
TEST(SharedGolden, TritonSharedSwizzled2DVec) {
  EXPECT_EQ(swizzledShared(swizzled(2, 1, 4, {1, 0}), {4, 8}),
            memory({{0, 1}, {0, 2}, {0, 4}, {1, 2}, {2, 4}}, {4, 8}));
}

// Triton LinearLayoutConversionsTest SharedSwizzled2D_PerPhaseMaxPhaseVec.
TEST(SharedGolden, TritonSharedSwizzled2DPerPhaseMaxPhaseVec) {
  EXPECT_EQ(
      swizzledShared(swizzled(2, 2, 4, {1, 0}), {32, 32}),
      memory({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 2}, {4, 4}, {8, 0}, {16, 0}},
             {32, 32}));
}

// Triton LinearLayoutConversionsTest SharedSwizzled4D.
TEST(SharedGolden, TritonSharedSwizzled4D) {
  EXPECT_EQ(swizzledShared(swizzled(2, 2, 4, {3, 2, 1, 0}), {2, 4, 32, 32}),
            memory({{0, 0, 0, 1},
                    {0, 0, 0, 2},
                    {0, 0, 0, 4},
                    {0, 0, 0, 8},
                    {0, 0, 0, 16},
                    {0, 0, 1, 0},
                    {0, 0, 2, 2},
                    {0, 0, 4, 4},
                    {0, 0, 8, 0},
                    {0, 0, 16, 0},
                    {0, 1, 0, 0},
                    {0, 2, 0, 0},
                    {1, 0, 0, 0}},
                   {2, 4, 32, 32}));
}

// Triton LinearLayoutConversionsTest SharedSwizzled2D_Order01.
TEST(SharedGolden, TritonSharedSwizzled2DOrder01) {
  EXPECT_EQ(swizzledShared(swizzled(1, 1, 4, {0, 1}), {4, 8}),
            memory({{1, 0}, {2, 0}, {1, 1}, {2, 2}, {0, 4}}, {4, 8}));
}

// Triton LinearLayoutConversionsTest Shared1DSwizzle: a 64x1 tensor has no
// columns to swizzle.
TEST(SharedGolden, TritonShared1DSwizzle) {
  EXPECT_EQ(swizzledShared(swizzled(2, 2, 4, {1, 0}), {64, 1}),
            memory({{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {32, 0}}, {64, 1}));
}

// Triton LinearLayoutConversionsTest LeadingOffset_8x16_4_2 (32-byte swizzle).
TEST(SharedGolden, TritonLeadingOffset8x16) {
  EXPECT_EQ(nvmmaShared(nvmma(32, false, 16), {8, 16}),
            memory({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 8}}, {8, 16}));
}

// Triton LinearLayoutConversionsTest LeadingOffset_128x16_4_2.
TEST(SharedGolden, TritonLeadingOffset128x16) {
  EXPECT_EQ(nvmmaShared(nvmma(32, false, 16), {128, 16}), memory({{0, 1},
                                                                  {0, 2},
                                                                  {0, 4},
                                                                  {0, 8},
                                                                  {1, 0},
                                                                  {2, 0},
                                                                  {4, 8},
                                                                  {8, 0},
                                                                  {16, 0},
                                                                  {32, 0},
                                                                  {64, 0}},
                                                                 {128, 16}));
}

// Triton LinearLayoutConversionsTest LeadingOffset_8x32_2_4 (64-byte swizzle).
TEST(SharedGolden, TritonLeadingOffset8x32) {
  EXPECT_EQ(nvmmaShared(nvmma(64, false, 16), {8, 32}),
            memory({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 8}, {4, 16}}, {8, 32}));
}

// Triton LinearLayoutConversionsTest LeadingOffset_8x64_1_8 (128-byte swizzle).
TEST(SharedGolden, TritonLeadingOffset8x64) {
  EXPECT_EQ(nvmmaShared(nvmma(128, false, 16), {8, 64}),
            memory({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}, {1, 8}, {2, 16}, {4, 32}},
                   {8, 64}));
}

// Triton LinearLayoutConversionsTest LeadingOffset_8x64_1_8_32b: 32-bit
// elements, so a 128-byte row is 32 columns and the second box follows.
TEST(SharedGolden, TritonLeadingOffset8x64Fp32) {
  EXPECT_EQ(
      nvmmaShared(nvmma(128, false, 32), {8, 64}),
      memory({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {1, 4}, {2, 8}, {4, 16}, {0, 32}}, {8, 64}));
}

// Triton LinearLayoutConversionsTest LeadingOffset_128x128_1_8_128b_transposed.
TEST(SharedGolden, TritonLeadingOffset128x128Transposed) {
  EXPECT_EQ(nvmmaShared(nvmma(128, true, 32), {128, 128}), memory({{1, 0},
                                                                   {2, 0},
                                                                   {4, 0},
                                                                   {8, 0},
                                                                   {16, 0},
                                                                   {4, 1},
                                                                   {8, 2},
                                                                   {16, 4},
                                                                   {0, 8},
                                                                   {0, 16},
                                                                   {0, 32},
                                                                   {0, 64},
                                                                   {32, 0},
                                                                   {64, 0}},
                                                                  {128, 128}));
}

// Triton LinearLayoutConversionsTest LeadingOffset_32x4x64_1_8_32b.
TEST(SharedGolden, TritonLeadingOffset32x4x64) {
  EXPECT_EQ(nvmmaShared(nvmma(64, false, 32), {32, 4, 64}), memory({{0, 0, 1},
                                                                    {0, 0, 2},
                                                                    {0, 0, 4},
                                                                    {0, 0, 8},
                                                                    {0, 1, 0},
                                                                    {0, 2, 4},
                                                                    {1, 0, 8},
                                                                    {2, 0, 0},
                                                                    {4, 0, 0},
                                                                    {8, 0, 0},
                                                                    {16, 0, 0},
                                                                    {0, 0, 16},
                                                                    {0, 0, 32}},
                                                                   {32, 4, 64}));
}

// Triton LinearLayoutConversionsTest LeadingOffset_64x4x32_1_8_32b_transposed.
TEST(SharedGolden, TritonLeadingOffset64x4x32Transposed) {
  EXPECT_EQ(nvmmaShared(nvmma(64, true, 32), {64, 4, 32}), memory({{1, 0, 0},
                                                                   {2, 0, 0},
                                                                   {4, 0, 0},
                                                                   {8, 0, 0},
                                                                   {0, 0, 4},
                                                                   {4, 0, 8},
                                                                   {8, 0, 16},
                                                                   {0, 1, 0},
                                                                   {0, 2, 0},
                                                                   {0, 0, 1},
                                                                   {0, 0, 2},
                                                                   {16, 0, 0},
                                                                   {32, 0, 0}},
                                                                  {64, 4, 32}));
}

// Triton LinearLayoutConversionsTest MMAv5Fp4Padded: offset 8 of each 16 is
// padding and maps where offset 0 does.
TEST(SharedGolden, TritonMmaV5Fp4Padded) {
  EXPECT_EQ(nvmmaShared(nvmma(128, false, 8, true), {32, 64}), memory({{0, 1},
                                                                       {0, 2},
                                                                       {0, 4},
                                                                       {0, 0},
                                                                       {0, 8},
                                                                       {0, 16},
                                                                       {0, 32},
                                                                       {1, 8},
                                                                       {2, 16},
                                                                       {4, 32},
                                                                       {8, 0},
                                                                       {16, 0}},
                                                                      {32, 64}));
}

// The 16x32 fp32 transpose tile of device_tests/HARDWARE.md#seed-transpose
// (m = dim0, n = dim1). Its three maps offset(m, n) = 32m + n, 32m + (n xor m)
// and 32m + (n xor 2m), read as memory layouts: offset bits 0-4 (bank k) give
// n = k; offset bit 5 + t (segment 2^t) gives m = 2^t and n = 0, 2^t or 2^(t+1).
// The last two are Triton's swizzled layout with per_phase=1, max_phase=16
// and vec=1 (the classic XOR swizzle) or vec=2 (the mma swizzle).
TEST(SharedGolden, SeedOneBitOffThreeMaps) {
  std::vector<Basis> banks = {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}};
  auto with = [&](std::vector<Basis> segments) {
    std::vector<Basis> all = banks;
    all.insert(all.end(), segments.begin(), segments.end());
    return memory(all, {16, 32});
  };
  LinearLayout unswizzled = with({{1, 0}, {2, 0}, {4, 0}, {8, 0}});
  LinearLayout xorM = with({{1, 1}, {2, 2}, {4, 4}, {8, 8}});
  LinearLayout xor2M = with({{1, 2}, {2, 4}, {4, 8}, {8, 16}});
  EXPECT_EQ(unswizzledShared({1, 0}, {16, 32}), unswizzled);
  EXPECT_EQ(swizzledShared(swizzled(1, 1, 16, {1, 0}), {16, 32}), xorM);
  EXPECT_EQ(swizzledShared(swizzled(2, 1, 16, {1, 0}), {16, 32}), xor2M);
  // And the three formulas themselves, at every element.
  for (uint64_t m = 0; m < 16; ++m)
    for (uint64_t n = 0; n < 32; ++n) {
      DimValues at = {{"dim0", m}, {"dim1", n}};
      EXPECT_EQ(unswizzled.apply({{"offset", 32 * m + n}, {"block", 0}}), at);
      EXPECT_EQ(xorM.apply({{"offset", 32 * m + (n ^ m)}, {"block", 0}}), at);
      EXPECT_EQ(xor2M.apply({{"offset", 32 * m + (n ^ (2 * m))}, {"block", 0}}), at);
    }
}

}  // namespace
}  // namespace f2lay::ref::catalog
