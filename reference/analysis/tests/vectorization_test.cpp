// Vectorization, instruction tiles and duplication (§5.1, §5.3), on layouts
// written out literally, with expectations worked out by hand.
#include "analysis/vectorization.h"

#include <gtest/gtest.h>

#include "definitions/layout_literals.h"
#include "reference/catalog/shared.h"
#include "reference/catalog/tests/test_support.h"

namespace f2lay::ref::analysis {
namespace {

using catalog::contains;
using catalog::errorMessage;
using catalog::testkit::distributed;

// device_tests/HARDWARE.md#triton-calibration: BlockedLayout([1,4],[4,8],[4,1],[1,0])
// at 64x64 (bases [dim0, dim1]).
LinearLayout blocked64() {
  return distributed({{0, 1}, {0, 2}, {0, 32}, {16, 0}, {32, 0}},
                     {{0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 0}}, {{4, 0}, {8, 0}}, {}, {64, 64});
}

LinearLayout rowMajor64() { return catalog::unswizzledShared({1, 0}, {64, 64}); }
LinearLayout columnMajor64() { return catalog::unswizzledShared({0, 1}, {64, 64}); }

TEST(Vectorization, RowMajorBlockedHasFourContiguousElements) {
  // Registers 0, 1 hold columns +1, +2: offsets 1, 2 of a row-major tile;
  // register 2 holds column +32 (offset 32), so the run stops at 4.
  LinearLayout offsets = offsetsOf(blocked64(), rowMajor64());
  EXPECT_EQ(contiguousRegisterBits(offsets), 2);
  EXPECT_EQ(vectorRegisterBits(offsets), (std::vector<int>{0, 1}));
}

TEST(Vectorization, ColumnMajorMemoryGivesNoVector) {
  // Column-major: offset 1 is row +1, which lane 3 holds, not a register.
  LinearLayout offsets = offsetsOf(blocked64(), columnMajor64());
  EXPECT_EQ(contiguousRegisterBits(offsets), 0);
  EXPECT_EQ(vectorRegisterBits(offsets), std::vector<int>{});
}

TEST(Vectorization, PermutedRegistersVectorizeOnlyWithThePermutation) {
  // Register 0 holds column +2 and register 1 column +1: §5.1's identity
  // block is empty, §5.3's permutation [1, 0] gives a vector of 4.
  LinearLayout swapped =
      distributed({{0, 2}, {0, 1}, {0, 32}, {16, 0}, {32, 0}},
                  {{0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 0}}, {{4, 0}, {8, 0}}, {}, {64, 64});
  LinearLayout offsets = offsetsOf(swapped, rowMajor64());
  EXPECT_EQ(contiguousRegisterBits(offsets), 0);
  EXPECT_EQ(vectorRegisterBits(offsets), (std::vector<int>{1, 0}));

  std::optional<TileDivision<LinearLayout>> v4 = divideByTile(offsets, vectorTile<LinearLayout>(4));
  ASSERT_TRUE(v4.has_value());
  EXPECT_EQ(v4->registerOrder, (std::vector<int>{1, 0, 2, 3, 4}));
  // The quotient, offsets / 4: registers 2..4 at offsets 32, 1024, 2048;
  // lanes at 4, 8, 16, 64, 128; warps at 256, 512 (offset = 64 row + col).
  // The memory layout's block (size 1) stays an out dim.
  LinearLayout quotient(LayoutValue{{{"register", {{8, 0}, {256, 0}, {512, 0}}},
                                     {"lane", {{1, 0}, {2, 0}, {4, 0}, {16, 0}, {32, 0}}},
                                     {"warp", {{64, 0}, {128, 0}}},
                                     {"block", {}}},
                                    {{"offset", 1024}, {"block", 1}}});
  EXPECT_EQ(v4->quotient, quotient);
  EXPECT_FALSE(divideByTile(offsets, vectorTile<LinearLayout>(8)).has_value());
}

TEST(Vectorization, MmaAccumulatorDividesByTheLdmatrixTile) {
  // An mma m16n8 fp16 accumulator tile (PTX fragment layout): register bit 0
  // -> column 1, lanes 0, 1 -> columns 2, 4, lanes 2, 3, 4 -> rows 1, 2, 4,
  // register bit 1 -> row 8. In a row-major 16x8 tile (offset = 8 row + col)
  // the first three are offsets 1, 2, 4: one 16-byte ldmatrix row.
  LinearLayout acc =
      distributed({{0, 1}, {8, 0}}, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, {}, {}, {16, 8});
  LinearLayout offsets = offsetsOf(acc, catalog::unswizzledShared({1, 0}, {16, 8}));
  std::optional<TileDivision<LinearLayout>> m = divideByTile(offsets, matrixTile<LinearLayout>(2));
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->registerOrder, (std::vector<int>{0, 1}));
  // What is left: lanes 2..4 pick the 8 rows (offsets 8, 16, 32 -> 1, 2, 4),
  // register 1 the second matrix (offset 64 -> 8).
  LinearLayout quotient(LayoutValue{
      {{"register", {{8, 0}}}, {"lane", {{1, 0}, {2, 0}, {4, 0}}}, {"warp", {}}, {"block", {}}},
      {{"offset", 16}, {"block", 1}}});
  EXPECT_EQ(m->quotient, quotient);
  // Column-major rows are not 16 contiguous bytes.
  LinearLayout transposed = offsetsOf(acc, catalog::unswizzledShared({0, 1}, {16, 8}));
  EXPECT_FALSE(divideByTile(transposed, matrixTile<LinearLayout>(2)).has_value());
}

TEST(Duplication, ZeroColumnsAreDuplicates) {
  // §5.1: "adding a zero column in A_reg means registers 4-7 map to the same
  // tensor elements as registers 0-3" (Figure 1's layout A, with a third
  // register bit).
  LinearLayout a = distributed({{0, 1}, {1, 0}, {0, 0}}, {{0, 2}, {0, 4}, {0, 8}, {2, 0}, {4, 0}},
                               {{8, 0}}, {}, {16, 16});
  Duplication dup = duplication(a);
  EXPECT_EQ(dup.zeroBits, (DimValues{{"register", 4}, {"lane", 0}, {"warp", 0}, {"block", 0}}));
  EXPECT_EQ(dup.heldElements, 512u);
  EXPECT_EQ(dup.distinctElements, 256u);
}

TEST(Duplication, ReductionStoresSkipDuplicates) {
  // blocked64 reduced along dim1 (columns): registers 0-2 and lanes 0-2 hold
  // columns and are reduced in the warp; each warp then holds the partial of
  // its 16 rows x 2 (register rows 16, 32) ... computed per bit below.
  //   partials: rows from registers 3, 4 (16, 32), lanes 3, 4 (1, 2) and
  //   warps (4, 8): 2^6 = 64 distinct (row) partials, no warp holds columns.
  //   naive: registers left 2 bits, 32 lanes, 4 warps: 4 * 32 * 4 = 512.
  ReductionStores r = reductionStores(blocked64(), "dim1");
  EXPECT_EQ(r.distinctPartials, 64u);
  EXPECT_EQ(r.naiveStores, 512u);
  // Along dim0 the warps hold different rows: 64 columns x 4 warp parts.
  ReductionStores rows = reductionStores(blocked64(), "dim0");
  EXPECT_EQ(rows.distinctPartials, 256u);
  EXPECT_EQ(rows.naiveStores, uint64_t{8} * 32 * 4);
}

TEST(Vectorization, Errors) {
  EXPECT_PRED2(contains, errorMessage([] { (void)matrixTile<LinearLayout>(8); }), "element_bytes");
  LinearLayout notInvertible(
      LayoutValue{{{"offset", {{1, 0}, {1, 0}}}}, {{"dim0", 64}, {"dim1", 64}}});
  EXPECT_PRED2(contains, errorMessage([&] { (void)offsetsOf(blocked64(), notInvertible); }),
               "not invertible");
  EXPECT_PRED2(contains, errorMessage([&] { (void)reductionStores(blocked64(), "dim7"); }), "dim7");
}

}  // namespace
}  // namespace f2lay::ref::analysis
