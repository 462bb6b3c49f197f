// CuTe's swizzled layouts as linear layouts: Swizzle<B,M,S> composed with a
// flat shape:stride layout (CUTLASS include/cute/swizzle.hpp, layout.hpp).
//
// CuTe and Triton read a memory layout in opposite directions:
//   * a CuTe layout maps a coordinate to an offset: the coordinate c (one
//     value per mode, the 1-D index split colexicographically, mode 0
//     fastest) goes to the index g(c) = sum_i c_i * stride_i, and the swizzle
//     then maps the index to the offset
//       Sw(x) = x ^ shiftr(x & yyy_msk, S),
//       yyy_msk = ((1 << B) - 1) << (M + max(0, S)),
//     shiftr by a negative S being a left shift (ZZZ ^= YYY);
//   * Triton's memory layouts (shared.h) map offset -> dim0...
// cuteToLinear gives the first (in dims dim0.. = CuTe's modes, out dim
// "offset"), cuteMemoryLayout its inverse in Triton's direction.
//
// When it is linear. Sw is linear over F2 (a mask, a shift, an XOR). With
// power-of-two shapes, flattening coordinates with dim0 in the low bits is
// CuTe's colexicographic 1-D index, and g is additive over disjoint bits:
// g(x xor y) = g(x) + g(y) when x & y = 0. Since a + b = (a xor b) + 2(a & b),
// g is linear over F2 exactly when the images of the input bits (stride_i *
// 2^j) pairwise share no bit; a pair that does is a witness x, y with
// L(x xor y) != L(x) xor L(y), and Sw, a bijection, keeps it one. So the
// search over pairs of input bits finds a witness whenever there is one.
// Non-power-of-two shapes carry between modes of the 1-D index; negative
// strides give negative offsets.
#pragma once

#include <optional>

#include "reference/catalog/shape_fit.h"

namespace f2lay::ref::catalog {

// Swizzle<B,M,S>: B bits, base M, shift S (negative S shifts YYY left).
// CuTe asserts B >= 0, M >= 0, |S| >= B; Swizzle<0,0,0> is the identity.
struct CuteSwizzle {
  int bits = 0;
  int base = 0;
  int shift = 0;
};

// A flat CuTe layout, one mode per tensor dim (dim0 first).
struct CuteLayout {
  std::vector<uint64_t> shape;
  std::vector<int64_t> stride;
};

struct CuteSwizzledLayout {
  CuteSwizzle swizzle;
  CuteLayout layout;
};

// dim0.. -> offset. The out dim "offset" is the smallest power of two above
// every offset. Throws f2lay::Error naming the parameter and the rule broken:
// a bad swizzle (B, M < 0, |S| < B, masks beyond 62 bits), shape and stride
// of different ranks, a shape that is not a power of two, a negative offset,
// and, for a layout that is not linear over F2, a witness pair x, y with the
// values L(x xor y) and L(x) xor L(y).
LinearLayout cuteToLinear(const CuteSwizzle& swizzle, const CuteLayout& layout);

// offset -> dim0..: the inverse of cuteToLinear, the direction of Triton's
// memory layouts. Throws unless that layout is invertible (every offset below
// the product of the shape holds exactly one element).
LinearLayout cuteMemoryLayout(const CuteSwizzle& swizzle, const CuteLayout& layout);

// The Swizzle<B,M,S> and flat shape:stride whose cuteToLinear has the bases of
// `layout`, or nullopt when there is none. `layout` maps dim0.. -> offset, or
// offset -> dim0.. (Triton's direction, then it must be invertible); other
// dims throw. The first match in the order B, then M, then S ascending (S > 0
// before S < 0) is returned; B = 0 when no swizzle is needed. A mode of size
// 1 gets stride 0. The out-dim size of "offset" is not compared.
std::optional<CuteSwizzledLayout> linearToCute(const LinearLayout& layout);

// "Sw<B,M,S> o (s0,s1):(d0,d1)", as CuTe prints a composed layout.
std::string cuteToString(const CuteSwizzle& swizzle, const CuteLayout& layout);

}  // namespace f2lay::ref::catalog
