// The test side's own tools, checked on their own: f2lay_testkit with the
// formats and nothing else, so that this executable fails to link if the
// evaluator (or anything else in the library) calls f2lay::ref or f2lay::opt.
// It uses every source file of the library, so that the linker takes each.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

#include "formats/error.h"
#include "testkit/columns.h"
#include "testkit/evaluate.h"
#include "testkit/inputs.h"
#include "testkit/outcome.h"
#include "testkit/random_layout.h"
#include "testkit/random_tensor_layouts.h"
#include "testkit/rank.h"
#include "testkit/subspaces.h"
#include "testkit/swizzle_leaves.h"

namespace f2lay::testkit {
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

// The leaves' unranking: the Gaussian binomials (the numbers of subspaces of
// F2^n, known in closed form), and every index a distinct subspace of the
// right dimension, so that a flat range of leaves misses none.
TEST(Testing, EveryIndexIsADistinctSubspace) {
  LeafProblem p;
  setGauss(p);
  EXPECT_EQ(p.gauss[4][2], 35u);
  EXPECT_EQ(p.gauss[5][2], 155u);
  EXPECT_EQ(p.gauss[6][3], 1395u);
  EXPECT_EQ(p.gauss[8][4], 200787u);
  EXPECT_EQ(p.gauss[7][0], 1u);
  EXPECT_EQ(p.gauss[3][4], 0u);
  for (auto [n, k] : {std::pair{6, 3}, {7, 2}, {5, 5}, {5, 0}, {8, 1}}) {
    std::set<std::vector<uint32_t>> seen;
    for (uint64_t i = 0; i < p.gauss[n][k]; ++i) {
      uint32_t rows[kLeafBits];
      unrankSubspace(p, n, k, i, rows);
      std::vector<uint32_t> span;  // every vector of the subspace, to compare subspaces
      for (uint32_t c = 0; c < (1u << k); ++c) {
        uint32_t v = 0;
        for (int r = 0; r < k; ++r)
          if (c >> r & 1) v ^= rows[r];
        ASSERT_EQ(v >> n, 0u);
        span.push_back(v);
      }
      std::set<uint32_t> distinct(span.begin(), span.end());
      ASSERT_EQ(distinct.size(), size_t{1} << k) << "n " << n << " k " << k << " index " << i;
      seen.insert(std::vector<uint32_t>(distinct.begin(), distinct.end()));
    }
    EXPECT_EQ(seen.size(), p.gauss[n][k]) << "n " << n << " k " << k;
  }
}

}  // namespace
}  // namespace f2lay::testkit
