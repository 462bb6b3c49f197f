// The reference's backend of analysis/space.h: subspaces of the flattened
// tensor space F2^d by plain Gaussian elimination on short lists, written to
// be read. analysis/space.h states each operation's contract, including the
// order of the vectors it returns (the constructions pair vectors up by
// position, E and F in §5.4).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/space.h"
#include "reference/analysis/f2_coordinates.h"
#include "reference/linear_layout.h"

namespace f2lay::ref::analysis {

Vecs flatBases(const LinearLayout& l, const std::string& dim);
int rankOf(const Vecs& v);
bool inSpan(const Vecs& basis, Vec x);
Vecs extendBasis(const Vecs& base, const Vecs& candidates);
Vecs intersectSpans(const Vecs& a, const Vecs& b);
Vecs completeWithUnits(const Vecs& base, int bits);

// The flattened coordinate of out-dim values of l (in l's out-dim order), and
// back.
Vec flatten(const LinearLayout& l, const DimValues& outValues);
DimValues unflatten(const LinearLayout& l, Vec x);

// The functions above as the backend the constructions call.
struct EliminationSpace {
  static Vecs flatBases(const LinearLayout& l, const std::string& dim) {
    return analysis::flatBases(l, dim);
  }
  static int rankOf(const Vecs& v) { return analysis::rankOf(v); }
  static bool inSpan(const Vecs& basis, Vec x) { return analysis::inSpan(basis, x); }
  static Vecs extendBasis(const Vecs& base, const Vecs& candidates) {
    return analysis::extendBasis(base, candidates);
  }
  static Vecs intersectSpans(const Vecs& a, const Vecs& b) {
    return analysis::intersectSpans(a, b);
  }
  static Vecs completeWithUnits(const Vecs& base, int bits) {
    return analysis::completeWithUnits(base, bits);
  }
  using Coordinates = analysis::Coordinates;
};

}  // namespace f2lay::ref::analysis

template <>
struct f2lay::analysis::SpaceOf<f2lay::ref::LinearLayout> {
  using type = f2lay::ref::analysis::EliminationSpace;
};
