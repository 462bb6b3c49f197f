// The family predicates of the paper's §4.2 on hand-built matrices, one per
// clause of Def 4.10 and Def 4.14, and on catalog layouts.
#include "reference/catalog/predicates.h"

#include <gtest/gtest.h>

#include "definitions/layout_literals.h"
#include "reference/catalog/blocked.h"
#include "reference/catalog/slice.h"

namespace f2lay::ref::catalog {
namespace {

using testkit::distributed;

LinearLayout oneDim(const std::string& in, std::vector<Basis> bases, uint64_t size) {
  return LinearLayout(LayoutValue{{{in, bases}}, {{"dim0", size}}});
}

// Paper §4.1 Figure 1, layout A: a permutation matrix.
const LinearLayout kLayoutA =
    distributed({{0, 1}, {1, 0}}, {{0, 2}, {0, 4}, {0, 8}, {2, 0}, {4, 0}}, {{8, 0}}, {}, {16, 16});

TEST(IsDistributed, PaperLayoutA) { EXPECT_TRUE(isDistributed(kLayoutA)); }

// "a permutation matrix that may have additional zero columns interleaved".
TEST(IsDistributed, ZeroColumnsAllowed) {
  EXPECT_TRUE(isDistributed(oneDim("lane", {{1}, {0}, {2}, {0}}, 4)));
}

TEST(IsDistributed, NotSurjective) { EXPECT_FALSE(isDistributed(oneDim("lane", {{1}, {0}}, 4))); }

TEST(IsDistributed, ColumnWithTwoBits) {
  EXPECT_FALSE(isDistributed(oneDim("lane", {{1}, {3}}, 4)));
}

TEST(IsDistributed, RepeatedColumn) {
  EXPECT_FALSE(isDistributed(oneDim("lane", {{1}, {2}, {1}}, 4)));
}

// Triton LinearLayoutConversionsTest SharedSwizzled2D_MaxPhaseOnly: the
// swizzled shared layout [I C; 0 I] (Def 4.11) at 32x32, offset -> dims.
const LinearLayout kSwizzled(LayoutValue{
    {{"offset",
      {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {1, 1}, {2, 2}, {4, 0}, {8, 0}, {16, 0}}}},
    {{"dim0", 32}, {"dim1", 32}}});

TEST(IsMemory, SwizzledShared) {
  EXPECT_TRUE(isMemory(kSwizzled));
  EXPECT_FALSE(isDistributed(kSwizzled));  // columns (1,1) and (2,2) have two bits
}

TEST(IsMemory, UnswizzledIsBoth) {
  LinearLayout identity = oneDim("offset", {{1}, {2}, {4}}, 8);
  EXPECT_TRUE(isMemory(identity));
  EXPECT_TRUE(isDistributed(identity));
}

TEST(IsMemory, NotInvertible) {
  EXPECT_FALSE(isMemory(oneDim("offset", {{1}, {2}, {0}}, 4)));  // a zero column
  EXPECT_FALSE(isMemory(oneDim("offset", {{1}}, 4)));            // not surjective
}

TEST(IsMemory, ColumnWithThreeBits) {
  // Invertible (columns 1, 2, 7), but column 7 has three non-zero bits.
  EXPECT_FALSE(isMemory(oneDim("offset", {{1}, {2}, {7}}, 8)));
  EXPECT_TRUE(isMemory(oneDim("offset", {{1}, {2}, {6}}, 8)));
}

// Def 4.10 describes every blocked and slice layout: check a spread of them,
// broadcast (shape smaller than the tile) and CTA tiling included.
TEST(IsDistributed, BlockedAndSliceLayouts) {
  std::vector<BlockedParams> params = {
      {{1, 4}, {4, 8}, {4, 1}, {1, 0}, {}},
      {{2, 2}, {4, 8}, {2, 1}, {1, 0}, {}},
      {{4, 1}, {8, 4}, {1, 4}, {0, 1}, makeCgaLayout({2, 2}, {2, 1}, {1, 0})},
  };
  for (const BlockedParams& p : params)
    for (Shape shape : {Shape{1, 1}, Shape{8, 2}, Shape{64, 64}, Shape{512, 16}}) {
      EXPECT_TRUE(isDistributed(blocked(p, shape)));
      for (unsigned dim : {0u, 1u})
        EXPECT_TRUE(isDistributed(slice(blocked(p, sliceParentShape({shape[0]}, dim)), dim)));
    }
}

}  // namespace
}  // namespace f2lay::ref::catalog
