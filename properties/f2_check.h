// The test side's own F2 arithmetic on a layout's flattened columns:
// evaluation by XOR, rank by elimination, and the inputs a law checks at.
// It shares no code with optimized/f2_core.h nor with the reference's Eigen
// matrices, so that the laws, the fuzzers and the opt-vs-ref tests judge
// both implementations by something neither of them wrote.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "formats/layout_value.h"

namespace f2lay::check {

inline uint64_t lowBits(int bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

// A layout's columns: column j is the image of flattened input bit j, its
// output bits flattened with the first out dim least significant.
inline std::vector<uint64_t> columnsOf(const LayoutValue& l) {
  std::vector<uint64_t> cols;
  for (const InDim& d : l.in_dims)
    for (const Basis& b : d.bases) {
      uint64_t x = 0;
      int shift = 0;
      for (size_t k = 0; k < b.size(); ++k) {
        if (shift < 64) x |= b[k] << shift;  // past 64 bits only empty dims
        shift += log2Exact(l.out_dims[k].size);
      }
      cols.push_back(x);
    }
  return cols;
}

// L(x) = the XOR of the columns of x's set bits (Def 4.1).
inline uint64_t applyColumns(const std::vector<uint64_t>& cols, uint64_t x) {
  uint64_t y = 0;
  for (size_t j = 0; j < cols.size(); ++j)
    if (x >> j & 1) y ^= cols[j];
  return y;
}

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

// The layout from `ins` onto `outs` ((name, bits) each) whose flattened
// input bit j maps to cols[j]: columnsOf's inverse.
inline LayoutValue layoutOf(const std::vector<std::pair<std::string, int>>& ins,
                            const std::vector<std::pair<std::string, int>>& outs,
                            const std::vector<uint64_t>& cols) {
  LayoutValue v;
  for (const auto& [name, bits] : outs) v.out_dims.push_back({name, uint64_t{1} << bits});
  size_t j = 0;
  for (const auto& [name, bits] : ins) {
    InDim d{name, {}};
    for (int i = 0; i < bits; ++i, ++j) {
      Basis b;
      int shift = 0;
      for (const auto& o : outs) {
        b.push_back(shift < 64 ? cols[j] >> shift & lowBits(o.second) : 0);
        shift += o.second;
      }
      d.bases.push_back(b);
    }
    v.in_dims.push_back(d);
  }
  return v;
}

// The rank of the columns: 2^rank is the size of the image.
inline int rankOf(const std::vector<uint64_t>& cols) {
  Span s;
  for (uint64_t c : cols) s.insert(c);
  return s.rank;
}

// The inputs of `bits` bits a law checks at: every one up to 2^12; above,
// 0, every unit vector (the columns themselves: two linear maps that agree
// there agree everywhere), all ones, the top bits alone, and random ones
// drawn from `seed` (so that a failing case replays).
inline std::vector<uint64_t> inputsToCheck(int bits, uint64_t seed = 0) {
  std::vector<uint64_t> xs;
  if (bits <= 12) {
    for (uint64_t x = 0; x <= lowBits(bits); ++x) xs.push_back(x);
    return xs;
  }
  xs.push_back(0);
  for (int j = 0; j < bits; ++j) xs.push_back(uint64_t{1} << j);
  xs.push_back(lowBits(bits));
  for (int top = 1; top <= 8; ++top) xs.push_back(lowBits(bits) & ~lowBits(bits - top));
  std::mt19937_64 rng(seed ^ static_cast<uint64_t>(bits));
  for (int k = 0; k < 16; ++k) xs.push_back(rng() & lowBits(bits));
  return xs;
}

}  // namespace f2lay::check
