// CuTe's offset of a coordinate under Swizzle<B,M,S> o shape:stride, flat or
// nested, evaluated directly on integers from CuTe's definitions and not from
// the constructor (cute.h): include/cute/layout.hpp and stride.hpp (crd2idx:
// a 1-D coordinate splits colexicographically over a tuple's modes, mode 0
// fastest, the last mode taking what is left, recursively into nested
// modes; a leaf's index is c * stride) and include/cute/swizzle.hpp (offset =
// index ^ shiftr(index & yyy_msk, S), yyy_msk = ((1 << B) - 1) << (M +
// max(0, S)), a negative S shifting left). Recursive over the tuples, as
// CuTe's crd2idx is; the constructor instead flattens the leaves into bits.
// Shared by cute_test.cpp and fuzz/catalog_fuzzer.cpp.
#pragma once

#include <cstdint>

#include "reference/catalog/cute.h"

namespace f2lay::ref::catalog {

// CuTe's size: the product of the leaves.
inline uint64_t cuteSize(const CuteTuple& shape) {
  if (!shape.isTuple()) return static_cast<uint64_t>(shape.value);
  uint64_t n = 1;
  for (const CuteTuple& item : shape.items) n *= cuteSize(item);
  return n;
}

// crd2idx of the 1-D coordinate x: the index before the swizzle.
inline int64_t cuteIndex(const CuteTuple& shape, const CuteTuple& stride, uint64_t x) {
  if (!shape.isTuple()) return static_cast<int64_t>(x) * stride.value;
  int64_t index = 0;
  for (size_t i = 0; i < shape.items.size(); ++i) {
    uint64_t n = cuteSize(shape.items[i]);
    uint64_t c = i + 1 == shape.items.size() ? x : x % n;
    index += cuteIndex(shape.items[i], stride.items[i], c);
    x /= n;
  }
  return index;
}

// The offset of the 1-D coordinate x. Defined for CuTe's parameters (B, M >=
// 0, |S| >= B, congruent shape and stride) with masks and offsets well inside
// 63 bits.
inline int64_t cuteOffset(const CuteSwizzle& sw, const CuteLayout& layout, uint64_t x) {
  int64_t index = cuteIndex(CuteTuple(layout.shape), CuteTuple(layout.stride), x);
  int64_t bitMask = (int64_t{1} << sw.bits) - 1;
  if (sw.shift >= 0) {
    int64_t yyy = bitMask << (sw.base + sw.shift);
    return index ^ ((index & yyy) >> sw.shift);
  }
  int64_t yyy = bitMask << sw.base;
  return index ^ ((index & yyy) << -sw.shift);
}

}  // namespace f2lay::ref::catalog
