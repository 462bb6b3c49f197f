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
// (optimized/analysis/subspace.h). What a backend offers, and what each of
// its operations returns, is the concept SpaceBackend below; Space<L> is the
// backend of L, checked against it. The order of the vectors each operation
// returns is part of its contract: the constructions pair vectors up by
// position (E and F in §5.4), so both backends choose the same vectors.
// Differential tests compare the backends on these primitives directly.
#pragma once

#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "analysis/layout_api.h"

namespace f2lay::analysis {

using Vec = uint64_t;
using Vecs = std::vector<Vec>;

// An F2-space backend S for the layout type L: stateless operations on lists
// of flattened vectors, the only span arithmetic the constructions use.
// None throws, but Coordinates' constructor.
//   S::flatBases(l, dim)
//       the flattened images of the bits of in dim `dim` of l, in bit order,
//       zeros kept (a zero is a broadcast bit, §5.1); empty when l has no
//       such dim. Ensures: one vector per input bit of `dim`, each below
//       2^l.getTotalOutDimSizeLog2().
//   S::rankOf(v)
//       dim span(v).
//   S::inSpan(basis, x)
//       whether x lies in span(basis) (true for x = 0).
//   S::extendBasis(base, candidates)
//       the candidates, in order, that each enlarge span(base ∪ those chosen
//       before them). Ensures: base ∪ result spans span(base ∪ candidates),
//       and no result vector lies in the span of base and the earlier ones.
//   S::intersectSpans(a, b)
//       a basis of span(a) ∩ span(b): a's vectors inside span(b) first, in
//       a's order (for Def 4.10 layouts they are the whole answer, as the
//       paper's A_Reg ∩ B_Reg assumes), then (Zassenhaus) the second halves
//       of the reduced pair rows (a_i | a_i), (b_i | 0) whose first half
//       vanishes, in row order, that enlarge the result.
//   S::completeWithUnits(base, bits)
//       unit vectors 1 << i, lowest i first, that extend span(base): the
//       canonical completion of the "One Bit Off" swizzle walk-through (bank
//       bits take the lowest coordinate bits left free). Requires: bits <= 64
//       and base inside F2^bits. Ensures: base ∪ result spans F2^bits.
//   S::Coordinates c(basis); c.of(x)
//       which basis vectors XOR to x (bit j: basis[j]); nullopt outside the
//       span. Requires: basis independent, at most 64 vectors. Throws
//       f2lay::Error otherwise ("coordinates: more than 64 basis vectors",
//       "coordinates: basis vector j is a combination of the earlier ones").
template <class S, class L>
concept SpaceBackend = LayoutApi<L> &&
    requires(const L& l, const std::string& dim, const Vecs& v, Vec x, int bits) {
  { S::flatBases(l, dim) } -> std::same_as<Vecs>;
  { S::rankOf(v) } -> std::same_as<int>;
  { S::inSpan(v, x) } -> std::same_as<bool>;
  { S::extendBasis(v, v) } -> std::same_as<Vecs>;
  { S::intersectSpans(v, v) } -> std::same_as<Vecs>;
  { S::completeWithUnits(v, bits) } -> std::same_as<Vecs>;
  typename S::Coordinates;
  requires std::constructible_from<typename S::Coordinates, const Vecs&>;
} && requires(const typename S::Coordinates& c, Vec x) {
  { c.of(x) } -> std::same_as<std::optional<uint64_t>>;
};

// The backend of layout type L; each implementation specializes it
// (reference/analysis/f2_space.h, optimized/analysis/subspace.h).
template <LayoutApi L>
struct SpaceOf;
// L's backend, which must satisfy SpaceBackend.
template <class L>
requires SpaceBackend<typename SpaceOf<L>::type, L>
using Space = typename SpaceOf<L>::type;

// The nonzero vectors of v, in order.
[[nodiscard]] inline Vecs nonzero(const Vecs& v) {
  Vecs out;
  for (Vec x : v)
    if (x != 0) out.push_back(x);
  return out;
}

// The parts one after another, in order (duplicates kept).
[[nodiscard]] inline Vecs concat(std::initializer_list<Vecs> parts) {
  Vecs all;
  for (const Vecs& p : parts) all.insert(all.end(), p.begin(), p.end());
  return all;
}

// The XOR of images[i] over the set bits i of x: a linear map applied by its
// bases (Def 4.1). Bits of x at or above images.size() are ignored.
[[nodiscard]] inline Vec xorOfBits(const Vecs& images, uint64_t x) {
  Vec out = 0;
  for (size_t i = 0; i < images.size(); ++i)
    if (x >> i & 1) out ^= images[i];
  return out;
}

// log2 of the size of in dim `dim` of l; 0 when l lacks it (size 1). Never
// throws.
template <LayoutApi L>
[[nodiscard]] int inBits(const L& l, const std::string& dim) {
  return l.hasInDim(dim) ? l.getInDimSizeLog2(dim) : 0;
}

// Where out dim `dim` sits in a flattened vector: bits [shift, shift + bits).
// Requires shift + bits <= 64.
struct Field {
  int shift = 0, bits = 0;
  // The dim's value in x: its bits, shifted down.
  [[nodiscard]] uint64_t of(Vec x) const {
    return bits == 0 ? 0 : x >> shift & ((uint64_t{1} << bits) - 1);
  }
  // The vector whose dim value is `value` and every other dim 0. Requires
  // value < 2^bits.
  [[nodiscard]] Vec at(uint64_t value) const { return bits == 0 ? 0 : value << shift; }
  // The dim's bits, set.
  [[nodiscard]] Vec mask() const { return bits == 0 ? 0 : (~uint64_t{0} >> (64 - bits)) << shift; }
};

// The field of out dim `dim` of l (out dims flattened in l's order, the first
// lowest); {0, 0} when l lacks it. Never throws.
template <LayoutApi L>
[[nodiscard]] Field outField(const L& l, const std::string& dim) {
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
