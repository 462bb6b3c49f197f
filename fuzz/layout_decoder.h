// The layouts of the algebra targets (differential, algebra), decoded from
// the input with FuzzedDataProvider the same way in both, so that a corpus
// file of one reaches the same layouts in the other.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "formats/layout_value.h"
#include "testkit/random_layout.h"

namespace f2lay::fuzz {

inline const char* const kHardwareDims[] = {"register", "lane", "warp", "block"};
inline const char* const kTensorDims[] = {"dim0", "dim1", "dim2"};

// 1 to 3 out dims (dim0..dim2), and in dims that are hardware dims or (so
// that compose and invertAndCompose meet layouts they accept) the previous
// layout's out dims, names and sizes. At most `cap` bits a side, 63 a dim.
inline LayoutValue decodeLayout(FuzzedDataProvider& in, const LayoutValue* previous, int cap) {
  LayoutValue v;
  int nOut = in.ConsumeIntegralInRange(1, 3), outBits = 0;
  for (int k = 0; k < nOut; ++k) {
    int bits = in.ConsumeIntegralInRange(0, std::min(63, cap - outBits));
    outBits += bits;
    v.out_dims.push_back({kTensorDims[k], uint64_t{1} << bits});
  }
  std::vector<std::pair<std::string, int>> ins;
  if (previous && in.ConsumeBool()) {
    for (const OutDim& d : previous->out_dims) ins.push_back({d.name, log2Exact(d.size)});
  } else {
    int nIn = in.ConsumeIntegralInRange(1, 4), inBits = 0;
    for (int k = 0; k < nIn; ++k) {
      int bits = in.ConsumeIntegralInRange(0, std::min(63, cap - inBits));
      inBits += bits;
      ins.push_back({kHardwareDims[k], bits});
    }
  }
  for (const auto& [name, bits] : ins)
    v.in_dims.push_back({name, testkit::drawBases(bits, v.out_dims, [&](uint64_t size) {
                           return in.ConsumeIntegralInRange<uint64_t>(0, size - 1);
                         })});
  return v;
}

}  // namespace f2lay::fuzz
