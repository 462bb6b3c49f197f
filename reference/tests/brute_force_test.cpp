// The reference's operations against brute force: every input enumerated and
// evaluated by testkit/evaluate.h, which shares no code with f2lay::ref. Layouts are
// random (fixed seeds) and small enough to enumerate (at most 12 input bits).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "reference/linear_layout.h"
#include "testkit/columns.h"
#include "testkit/dims.h"
#include "testkit/evaluate.h"
#include "testkit/outcome.h"
#include "testkit/random_layout.h"

namespace f2lay {
namespace {

using ref::DimValues;
using ref::LinearLayout;

constexpr int kCases = 300;

std::vector<uint64_t> values(const DimValues& v) {
  std::vector<uint64_t> out;
  for (const auto& [name, x] : v) out.push_back(x);
  return out;
}

uint64_t valueOf(const DimValues& v, const std::string& name) {
  for (const auto& [n, x] : v)
    if (n == name) return x;
  ADD_FAILURE() << "no dim " << name;
  return 0;
}

TEST(BruteForce, ApplyIsTheXorOfTheSelectedBases) {
  std::mt19937_64 rng(1);
  for (int t = 0; t < kCases; ++t) {
    LayoutValue v = testkit::randomLayout(rng, {"register", "lane"}, {"dim0", "dim1"}, 4);
    LinearLayout l(v);
    for (uint64_t x = 0; x < (uint64_t{1} << totalInBits(v)); ++x)
      ASSERT_EQ(values(l.apply(testkit::inputOf(v, x))), testkit::apply(v, x));
  }
}

TEST(BruteForce, RankInjectivityAndSurjectivityMatchTheImageSize) {
  std::mt19937_64 rng(2);
  for (int t = 0; t < kCases; ++t) {
    LayoutValue v = testkit::randomLayout(rng, {"a", "b", "c"}, {"x", "y"}, 3);
    LinearLayout l(v);
    uint64_t image = testkit::imageSize(v);
    EXPECT_EQ(image, uint64_t{1} << l.rank());
    EXPECT_EQ(l.isInjective(), image == (uint64_t{1} << totalInBits(v)));
    EXPECT_EQ(l.isSurjective(), image == (uint64_t{1} << totalOutBits(v)));
    EXPECT_EQ(l.isInvertible(), l.isInjective() && l.isSurjective());
  }
}

// Triton's sublayoutIsZero: zero exactly when every input over the kept in
// dims (the others 0) gives 0 in every kept out dim.
TEST(BruteForce, SublayoutIsZeroWhenNoKeptInputReachesAKeptOutput) {
  std::mt19937_64 rng(31);
  int zero = 0;
  for (int t = 0; t < kCases; ++t) {
    LayoutValue v = testkit::randomLayout(rng, {"a", "b", "c"}, {"x", "y"}, 3);
    std::vector<std::string> ins, outs;
    uint64_t keptInputBits = 0;
    int at = 0;
    for (const auto& [name, bits] : testkit::inDimBits(v)) {
      if (rng() % 2) {
        ins.push_back(name);
        keptInputBits |= testkit::lowBits(bits) << at;
      }
      at += bits;
    }
    std::vector<bool> keptOut;
    for (const auto& [name, bits] : testkit::outDimBits(v)) {
      keptOut.push_back(rng() % 3 == 0);
      if (keptOut.back()) outs.push_back(name);
    }
    bool expected = true;
    for (uint64_t x = 0; x < (uint64_t{1} << totalInBits(v)); ++x) {
      if ((x & ~keptInputBits) != 0) continue;
      std::vector<uint64_t> y = testkit::apply(v, x);
      for (size_t k = 0; k < y.size(); ++k) expected = expected && !(keptOut[k] && y[k] != 0);
    }
    zero += expected;
    EXPECT_EQ(LinearLayout(v).sublayoutIsZero(ins, outs), expected) << "case " << t;
  }
  EXPECT_GT(zero, kCases / 10);  // both answers occur
  EXPECT_LT(zero, kCases - kCases / 10);
}

TEST(BruteForce, MatrixViewEntryIsOutputBitOfInputBitsBasis) {
  std::mt19937_64 rng(3);
  for (int t = 0; t < kCases; ++t) {
    LayoutValue v = testkit::randomLayout(rng, {"a", "b"}, {"x", "y", "z"}, 3);
    ref::MatrixView m = LinearLayout(v).getMatrixView();
    ASSERT_EQ(m.size(), static_cast<size_t>(totalOutBits(v)));
    for (int c = 0; c < totalInBits(v); ++c) {
      uint64_t column = testkit::flatOut(v, testkit::apply(v, uint64_t{1} << c));
      for (size_t r = 0; r < m.size(); ++r) ASSERT_EQ(m[r][c], static_cast<int>((column >> r) & 1));
    }
  }
}

TEST(BruteForce, ComposeIsApplyAfterApply) {
  std::mt19937_64 rng(4);
  for (int t = 0; t < kCases; ++t) {
    LayoutValue a = testkit::randomLayout(rng, {"register", "lane"}, {"m0", "m1"}, 3);
    // b reads a's out dims in the other order, each at least as large.
    LayoutValue b = testkit::randomLayout(rng, {"m1", "m0"}, {"o0", "o1"}, 3);
    for (InDim& d : b.in_dims) {
      const OutDim& from = d.name == "m0" ? a.out_dims[0] : a.out_dims[1];
      while ((uint64_t{1} << d.bases.size()) < from.size)
        d.bases.push_back(Basis(b.out_dims.size(), 0));
    }
    LinearLayout la(a), lb(b), c = la.compose(lb);
    for (uint64_t x = 0; x < (uint64_t{1} << totalInBits(a)); ++x) {
      DimValues mid = la.apply(testkit::inputOf(a, x));
      DimValues midForB = {{"m1", valueOf(mid, "m1")}, {"m0", valueOf(mid, "m0")}};
      ASSERT_EQ(values(c.apply(testkit::inputOf(a, x))), values(lb.apply(midForB)));
    }
  }
}

TEST(BruteForce, ProductActsOnEachFactorsBitsSeparately) {
  std::mt19937_64 rng(5);
  for (int t = 0; t < kCases; ++t) {
    LayoutValue inner = testkit::randomLayout(rng, {"register", "lane"}, {"dim0", "dim1"}, 2);
    LayoutValue outer = testkit::randomLayout(rng, {"lane", "warp"}, {"dim1", "dim2"}, 2);
    LinearLayout p = LinearLayout(inner) * LinearLayout(outer);
    ASSERT_EQ(p.getInDimNames(), (std::vector<std::string>{"register", "lane", "warp"}));
    ASSERT_EQ(p.getOutDimNames(), (std::vector<std::string>{"dim0", "dim1", "dim2"}));
    size_t innerLane = inner.in_dims[1].bases.size();
    int innerDim1Bits = std::countr_zero(inner.out_dims[1].size);
    for (uint64_t x = 0; x < (uint64_t{1} << p.getTotalInDimSizeLog2()); ++x) {
      DimValues in = testkit::inputOf(p.value(), x);
      uint64_t reg = in[0].second, lane = in[1].second, warp = in[2].second;
      // Inner sees the low lane bits, outer the high ones (Def 4.3).
      uint64_t innerX = reg | (lane & ((uint64_t{1} << innerLane) - 1))
                                  << inner.in_dims[0].bases.size();
      uint64_t outerX = (lane >> innerLane) | warp << outer.in_dims[0].bases.size();
      std::vector<uint64_t> yi = testkit::apply(inner, innerX), yo = testkit::apply(outer, outerX);
      std::vector<uint64_t> expected = {yi[0], yi[1] | yo[0] << innerDim1Bits, yo[1]};
      ASSERT_EQ(values(p.apply(in)), expected);
    }
  }
}

LayoutValue randomSurjective(std::mt19937_64& rng, const std::vector<std::string>& ins,
                             const std::vector<std::string>& outs, int maxBits) {
  while (true) {
    LayoutValue v = testkit::randomLayout(rng, ins, outs, maxBits);
    if (testkit::imageSize(v) == (uint64_t{1} << totalOutBits(v))) return v;
  }
}

TEST(BruteForce, PseudoinverseIsARightInverseThatLeavesFreeBitsZero) {
  std::mt19937_64 rng(6);
  for (int t = 0; t < kCases; ++t) {
    LayoutValue v = randomSurjective(rng, {"a", "b"}, {"x", "y"}, 4);
    LinearLayout l(v), p = l.pseudoinvert();
    DimValues free = l.getFreeVariableMasks();
    for (uint64_t y = 0; y < (uint64_t{1} << totalOutBits(v)); ++y) {
      DimValues x = p.apply(testkit::inputOf(p.value(), y));
      ASSERT_EQ(testkit::flatOut(v, values(l.apply(x))), y);
      for (size_t d = 0; d < x.size(); ++d) ASSERT_EQ(x[d].second & free[d].second, 0u);
    }
  }
}

TEST(BruteForce, InverseUndoesAnInvertibleLayout) {
  std::mt19937_64 rng(7);
  int tested = 0;
  while (tested < kCases) {
    LayoutValue v = testkit::randomLayout(rng, {"a", "b"}, {"x"}, 3);
    if (totalInBits(v) != totalOutBits(v) ||
        testkit::imageSize(v) != (uint64_t{1} << totalOutBits(v)))
      continue;
    ++tested;
    LinearLayout l(v), inv = l.invert();
    for (uint64_t x = 0; x < (uint64_t{1} << totalInBits(v)); ++x)
      ASSERT_EQ(values(inv.apply(l.apply(testkit::inputOf(v, x)))), values(testkit::inputOf(v, x)));
  }
}

TEST(BruteForce, InvertAndComposeSolvesOtherOfCEqualsSelf) {
  std::mt19937_64 rng(8);
  for (int t = 0; t < kCases; ++t) {
    LayoutValue b = randomSurjective(rng, {"r", "l"}, {"dim0", "dim1"}, 3);
    // a maps into the same tensor, no larger, its out dims in the other order.
    LayoutValue a = testkit::randomLayout(rng, {"register", "lane"}, {"dim1", "dim0"}, 3);
    for (OutDim& o : a.out_dims)
      o.size = std::min(o.size, b.out_dims[o.name == "dim0" ? 0 : 1].size);
    for (InDim& d : a.in_dims)
      for (Basis& basis : d.bases)
        for (size_t k = 0; k < basis.size(); ++k) basis[k] %= a.out_dims[k].size;
    LinearLayout la(a), lb(b), c = la.invertAndCompose(lb);
    for (uint64_t x = 0; x < (uint64_t{1} << totalInBits(a)); ++x) {
      DimValues ax = la.apply(testkit::inputOf(a, x));
      DimValues bcx = lb.apply(c.apply(testkit::inputOf(a, x)));
      ASSERT_EQ(valueOf(bcx, "dim0"), valueOf(ax, "dim0"));
      ASSERT_EQ(valueOf(bcx, "dim1"), valueOf(ax, "dim1"));
    }
  }
}

// Whether in dim `d` of `l` owns its output bits: per out dim, the OR of its
// bases shares no bit with the OR of the other in dims' bases.
bool ownsItsBits(const LayoutValue& l, size_t d) {
  for (size_t k = 0; k < l.out_dims.size(); ++k) {
    uint64_t mine = 0, others = 0;
    for (size_t i = 0; i < l.in_dims.size(); ++i)
      for (const Basis& b : l.in_dims[i].bases) (i == d ? mine : others) |= b[k];
    if (mine & others) return false;
  }
  return true;
}

// With a shared in dim that both map alike, Triton's heuristic maps it to
// itself: always in 3.6, in 3.9 only where it owns its output bits in both
// layouts. The conversion must still satisfy other(C(x)) == self(x). Where
// Triton would assert, an Error is the answer.
TEST(BruteForce, InvertAndComposeWithADimMappedAlikeStillSolves) {
  std::mt19937_64 rng(12);
  for (TritonVersion release : {TritonVersion::k3_6, TritonVersion::k3_9}) {
    int solved = 0, setAside = 0;
    for (int t = 0; t < kCases; ++t) {
      LayoutValue b = randomSurjective(rng, {"warp", "l"}, {"dim0", "dim1"}, 3);
      LayoutValue a = testkit::randomLayout(rng, {"register", "warp"}, {"dim0", "dim1"}, 3);
      a.out_dims = b.out_dims;
      a.in_dims[1] = b.in_dims[0];  // warp maps alike in both
      for (Basis& basis : a.in_dims[0].bases)
        for (size_t k = 0; k < basis.size(); ++k) basis[k] %= a.out_dims[k].size;
      LinearLayout la(a), lb(b);
      std::optional<LinearLayout> c =
          testkit::attempt([&] { return la.invertAndCompose(lb, release); }).answer;
      if (!c) continue;
      ++solved;
      if (release == TritonVersion::k3_6 || (ownsItsBits(a, 1) && ownsItsBits(b, 0))) {
        ++setAside;
        EXPECT_EQ(
            c->sublayout({"warp"}, {"warp"}),
            LinearLayout::identity1D(uint64_t{1} << b.in_dims[0].bases.size(), "warp", "warp"));
      }
      for (uint64_t x = 0; x < (uint64_t{1} << totalInBits(a)); ++x)
        ASSERT_EQ(values(lb.apply(c->apply(testkit::inputOf(a, x)))),
                  values(la.apply(testkit::inputOf(a, x))));
    }
    EXPECT_GT(solved, kCases / 4);
    EXPECT_GT(setAside, kCases / 8);
  }
}

TEST(BruteForce, DivideLeftUndoesProductAndNeverLies) {
  std::mt19937_64 rng(9);
  for (int t = 0; t < kCases; ++t) {
    LinearLayout b(testkit::randomLayout(rng, {"r", "l"}, {"x", "y"}, 2));
    LinearLayout c(testkit::randomLayout(rng, {"r", "l"}, {"x", "y"}, 2));
    std::optional<LinearLayout> q = divideLeft(b * c, b);
    ASSERT_TRUE(q.has_value());
    EXPECT_EQ(*q, c);
    // An arbitrary dividend: any answer must multiply back.
    LinearLayout a(testkit::randomLayout(rng, {"r", "l"}, {"x", "y"}, 4));
    if (std::optional<LinearLayout> r = divideLeft(a, b)) {
      EXPECT_EQ(b * *r, a);
    }
  }
}

TEST(BruteForce, FreeVariablesAreBitsInTheSpanOfEarlierBits) {
  std::mt19937_64 rng(10);
  for (int t = 0; t < kCases; ++t) {
    LayoutValue v = testkit::randomLayout(rng, {"a", "b"}, {"x", "y"}, 4);
    DimValues masks = LinearLayout(v).getFreeVariableMasks();
    std::set<uint64_t> span = {0};
    int bit = 0;
    for (size_t d = 0; d < v.in_dims.size(); ++d)
      for (size_t i = 0; i < v.in_dims[d].bases.size(); ++i, ++bit) {
        uint64_t column = testkit::flatOut(v, testkit::apply(v, uint64_t{1} << bit));
        bool free = span.count(column) > 0;
        ASSERT_EQ(((masks[d].second >> i) & 1) != 0, free);
        std::set<uint64_t> grown = span;
        for (uint64_t s : span) grown.insert(s ^ column);
        span = grown;
      }
  }
}

TEST(BruteForce, ReshapeAndTransposeKeepTheMap) {
  std::mt19937_64 rng(11);
  for (int t = 0; t < kCases; ++t) {
    LayoutValue v = testkit::randomLayout(rng, {"a", "b"}, {"x", "y"}, 4);
    LinearLayout l(v);
    int in = totalInBits(v), out = totalOutBits(v);
    int cutIn = static_cast<int>(rng() % (in + 1)), cutOut = static_cast<int>(rng() % (out + 1));
    LinearLayout r =
        l.reshapeIns({{"p", uint64_t{1} << cutIn}, {"q", uint64_t{1} << (in - cutIn)}})
            .reshapeOuts({{"u", uint64_t{1} << cutOut}, {"w", uint64_t{1} << (out - cutOut)}});
    LinearLayout tr = l.transposeOuts({"y", "x"}).transposeIns({"b", "a"});
    for (uint64_t x = 0; x < (uint64_t{1} << in); ++x) {
      uint64_t y = testkit::flatOut(v, testkit::apply(v, x));
      ASSERT_EQ(testkit::flatOut(r.value(), values(r.apply(testkit::inputOf(r.value(), x)))), y);
      DimValues swapped = {{"b", x >> v.in_dims[0].bases.size()},
                           {"a", x & ((uint64_t{1} << v.in_dims[0].bases.size()) - 1)}};
      std::vector<uint64_t> yt = values(tr.apply(swapped));
      ASSERT_EQ((std::vector<uint64_t>{yt[1], yt[0]}), testkit::apply(v, x));
    }
  }
}

}  // namespace
}  // namespace f2lay
