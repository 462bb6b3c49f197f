// §5.4's construction worked through for the 16x32 fp32 one-warp transpose
// (device_tests/HARDWARE.md#seed-transpose states every set): each
// intermediate set, stated literally, and the final map
// offset = 32 m + (n xor 2m).
#include <gtest/gtest.h>

#include "analysis/optimal_swizzle.h"
#include "reference/analysis/tests/seed_transpose.h"

namespace f2lay::ref::analysis {
namespace {

using namespace seed;  // n0..n4, m0..m3 as flattened vectors, the layouts

TEST(OptimalSwizzleSeed, IntermediateSetsMatchTheWalkthrough) {
  OptimalSwizzle s = optimalSwizzle(storeRowWise(), readColumnPairs(), 4);
  // V is a basis of A_Reg ∩ B_Reg = {0}, so v = 0.
  EXPECT_EQ(s.sets.V, Vecs{});
  EXPECT_EQ(s.vectorBytes, 4u);
  // b = log2(128 / (2^v w)) = 5, s = d - v - b = 4.
  EXPECT_EQ(s.bankBits, 5);
  EXPECT_EQ(s.idxBits, 4);
  // No lane bit split off (4-byte accesses): A_Bank = A_Thr, B_Bank = B_Thr.
  EXPECT_EQ(s.sets.ABank, (Vecs{n0, n1, n2, n3, n4}));
  EXPECT_EQ(s.sets.BBank, (Vecs{m0, m1, m2, m3, n0}));
  // I = A_Bank ∩ B_Bank = n0; E = n1n2n3n4; F = m0m1m2m3.
  EXPECT_EQ(s.sets.I, (Vecs{n0}));
  EXPECT_EQ(s.sets.E, (Vecs{n1, n2, n3, n4}));
  EXPECT_EQ(s.sets.F, (Vecs{m0, m1, m2, m3}));
  // H = n1⊕m0, n2⊕m1, n3⊕m2, n4⊕m3.
  EXPECT_EQ(s.sets.G, (Vecs{n1 ^ m0, n2 ^ m1, n3 ^ m2, n4 ^ m3}));
  // The complementing basis is empty: C = ∅; M_Seg = H; M_Bank = n0..n4.
  EXPECT_EQ(s.sets.C, Vecs{});
  EXPECT_EQ(s.sets.Idx, s.sets.G);
  EXPECT_EQ(s.sets.Bank, (Vecs{n0, n1, n2, n3, n4}));
  // Conflict-free, with zero slack: |H| + |C| = 4 = s.
  EXPECT_EQ(s.writeConflictBits, 0);
  EXPECT_EQ(s.readConflictBits, 0);
}

TEST(OptimalSwizzleSeed, TheMapIsThirtyTwoMPlusNXorTwoM) {
  LinearLayout shared = optimalSwizzle(storeRowWise(), readColumnPairs(), 4).shared;
  for (uint64_t m = 0; m < 16; ++m)
    for (uint64_t n = 0; n < 32; ++n) {
      uint64_t offset = 32 * m + (n ^ (2 * m));
      EXPECT_EQ(shared.apply({{"offset", offset}}), (DimValues{{"n", n}, {"m", m}}))
          << "offset " << offset;
    }
}

}  // namespace
}  // namespace f2lay::ref::analysis
