// The swizzle optimum's certificate on the CPU: on random pairs of every
// element width (tensors of 6 to 13 bits), and of ldmatrix / stmatrix sides,
// the optimum's wavefronts and instructions, and each side's lower bound,
// equal the minima of an exhaustive search over memory layouts
// (testkit/swizzle_search.h), which shares no code with the optimum and
// costs its witness by enumerating every lane's addresses. The GPU's
// certificate for larger tensors (device_tests/swizzle_certificate.cu) runs
// the same search with every leaf of its innermost level tried; here that
// way meets the same minima on small tensors.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "analysis/swizzle_optimum.h"
#include "reference/analysis/tests/search_instruction.h"
#include "reference/catalog/blocked.h"
#include "reference/catalog/tests/test_support.h"
#include "testkit/random_tensor_layouts.h"
#include "testkit/swizzle_search.h"

namespace f2lay::ref::analysis {
namespace {

using testkit::SearchSide;

constexpr uint64_t kBudget = 2'000'000;  // search nodes; none of the pairs below comes near

// The search's innermost level with every leaf tried (swizzle_leaves.h), as
// device_tests/swizzle_certificate.cu does on the GPU. It also costs up to 64
// leaves of each problem anew, minimal or not, address by address
// (testkit::sideCost on the leaf's memory layout): the leaves' closed form
// must give each side's wavefronts exactly.
testkit::LeafSolver checkedLeaves(std::vector<const SearchSide*> sides, uint64_t w) {
  return [sides, w](const testkit::LeafProblem& p) {
    const uint64_t count = testkit::leafCount(p);
    for (uint64_t i = 0, n = std::min<uint64_t>(count, 64); i < n; ++i) {
      uint64_t t = i * count / n;
      std::vector<uint64_t> s = testkit::leafMemoryLayout(p, t);
      int c[2] = {0, 0};
      testkit::leafTotal(p, t, c);
      for (int x = 0; x < p.sides; ++x) {
        auto cost = testkit::sideCost(*sides[x], s, w, p.side[x].vectorBytes);
        EXPECT_TRUE(cost && cost->first == p.side[x].phases << c[x])
            << "leaf " << t << " of " << count << ", side " << x;
      }
    }
    return testkit::hostLeafSolver(uint64_t{1} << 22)(p);
  };
}

// The optimum against the search: the same totals, the same bounds. Both
// refuse together where no memory layout serves a matrix side. Returns
// whether the pair was compared. With `everyLeaf`, the search tries every
// leaf of its innermost level (checkedLeaves) instead of cutting.
bool expectCertified(const LinearLayout& a, const LinearLayout& b, uint64_t w,
                     const SwizzleOptions& options, bool everyLeaf = false) {
  // The store side is A's storing warps (swizzle_optimum.h): the search
  // costs that layout's stores.
  const LinearLayout storing = storingWarps(a);
  SearchSide sa{&storing.value(), true, searchInstruction(options.write)};
  SearchSide sb{&b.value(), false, searchInstruction(options.read)};
  auto pairMinimum = [&] {
    return everyLeaf
               ? testkit::searchSwizzleMinimum(sa, sb, w, kBudget, checkedLeaves({&sa, &sb}, w))
               : testkit::searchSwizzleMinimum(sa, sb, w, kBudget);
  };
  auto sideMinimum = [&](const SearchSide& s) {
    return everyLeaf ? testkit::searchSideMinimum(s, w, kBudget, checkedLeaves({&s}, w))
                     : testkit::searchSideMinimum(s, w, kBudget);
  };
  std::optional<testkit::SearchAnswer> best;
  try {
    best = pairMinimum();
  } catch (const std::invalid_argument&) {
    EXPECT_THROW((void)swizzleOptimum(a, b, w, options), Error)
        << "the search finds no memory layout";
    return false;
  }
  if (!best) return false;
  SwizzleOptimum s = swizzleOptimum(a, b, w, options);
  EXPECT_EQ(s.wavefronts(), best->total);
  EXPECT_EQ(s.instructions(), best->instructions);
  auto storeMinimum = sideMinimum(sa), loadMinimum = sideMinimum(sb);
  if (!storeMinimum || !loadMinimum) return false;
  EXPECT_EQ(s.storeBound.wavefronts(), storeMinimum->total);
  EXPECT_EQ(s.loadBound.wavefronts(), loadMinimum->total);
  return true;
}

std::pair<LinearLayout, LinearLayout> randomPair(std::mt19937_64& rng, int minBits, int bitSpan,
                                                 int warpSpan) {
  auto [a, b] = testkit::randomDistributedPair(rng, minBits, bitSpan, warpSpan);
  return {LinearLayout(a), LinearLayout(b)};
}

TEST(SwizzleCertificate, RandomPairsOfEveryWidthMeetTheExhaustiveMinimum) {
  std::mt19937_64 rng(3210);
  for (uint64_t w : {1, 2, 4, 8, 16}) {
    int compared = 0, beyondBounds = 0;
    for (int trial = 0; trial < 80; ++trial) {
      auto [a, b] = randomPair(rng, 6, 5, 2);
      SCOPED_TRACE(::testing::Message()
                   << "w " << w << " trial " << trial << "\nA " << a << "\nB " << b);
      if (!expectCertified(a, b, w, {})) continue;
      ++compared;
      beyondBounds += !swizzleOptimum(a, b, w).meetsBounds();
    }
    EXPECT_GE(compared, 75) << "w " << w;
    RecordProperty("beyond_bounds_w" + std::to_string(w), beyondBounds);
  }
}

// The search with nothing cut at its innermost level (every leaf tried, as
// device_tests/swizzle_certificate.cu does on the GPU for larger tensors):
// the same minima, so that the GPU's certificate rests on no bound of the
// branch and bound but the outer ones.
TEST(SwizzleCertificate, EveryLeafTriedMeetsTheSameMinimum) {
  std::mt19937_64 rng(5150);
  for (uint64_t w : {1, 2, 4, 8, 16}) {
    int compared = 0;
    for (int trial = 0; trial < 24; ++trial) {
      auto [unitA, unitB] = testkit::randomDistributedPair(rng, 6, 3, 2);
      auto [va, vb] =
          trial % 2 ? testkit::throughBasisChange(rng, unitA, unitB) : std::pair{unitA, unitB};
      LinearLayout a(va), b(vb);
      SCOPED_TRACE(::testing::Message()
                   << "w " << w << " trial " << trial << "\nA " << a << "\nB " << b);
      compared += expectCertified(a, b, w, {}, true);
    }
    EXPECT_GE(compared, 20) << "w " << w;
  }
  for (int trial = 0; trial < 40; ++trial) {
    auto [a, b] = randomPair(rng, 7, 2, 1);
    SwizzleOptions options;
    (trial % 2 ? options.write : options.read) =
        trial % 4 < 2 ? Instruction::kMatrix : Instruction::kMatrixTrans;
    SCOPED_TRACE(::testing::Message() << "matrix trial " << trial << "\nA " << a << "\nB " << b);
    expectCertified(a, b, 2, options, true);
  }
}

// Larger tensors (11 to 13 bits, up to 4 warps), where the search still
// finishes in milliseconds: fewer pairs, every width.
TEST(SwizzleCertificate, LargerPairsMeetTheExhaustiveMinimum) {
  std::mt19937_64 rng(4096);
  for (uint64_t w : {1, 2, 4, 8, 16}) {
    int compared = 0;
    for (int trial = 0; trial < 8; ++trial) {
      auto [a, b] = randomPair(rng, 11, 3, 3);
      SCOPED_TRACE(::testing::Message()
                   << "w " << w << " trial " << trial << "\nA " << a << "\nB " << b);
      compared += expectCertified(a, b, w, {});
    }
    EXPECT_GE(compared, 6) << "w " << w;
  }
}

// A random 2-D blocked layout of `shape` (Gluon's BlockedLayout): each dim's
// 2^k split between size_per_thread, threads (32 in all) and warps.
LinearLayout randomBlocked(std::mt19937_64& rng, const catalog::Shape& shape, int warpBits) {
  catalog::BlockedParams p{{1, 1}, {1, 1}, {1, 1}, {0, 1}, std::nullopt};
  if (rng() % 2) p.order = {1, 0};
  for (int i = 0; i < 5; ++i) p.threadsPerWarp[rng() % 2] *= 2;
  for (int i = 0; i < warpBits; ++i) p.warpsPerCta[rng() % 2] *= 2;
  for (int i = 0, n = static_cast<int>(rng() % 5); i < n; ++i) p.sizePerThread[rng() % 2] *= 2;
  return catalog::blocked(p, shape);
}

// Pairs of the kind adapters/triton_convert_kernels.py compiles with Triton:
// two blocked layouts of one tile (1 to 4 warps, at most 2^10 elements),
// where §5.4's construction is often beaten at 1 and 2 bytes.
TEST(SwizzleCertificate, RandomBlockedPairsMeetTheExhaustiveMinimum) {
  std::mt19937_64 rng(1024);
  for (uint64_t w : {1, 2, 4, 8, 16}) {
    int compared = 0;
    for (int trial = 0; trial < 40; ++trial) {
      int warpBits = static_cast<int>(rng() % 3);
      int bits = 5 + warpBits + static_cast<int>(rng() % (6 - warpBits));
      uint64_t rows = uint64_t{1} << (rng() % (bits + 1));
      catalog::Shape shape{rows, (uint64_t{1} << bits) / rows};
      LinearLayout a = randomBlocked(rng, shape, warpBits), b = randomBlocked(rng, shape, warpBits);
      SCOPED_TRACE(::testing::Message()
                   << "w " << w << " trial " << trial << "\nA " << a << "\nB " << b);
      compared += expectCertified(a, b, w, {});
    }
    EXPECT_GE(compared, 35) << "w " << w;
  }
}

// fp16 pairs where one side uses ldmatrix or stmatrix (.trans too): random
// layouts whose low lane and register bits often form 16-byte rows.
TEST(SwizzleCertificate, MatrixSidesMeetTheExhaustiveMinimum) {
  std::mt19937_64 rng(77);
  int compared = 0;
  const Instruction kinds[] = {Instruction::kMatrix, Instruction::kMatrixTrans};
  for (int trial = 0; trial < 200; ++trial) {
    auto [a, b] = randomPair(rng, 7, 4, 1);
    SwizzleOptions options;
    (rng() % 2 ? options.write : options.read) = kinds[rng() % 2];
    SCOPED_TRACE(::testing::Message() << "trial " << trial << "\nA " << a << "\nB " << b);
    compared += expectCertified(a, b, 2, options);
  }
  EXPECT_GE(compared, 10);
  RecordProperty("compared", compared);
}

}  // namespace
}  // namespace f2lay::ref::analysis
