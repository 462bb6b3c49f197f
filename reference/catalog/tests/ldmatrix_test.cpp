// ldmatrix / stmatrix ownership against the statement of
// device_tests/HARDWARE.md#matrix-ownership (.x4 measured on an H100, .x1,
// .x2 and .trans stated there, not measured), element by element.
#include "reference/catalog/ldmatrix.h"

#include <gtest/gtest.h>

#include "definitions/mma_fragments.h"
#include "reference/catalog/tests/test_support.h"

namespace f2lay::ref::catalog {
namespace {

// Register bit 0 is the half h, the bits above it the register (matrix) i.
TEST(Ldmatrix, MatchesHardwareMdOwnership) {
  for (uint64_t count : {1, 2, 4})
    for (bool trans : {false, true}) {
      SCOPED_TRACE("x" + std::to_string(count) + (trans ? ".trans" : ""));
      LinearLayout l = ldmatrix({count, trans});
      ASSERT_EQ(l.getInDimNames(), (std::vector<std::string>{"register", "lane"}));
      ASSERT_EQ(l.getOutDimNames(), (std::vector<std::string>{"row", "col", "matrix"}));
      ASSERT_EQ(l.getInDimSizeLog2("register"), 1 + log2Exact(count));
      ASSERT_EQ(l.getInDimSizeLog2("lane"), 5);
      for (uint64_t t = 0; t < 32; ++t)
        for (uint64_t i = 0; i < count; ++i)
          for (uint64_t h = 0; h < 2; ++h) {
            ptx::MatrixElement e = ptx::ldmatrixElement(trans, t, i, h);
            EXPECT_EQ(l.apply({{"register", 2 * i + h}, {"lane", t}}),
                      (DimValues{{"row", e.row}, {"col", e.col}, {"matrix", e.matrix}}))
                << "thread " << t << " register " << i << " half " << h;
          }
      // Every element of the count matrices is held exactly once.
      EXPECT_TRUE(l.isInvertible());
    }
}

// The x4 tile stated as bases (device_tests/HARDWARE.md#matrix-ownership:
// half bit -> column bit 0; lane bits 0, 1 -> column bits 1, 2; lane bits 2,
// 3, 4 -> row bits 0, 1, 2; register bits -> matrix), out dims (row, col,
// matrix).
TEST(Ldmatrix, HardwareMdBasesX4) {
  LayoutValue v{{{"register", {{0, 1, 0}, {0, 0, 1}, {0, 0, 2}}},
                 {"lane", {{0, 2, 0}, {0, 4, 0}, {1, 0, 0}, {2, 0, 0}, {4, 0, 0}}}},
                {{"row", 8}, {"col", 8}, {"matrix", 4}}};
  EXPECT_EQ(ldmatrix({4, false}), LinearLayout(v));
}

TEST(Ldmatrix, CountMustBe124) {
  for (uint64_t count : {0, 3, 8})
    EXPECT_PRED2(contains, errorMessage([&] {
                   ldmatrix({count, false});
                 }),
                 "count = " + std::to_string(count));
}

}  // namespace
}  // namespace f2lay::ref::catalog
