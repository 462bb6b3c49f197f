// The reference's backend of analysis/space.h: subspaces of the flattened
// tensor space F2^d by plain Gaussian elimination on short lists, written to
// be read. analysis/space.h's concept SpaceBackend states each operation's
// contract, including the order of the vectors it returns (the constructions
// pair vectors up by position, E and F in §5.4);
// reference/analysis/constructions.cpp asserts that EliminationSpace meets
// it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/space.h"
#include "reference/analysis/f2_coordinates.h"
#include "reference/linear_layout.h"

namespace f2lay::ref::analysis {

// The operations of a backend (analysis/space.h's SpaceBackend states each
// one's contract, including the order of the vectors it returns). None
// throws.
[[nodiscard]] Vecs flatBases(const LinearLayout& l, const std::string& dim);
[[nodiscard]] int rankOf(const Vecs& v);
[[nodiscard]] bool inSpan(const Vecs& basis, Vec x);
[[nodiscard]] Vecs extendBasis(const Vecs& base, const Vecs& candidates);
[[nodiscard]] Vecs intersectSpans(const Vecs& a, const Vecs& b);
[[nodiscard]] Vecs completeWithUnits(const Vecs& base, int bits);

// The flattened coordinate of out-dim values of l (in l's out-dim order), and
// back.
//   flatten: Requires each value below its out dim's size (names l lacks are
//     ignored, dims not given are 0). Ensures the out dims' values at their
//     fields (analysis/space.h's outField).
//   unflatten: Ensures one (name, value) per out dim of l, in order, each
//     read from its field; flatten(l, unflatten(l, x)) == x for x below
//     2^l.getTotalOutDimSizeLog2().
// Neither throws.
[[nodiscard]] Vec flatten(const LinearLayout& l, const DimValues& outValues);
[[nodiscard]] DimValues unflatten(const LinearLayout& l, Vec x);

// The functions above as the backend the constructions call (a SpaceBackend
// for ref::LinearLayout).
struct EliminationSpace {
  [[nodiscard]] static Vecs flatBases(const LinearLayout& l, const std::string& dim) {
    return analysis::flatBases(l, dim);
  }
  [[nodiscard]] static int rankOf(const Vecs& v) { return analysis::rankOf(v); }
  [[nodiscard]] static bool inSpan(const Vecs& basis, Vec x) { return analysis::inSpan(basis, x); }
  [[nodiscard]] static Vecs extendBasis(const Vecs& base, const Vecs& candidates) {
    return analysis::extendBasis(base, candidates);
  }
  [[nodiscard]] static Vecs intersectSpans(const Vecs& a, const Vecs& b) {
    return analysis::intersectSpans(a, b);
  }
  [[nodiscard]] static Vecs completeWithUnits(const Vecs& base, int bits) {
    return analysis::completeWithUnits(base, bits);
  }
  using Coordinates = analysis::Coordinates;
};

}  // namespace f2lay::ref::analysis

template <>
struct f2lay::analysis::SpaceOf<f2lay::ref::LinearLayout> {
  using type = f2lay::ref::analysis::EliminationSpace;
};
