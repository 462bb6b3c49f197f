// The test side's evaluator: a layout applied by brute force, as the XOR of
// the columns of the input's set bits (Def 4.1). It works on the plain
// LayoutValue and shares no code with f2lay::ref or f2lay::opt, so that the
// tests, the laws and the fuzzers judge both by something neither wrote.
#pragma once

#include <cstdint>
#include <vector>

#include "formats/layout_value.h"
#include "testkit/columns.h"

namespace f2lay::testkit {

// L(x) on flat columns (columns.h): the XOR of the columns of x's set bits.
inline uint64_t applyColumns(const std::vector<uint64_t>& cols, uint64_t x) {
  uint64_t y = 0;
  for (size_t j = 0; j < cols.size(); ++j)
    if (x >> j & 1) y ^= cols[j];
  return y;
}

// L(x) for flat x (the first in dim in the low bits), one value per out dim.
std::vector<uint64_t> apply(const LayoutValue& l, uint64_t x);

// apply(l, x) for many x: the columns read once (every input of a layout,
// e.g.: reading them again for each made that most of the comparison).
class Evaluator {
 public:
  explicit Evaluator(const LayoutValue& l) : l_(l), cols_(columnsOf(l)) {}
  std::vector<uint64_t> operator()(uint64_t x) const {
    return outValues(l_, applyColumns(cols_, x));
  }

 private:
  const LayoutValue& l_;
  std::vector<uint64_t> cols_;
};

// The number of distinct outputs, every input enumerated.
uint64_t imageSize(const LayoutValue& l);

}  // namespace f2lay::testkit
