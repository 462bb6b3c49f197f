// An independent, brute-force evaluator of layouts for the reference's tests.
// It works on the plain LayoutValue with loops over bits and shares no code
// with f2lay::ref: apply is the XOR of selected bases, written out again.
#pragma once

#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "formats/layout_value.h"

namespace f2lay::naive {

// Input x given as one integer, the first in dim in the low bits.
inline std::vector<uint64_t> apply(const LayoutValue& l, uint64_t x) {
  std::vector<uint64_t> out(l.out_dims.size(), 0);
  int bit = 0;
  for (const InDim& d : l.in_dims)
    for (const Basis& b : d.bases) {
      if ((x >> bit) & 1)
        for (size_t k = 0; k < out.size(); ++k) out[k] ^= b[k];
      ++bit;
    }
  return out;
}

// The output as one integer, the first out dim in the low bits.
inline uint64_t flatOut(const LayoutValue& l, const std::vector<uint64_t>& y) {
  uint64_t flat = 0;
  int shift = 0;
  for (size_t k = 0; k < y.size(); ++k) {
    flat |= y[k] << shift;
    int bits = 0;
    while ((uint64_t{1} << bits) < l.out_dims[k].size) ++bits;
    shift += bits;
  }
  return flat;
}

inline int inBits(const LayoutValue& l) {
  int n = 0;
  for (const InDim& d : l.in_dims) n += static_cast<int>(d.bases.size());
  return n;
}

inline int outBits(const LayoutValue& l) {
  int n = 0;
  for (const OutDim& d : l.out_dims) {
    int bits = 0;
    while ((uint64_t{1} << bits) < d.size) ++bits;
    n += bits;
  }
  return n;
}

// The number of distinct outputs, by enumerating every input.
inline uint64_t imageSize(const LayoutValue& l) {
  std::set<uint64_t> image;
  for (uint64_t x = 0; x < (uint64_t{1} << inBits(l)); ++x) image.insert(flatOut(l, apply(l, x)));
  return image.size();
}

// A random valid layout: in dims named from `inNames` with 0..maxBits bases,
// out dims from `outNames` with sizes 1..2^maxBits; each basis value is zero
// with probability 1/4.
inline LayoutValue randomLayout(std::mt19937_64& rng, const std::vector<std::string>& inNames,
                                const std::vector<std::string>& outNames, int maxBits) {
  LayoutValue l;
  for (const std::string& n : outNames)
    l.out_dims.push_back({n, uint64_t{1} << (rng() % (maxBits + 1))});
  for (const std::string& n : inNames) {
    InDim d{n, {}};
    int bits = static_cast<int>(rng() % (maxBits + 1));
    for (int i = 0; i < bits; ++i) {
      Basis b;
      for (const OutDim& o : l.out_dims) b.push_back(rng() % 4 == 0 ? 0 : rng() % o.size);
      d.bases.push_back(b);
    }
    l.in_dims.push_back(d);
  }
  return l;
}

}  // namespace f2lay::naive
