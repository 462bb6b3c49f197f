// Random layouts for the tests. The sources that draw a layout's basis
// values one by one (an engine here and in the tests of formats/ and
// optimized/, the fuzzer's bytes in fuzz/differential_fuzzer.cpp) fill the
// bases with drawBases, each with its own draws (so its sequence, and its
// seeds' layouts, stay as they were); properties/ draws whole columns instead
// (columns.h's layoutOf).
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "formats/layout_value.h"

namespace f2lay::testkit {

// `count` bases onto `outs`: value k of each drawn as draw(outs[k].size),
// a value below that size, basis after basis.
template <class Draw>
std::vector<Basis> drawBases(int count, const std::vector<OutDim>& outs, Draw&& draw) {
  std::vector<Basis> bases(static_cast<size_t>(count));
  for (Basis& b : bases)
    for (const OutDim& o : outs) b.push_back(draw(o.size));
  return bases;
}

// A random valid layout: in dims named from `inNames` with 0..maxBits bases,
// out dims from `outNames` with sizes 1..2^maxBits; each basis value is zero
// with probability 1/4.
LayoutValue randomLayout(std::mt19937_64& rng, const std::vector<std::string>& inNames,
                         const std::vector<std::string>& outNames, int maxBits);

}  // namespace f2lay::testkit
