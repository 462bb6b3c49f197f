// CuTe's swizzled layouts as linear layouts: Swizzle<B,M,S> composed with a
// shape:stride layout, flat or nested (CUTLASS include/cute/swizzle.hpp,
// layout.hpp; the plain values and CuTe's text are formats/cute_text.h).
//
// CuTe and Triton read a memory layout in opposite directions:
//   * a CuTe layout maps a coordinate to an offset: the coordinate c (one
//     value per leaf of the shape, the 1-D index split colexicographically
//     over the leaves in order, leaf 0 fastest) goes to the index
//     g(c) = sum_i c_i * stride_i over the leaves, and the swizzle
//     then maps the index to the offset
//       Sw(x) = x ^ shiftr(x & yyy_msk, S),
//       yyy_msk = ((1 << B) - 1) << (M + max(0, S)),
//     shiftr by a negative S being a left shift (ZZZ ^= YYY);
//   * Triton's memory layouts (shared.h) map offset -> dim0...
// cuteToLinear gives the first (in dims dim0.. = CuTe's top-level modes, out
// dim "offset"), cuteMemoryLayout its inverse in Triton's direction.
//
// Nested modes. A top-level mode that is a tuple, e.g. (8,2):(64,4096) in
// ((8,2),64):((64,4096),1), is one dim whose 1-D coordinate splits
// colexicographically over its leaves: with power-of-two leaves, the dim's
// low 3 bits are leaf (8):(64) and its next bit leaf (2):(4096). So the
// dim's bases are its leaves' bits in order, and everything below holds
// leaf by leaf.
//
// When it is linear. Sw is linear over F2 (a mask, a shift, an XOR). With
// power-of-two shapes, flattening coordinates with dim0 in the low bits is
// CuTe's colexicographic 1-D index, and g is additive over disjoint bits:
// g(x xor y) = g(x) + g(y) when x & y = 0. Since a + b = (a xor b) + 2(a & b),
// g is linear over F2 exactly when the images of the input bits (stride_i *
// 2^j) pairwise share no bit; a pair that does is a witness x, y with
// L(x xor y) != L(x) xor L(y), and Sw, a bijection, keeps it one. So the
// search over pairs of input bits finds a witness whenever there is one.
// Non-power-of-two shapes carry between leaves of the 1-D index; negative
// strides give negative offsets.
#pragma once

#include <optional>

#include "formats/cute_text.h"
#include "reference/catalog/shape_fit.h"

namespace f2lay::ref::catalog {

using f2lay::CuteLayout;   // shape:stride by top-level modes, flat or nested
using f2lay::CuteSwizzle;  // Swizzle<B,M,S>
using f2lay::CuteTuple;    // CuTe's IntTuple

struct CuteSwizzledLayout {
  CuteSwizzle swizzle;
  CuteLayout layout;
};

// dim0.. -> offset. The out dim "offset" is the smallest power of two above
// every offset. Throws f2lay::Error naming the parameter and the rule broken:
// a bad swizzle (B, M < 0, |S| < B, masks beyond 62 bits), shape and stride
// that are not congruent (different ranks, or a tuple against an integer, at
// any depth), a shape leaf that is not a power of two, a negative offset,
// and, for a layout that is not linear over F2, a witness pair x, y with the
// values L(x xor y) and L(x) xor L(y).
LinearLayout cuteToLinear(const CuteSwizzle& swizzle, const CuteLayout& layout);

// offset -> dim0..: the inverse of cuteToLinear, the direction of Triton's
// memory layouts. Throws unless that layout is invertible (every offset below
// the product of the shape holds exactly one element).
LinearLayout cuteMemoryLayout(const CuteSwizzle& swizzle, const CuteLayout& layout);

// The Swizzle<B,M,S> and shape:stride whose cuteToLinear has the bases of
// `layout`, or nullopt when there is none. `layout` maps dim0.. -> offset, or
// offset -> dim0.. (Triton's direction, then it must be invertible); other
// dims throw. The canonical answer, so that cuteToLinear(answer) has the bases
// of `layout` and equal layouts get equal answers:
//   1. a flat layout (one leaf per mode) if one exists: the first swizzle in
//      the order B, then M, then S ascending (S > 0 before S < 0), B = 0 when
//      no swizzle is needed (what linear_to_cute answered before nesting);
//   2. else a nested one, with the first swizzle in the same order: each
//      mode's bases (unswizzled) split into maximal runs where the next basis
//      doubles the last, each run a leaf (2^len):(first basis), a run of zero
//      bases a leaf of stride 0; a mode of one run stays a leaf. It exists
//      exactly when the unswizzled bases pairwise share no bit (CuTe's sums
//      are then XORs), e.g. offset bits 6,7,8,12 of a mode give (8,2):(64,4096).
// A mode of size 1 is the leaf 1:0. The out-dim size of "offset" is not
// compared.
std::optional<CuteSwizzledLayout> linearToCute(const LinearLayout& layout);

// "Sw<B,M,S> o ((s0,s1),s2):((d0,d1),d2)", CuTe's composed layout in error
// messages (the top-level modes always in parentheses).
std::string cuteToString(const CuteSwizzle& swizzle, const CuteLayout& layout);

// CuTe's text read as a layout (formats/cute_text.h): offset -> dim0..
// (cuteMemoryLayout) when it is a bijection onto 0..size-1, else CuTe's own
// direction dim0.. -> offset (cuteToLinear: e.g. the nested-mode example
// Sw<3,4,3> o _0 o ((8,2),64):((64,4096),1), 1024 elements over 8192
// offsets). A nonzero offset is refused (an affine map, not linear).
LinearLayout cuteTextLayout(const CuteText& text);

// The CuTe text of a layout, offset -> dim0.. or dim0.. -> offset: the
// canonical linearToCute. Throws f2lay::Error naming why CuTe cannot express
// it (other dims, not invertible, or bases that no Swizzle<B,M,S> makes
// pairwise disjoint, with such a pair).
CuteText layoutCuteText(const LinearLayout& layout);

}  // namespace f2lay::ref::catalog
