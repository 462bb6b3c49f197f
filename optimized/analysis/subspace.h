// Subspaces of the flattened tensor space F2^d for f2lay::opt's §5 analyses,
// on core::Echelon. Each function has the contract of its namesake in
// reference/analysis/f2_space.h, including the order of the vectors it
// returns (the algorithms pair vectors up by position), so that both
// implementations choose the same vectors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "optimized/opt_linear_layout.h"

namespace f2lay::opt::analysis {

using Vec = uint64_t;
using Vecs = std::vector<Vec>;

// The columns of in dim `dim` of l, zeros kept; empty without that dim.
Vecs flatBases(const LinearLayout& l, const std::string& dim);
Vecs nonzero(const Vecs& v);
int rankOf(const Vecs& v);
bool inSpan(const Vecs& basis, Vec x);
// The candidates, in order, that each enlarge span(base ∪ those chosen).
Vecs extendBasis(const Vecs& base, const Vecs& candidates);
// A basis of span(a) ∩ span(b): a's vectors inside span(b) first, in a's
// order, then (Zassenhaus) the second halves of the pair rows (a_i | a_i),
// (b_i | 0) whose first half vanishes after reduction, in row order, that
// enlarge the result.
Vecs intersectSpans(const Vecs& a, const Vecs& b);
// Unit vectors 1 << i, lowest first, completing span(base) to F2^bits.
Vecs completeWithUnits(const Vecs& base, int bits);

}  // namespace f2lay::opt::analysis
