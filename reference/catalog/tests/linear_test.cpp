// distributed_linear and shared_linear against their definition
// (linear_definition.h): random bases, legal or broken one way; the
// constructor accepts exactly the legal ones and holds the XOR of the bases.
#include "reference/catalog/linear.h"

#include <gtest/gtest.h>

#include <bit>
#include <numeric>
#include <random>

#include "definitions/elementwise_compare.h"
#include "definitions/linear_definition.h"
#include "formats/error.h"
#include "testkit/evaluate.h"

namespace f2lay::ref::catalog {
namespace {

using namespace linear_definition;

// Bases of `shape`, changed half the time (linear_definition.h).
Bases drawBases(std::mt19937& rng, const Shape& shape) {
  auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  return linear_definition::drawBases(shape, rng() % 2, pick);
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
    xorSomeIntoOthers(all, rng() % 4, [&](size_t n) { return rng() % n; });
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

// Gluon's make_cga_layout, element by element from Triton's CTALayoutAttr
// documentation: block b is numbered over ctas_per_cga along cta_order
// (cta_order[0] fastest); its digit along dim d picks tile digit mod
// cta_split_num[d] (the CTAs past the split hold copies).
TEST(MakeCgaLayout, EveryBlockHoldsItsTileDigitModTheSplit) {
  std::mt19937 rng(20261128);
  for (int i = 0; i < 200; ++i) {
    size_t rank = 1 + rng() % 3;
    std::vector<uint64_t> ctas(rank), split(rank);
    for (size_t d = 0; d < rank; ++d) {
      ctas[d] = uint64_t{1} << (rng() % 3);
      split[d] = ctas[d] >> (rng() % (std::countr_zero(ctas[d]) + 1));
    }
    std::vector<unsigned> order(rank);
    std::iota(order.begin(), order.end(), 0u);
    std::shuffle(order.begin(), order.end(), rng);
    LinearLayout l = makeCgaLayout(ctas, split, order);
    uint64_t blocks = 1;
    for (uint64_t c : ctas) blocks *= c;
    f2lay::testkit::Evaluator apply(l.value());
    for (uint64_t b = 0; b < blocks; ++b) {
      std::vector<uint64_t> want(rank);
      uint64_t rest = b;
      for (unsigned d : order) {
        want[d] = (rest % ctas[d]) % split[d];
        rest /= ctas[d];
      }
      ASSERT_EQ(apply(b), want) << "case " << i << " block " << b;
    }
  }
}

}  // namespace
}  // namespace f2lay::ref::catalog
