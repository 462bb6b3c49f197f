// The test side's rank: Gaussian elimination of flat columns (columns.h),
// written apart from opt's packed echelon (optimized/f2_core.h) and the
// reference's Eigen matrices, so that it can judge both.
#pragma once

#include <cstdint>
#include <vector>

namespace f2lay::testkit {

// A span of vectors, kept as one basis vector per highest set bit (the
// textbook "XOR basis"; opt's elimination pivots on the lowest bit instead).
struct Span {
  uint64_t byTop[64] = {};
  int rank = 0;
  // Adds x; whether it was outside the span.
  bool insert(uint64_t x) {
    for (int top = 63; x && top >= 0; --top) {
      if (!(x >> top & 1)) continue;
      if (!byTop[top]) {
        byTop[top] = x;
        ++rank;
        return true;
      }
      x ^= byTop[top];
    }
    return false;
  }
};

// The rank of the columns: 2^rank is the size of the image.
inline int rankOf(const std::vector<uint64_t>& cols) {
  Span s;
  for (uint64_t c : cols) s.insert(c);
  return s.rank;
}

}  // namespace f2lay::testkit
