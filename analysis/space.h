// The vocabulary of the paper's §5 constructions, written once for both
// implementations (analysis/*_impl.h): vectors of the flattened tensor space
// F2^d and the operations on their spans that the constructions need.
//
// A tensor vector is one integer, the flattened coordinate: the first out dim
// in the lowest bits, as Triton's flattenOuts orders them. d is at most 64,
// so a vector is a uint64_t (§5.4: "treating A and B as representing vectors
// in F2^d, flattening the logical matrix").
//
// The span operations come from a backend, SpaceOf<L>::type for the layout
// type L: the reference's plain Gaussian elimination
// (reference/analysis/f2_space.h) and f2lay::opt's packed echelon
// (optimized/analysis/subspace.h). A backend S has
//   static Vecs flatBases(const L& l, const std::string& dim);
//       the flattened images of the bits of in dim `dim`, in bit order,
//       zeros kept (a zero is a broadcast bit, §5.1); empty without the dim;
//   static int rankOf(const Vecs& v);                 dim span(v)
//   static bool inSpan(const Vecs& basis, Vec x);
//   static Vecs extendBasis(const Vecs& base, const Vecs& candidates);
//       the candidates, in order, that each enlarge span(base ∪ those
//       chosen before them);
//   static Vecs intersectSpans(const Vecs& a, const Vecs& b);
//       a basis of span(a) ∩ span(b): a's vectors inside span(b) first, in
//       a's order (for Def 4.10 layouts they are the whole answer, as the
//       paper's A_Reg ∩ B_Reg assumes), then (Zassenhaus) the second halves
//       of the reduced pair rows (a_i | a_i), (b_i | 0) whose first half
//       vanishes, in row order, that enlarge the result;
//   static Vecs completeWithUnits(const Vecs& base, int bits);
//       unit vectors 1 << i, lowest i first, completing span(base) to
//       F2^bits (the seed's canonical completion: bank bits take the lowest
//       coordinate bits left free);
//   class Coordinates { explicit Coordinates(const Vecs& basis);
//                       std::optional<uint64_t> of(Vec x) const; };
//       which basis vectors XOR to x (bit j: basis[j]); nullopt outside the
//       span. The basis must be independent (at most 64 vectors).
// The order of the vectors each returns is part of its contract: the
// constructions pair vectors up by position (E and F in §5.4), so both
// backends choose the same vectors. Differential tests compare the backends
// on these primitives directly.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace f2lay::analysis {

using Vec = uint64_t;
using Vecs = std::vector<Vec>;

// The backend of layout type L; each implementation specializes it.
template <class L>
struct SpaceOf;
template <class L>
using Space = typename SpaceOf<L>::type;

// The nonzero vectors of v, in order.
inline Vecs nonzero(const Vecs& v) {
  Vecs out;
  for (Vec x : v)
    if (x != 0) out.push_back(x);
  return out;
}

inline Vecs concat(std::initializer_list<Vecs> parts) {
  Vecs all;
  for (const Vecs& p : parts) all.insert(all.end(), p.begin(), p.end());
  return all;
}

// The XOR of images[i] over the set bits i of x: a linear map applied by its
// bases (Def 4.1).
inline Vec xorOfBits(const Vecs& images, uint64_t x) {
  Vec out = 0;
  for (size_t i = 0; i < images.size(); ++i)
    if (x >> i & 1) out ^= images[i];
  return out;
}

// log2 of the size of in dim `dim` of l; 0 when l lacks it (size 1).
template <class L>
int inBits(const L& l, const std::string& dim) {
  return l.hasInDim(dim) ? l.getInDimSizeLog2(dim) : 0;
}

// Where out dim `dim` sits in a flattened vector: bits [shift, shift + bits).
struct Field {
  int shift = 0, bits = 0;
  uint64_t of(Vec x) const { return bits == 0 ? 0 : x >> shift & ((uint64_t{1} << bits) - 1); }
  Vec at(uint64_t value) const { return bits == 0 ? 0 : value << shift; }
  Vec mask() const { return bits == 0 ? 0 : (~uint64_t{0} >> (64 - bits)) << shift; }
};

// The field of out dim `dim` of l; bits 0 when l lacks it.
template <class L>
Field outField(const L& l, const std::string& dim) {
  Field f;
  for (const std::string& d : l.getOutDimNames()) {
    if (d == dim) {
      f.bits = l.getOutDimSizeLog2(d);
      return f;
    }
    f.shift += l.getOutDimSizeLog2(d);
  }
  return Field{};
}

}  // namespace f2lay::analysis

// Each implementation's analyses answer under its own name too:
// f2lay::ref::analysis::shufflePlan(a, b, w) on reference layouts is this
// namespace's shufflePlan, instantiated for them.
namespace f2lay::ref::analysis {
using namespace f2lay::analysis;
}
namespace f2lay::opt::analysis {
using namespace f2lay::analysis;
}
