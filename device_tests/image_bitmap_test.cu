// The exhaustive bitmap check (image_bitmap.cuh) against answers known by
// construction and against f2lay::opt's rank-based isInjective/isSurjective.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "device_tests/gpu.h"
#include "device_tests/image_bitmap.cuh"
#include "optimized/opt_linear_layout.h"
#include "testkit/random_layout.h"

namespace f2lay::device {
namespace {

std::vector<uint64_t> identityColumns(int bits) {
  std::vector<uint64_t> cols;
  for (int j = 0; j < bits; ++j) cols.push_back(uint64_t{1} << j);
  return cols;
}

// By construction: the identity on 2^26 is a bijection; with its last column
// made equal to the first, its image is half the space (2^25 repeats); both
// fill whole words (plain stores). With its first column zero instead, the
// image misses output bit 0, so no thread fills a whole word (atomics), and
// again 2^25 inputs repeat.
TEST(DeviceImageBitmap, IdentityAndARepeatedColumn) {
  F2LAY_REQUIRE_GPU();
  std::vector<uint64_t> cols = identityColumns(26);
  ImageCount id = countImage(cols.data(), 26, 26);
  ASSERT_TRUE(id.ok) << "a CUDA call failed";
  EXPECT_EQ(id.repeats, 0u);
  EXPECT_TRUE(id.wholeWords);
  cols[25] = cols[0];
  ImageCount half = countImage(cols.data(), 26, 26);
  ASSERT_TRUE(half.ok);
  EXPECT_EQ(half.repeats, uint64_t{1} << 25);
  EXPECT_TRUE(half.wholeWords);
  cols = identityColumns(26);
  cols[0] = 0;
  ImageCount noBit0 = countImage(cols.data(), 26, 26);
  ASSERT_TRUE(noBit0.ok);
  EXPECT_EQ(noBit0.repeats, uint64_t{1} << 25);
  EXPECT_FALSE(noBit0.wholeWords);
}

TEST(DeviceImageBitmap, RandomLayoutsAgreeWithRank) {
  F2LAY_REQUIRE_GPU();
  std::mt19937_64 rng(88);
  int injective = 0, surjective = 0, wholeWords = 0;
  for (int t = 0; t < 200; ++t) {
    // Up to 24 bits a side, often square, so that both answers occur.
    LayoutValue v = testkit::randomLayout(rng, {"register", "lane", "warp"}, {"dim0", "dim1"}, 8);
    opt::LinearLayout l(v);
    int in = l.getTotalInDimSizeLog2(), out = l.getTotalOutDimSizeLog2();
    ImageCount c = countImage(l.columns(), in, out);
    ASSERT_TRUE(c.ok) << "a CUDA call failed";
    uint64_t image = (uint64_t{1} << in) - c.repeats;
    EXPECT_EQ(c.repeats == 0, l.isInjective()) << totalInBits(v) << " -> " << out;
    EXPECT_EQ(image == uint64_t{1} << out, l.isSurjective()) << totalInBits(v) << " -> " << out;
    injective += c.repeats == 0;
    surjective += image == uint64_t{1} << out;
    wholeWords += c.wholeWords;
  }
  // Both ways of marking are exercised.
  EXPECT_GT(wholeWords, 0);
  EXPECT_LT(wholeWords, 200);
  RecordProperty("injective", injective);
  RecordProperty("surjective", surjective);
  EXPECT_GT(injective, 0);
  EXPECT_GT(surjective, 0);
}

}  // namespace
}  // namespace f2lay::device
