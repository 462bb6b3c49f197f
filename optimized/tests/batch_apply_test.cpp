// BatchApply (batch_apply.h) against LinearLayout::applyFlat, on both code
// paths (the avx2 one where the CPU has it), on random layouts of every
// input size from 0 to 64 bits and random output sizes.
#include "optimized/batch_apply.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "formats/error.h"
#include "optimized/opt_linear_layout.h"
#include "testkit/outcome.h"
#include "testkit/random_layout.h"

namespace f2lay::opt {
namespace {

// A random layout with inBits input bits (dims register, lane) and outBits
// output bits (dims dim0, dim1), split at random points.
LinearLayout randomLayout(std::mt19937_64& rng, int inBits, int outBits) {
  int lo = std::max(0, outBits - 63), hi = std::min(outBits, 63);  // one dim has <= 63 bits
  int out0 = lo + static_cast<int>(rng() % (hi - lo + 1));
  LayoutValue v;
  v.out_dims = {{"dim0", uint64_t{1} << out0}, {"dim1", uint64_t{1} << (outBits - out0)}};
  int in0 = std::min(inBits, 32);
  auto draw = [&](uint64_t size) { return rng() % 8 == 0 ? 0 : rng() & (size - 1); };
  std::vector<Basis> registers = testkit::drawBases(in0, v.out_dims, draw);
  std::vector<Basis> lanes = testkit::drawBases(inBits - in0, v.out_dims, draw);
  v.in_dims = {{"register", registers}, {"lane", lanes}};
  return LinearLayout(v);
}

std::vector<BatchApply::Path> paths() {
  std::vector<BatchApply::Path> p = {BatchApply::Path::Portable};
  if (BatchApply::avx2Supported()) p.push_back(BatchApply::Path::Avx2);
  return p;
}

TEST(BatchApply, PathNames) {
  std::mt19937_64 rng(1);
  LinearLayout l = randomLayout(rng, 10, 10);
  EXPECT_STREQ(BatchApply(l, BatchApply::Path::Portable).path(), "portable");
  EXPECT_STREQ(BatchApply(l).path(), BatchApply::avx2Supported() ? "avx2" : "portable");
  if (BatchApply::avx2Supported())
    EXPECT_STREQ(BatchApply(l, BatchApply::Path::Avx2).path(), "avx2");
  else
    EXPECT_THROW(BatchApply(l, BatchApply::Path::Avx2), Error);
  if (!BatchApply::avx2Supported()) GTEST_LOG_(INFO) << "no AVX2 here: only the portable path ran";
}

TEST(BatchApply, ApplyMatchesApplyFlat) {
  std::mt19937_64 rng(2);
  // Counts around the avx2 path's rounds of 32, so that the rest is tested too.
  const size_t counts[] = {0, 1, 31, 32, 33, 64, 100, 1000};
  for (int inBits = 0; inBits <= 64; ++inBits)
    for (int trial = 0; trial < 6; ++trial) {
      int outBits = trial == 0 ? 64 : trial == 1 ? inBits : static_cast<int>(rng() % 65);
      LinearLayout l = randomLayout(rng, inBits, outBits);
      for (BatchApply::Path path : paths()) {
        BatchApply batch(l, path);
        size_t n = counts[rng() % std::size(counts)];
        // Full 64-bit inputs: bits at or above inBits are ignored, as by applyFlat.
        std::vector<uint64_t> in(n), out(n, 12345);
        for (uint64_t& x : in) x = rng();
        batch.apply(in.data(), out.data(), n);
        for (size_t i = 0; i < n; ++i) {
          ASSERT_EQ(out[i], l.applyFlat(in[i]))
              << batch.path() << ", " << inBits << " -> " << outBits << " bits, input " << i
              << " of " << n << ":\n"
              << l;
          ASSERT_EQ(batch(in[i]), out[i]);
        }
        // In place.
        std::vector<uint64_t> inPlace = in;
        batch.apply(inPlace.data(), inPlace.data(), n);
        ASSERT_EQ(inPlace, out) << batch.path() << " in place, " << inBits << " bits";
      }
    }
}

TEST(BatchApply, FromColumns) {
  std::mt19937_64 rng(3);
  uint64_t cols[64];
  for (uint64_t& c : cols) c = rng();
  for (BatchApply::Path path : paths())
    for (int inBits : {0, 1, 7, 8, 9, 31, 32, 33, 63, 64}) {
      BatchApply batch(cols, inBits, path);
      std::vector<uint64_t> in(96), out(96);
      for (uint64_t& x : in) x = rng();
      batch.apply(in.data(), out.data(), in.size());
      for (size_t i = 0; i < in.size(); ++i)
        ASSERT_EQ(out[i], core::apply(cols, inBits, in[i])) << batch.path() << ", " << inBits;
    }
  EXPECT_THROW(BatchApply(cols, 65), Error);
  EXPECT_THROW(BatchApply(cols, -1), Error);
}

TEST(BatchApply, ApplyAllMatchesApplyFlat) {
  std::mt19937_64 rng(4);
  for (int inBits = 0; inBits <= 20; ++inBits)
    for (int outBits : {inBits, 64, static_cast<int>(rng() % 65)}) {
      LinearLayout l = randomLayout(rng, inBits, outBits);
      for (BatchApply::Path path : paths()) {
        BatchApply batch(l, path);
        std::vector<uint64_t> out((size_t{1} << inBits) + 1, 777);
        batch.applyAll(out.data());
        for (uint64_t x = 0; x < (uint64_t{1} << inBits); ++x)
          ASSERT_EQ(out[x], l.applyFlat(x)) << batch.path() << ", " << inBits << " bits, x = " << x;
        EXPECT_EQ(out.back(), 777u) << "applyAll wrote past 2^" << inBits << " values";
      }
    }
}

TEST(BatchApply, ApplyAllTakesAtMost32Bits) {
  std::mt19937_64 rng(5);
  for (int inBits : {33, 48, 64}) {
    LinearLayout l = randomLayout(rng, inBits, 16);
    for (BatchApply::Path path : paths()) {
      BatchApply batch(l, path);
      uint64_t out[1];
      EXPECT_PRED2(testkit::contains, testkit::errorMessage([&] { batch.applyAll(out); }),
                   "at most 32")
          << "applyAll on " << inBits << " bits";
    }
  }
}

}  // namespace
}  // namespace f2lay::opt
