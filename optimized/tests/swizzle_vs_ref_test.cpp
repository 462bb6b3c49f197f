// The two F2 space backends (reference/analysis/f2_space.h by elimination,
// optimized/analysis/subspace.h on the packed echelon) against each other,
// primitive by primitive, and the optimal swizzle construction on each: the
// same vectors in the same order, the same memory layout, the same errors, on
// random Def 4.10 pairs with broadcasts, every element width, and
// ldmatrix/stmatrix tiles.
#include <gtest/gtest.h>

#include <random>

#include "analysis/optimal_swizzle.h"
#include "optimized/analysis/subspace.h"
#include "optimized/tests/both.h"
#include "reference/analysis/f2_space.h"
#include "testkit/random_tensor_layouts.h"

namespace f2lay {
namespace {

using testkit::outcome;
using testkit::randomDistributed;
using testkit::TensorShape;
using testkit::toOpt;

TEST(SubspaceVsRef, SameVectorsInTheSameOrder) {
  std::mt19937_64 rng(31);
  int zassenhaus = 0;
  for (int t = 0; t < 3000; ++t) {
    int bits = 1 + static_cast<int>(rng() % 64);
    auto randomVecs = [&] {
      std::vector<uint64_t> v(rng() % 8);
      // Few distinct bits, so that spans meet beyond the vectors themselves.
      for (uint64_t& x : v)
        x = rng() & rng() & (bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1);
      return v;
    };
    std::vector<uint64_t> a = randomVecs(), b = randomVecs();
    ASSERT_EQ(opt::analysis::EchelonSpace::intersectSpans(a, b),
              ref::analysis::intersectSpans(a, b));
    ASSERT_EQ(opt::analysis::EchelonSpace::extendBasis(a, b), ref::analysis::extendBasis(a, b));
    ASSERT_EQ(opt::analysis::EchelonSpace::completeWithUnits(a, bits),
              ref::analysis::completeWithUnits(a, bits));
    ASSERT_EQ(opt::analysis::EchelonSpace::rankOf(a), ref::analysis::rankOf(a));
    for (uint64_t x : b)
      ASSERT_EQ(opt::analysis::EchelonSpace::inSpan(a, x), ref::analysis::inSpan(a, x));
    // How often the intersection needed more than a's own vectors.
    int own = 0;
    for (uint64_t x : a) own += ref::analysis::inSpan(b, x);
    zassenhaus += static_cast<int>(ref::analysis::intersectSpans(a, b).size()) > own;
  }
  EXPECT_GT(zassenhaus, 50);
}

template <class S>
std::string show(const S& s) {
  std::string r = s.shared.toString() + " v" + std::to_string(s.vectorBytes) + " b" +
                  std::to_string(s.bankBits) + " i" + std::to_string(s.idxBits) + " w" +
                  std::to_string(s.writeConflictBits) + " r" + std::to_string(s.readConflictBits);
  for (const auto* set : {&s.sets.V, &s.sets.ABank, &s.sets.BBank, &s.sets.I, &s.sets.E, &s.sets.F,
                          &s.sets.G, &s.sets.C, &s.sets.Idx, &s.sets.Bank}) {
    r += " [";
    for (uint64_t x : *set) r += std::to_string(x) + ",";
    r += "]";
  }
  return r;
}

TEST(SwizzleVsRef, RandomPairsEveryWidthAndTile) {
  std::mt19937_64 rng(32);
  static const uint64_t widths[] = {1, 2, 4, 8, 16, 3};
  int answered = 0, refused = 0;
  for (int t = 0; t < 1500; ++t) {
    int bits = 5 + static_cast<int>(rng() % 8);
    TensorShape shape{static_cast<int>(rng() % (bits + 1)), 0};
    shape.colBits = bits - shape.rowBits;
    int warpBits = static_cast<int>(rng() % 2);
    if (bits < 5 + warpBits) continue;
    ref::LinearLayout a(randomDistributed(rng, shape, warpBits, rng() % 4 == 0, rng() % 2));
    ref::LinearLayout b(randomDistributed(rng, shape, warpBits, rng() % 4 == 0, rng() % 2));
    uint64_t w = rng() % 3 == 0 ? 2 : widths[rng() % 6];
    int write = static_cast<int>(rng() % 5 == 0 ? 1 + rng() % 2 : 0);
    int read = static_cast<int>(rng() % 5 == 0 ? 1 + rng() % 2 : 0);
    std::string byRef = outcome([&] {
      return show(ref::analysis::optimalSwizzle(a, b, w,
                                                {static_cast<ref::analysis::Instruction>(write),
                                                 static_cast<ref::analysis::Instruction>(read)}));
    });
    std::string byOpt = outcome([&] {
      return show(opt::analysis::optimalSwizzle(opt::LinearLayout(a.value()),
                                                opt::LinearLayout(b.value()), w,
                                                {static_cast<opt::analysis::Instruction>(write),
                                                 static_cast<opt::analysis::Instruction>(read)}));
    });
    ASSERT_EQ(byOpt, byRef) << a << b << "w " << w << " write " << write << " read " << read;
    (byRef.rfind("error", 0) == 0 ? refused : answered)++;
  }
  EXPECT_GT(answered, 500);
  EXPECT_GT(refused, 100);
}

}  // namespace
}  // namespace f2lay
