// The test side's evaluator: a layout applied by brute force, as the XOR of
// the columns of the input's set bits (Def 4.1). It works on the plain
// LayoutValue and shares no code with f2lay::ref or f2lay::opt, so that the
// tests, the laws and the fuzzers judge both by something neither wrote.
#pragma once

#include <cstdint>
#include <vector>

#include "formats/layout_value.h"

namespace f2lay::testing {

// L(x) on flat columns (columns.h): the XOR of the columns of x's set bits.
inline uint64_t applyColumns(const std::vector<uint64_t>& cols, uint64_t x) {
  uint64_t y = 0;
  for (size_t j = 0; j < cols.size(); ++j)
    if (x >> j & 1) y ^= cols[j];
  return y;
}

// L(x) for flat x (the first in dim in the low bits), one value per out dim.
std::vector<uint64_t> apply(const LayoutValue& l, uint64_t x);

// The number of distinct outputs, every input enumerated.
uint64_t imageSize(const LayoutValue& l);

}  // namespace f2lay::testing
