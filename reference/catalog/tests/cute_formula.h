// CuTe's offset of a coordinate under Swizzle<B,M,S> o shape:stride,
// evaluated directly on integers from CuTe's definitions and not from the
// constructor (cute.h): include/cute/layout.hpp (the 1-D coordinate split
// colexicographically, mode 0 fastest; index = sum c_i * stride_i) and
// include/cute/swizzle.hpp (offset = index ^ shiftr(index & yyy_msk, S),
// yyy_msk = ((1 << B) - 1) << (M + max(0, S)), a negative S shifting left).
// Shared by cute_test.cpp and fuzz/catalog_fuzzer.cpp.
#pragma once

#include <cstdint>

#include "reference/catalog/cute.h"

namespace f2lay::ref::catalog {

// The offset of the 1-D coordinate x. Defined for CuTe's parameters (B, M >=
// 0, |S| >= B) with masks and offsets well inside 63 bits.
inline int64_t cuteOffset(const CuteSwizzle& sw, const CuteLayout& layout, uint64_t x) {
  int64_t index = 0;
  for (size_t i = 0; i < layout.shape.size(); ++i) {
    index += static_cast<int64_t>(x % layout.shape[i]) * layout.stride[i];
    x /= layout.shape[i];
  }
  int64_t bitMask = (int64_t{1} << sw.bits) - 1;
  if (sw.shift >= 0) {
    int64_t yyy = bitMask << (sw.base + sw.shift);
    return index ^ ((index & yyy) >> sw.shift);
  }
  int64_t yyy = bitMask << sw.base;
  return index ^ ((index & yyy) << -sw.shift);
}

}  // namespace f2lay::ref::catalog
