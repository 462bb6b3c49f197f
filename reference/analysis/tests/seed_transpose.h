// The 16x32 fp32 transpose in one warp (device_tests/HARDWARE.md#seed-transpose
// states it, its wavefronts and its optimal swizzle; the tests name it "seed
// transpose"). Out dims are [n (32 columns), m (16 rows)], so the flattened
// vectors have n minor: n0..n4 = bits 0..4 and m0..m3 = bits 5..8.
#pragma once

#include "reference/analysis/f2_space.h"
#include "reference/linear_layout.h"

namespace f2lay::ref::analysis::seed {

inline constexpr Vec n0 = 1, n1 = 2, n2 = 4, n3 = 8, n4 = 16;
inline constexpr Vec m0 = 32, m1 = 64, m2 = 128, m3 = 256;

inline LinearLayout tile(std::vector<Basis> reg, std::vector<Basis> lane) {
  return LinearLayout(
      LayoutValue{{{"register", reg}, {"lane", lane}, {"warp", {}}}, {{"n", 32}, {"m", 16}}});
}

// The store, row-wise: thread t owns column t; register step r walks down
// the rows. A_Reg = m0..m3, A_Thr = n0..n4. Bases are [n, m].
inline LinearLayout storeRowWise() {
  return tile({{0, 1}, {0, 2}, {0, 4}, {0, 8}}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}});
}

// The read, column pairs: thread t reads (m = t mod 16, n = 2r + t/16).
// B_Reg = n1..n4, B_Thr = m0..m3 n0.
inline LinearLayout readColumnPairs() {
  return tile({{2, 0}, {4, 0}, {8, 0}, {16, 0}}, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 0}});
}

// The three shared-memory maps compared, offset -> (n, m): offset bits 0..4
// are the bank (a row of 32 words), bits 5..8 the row m; the row's bank is
// xored with m * xorFactor (0: unswizzled, 1: n xor m, 2: n xor 2m).
inline LinearLayout rowMajorXor(uint64_t xorFactor) {
  std::vector<Basis> offset = {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}};
  for (uint64_t t = 1; t < 16; t *= 2) offset.push_back({(t * xorFactor) % 32, t});
  return LinearLayout(LayoutValue{{{"offset", offset}}, {{"n", 32}, {"m", 16}}});
}

}  // namespace f2lay::ref::analysis::seed
