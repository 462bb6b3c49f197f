// The test side's own tools, checked on their own: f2lay_testing with the
// formats and nothing else, so that this executable fails to link if the
// evaluator (or anything else in the library) calls f2lay::ref or f2lay::opt.
// It uses every source file of the library, so that the linker takes each.
#include <gtest/gtest.h>

#include <random>

#include "formats/error.h"
#include "testing/columns.h"
#include "testing/evaluate.h"
#include "testing/inputs.h"
#include "testing/outcome.h"
#include "testing/random_layout.h"
#include "testing/random_tensor_layouts.h"
#include "testing/rank.h"
#include "testing/subspaces.h"

namespace f2lay::testing {
namespace {

TEST(Testing, ColumnsAndBack) {
  std::mt19937_64 rng(1);
  for (int t = 0; t < 200; ++t) {
    LayoutValue l = randomLayout(rng, {"register", "lane", "warp"}, {"dim0", "dim1"}, 5);
    validate(l);
    std::vector<uint64_t> cols = columnsOf(l);
    ASSERT_EQ(layoutOf(inDimBits(l), outDimBits(l), cols), l);
    ASSERT_EQ(static_cast<int>(cols.size()), totalBits(inDimBits(l)));
    for (uint64_t y : cols) ASSERT_EQ(flatOut(l, outValues(l, y)), y);
  }
}

// apply at a unit vector is the basis; at x, the XOR of x's bases.
TEST(Testing, ApplyIsTheXorOfTheBases) {
  LayoutValue l{{{"register", {{1, 0}, {0, 3}}}, {"lane", {{2, 1}}}}, {{"x", 4}, {"y", 4}}};
  EXPECT_EQ(apply(l, 1), (std::vector<uint64_t>{1, 0}));
  EXPECT_EQ(apply(l, 4), (std::vector<uint64_t>{2, 1}));
  EXPECT_EQ(apply(l, 7), (std::vector<uint64_t>{3, 2}));
  EXPECT_EQ(inputOf(l, 6), (DimValues{{"register", 2}, {"lane", 1}}));
  EXPECT_EQ(imageSize(l), 8u);
  EXPECT_EQ(rankOf(columnsOf(l)), 3);
}

TEST(Testing, InputsToCheck) {
  EXPECT_EQ(inputsToCheck(3).size(), 8u);
  std::vector<uint64_t> wide = inputsToCheck(64, 5);
  EXPECT_EQ(wide, inputsToCheck(64, 5));  // replayable
  for (int j = 0; j < 64; ++j) EXPECT_EQ(wide[1 + j], uint64_t{1} << j);
}

TEST(Testing, TensorLayoutsAndSubspaces) {
  std::mt19937_64 rng(2);
  TensorShape t{3, 4};
  LayoutValue d = randomDistributed(rng, t, 1, 1, 1), m = randomMemory(rng, t);
  validate(d);
  validate(m);
  EXPECT_EQ(rankOf(columnsOf(m)), t.bits());  // invertible
  EXPECT_EQ(memoryFrom(m, columnsOf(m)), m);
  int count = 0;  // the 2-dim subspaces of F2^3: [3 choose 2]_2 = 7
  forEachSubspace({1, 2, 4}, 2, [&](const std::vector<uint64_t>&) { ++count; });
  EXPECT_EQ(count, 7);
}

TEST(Testing, Outcomes) {
  auto refuses = [] {
    throw Error("no");
    return std::string();
  };
  EXPECT_EQ(outcome(refuses), "error: no");
  EXPECT_EQ(outcome([] { return std::string("yes"); }), "yes");
  EXPECT_EQ(errorOf([] {}), std::nullopt);
  EXPECT_EQ(errorMessage([] {}), "(no error)");
  EXPECT_PRED2(contains, errorMessage(refuses), "no");
}

}  // namespace
}  // namespace f2lay::testing
