// Subspaces of the flattened tensor space F2^d, for the paper's §5 analyses.
//
// The §5 algorithms (warp shuffles, optimal swizzling, bank conflicts) reason
// about sets of tensor vectors: the images of the register, lane and warp bits
// of a layout, and the spans, intersections and complements of those sets
// (§5.4: "treating A and B as representing vectors in F2^d, flattening the
// logical matrix"). Here a tensor vector is one integer, the flattened
// coordinate: the first out dim in the lowest bits, as Triton's flattenOuts
// orders them (linear_layout.h). d is at most 64, so a vector is a uint64_t.
//
// Everything here is plain Gaussian elimination on short lists; the order of
// the vectors a function returns is part of its contract, because the
// algorithms pair vectors up by position (E and F in §5.4).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "reference/linear_layout.h"

namespace f2lay::ref::analysis {

using Vec = uint64_t;
using Vecs = std::vector<Vec>;

// The flattened images of the bits of in dim `dim` of l, in bit order, zeros
// kept (a zero is a broadcast bit, §5.1). Empty when l has no such dim.
Vecs flatBases(const LinearLayout& l, const std::string& dim);

// The nonzero vectors of v, in order.
Vecs nonzero(const Vecs& v);

// The dimension of span(v).
int rankOf(const Vecs& v);

// Whether x lies in span(basis).
bool inSpan(const Vecs& basis, Vec x);

// The vectors of `candidates`, in order, that each enlarge the span of `base`
// together with those chosen before them: a basis of span(base ∪ candidates)
// modulo span(base), taken from the candidates themselves.
Vecs extendBasis(const Vecs& base, const Vecs& candidates);

// A basis of span(a) ∩ span(b). The vectors of a that lie in span(b) come
// first, in a's order (for layouts of Def 4.10 they are the whole answer, as
// the paper's set intersections A_Reg ∩ B_Reg assume); any rest is found by
// elimination.
Vecs intersectSpans(const Vecs& a, const Vecs& b);

// Unit vectors 1 << i, lowest i first, that complete span(base) to all of
// F2^bits (the canonical completion of the seed walkthrough: the bank bits
// take the lowest coordinate bits left free).
Vecs completeWithUnits(const Vecs& base, int bits);

// The flattened coordinate of out-dim values of l (in l's out-dim order), and
// back.
Vec flatten(const LinearLayout& l, const DimValues& outValues);
DimValues unflatten(const LinearLayout& l, Vec x);

}  // namespace f2lay::ref::analysis
