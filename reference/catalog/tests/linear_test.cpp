// distributed_linear and shared_linear against their definition
// (linear_definition.h): random bases, legal or broken one way; the
// constructor accepts exactly the legal ones and holds the XOR of the bases.
#include "reference/catalog/linear.h"

#include <gtest/gtest.h>

#include <random>

#include "formats/error.h"
#include "reference/catalog/tests/elementwise_compare.h"
#include "reference/catalog/tests/linear_definition.h"

namespace f2lay::ref::catalog {
namespace {

using namespace linear_definition;

// Unit bases for every bit of `shape`, a few zero bases, shuffled; then,
// half the time, one change that may break Triton's rules: a basis dropped,
// repeated, or given a random value.
Bases drawBases(std::mt19937& rng, const Shape& shape) {
  size_t rank = shape.size();
  Bases bases;
  for (size_t d = 0; d < rank; ++d)
    for (uint64_t v = 1; v < shape[d]; v *= 2) {
      Basis b(rank, 0);
      b[d] = v;
      bases.push_back(b);
    }
  for (int z = std::uniform_int_distribution<int>(0, 2)(rng); z > 0; --z)
    bases.push_back(Basis(rank, 0));
  std::shuffle(bases.begin(), bases.end(), rng);
  auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  if (!bases.empty() && rng() % 2) {
    size_t i = pick(bases.size());
    switch (rng() % 3) {
      case 0:
        bases.erase(bases.begin() + static_cast<long>(i));
        break;
      case 1:
        bases.push_back(bases[i]);
        break;
      default:
        size_t d = pick(rank);
        bases[i][d] = pick(2 * shape[d]);
    }
  }
  return bases;
}

Shape drawShape(std::mt19937& rng) {
  Shape shape(1 + rng() % 3);
  for (uint64_t& s : shape) s = uint64_t{1} << (rng() % 4);
  return shape;
}

TEST(DistributedLinear, AcceptsExactlyPermutationsAndHoldsTheXorOfItsBases) {
  std::mt19937 rng(20261126);
  int accepted = 0, refused = 0;
  for (int i = 0; i < 600; ++i) {
    Shape shape = drawShape(rng);
    Bases all = drawBases(rng, shape);
    DistributedLinearParams p;
    Bases* dims[] = {&p.regBases, &p.laneBases, &p.warpBases, &p.blockBases};
    for (const Basis& b : all) dims[rng() % 4]->push_back(b);
    bool legal = distributedLegal(all, shape);
    SCOPED_TRACE("case " + std::to_string(i));
    if (!legal) {
      EXPECT_THROW(distributedLinear(p, shape), Error);
      ++refused;
      continue;
    }
    ++accepted;
    LinearLayout l = distributedLinear(p, shape);
    EXPECT_EQ(distributedMismatch(
                  l, Distributed{p.regBases, p.laneBases, p.warpBases, p.blockBases, shape.size()}),
              "");
    for (size_t d = 0; d < shape.size(); ++d)
      EXPECT_EQ(l.getOutDimSize("dim" + std::to_string(d)), shape[d]);
  }
  // Both outcomes are drawn often enough to matter.
  EXPECT_GT(accepted, 150);
  EXPECT_GT(refused, 150);
}

TEST(SharedLinear, AcceptsExactlyBijectionsOntoItsShape) {
  std::mt19937 rng(20261127);
  int accepted = 0, refused = 0;
  for (int i = 0; i < 600; ++i) {
    Shape shape = drawShape(rng);
    Bases all = drawBases(rng, shape);
    // A swizzle: one basis XORed into another keeps a bijection one.
    for (int k = static_cast<int>(rng() % 4); k > 0 && all.size() > 1; --k) {
      size_t a = rng() % all.size(), b = rng() % all.size();
      if (a != b)
        for (size_t d = 0; d < shape.size(); ++d) all[a][d] ^= all[b][d];
    }
    if (all.empty()) continue;
    Shape own = sharedShape(all, shape.size());
    size_t blocks = rng() % std::min<size_t>(3, all.size());
    SharedLinearParams p{Bases(all.begin(), all.end() - static_cast<long>(blocks)),
                         Bases(all.end() - static_cast<long>(blocks), all.end()),
                         uint64_t{1} << (rng() % 8)};
    SCOPED_TRACE("case " + std::to_string(i));
    if (!nonZeroBasesBiject(all, own)) {
      EXPECT_THROW(sharedLinear(p), Error);
      ++refused;
      continue;
    }
    ++accepted;
    LinearLayout l = sharedLinear(p);
    for (size_t d = 0; d < own.size(); ++d)
      EXPECT_EQ(l.getOutDimSize("dim" + std::to_string(d)), own[d]);
    for (uint64_t x = 0; x < (uint64_t{1} << p.offsetBases.size()); ++x) {
      DimValues in = {{"offset", x}, {"block", 0}};
      Basis want = xorOf(p.offsetBases, x, own.size());
      DimValues got = l.apply(in);
      for (size_t d = 0; d < want.size(); ++d) ASSERT_EQ(got[d].second, want[d]) << "offset " << x;
    }
  }
  EXPECT_GT(accepted, 150);
  EXPECT_GT(refused, 100);
}

TEST(SharedLinear, RefusesAnAlignmentThatIsNotAPowerOfTwo) {
  EXPECT_THROW(sharedLinear({{{1}, {2}}, {}, 24}), Error);
  EXPECT_NO_THROW(sharedLinear({{{1}, {2}}, {}, 1}));
}

}  // namespace
}  // namespace f2lay::ref::catalog
