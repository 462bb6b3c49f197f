// f2lay::ref::LinearLayout — the reference model of linear layouts.
//
// What a layout is (paper "Linear Layouts", Zhou et al. 2025, Def 4.1)
// -------------------------------------------------------------------
// A linear layout is a linear map over F2 between labeled spaces: from input
// dims (hardware resources such as register, lane, warp, block, or a
// shared-memory offset) to output dims (the coordinates of a tensor). Every
// dim has a power-of-two size, so a value of a dim is a bit vector.
//
// The conventions are exactly those of Triton's LinearLayout, because other
// projects compare with it:
//   * In dims and out dims are ordered and named.
//   * In dim d has one basis per input bit: bases[d][i] is the image of the
//     input with only bit i of d set. A basis holds one integer per out dim.
//   * apply(x) is the XOR of the bases of the set bits of x:
//       L(x) = XOR over (d, i) with bit i of x[d] set of bases[d][i].
//   * Flattening puts the first dim in the least significant bits (minor to
//     major), on both sides. The matrix of L has one row per output bit and
//     one column per input bit in that order: entry (r, c) is output bit r of
//     the basis of input bit c (Triton's get_matrix_view).
//
// Worked example: layout A of the paper's Figure 1 (§4.1): a 16x16 tensor held
// by 2x2 registers, 4x8 threads and 2x1 warps, out dims [dim0 = row i,
// dim1 = column j]:
//   register: [0,1] [1,0]                 (j0, i0)
//   lane:     [0,2] [0,4] [0,8] [2,0] [4,0]  (j1, j2, j3, i1, i2)
//   warp:     [8,0]                        (i3)
// so register 1 of lane 9 (bits 0 and 3) holds (0,1)^(0,2)^(2,0) = (2,3), as
// the paper says. Its matrix, rows i0..i3 then j0..j3, columns reg0, reg1,
// lane0..lane4, warp0:
//   i0: 0 1 0 0 0 0 0 0      j0: 1 0 0 0 0 0 0 0
//   i1: 0 0 0 0 0 1 0 0      j1: 0 0 1 0 0 0 0 0
//   i2: 0 0 0 0 0 0 1 0      j2: 0 0 0 1 0 0 0 0
//   i3: 0 0 0 0 0 0 0 1      j3: 0 0 0 0 1 0 0 0
//
// Operations (Triton's names and meaning)
// ---------------------------------------
//   identity1D, zeros1D, strided1D   1-D building blocks.
//   compose(outer)        x -> outer(this(x)) (Def 4.2). this's out dims must
//                         be outer's in dims (any order), each no larger.
//   operator*(inner, outer)  the product (Def 4.3): block-diagonal, inner in
//                         the low bits of every shared dim. Dim orders are
//                         merged (Triton's supremum); shared dims must appear
//                         in the same relative order.
//   divideLeft(A, B)      C with B * C == A (Def 4.4), or nullopt when A is
//                         not of that form ("not divisible").
//   pseudoinvert()        the right inverse of a surjective layout (Def 4.5),
//                         as Triton computes it: identity.invertAndCompose(
//                         this). Each output bit maps to the combination of
//                         the leftmost independent input bits (the pivots of
//                         Gaussian elimination), all free input bits zero.
//   invert()              the inverse of an invertible layout.
//   invertAndCompose(outer)  C with outer(C(x)) == this(x) (§5.4), as Triton
//                         3.9 computes it. this's out dims must be outer's
//                         (any order), each no larger. Triton's broadcasting
//                         heuristic first sets aside, mapping it to itself,
//                         every in dim d that both layouts have such that
//                           - d has the same bases in both (out-dim sizes
//                             ignored: Triton PR #10116), and
//                           - in each layout, d's output bits (per out dim,
//                             the OR of d's bases) share no bit with those of
//                             the layout's other in dims (PR #11645);
//                         so a broadcast dim stays put instead of collapsing
//                         to 0. The rest is Triton's lstsq: outer's remaining
//                         dims solved for this's remaining dims, free input
//                         bits zero. outer need not be surjective, but must
//                         reach the image of this's remaining dims (Triton
//                         asserts otherwise; this throws).
//   transposeIns/Outs     reorder dims. reshapeIns/Outs: flatten, then split
//                         into new dims. flattenIns/Outs: one dim, named as
//                         the first. sublayout: keep some dims, in this
//                         layout's order. concatIns/Outs: put two layouts'
//                         in (out) dims side by side.
//   isInjective/isSurjective/isInvertible   by the rank of the matrix.
//   getFreeVariableMasks  per in dim, the bits whose basis is a combination
//                         of earlier bases (the non-pivot columns).
//   getNumConsecutiveInOut  how many consecutive values of the first in dim
//                         map to consecutive values of the first out dim.
//   operator==            same dims in the same order, same bases and sizes.
//
// Triton 3.6 (TritonVersion::k3_6, for projects pinned to it) differs, among
// these operations, only in invertAndCompose, and so in pseudoinvert and
// invert, which call it: a dim is set aside when its bases and out-dim sizes
// are equal, with no test of its output bits; and when only one layout has
// dims left after the heuristic, Triton 3.6 asserts, so this throws.
//
// Padded memory layouts (Gluon 3.9's PaddedSharedLayout)
// -------------------------------------------------------
// Padding makes a memory layout's element-to-address map affine-like rather
// than linear, so f2lay does not stretch LinearLayout to hold it. A padded
// layout is a pair (reference/catalog/padded_shared.h):
//   * a LinearLayout (offset, block) -> dims, Triton's linear component: the
//     same object Triton builds from Gluon's offset_bases and cga_layout,
//     comparable with any other memory layout; element x sits at linear
//     offset o = L^-1(x) (in CTA block(x));
//   * the (interval, padding) pairs: o is stored at padded address
//       P(o) = o + sum over pairs of (o >> log2 interval) << log2 padding
//     elements (analysis/padding.h; Triton's emitPadding).
// In JSON (the oracle) the pair is one object: the layout's keys plus
// "padding": [[interval, padding], ...]. A plain layout reader refuses it,
// saying the map is not linear; the readers of analyses that enumerate
// addresses (bank_conflicts) take it and cost the padded byte addresses
// P(o) * element bytes. Constructions that rest on a linear offset map
// (optimal swizzling, the conversion plans, Lemma 9.4) refuse it.
//
// Every operation checks its preconditions and throws f2lay::Error naming the
// operation, the dims involved and the rule broken; none aborts.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "formats/dim_names.h"
#include "formats/error.h"
#include "formats/layout_value.h"
#include "formats/triton_version.h"
#include "reference/f2_matrix.h"

namespace f2lay::ref {

// formats/dim_names.h's: (name, value) and (name, size) pairs.
using f2lay::DimSizes;
using f2lay::DimValues;
// A layout's matrix as rows of 0/1, as Triton's get_matrix_view returns it.
using MatrixView = std::vector<std::vector<int>>;

class LinearLayout {
 public:
  // The empty layout: no in dims, no out dims.
  LinearLayout() = default;
  // Validates `value` (layout_value.h) and throws f2lay::Error if it breaks a
  // rule.
  explicit LinearLayout(LayoutValue value);

  static LinearLayout empty() { return LinearLayout(); }
  // in=2^i -> out=2^i. As in Triton, size 0 gives the empty layout.
  static LinearLayout identity1D(uint64_t size, const std::string& inDim,
                                 const std::string& outDim);
  // Every input bit maps to 0, into an out dim of size outDimSize.
  static LinearLayout zeros1D(uint64_t size, const std::string& inDim, const std::string& outDim,
                              uint64_t outDimSize = 1);
  // in=2^i -> out=stride*2^i, into an out dim of size size*stride.
  static LinearLayout strided1D(uint64_t size, uint64_t stride, const std::string& inDim,
                                const std::string& outDim);

  const LayoutValue& value() const { return value_; }

  std::vector<std::string> getInDimNames() const;
  std::vector<std::string> getOutDimNames() const;
  bool hasInDim(const std::string& name) const;
  bool hasOutDim(const std::string& name) const;
  int getInDimSizeLog2(const std::string& name) const;
  int getOutDimSizeLog2(const std::string& name) const;
  uint64_t getOutDimSize(const std::string& name) const;
  int getTotalInDimSizeLog2() const;
  int getTotalOutDimSizeLog2() const;

  // Rows are output bits, columns input bits (see the header comment).
  F2Matrix matrix() const;
  MatrixView getMatrixView() const;

  // Every in dim must be named once, with a value below its size.
  DimValues apply(const DimValues& inputs) const;

  LinearLayout compose(const LinearLayout& outer) const;
  LinearLayout invertAndCompose(const LinearLayout& outer,
                                TritonVersion triton = kCurrentTriton) const;
  LinearLayout invert(TritonVersion triton = kCurrentTriton) const;
  LinearLayout pseudoinvert(TritonVersion triton = kCurrentTriton) const;

  LinearLayout transposeIns(const std::vector<std::string>& newInDims) const;
  LinearLayout transposeOuts(const std::vector<std::string>& newOutDims) const;
  LinearLayout reshapeIns(const DimSizes& newInDims) const;
  LinearLayout reshapeOuts(const DimSizes& newOutDims) const;
  LinearLayout flattenIns() const;
  LinearLayout flattenOuts() const;
  LinearLayout sublayout(const std::vector<std::string>& inDims,
                         const std::vector<std::string>& outDims) const;
  // Whether sublayout(inDims, outDims) maps every input to 0: no basis of
  // those in dims has a set bit in those out dims (Triton's
  // sublayoutIsZero; true when either list is empty). Throws as sublayout
  // does on a name this layout does not have.
  [[nodiscard]] bool sublayoutIsZero(const std::vector<std::string>& inDims,
                                     const std::vector<std::string>& outDims) const;
  LinearLayout concatIns(const LinearLayout& other) const;
  LinearLayout concatOuts(const LinearLayout& other) const;

  int rank() const;
  bool isInjective() const;
  bool isSurjective() const;
  bool isInvertible() const;
  // (in dim, mask) in in-dim order.
  DimValues getFreeVariableMasks() const;
  uint64_t getNumConsecutiveInOut() const;

  // Triton's toString text (formats/triton_text.h).
  std::string toString() const;

  friend bool operator==(const LinearLayout& a, const LinearLayout& b) {
    return a.value_ == b.value_;
  }
  // Prints toString(), so that test failures show the layouts.
  friend std::ostream& operator<<(std::ostream& os, const LinearLayout& l) {
    return os << l.toString();
  }
  friend LinearLayout operator*(const LinearLayout& inner, const LinearLayout& outer);
  friend std::optional<LinearLayout> divideLeft(const LinearLayout& a, const LinearLayout& b);

 private:
  // Builds a layout from its matrix and the dims on both sides.
  static LinearLayout fromMatrix(const F2Matrix& m,
                                 const std::vector<std::pair<std::string, int>>& inDimBits,
                                 const std::vector<OutDim>& outDims);
  // Triton's lstsq: X with a(X(y)) == b(y), free input bits of a zero.
  static LinearLayout leastSquares(const LinearLayout& a, const LinearLayout& b);
  std::vector<std::pair<std::string, int>> inDimBits() const;
  const InDim& inDim(const std::string& name) const;
  const OutDim& outDim(const std::string& name) const;
  size_t outDimIndex(const std::string& name) const;

  LayoutValue value_;
};

// Triton's supremum of two dim orders: a merged order that keeps the relative
// order of both (the first list's own dims first where both are free). Throws
// f2lay::Error when the shared dims appear in different relative orders.
std::vector<std::string> supremum(const std::vector<std::string>& x,
                                  const std::vector<std::string>& y);

}  // namespace f2lay::ref
