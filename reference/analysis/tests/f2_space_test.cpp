// Subspace helpers against brute force over all combinations.
#include "reference/analysis/f2_space.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

namespace f2lay::ref::analysis {
namespace {

std::set<Vec> spanByEnumeration(const Vecs& v) {
  std::set<Vec> out;
  for (uint64_t mask = 0; mask < (uint64_t{1} << v.size()); ++mask) {
    Vec x = 0;
    for (size_t i = 0; i < v.size(); ++i)
      if (mask >> i & 1) x ^= v[i];
    out.insert(x);
  }
  return out;
}

Vecs randomVecs(std::mt19937_64& rng, int count, int bits) {
  Vecs v;
  for (int i = 0; i < count; ++i) v.push_back(rng() & ((Vec{1} << bits) - 1));
  return v;
}

TEST(F2Space, AgreesWithEnumeration) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 400; ++trial) {
    int bits = 1 + trial % 8;
    Vecs a = randomVecs(rng, static_cast<int>(rng() % 5), bits);
    Vecs b = randomVecs(rng, static_cast<int>(rng() % 5), bits);
    std::set<Vec> spanA = spanByEnumeration(a), spanB = spanByEnumeration(b);
    EXPECT_EQ(size_t{1} << rankOf(a), spanA.size());
    for (Vec x = 0; x < (Vec{1} << bits); ++x) EXPECT_EQ(inSpan(a, x), spanA.count(x) == 1);

    std::set<Vec> both;
    for (Vec x : spanA)
      if (spanB.count(x)) both.insert(x);
    Vecs meet = intersectSpans(a, b);
    EXPECT_EQ(rankOf(meet), static_cast<int>(meet.size()));
    EXPECT_EQ(spanByEnumeration(meet), both);

    Vecs extra = extendBasis(a, b);
    Vecs joined = a;
    joined.insert(joined.end(), b.begin(), b.end());
    EXPECT_EQ(rankOf(a) + static_cast<int>(extra.size()), rankOf(joined));

    Vecs units = completeWithUnits(a, bits);
    Vecs all = a;
    all.insert(all.end(), units.begin(), units.end());
    EXPECT_EQ(rankOf(all), bits);
    EXPECT_EQ(rankOf(a) + static_cast<int>(units.size()), bits);
  }
}

TEST(F2Space, IntersectionKeepsTheOrderOfPowersOfTwo) {
  // The paper's A_Reg ∩ B_Reg for Def 4.10 layouts: the common basis vectors,
  // in A's order.
  EXPECT_EQ(intersectSpans({8, 1, 4, 0}, {4, 2, 8}), (Vecs{8, 4}));
  EXPECT_EQ(completeWithUnits({2 ^ 16, 4 ^ 32}, 6), (Vecs{1, 2, 4, 8}));
}

TEST(F2Space, FlattensFirstOutDimLowest) {
  LinearLayout l(LayoutValue{{{"lane", {{1, 0}, {0, 1}, {0, 4}}}}, {{"n", 2}, {"m", 8}}});
  EXPECT_EQ(flatBases(l, "lane"), (Vecs{1, 2, 8}));
  EXPECT_EQ(unflatten(l, 11), (DimValues{{"n", 1}, {"m", 5}}));
  EXPECT_EQ(flatten(l, {{"m", 5}, {"n", 1}}), 11u);
}

}  // namespace
}  // namespace f2lay::ref::analysis
