// Tensor memory layouts and the tcgen05.ld/st register layouts: against the
// element-wise definitions of tmem_fragments.h at many parameters, against
// Gluon 3.9.0's answers (literal bases, each case saying where it comes
// from), and the parameter errors.
#include <gtest/gtest.h>

#include "reference/catalog/tensor_memory.h"
#include "reference/catalog/tests/layout_literals.h"
#include "reference/catalog/tests/test_support.h"
#include "reference/catalog/tests/tmem_fragments.h"
#include "reference/catalog/tmem_reg_layout.h"
#include "testing/evaluate.h"

namespace f2lay::ref::catalog {
namespace {

TensorMemoryParams block(uint64_t m, uint64_t n) {
  TensorMemoryParams p;
  p.block = {m, n};
  return p;
}

TmemRegParams reg(TensorMemoryParams layout, Shape shape, uint64_t warps, std::string variant) {
  TmemRegParams p;
  p.shape = shape;
  p.allocShape = shape;
  p.layout = layout;
  p.numWarps = warps;
  p.instrVariant = variant;
  return p;
}

// Every TMEM cell {lane, column} against tmem::Layout::at.
TEST(TensorMemory, MatchesElementwise) {
  for (uint64_t bm : {64, 128})
    for (uint64_t bn : {1, 8, 64, 256})
      for (uint64_t m : {64, 128, 512})
        for (uint64_t n : {1, 4, 64, 256}) {
          if (bm == 128 && m < 128) continue;
          tmem::Layout def{bm, bn, m, n};
          LinearLayout l = tensorMemory(block(bm, bn), {m, n});
          const std::vector<InDim>& dims = l.value().in_dims;
          ASSERT_EQ(dims.size(), 3u);
          ASSERT_EQ(dims[0].bases.size(), 7u);
          ASSERT_EQ(uint64_t{1} << dims[1].bases.size(), def.columns())
              << bm << "x" << bn << " " << m << "x" << n;
          f2lay::testing::Evaluator apply(l.value());
          for (uint64_t col = 0; col < def.columns(); ++col)
            for (uint64_t row = 0; row < 128; ++row)
              ASSERT_EQ(apply(row | col << 7), def.at(row, col))
                  << "block " << bm << "x" << bn << " shape " << m << "x" << n << " lane " << row
                  << " column " << col;
        }
}

// Every (register, lane, warp) of every shape against tmem::RegLayout, for
// 32-bit packed layouts where no warp holds copies.
TEST(TmemRegLayout, MatchesElementwise) {
  int checked = 0;
  for (std::string variant : {"32x32b", "16x64b", "16x128b", "16x256b"})
    for (uint64_t bm : {64, 128})
      for (uint64_t bn : {32, 256})
        for (uint64_t m : {64, 128, 256})
          for (uint64_t n : {16, 128})
            for (uint64_t warps : {4, 8, 16}) {
              if (bm == 128 && m < 128) continue;
              tmem::RegLayout def{{bm, bn, m, n}, variant, warps};
              if (def.groups() * def.shapeCols() > def.tmem.columns()) continue;  // copies
              if (def.upper() == 3 && variant != "32x32b") continue;  // Gluon answers None
              if (def.upper() == 3 && def.chunk() < 2) continue;
              SCOPED_TRACE(variant + " block " + std::to_string(bm) + "x" + std::to_string(bn) +
                           " shape " + std::to_string(m) + "x" + std::to_string(n) + " warps " +
                           std::to_string(warps));
              expectMatchesElementwise(tmemRegLayout(reg(block(bm, bn), {m, n}, warps, variant)),
                                       def);
              ++checked;
            }
  EXPECT_GT(checked, 120);
}

// 16-bit elements packed in pairs: the 32-bit definition on the half-width
// tensor, each cell's two halves on a register bit below.
TEST(TmemRegLayout, Packed16MatchesElementwise) {
  int checked = 0;
  for (std::string variant : {"32x32b", "16x64b", "16x128b", "16x256b"})
    for (uint64_t bm : {64, 128})
      for (uint64_t m : {64, 128})
        for (uint64_t n : {32, 128})
          for (uint64_t warps : {4, 8}) {
            if (bm == 128 && m < 128) continue;
            tmem::Packed16 def{{{bm, 32, m, n / 2}, variant, warps}};
            if (def.cells.groups() * def.cells.shapeCols() > def.cells.tmem.columns()) continue;
            if (def.cells.upper() == 3 && variant != "32x32b") continue;
            SCOPED_TRACE(variant + " block " + std::to_string(bm) + "x64 shape " +
                         std::to_string(m) + "x" + std::to_string(n) + " warps " +
                         std::to_string(warps));
            TmemRegParams p = reg(block(bm, 64), {m, n}, warps, variant);
            p.elementBitwidth = 16;
            expectMatchesElementwise(tmemRegLayout(p), def);
            ++checked;
          }
  EXPECT_GT(checked, 20);
}

// Gluon 3.9.0, compute_tmem_reg_layout(float32, [128, 64], [128, 64],
// TensorMemoryLayout((128, 64), 1), 4 or 8, shape): its reg, lane and warp
// bases (asked in this session; tools/cases/catalog_tmem.jsonl has them too).
TEST(TmemRegLayout, GluonDefaults) {
  EXPECT_EQ(tmemRegLayout(reg(block(128, 64), {128, 64}, 4, "32x32b")),
            testing::distributed({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}},
                                 {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}}, {{32, 0}, {64, 0}}, {},
                                 {128, 64}));
  EXPECT_EQ(tmemRegLayout(reg(block(128, 64), {128, 64}, 4, "16x64b")),
            testing::distributed({{0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}, {16, 0}},
                                 {{8, 0}, {0, 1}, {1, 0}, {2, 0}, {4, 0}}, {{32, 0}, {64, 0}}, {},
                                 {128, 64}));
  EXPECT_EQ(tmemRegLayout(reg(block(128, 64), {128, 64}, 8, "16x128b")),
            testing::distributed({{8, 0}, {0, 4}, {0, 8}, {0, 16}, {0, 32}},
                                 {{0, 1}, {0, 2}, {1, 0}, {2, 0}, {4, 0}},
                                 {{32, 0}, {64, 0}, {16, 0}}, {}, {128, 64}));
  EXPECT_EQ(tmemRegLayout(reg(block(128, 64), {128, 64}, 4, "16x256b")),
            testing::distributed({{0, 1}, {8, 0}, {0, 8}, {0, 16}, {0, 32}, {16, 0}},
                                 {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, {{32, 0}, {64, 0}}, {},
                                 {128, 64}));
  // A 64-row block: lanes 16-31 read the upper 32 columns (16x32bx2).
  EXPECT_EQ(tmemRegLayout(reg(block(64, 64), {64, 64}, 4, "32x32b")),
            testing::distributed({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}},
                                 {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 32}}, {{16, 0}, {32, 0}}, {},
                                 {64, 64}));
}

// Gluon 3.9.0 on packed and unpacked 16-bit elements and on a two-CTA
// layout (asked in this session).
TEST(TmemRegLayout, GluonPackingAndCtas) {
  TmemRegParams p = reg(block(128, 64), {128, 64}, 4, "16x128b");
  p.elementBitwidth = 16;
  p.layout.colStride = 2;
  EXPECT_EQ(tmemRegLayout(p),
            testing::distributed({{0, 1}, {8, 0}, {0, 8}, {0, 16}, {0, 32}, {16, 0}},
                                 {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, {{32, 0}, {64, 0}}, {},
                                 {128, 64}));
  TmemRegParams two = reg(block(64, 64), {256, 64}, 4, "32x32b");
  two.layout.twoCtas = true;
  two.layout.cgaLayout = testing::cgaFromBases({{1, 0}}, 2);
  LinearLayout want = testing::distributed({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {64, 0}},
                                           {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}},
                                           {{32, 0}, {0, 32}}, {{128, 0}}, {256, 64});
  EXPECT_EQ(tmemRegLayout(two), want);
}

TEST(TmemRegLayout, Errors) {
  EXPECT_PRED2(contains, errorMessage([] {
                 tmemRegLayout(reg(block(128, 4), {128, 4}, 4, "16x256b"));
               }),
               "fewer than the shape's 8");
  EXPECT_PRED2(contains, errorMessage([] {
                 tmemRegLayout(reg(block(128, 64), {128, 64}, 4, "16x32bx2"));
               }),
               "never requested");
  EXPECT_PRED2(contains, errorMessage([] {
                 tmemRegLayout(reg(block(128, 64), {128, 64}, 6, "32x32b"));
               }),
               "num_warps = 6");
  EXPECT_PRED2(contains, errorMessage([] {
                 tmemRegLayout(reg(block(128, 64), {64, 64}, 4, "32x32b"));
               }),
               "shape[0] per CTA = 64");
  TmemRegParams p = reg(block(128, 64), {128, 64}, 4, "32x32b");
  p.elementBitwidth = 16;
  p.layout.colStride = 4;
  EXPECT_PRED2(contains, errorMessage([&] { tmemRegLayout(p); }), "col_stride must be at most 32");
}

TEST(TensorMemory, Errors) {
  EXPECT_PRED2(contains, errorMessage([] {
                 tensorMemory(block(32, 64), {128, 64});
               }),
               "block[0] = 32 must be 64 or 128");
  TensorMemoryParams p = block(128, 64);
  p.fp4Padded = true;
  p.colStride = 2;
  EXPECT_PRED2(contains, errorMessage([&] { tensorMemory(p, {128, 64}); }), "fp4_padded");
  TensorMemoryParams two = block(128, 64);
  two.twoCtas = true;
  EXPECT_PRED2(contains, errorMessage([&] { tensorMemory(two, {128, 64}); }), "[1, 0]");
}

}  // namespace
}  // namespace f2lay::ref::catalog
