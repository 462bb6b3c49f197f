// The layout API as C++20 concepts.
//
// f2lay has two implementations of Triton's LinearLayout with one API and the
// same answers: f2lay::ref::LinearLayout (reference/linear_layout.h, where
// each declaration states its contract: what it requires, what it throws,
// what holds after) and f2lay::opt::LinearLayout (optimized/
// opt_linear_layout.h). Two concepts name that API:
//   * LayoutApi: exactly what the §5 constructions of analysis/ call on their
//     layout type L (analysis/*_impl.h, analysis/space.h, analysis/
//     bank_access.h). The templates there are constrained with it.
//   * SharedLayoutApi: the whole API the two implementations share (every
//     operation of the reference's header but matrix(), which only the
//     reference has), for code that is written once for both, such as the
//     differential tests and the oracle.
// Each implementation's analysis/constructions.cpp asserts both. The F2-space
// backend the constructions use next to L is the concept SpaceBackend
// (analysis/space.h).
//
// The concepts check signatures only; what each operation means, and that
// the two implementations agree on it, is the reference header's contract
// and the differential tests' business.
#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

#include "formats/dim_names.h"
#include "formats/layout_value.h"
#include "formats/triton_version.h"

namespace f2lay::analysis {

// What the constructions call on a layout type L, and nothing more:
//   L(), copies, L(const LayoutValue&)      layouts built from plain values
//   L::identity1D(size, inDim, outDim)      (vectorTile, matrixTile)
//   l.value()                               the plain value (a LayoutValue, by
//                                           value or by const reference)
//   getInDimNames(), getOutDimNames()       the dims, in order
//   hasInDim(d), hasOutDim(d)
//   getInDimSizeLog2(d), getOutDimSizeLog2(d), getOutDimSize(d)
//   getTotalInDimSizeLog2(), getTotalOutDimSizeLog2()
//   rank(), isSurjective(), isInvertible()
//   l.invertAndCompose(other)               (§5.4, Triton's current release)
//   inner * outer                           the product (Def 4.3)
//   divideLeft(a, b)                        left division (Def 4.4), found by
//                                           argument-dependent lookup
template <class L>
concept LayoutApi = std::copyable<L> && std::default_initializable<L> &&
    std::constructible_from<L, const LayoutValue&> &&
    requires(const L& l, const L& other, const std::string& dim, uint64_t size) {
  { L::identity1D(size, dim, dim) } -> std::same_as<L>;
  requires std::same_as<std::remove_cvref_t<decltype(l.value())>, LayoutValue>;
  { l.getInDimNames() } -> std::same_as<std::vector<std::string>>;
  { l.getOutDimNames() } -> std::same_as<std::vector<std::string>>;
  { l.hasInDim(dim) } -> std::same_as<bool>;
  { l.hasOutDim(dim) } -> std::same_as<bool>;
  { l.getInDimSizeLog2(dim) } -> std::same_as<int>;
  { l.getOutDimSizeLog2(dim) } -> std::same_as<int>;
  { l.getOutDimSize(dim) } -> std::same_as<uint64_t>;
  { l.getTotalInDimSizeLog2() } -> std::same_as<int>;
  { l.getTotalOutDimSizeLog2() } -> std::same_as<int>;
  { l.rank() } -> std::same_as<int>;
  { l.isSurjective() } -> std::same_as<bool>;
  { l.isInvertible() } -> std::same_as<bool>;
  { l.invertAndCompose(other) } -> std::same_as<L>;
  { (l * other) } -> std::same_as<L>;
  { divideLeft(l, other) } -> std::same_as<std::optional<L>>;
};

// The whole API that ref::LinearLayout and opt::LinearLayout share: LayoutApi,
// equality, and every other operation of the reference's header with its
// signature (the 1-D constructors, apply, the algebra with a Triton release,
// the dim operations, the rank queries, the matrix view, Triton's text).
template <class L>
concept SharedLayoutApi = LayoutApi<L> && std::equality_comparable<L> &&
    requires(const L& l, const L& other, const std::string& dim, uint64_t size,
             const std::vector<std::string>& names, const DimSizes& sizes, const DimValues& values,
             TritonVersion triton, std::ostream& os) {
  { L::empty() } -> std::same_as<L>;
  { L::zeros1D(size, dim, dim) } -> std::same_as<L>;
  { L::zeros1D(size, dim, dim, size) } -> std::same_as<L>;
  { L::strided1D(size, size, dim, dim) } -> std::same_as<L>;
  { l.apply(values) } -> std::same_as<DimValues>;
  { l.compose(other) } -> std::same_as<L>;
  { l.invertAndCompose(other, triton) } -> std::same_as<L>;
  { l.invert() } -> std::same_as<L>;
  { l.invert(triton) } -> std::same_as<L>;
  { l.pseudoinvert() } -> std::same_as<L>;
  { l.pseudoinvert(triton) } -> std::same_as<L>;
  { l.transposeIns(names) } -> std::same_as<L>;
  { l.transposeOuts(names) } -> std::same_as<L>;
  { l.reshapeIns(sizes) } -> std::same_as<L>;
  { l.reshapeOuts(sizes) } -> std::same_as<L>;
  { l.flattenIns() } -> std::same_as<L>;
  { l.flattenOuts() } -> std::same_as<L>;
  { l.sublayout(names, names) } -> std::same_as<L>;
  { l.sublayoutIsZero(names, names) } -> std::same_as<bool>;
  { l.concatIns(other) } -> std::same_as<L>;
  { l.concatOuts(other) } -> std::same_as<L>;
  { l.isInjective() } -> std::same_as<bool>;
  { l.getFreeVariableMasks() } -> std::same_as<DimValues>;
  { l.getNumConsecutiveInOut() } -> std::same_as<uint64_t>;
  { l.getMatrixView() } -> std::same_as<std::vector<std::vector<int>>>;
  { l.toString() } -> std::same_as<std::string>;
  { os << l } -> std::same_as<std::ostream&>;
};

}  // namespace f2lay::analysis
