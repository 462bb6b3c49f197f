// Layouts given by their bases: Gluon's DistributedLinearLayout and
// SharedLinearLayout (Triton's LinearEncodingAttr and SharedLinearEncodingAttr).
// The paper's thesis (§4: every layout is a linear layout) taken literally:
// the constructor builds nothing, it checks the bases by the rules Triton 3.9
// enforces before it accepts them, and names the first one broken.
#pragma once

#include "reference/catalog/shape_fit.h"

namespace f2lay::ref::catalog {

// One list of bases per hardware in dim; each basis holds one value per dim.
struct DistributedLinearParams {
  std::vector<Basis> regBases, laneBases, warpBases, blockBases;
};

// register, lane, warp, block -> dim0.. with the bases as given, for a tensor
// of `shape` (Gluon's `shape`: the layout is asked at the shape it names).
// Triton 3.9 accepts only a permutation matrix once the zero bases are
// removed (isPermutationMatrixLayout): every non-zero basis one power of two
// in one dim, below that dim's size, no two alike, and every bit of the shape
// reached (the layout is surjective). Throws f2lay::Error naming the key and
// basis that break a rule.
LinearLayout distributedLinear(const DistributedLinearParams& params, const Shape& shape);

// Triton's LinearEncodingAttr (#ttg.linear in TTGIR) on a tensor of `shape`,
// which need not be the shape the bases span: the bases, checked at their
// own extent as distributedLinear does (per dim the power of two above its
// largest value), then fitted to the tensor as Triton's toLinearLayout does:
// a tile smaller than the tensor repeats over more registers (its most minor
// dim first, by the order the register bases move the dims), and where it
// is larger the registers beyond the tensor are dropped and lanes and warps
// beyond it hold copies (ensureLayoutNotLargerThan without broadcasting
// registers). So an expand_dims of a sliced #ttg.linear tile, say
// tensor<128x1xi32, #linear>, keeps only the bases inside [128, 1].
//   Requires: shape of the bases' rank, powers of two.
//   Throws: f2lay::Error naming the key and basis that break distributedLinear's
//     rules, or a shape of another rank.
LinearLayout linearEncoding(const DistributedLinearParams& params, const Shape& shape);

struct SharedLinearParams {
  std::vector<Basis> offsetBases, blockBases;
  // The allocation's alignment in bytes (a power of two). It places the
  // buffer; it does not change which offset holds which element.
  uint64_t alignment = 16;
};

// offset, block -> dim0.. with the bases as given. Its shape is Gluon's
// SharedLinearLayout.shape: per dim the power of two above the largest value
// any basis gives it (Triton's LinearLayout constructor infers the same
// sizes). Memory layouts may swizzle (a basis may move in several dims), but
// once the zero bases (copies across blocks, or unused offsets) are removed
// the layout must be bijective, as SharedLinearEncodingAttr requires.
LinearLayout sharedLinear(const SharedLinearParams& params);

}  // namespace f2lay::ref::catalog
