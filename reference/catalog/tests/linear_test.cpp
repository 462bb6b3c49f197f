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

// #ttg.linear on a tensor of another shape: every element of the tensor is
// held, lanes, warps and blocks hold their tile element cut to the tensor
// (each coordinate modulo its size), and a tensor at least as large keeps
// the tile's registers first.
TEST(LinearEncoding, HoldsEveryElementAndTheTileCutToTheTensor) {
  std::mt19937 rng(20261127);
  int checked = 0;
  for (int i = 0; i < 400; ++i) {
    Shape extent = drawShape(rng);
    Bases all = linear_definition::drawBases(extent, false, [&](size_t n) {
      return std::uniform_int_distribution<size_t>(0, n - 1)(rng);
    });
    if (!distributedLegal(all, extent)) continue;
    DistributedLinearParams p;
    Bases* dims[] = {&p.regBases, &p.laneBases, &p.warpBases, &p.blockBases};
    for (const Basis& b : all) dims[rng() % 4]->push_back(b);
    // The bases must reach the tile's extent for it to be the extent.
    Shape tensor = extent;
    bool grows = true;
    for (uint64_t& t : tensor) {
      int k = static_cast<int>(rng() % 5) - 2;
      t = k >= 0 ? t << k : std::max<uint64_t>(1, t >> -k);
      grows = grows && t >= extent[&t - tensor.data()];
    }
    SCOPED_TRACE("case " + std::to_string(i) + ", tensor " + listText(tensor));
    LayoutValue v = linearEncoding(p, tensor).value();
    uint64_t elements = 1;
    for (size_t d = 0; d < tensor.size(); ++d) {
      EXPECT_EQ(v.out_dims[d].size, tensor[d]);
      elements *= tensor[d];
    }
    EXPECT_EQ(testkit::imageSize(v), elements);
    for (size_t dim = 1; dim < 4; ++dim) {
      ASSERT_EQ(v.in_dims[dim].bases.size(), dims[dim]->size());
      for (size_t j = 0; j < dims[dim]->size(); ++j)
        for (size_t d = 0; d < tensor.size(); ++d)
          EXPECT_EQ(v.in_dims[dim].bases[j][d], (*dims[dim])[j][d] % tensor[d]);
    }
    if (grows) {
      for (size_t j = 0; j < p.regBases.size(); ++j)
        EXPECT_EQ(v.in_dims[0].bases[j], p.regBases[j]);
    }
    ++checked;
  }
  EXPECT_GT(checked, 100);
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
