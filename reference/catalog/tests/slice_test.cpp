// Slice layouts: Triton's published cases (unittest/Dialect/TritonGPU/
// LinearLayoutConversionsTest.cpp, expected values copied as facts), values
// printed by Gluon's to_linear_layout (Triton 3.6), and the precondition
// errors. The element-wise check is in elementwise_test.cpp.
#include "reference/catalog/slice.h"

#include <gtest/gtest.h>

#include "definitions/layout_literals.h"
#include "reference/catalog/blocked.h"
#include "reference/catalog/tests/test_support.h"

namespace f2lay::ref::catalog {
namespace {

using testkit::distributed;

// slice(parent, dim) at `shape`, the parent laid out at the parent shape.
LinearLayout sliceOfBlocked(const BlockedParams& parent, unsigned dim, const Shape& shape) {
  return slice(blocked(parent, sliceParentShape(shape, dim)), dim);
}

TEST(SliceTriton, SliceOfBlocked) {
  BlockedParams parent{{2, 4}, {4, 2}, {2, 2}, {1, 0}, makeCgaLayout({2, 2}, {2, 2}, {1, 0})};
  EXPECT_EQ(sliceOfBlocked(parent, 0, {128}),
            distributed({{1}, {2}, {16}, {32}}, {{4}, {0}, {0}}, {{8}, {0}}, {{64}, {0}}, {128}));
  EXPECT_EQ(sliceOfBlocked(parent, 1, {128}),
            distributed({{1}, {16}, {32}}, {{0}, {2}, {4}}, {{0}, {8}}, {{0}, {64}}, {128}));
}

// Triton's current expectation (registers that became zero are removed), which
// Triton 3.6 prints too; an older revision of the test kept them as {0}, {0}.
TEST(SliceTriton, SliceWithShape1) {
  BlockedParams parent{{1, 4}, {8, 4}, {2, 2}, {0, 1}, {}};
  EXPECT_EQ(sliceOfBlocked(parent, 0, {1}),
            distributed({}, {{0}, {0}, {0}, {0}, {0}}, {{0}, {0}}, {}, {1}));
}

TEST(SliceTriton, Slice4D) {
  BlockedParams parent{{1, 1, 1, 4}, {2, 1, 1, 16}, {1, 2, 4, 1}, {3, 0, 1, 2}, {}};
  EXPECT_EQ(sliceOfBlocked(parent, 3, {2, 1, 1}),
            distributed({}, {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {1, 0, 0}},
                        {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}, {}, {2, 1, 1}));
}

// Gluon: SliceLayout(d, BlockedLayout([1,4],[4,8],[4,1],[1,0])), to_linear_layout.
TEST(SliceGluon, CalibrationBlocked) {
  BlockedParams parent{{1, 4}, {4, 8}, {4, 1}, {1, 0}, {}};
  EXPECT_EQ(sliceOfBlocked(parent, 0, {64}),
            distributed({{1}, {2}, {32}}, {{4}, {8}, {16}, {0}, {0}}, {{0}, {0}}, {}, {64}));
  EXPECT_EQ(sliceOfBlocked(parent, 0, {8}),
            distributed({{1}, {2}}, {{4}, {0}, {0}, {0}, {0}}, {{0}, {0}}, {}, {8}));
  EXPECT_EQ(sliceOfBlocked(parent, 0, {1024}),
            distributed({{1}, {2}, {32}, {64}, {128}, {256}, {512}}, {{4}, {8}, {16}, {0}, {0}},
                        {{0}, {0}}, {}, {1024}));
  EXPECT_EQ(sliceOfBlocked(parent, 1, {64}),
            distributed({{16}, {32}}, {{0}, {0}, {0}, {1}, {2}}, {{4}, {8}}, {}, {64}));
  EXPECT_EQ(sliceOfBlocked(parent, 1, {8}),
            distributed({}, {{0}, {0}, {0}, {1}, {2}}, {{4}, {0}}, {}, {8}));
}

// Gluon: SliceLayout(0, SliceLayout(1, BlockedLayout([1,2,4],[2,4,4],[2,2,1],
// [0,2,1]))) at [32].
TEST(SliceGluon, SliceOfSlice) {
  BlockedParams parent{{1, 2, 4}, {2, 4, 4}, {2, 2, 1}, {0, 2, 1}, {}};
  LinearLayout inner = sliceOfBlocked(parent, 1, sliceParentShape({32}, 0));
  EXPECT_EQ(slice(inner, 0),
            distributed({{1}, {2}, {16}}, {{0}, {4}, {8}, {0}, {0}}, {{0}, {0}}, {}, {32}));
}

TEST(SliceErrors, DimBeyondTheRank) {
  EXPECT_THROW(sliceParentShape({64}, 2), Error);
  LinearLayout parent = blocked({{1, 4}, {4, 8}, {4, 1}, {1, 0}, {}}, {64, 1});
  EXPECT_PRED2(contains, errorMessage([&] { slice(parent, 2); }),
               "dim = 2 must be below the parent's rank (2)");
}

TEST(SliceErrors, ParentOutDimsMustBeStandard) {
  LinearLayout renamed = LinearLayout::identity1D(4, "register", "x");
  EXPECT_PRED2(contains, errorMessage([&] { slice(renamed, 0); }), "out dims must be dim0, dim1");
}

}  // namespace
}  // namespace f2lay::ref::catalog
