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
// Each declaration below states its contract: what it requires, the
// f2lay::Error it throws when that is broken (the gist of the message; the
// algebra's are worded once, in formats/op_errors.h, for both
// implementations), and what holds after. In brief:
//   identity1D, zeros1D, strided1D   the 1-D building blocks.
//   compose (Def 4.2), operator* (the product, Def 4.3), divideLeft
//   (Def 4.4), pseudoinvert (Def 4.5), invert and invertAndCompose (§5.4):
//                         the algebra.
//   transposeIns/Outs, reshapeIns/Outs, flattenIns/Outs, sublayout,
//   concatIns/Outs:       the dim operations, which rearrange dims.
//   rank, isInjective, isSurjective, isInvertible, getFreeVariableMasks,
//   getNumConsecutiveInOut: queries of the matrix.
// Two Triton releases are modelled (TritonVersion): among these operations
// they differ only in invertAndCompose, and so in pseudoinvert and invert,
// which call it; its declaration says how. The API is the concept
// f2lay::analysis::SharedLayoutApi (analysis/layout_api.h), which
// f2lay::opt::LinearLayout meets too, with the same answers and errors.
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
  // The empty layout. Ensures: no in dims, no out dims; equal to empty().
  LinearLayout() = default;

  // The layout whose plain value is `value` (Def 4.1).
  //   Requires: `value` follows layout_value.h's rules: at most kMaxDims dims
  //     a side; names are identifiers, unique on their side; out-dim sizes are
  //     powers of two, kMaxOutBits output bits in all; at most kMaxInBits
  //     input bits in all and 63 in one in dim; each basis has one value per
  //     out dim, below that dim's size.
  //   Throws f2lay::Error naming the first rule broken (validate()'s
  //     message, e.g. "basis 0 of in dim 'lane' has value 8 for out dim
  //     'dim0', which is not below its size 8").
  //   Ensures: value() == value.
  explicit LinearLayout(LayoutValue value);

  // Ensures: no in dims, no out dims; the unit of operator* (empty() * L ==
  // L * empty() == L).
  [[nodiscard]] static LinearLayout empty() { return LinearLayout(); }

  // in=2^i -> out=2^i: the identity on a dim of `size`.
  //   Requires: size is 0 or a power of two; both names are identifiers (they
  //     may be equal).
  //   Throws f2lay::Error "identity1D: size n is not a power of two", or the
  //     constructor's for a name.
  //   Ensures: size 0: empty() (as in Triton). Else one in dim inDim of
  //     log2(size) bits, one out dim outDim of `size`, bases[inDim][i] = 2^i;
  //     invertible.
  [[nodiscard]] static LinearLayout identity1D(uint64_t size, const std::string& inDim,
                                               const std::string& outDim);

  // Every input bit maps to 0 (a broadcast, §5.1).
  //   Requires: size is 0 or a power of two; outDimSize a power of two; both
  //     names identifiers.
  //   Throws f2lay::Error "zeros1D: size n is not a power of two", or the
  //     constructor's for outDimSize or a name.
  //   Ensures: size 0: empty(). Else one in dim inDim of log2(size) bits, all
  //     bases 0, one out dim outDim of outDimSize; rank() == 0.
  [[nodiscard]] static LinearLayout zeros1D(uint64_t size, const std::string& inDim,
                                            const std::string& outDim, uint64_t outDimSize = 1);

  // in=2^i -> out=stride*2^i.
  //   Requires: size is 0, or size and stride are powers of two with
  //     size * stride <= 2^63; both names identifiers.
  //   Throws f2lay::Error "strided1D: size n and stride s must both be powers
  //     of two", "strided1D: size * stride exceeds 2^63", or the constructor's
  //     for a name.
  //   Ensures: size 0: empty(). Else one in dim inDim of log2(size) bits,
  //     bases[inDim][i] = stride * 2^i, one out dim outDim of size * stride;
  //     injective.
  [[nodiscard]] static LinearLayout strided1D(uint64_t size, uint64_t stride,
                                              const std::string& inDim, const std::string& outDim);

  // The plain value (layout_value.h), valid: it passes validate(). The
  // reference is valid as long as this layout is and is not assigned to.
  [[nodiscard]] const LayoutValue& value() const { return value_; }

  // The dims' names, in order. Never throw.
  [[nodiscard]] std::vector<std::string> getInDimNames() const;
  [[nodiscard]] std::vector<std::string> getOutDimNames() const;
  // Whether the layout has a dim of that name. Never throw.
  [[nodiscard]] bool hasInDim(const std::string& name) const;
  [[nodiscard]] bool hasOutDim(const std::string& name) const;
  // log2 of the dim's size: its number of input bits (bases). Requires an in
  // dim of that name; throws f2lay::Error "in dim 'x' is not in the layout
  // (in dims [...])" otherwise. Ensures a result in [0, 63].
  [[nodiscard]] int getInDimSizeLog2(const std::string& name) const;
  // log2 of the out dim's size, and the size. Require an out dim of that
  // name; throw f2lay::Error "out dim 'x' is not in the layout (out dims
  // [...])" otherwise. Ensure a result in [0, 63] (a power of two for the
  // size).
  [[nodiscard]] int getOutDimSizeLog2(const std::string& name) const;
  [[nodiscard]] uint64_t getOutDimSize(const std::string& name) const;
  // The input (output) bits of all dims: the matrix's columns (rows).
  // Ensure at most kMaxInBits (kMaxOutBits). Never throw.
  [[nodiscard]] int getTotalInDimSizeLog2() const;
  [[nodiscard]] int getTotalOutDimSizeLog2() const;

  // The matrix of the layout (see the header comment): one row per output
  // bit, one column per input bit, both flattened first dim lowest; entry
  // (r, c) is output bit r of the basis of input bit c. Never throws.
  // (Only the reference has it; f2lay::opt has the packed columns.)
  [[nodiscard]] F2Matrix matrix() const;
  // The same matrix as rows of 0/1 (Triton's get_matrix_view): Ensures
  // getTotalOutDimSizeLog2() rows of getTotalInDimSizeLog2() entries. Never
  // throws.
  [[nodiscard]] MatrixView getMatrixView() const;

  // L(x) (Def 4.1): the XOR of the bases of the set bits of x.
  //   Requires: every in dim named exactly once, in any order, with a value
  //     below its size; no other name.
  //   Throws f2lay::Error "apply: 'x' is not an in dim of the layout (in
  //     dims [...])", "apply: in dim 'x' is given twice", "apply: value v of
  //     in dim 'x' is not below its size 2^b", "apply: in dim 'x' is missing".
  //   Ensures: one (out dim, value) per out dim, in out-dim order, each value
  //     below the dim's size.
  [[nodiscard]] DimValues apply(const DimValues& inputs) const;

  // x -> outer(this(x)) (Def 4.2): this layout's output, read as outer's
  // input.
  //   Requires: this layout's out dims are outer's in dims (any order), each
  //     no larger than outer's in dim of that name.
  //   Throws f2lay::Error "compose: the out dims of self [...] must be the in
  //     dims of other [...], in any order", "compose: out dim 'd' of self has
  //     size s, larger than in dim 'd' of other (2^b)".
  //   Ensures: the result's in dims are this layout's, its out dims outer's
  //     (names, order, sizes); result.apply(x) == outer.apply(this->apply(x))
  //     for every x.
  [[nodiscard]] LinearLayout compose(const LinearLayout& outer) const;

  // C with outer(C(x)) == this(x) (§5.4: outer^-1 o this), as Triton 3.9
  // computes it (or Triton 3.6, given TritonVersion::k3_6). Triton's
  // broadcasting heuristic first sets aside, mapping it to itself, every in
  // dim d that both layouts have such that
  //   - d has the same bases in both (out-dim sizes ignored: Triton PR
  //     #10116), and
  //   - in each layout, d's output bits (per out dim, the OR of d's bases)
  //     share no bit with those of the layout's other in dims (PR #11645);
  // so a broadcast dim stays put instead of collapsing to 0. The rest is
  // Triton's lstsq: outer's remaining dims solved for this layout's remaining
  // dims, free input bits zero. Triton 3.6 sets a dim aside when its bases
  // and out-dim sizes are equal, with no test of its output bits.
  //   Requires: this layout's out dims are outer's (any order), each no larger
  //     than outer's; outer need not be surjective, but its remaining dims
  //     must reach the image of this layout's remaining dims (Triton asserts
  //     otherwise); for Triton 3.6, both layouts or neither have dims left
  //     after the heuristic (Triton 3.6 asserts otherwise).
  //   Throws f2lay::Error "invert_and_compose: the out dims of self [...] and
  //     other [...] must match, in any order", "invert_and_compose: out dim
  //     'd' of self has size s, larger than in other (s')",
  //     "invert_and_compose: the image of self [...] is not inside the image
  //     of other [...] (Triton asserts here)", and for Triton 3.6
  //     "invert_and_compose: every in dim of other maps like the same-named
  //     dim of the other layout, but self has more in dims [...] (Triton 3.6
  //     asserts here)" (or with self and other swapped).
  //   Ensures: the result's in dims are this layout's (its order), its out
  //     dims outer's in dims (outer's order and sizes); outer(C(x)) == this(x)
  //     for every x, each dim set aside mapping to itself.
  [[nodiscard]] LinearLayout invertAndCompose(const LinearLayout& outer,
                                              TritonVersion triton = kCurrentTriton) const;

  // The inverse of an invertible layout: pseudoinvert(), which is then the
  // two-sided inverse.
  //   Requires: isInvertible().
  //   Throws f2lay::Error "invert: the layout is not invertible (rank r, i
  //     input bits, o output bits)"; for Triton 3.6, as pseudoinvert.
  //   Ensures: in and out dims swapped (names, orders, sizes); result(this(x))
  //     == x and this(result(y)) == y.
  [[nodiscard]] LinearLayout invert(TritonVersion triton = kCurrentTriton) const;

  // The right inverse of a surjective layout (Def 4.5), as Triton computes
  // it: identity.invertAndCompose(this), the identity on this layout's out
  // dims. Each output bit maps to the combination of the leftmost
  // independent input bits (the pivots of Gaussian elimination), all free
  // input bits zero.
  //   Requires: isSurjective(); for Triton 3.6, invertAndCompose's assertion
  //     must hold.
  //   Throws f2lay::Error "pseudoinvert: the layout is not surjective (rank r
  //     < o output bits); only a surjective layout has a right inverse (Def
  //     4.5)"; for Triton 3.6, invertAndCompose's "(Triton 3.6 asserts
  //     here)".
  //   Ensures: the result's in dims are this layout's out dims (its order and
  //     sizes), its out dims this layout's in dims; this(result(y)) == y for
  //     every y.
  [[nodiscard]] LinearLayout pseudoinvert(TritonVersion triton = kCurrentTriton) const;

  // The same layout with its in (out) dims in the order given.
  //   Requires: a permutation of the in (out) dims' names.
  //   Throws f2lay::Error "transpose_ins: [...] is not a permutation of the in
  //     dims [...]" ("transpose_outs: ... out dims ...").
  //   Ensures: the dims in that order, each with its bases (size); the same
  //     map: apply gives the same values.
  [[nodiscard]] LinearLayout transposeIns(const std::vector<std::string>& newInDims) const;
  [[nodiscard]] LinearLayout transposeOuts(const std::vector<std::string>& newOutDims) const;

  // Flattens the input (output) bits, first dim lowest, then deals them out
  // to the new dims in order.
  //   Requires: the new dims' names are identifiers, each once; sizes are
  //     powers of two whose product is 2^(the total input (output) bits); at
  //     most kMaxDims dims.
  //   Throws f2lay::Error "reshape_ins: 'x' is not a valid dim name",
  //     "reshape_ins: dim 'x' is named twice", "reshape_ins: size s of dim
  //     'x' is not a power of two", "reshape_ins: the new dims have 2^n
  //     elements but the layout has 2^m" (reshape_outs likewise), or the
  //     constructor's for a broken limit.
  //   Ensures: exactly the new dims on that side, the other side unchanged;
  //     the same matrix.
  [[nodiscard]] LinearLayout reshapeIns(const DimSizes& newInDims) const;
  [[nodiscard]] LinearLayout reshapeOuts(const DimSizes& newOutDims) const;

  // One in (out) dim named as the first, holding all the input (output)
  // bits: reshapeIns (reshapeOuts) to it. A layout without such dims is
  // returned as it is.
  //   Requires: at most 63 input (output) bits.
  //   Throws f2lay::Error "flatten_ins: one in dim of 64 bits exceeds the
  //     limit of 63" ("flatten_outs: one out dim ...").
  //   Ensures: the same matrix; at most one dim on that side.
  [[nodiscard]] LinearLayout flattenIns() const;
  [[nodiscard]] LinearLayout flattenOuts() const;

  // The restriction to some in dims and some out dims.
  //   Requires: every name is a dim of its side (repeats allowed).
  //   Throws f2lay::Error "sublayout: 'x' is not an in dim [...]" ("... an
  //     out dim ...").
  //   Ensures: the named dims only, in this layout's order (not the lists'),
  //     with their sizes; each kept basis keeps the kept out dims' values.
  [[nodiscard]] LinearLayout sublayout(const std::vector<std::string>& inDims,
                                       const std::vector<std::string>& outDims) const;
  // Whether sublayout(inDims, outDims) maps every input to 0: no basis of
  // those in dims has a set bit in those out dims (Triton's
  // sublayoutIsZero; true when either list is empty). Throws as sublayout
  // does on a name this layout does not have.
  [[nodiscard]] bool sublayoutIsZero(const std::vector<std::string>& inDims,
                                     const std::vector<std::string>& outDims) const;

  // The two layouts' in dims side by side: (x, y) -> this(x) ^ other(y).
  //   Requires: the same out dims (names, order, sizes); no in dim in both;
  //     the result within the constructor's limits.
  //   Throws f2lay::Error "concat_ins: the layouts must have the same out dims
  //     in the same order with the same sizes", "concat_ins: in dim 'x' is in
  //     both layouts", or "concat_ins: " and the constructor's message.
  //   Ensures: this layout's in dims, then other's, each with its bases.
  [[nodiscard]] LinearLayout concatIns(const LinearLayout& other) const;
  // The two layouts' out dims side by side: x -> (this(x), other(x)).
  //   Requires: the same in dims (names, order, sizes); no out dim in both;
  //     the result within the constructor's limits.
  //   Throws f2lay::Error "concat_outs: the layouts must have the same in dims
  //     in the same order with the same sizes", "concat_outs: out dim 'x' is
  //     in both layouts", or "concat_outs: " and the constructor's message.
  //   Ensures: this layout's out dims, then other's; apply gives this
  //     layout's values, then other's.
  [[nodiscard]] LinearLayout concatOuts(const LinearLayout& other) const;

  // The rank of the matrix, and what it says: injective when it is the
  // number of input bits, surjective when it is the number of output bits,
  // invertible when both (so as many input as output bits). Never throw.
  [[nodiscard]] int rank() const;
  [[nodiscard]] bool isInjective() const;
  [[nodiscard]] bool isSurjective() const;
  [[nodiscard]] bool isInvertible() const;
  // (in dim, mask), one per in dim in in-dim order: bit i of d's mask is set
  // when bases[d][i] is a combination of the bases of earlier input bits
  // (flattened order): the non-pivot columns, so a zero basis is always free.
  // Ensures: the masks have getTotalInDimSizeLog2() - rank() bits set in all.
  // Never throws.
  [[nodiscard]] DimValues getFreeVariableMasks() const;
  // How many consecutive values of the first in dim map to consecutive values
  // of the first out dim (Triton's rule): 2^k, k the number of leading bases
  // of the first in dim that are (2^i, 0, ..., 0), cut at the lowest bit of
  // the first out dim that any other basis sets; 1 without in or out dims.
  // Never throws.
  [[nodiscard]] uint64_t getNumConsecutiveInOut() const;

  // Triton's toString text (formats/triton_text.h), which readTritonText
  // reads back to this layout's value. Never throws.
  [[nodiscard]] std::string toString() const;

  // Same dims in the same order (names; bases of in dims, sizes of out dims).
  // Layouts that differ only in dim order are not equal.
  [[nodiscard]] friend bool operator==(const LinearLayout& a, const LinearLayout& b) {
    return a.value_ == b.value_;
  }
  // Prints toString(), so that test failures show the layouts.
  friend std::ostream& operator<<(std::ostream& os, const LinearLayout& l) {
    return os << l.toString();
  }

  // The product and left division, declared below the class with their
  // contracts.
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

// The product (Def 4.3): block-diagonal, inner in the low bits of every
// shared dim. Dim orders are merged (Triton's supremum).
//   Requires: the dims both layouts have on a side appear in the same
//     relative order in both; each out dim of the result has at most 63
//     bits; the result within the constructor's limits.
//   Throws f2lay::Error "product: the dims [...] and [...] share dims in
//     different relative orders", "product: out dim 'd' would have b bits;
//     one dim has at most 63", or "product: " and the constructor's message.
//   Ensures: in dims supremum(inner's, outer's), out dims likewise; each
//     dim's size is the product of its sizes in the two (1 where absent);
//     each in dim's bases are inner's (its low input bits), then outer's,
//     shifted above inner's part of every out dim.
[[nodiscard]] LinearLayout operator*(const LinearLayout& inner, const LinearLayout& outer);

// Left division (Def 4.4): C with b * C == a, or nullopt when a is not of
// that form ("not divisible": a dim of b that a lacks or has smaller, or
// bases of a that are not b's block and C's block). Never throws.
//   Ensures: when it has a value, C has a's dims in a's order, each of a's
//     size divided by b's (b lacking it: a's), and b * C == a.
[[nodiscard]] std::optional<LinearLayout> divideLeft(const LinearLayout& a, const LinearLayout& b);

// Triton's supremum of two dim orders: a merged order that keeps the relative
// order of both (the first list's own dims first where both are free).
//   Requires: the names both lists have appear in the same relative order.
//   Throws f2lay::Error "the dims [...] and [...] share dims in different
//     relative orders" (the product prefixes "product: ").
//   Ensures: every name of x and of y once; restricted to x's names it is x,
//     restricted to y's it is y.
[[nodiscard]] std::vector<std::string> supremum(const std::vector<std::string>& x,
                                                const std::vector<std::string>& y);

}  // namespace f2lay::ref
