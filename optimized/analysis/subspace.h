// f2lay::opt's backend of analysis/space.h: subspaces of the flattened tensor
// space F2^d on core::Echelon (the packed echelon form the algebra uses),
// with the contracts analysis/space.h's concept SpaceBackend states,
// including the order of the vectors each returns;
// optimized/analysis/constructions.cpp asserts that EchelonSpace meets it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/space.h"
#include "optimized/opt_linear_layout.h"

namespace f2lay::opt::analysis {

// A SpaceBackend for opt::LinearLayout (each operation's contract is
// analysis/space.h's; none throws, but Coordinates' constructor).
struct EchelonSpace {
  // The packed columns of in dim `dim` (zeros kept); empty without it.
  [[nodiscard]] static Vecs flatBases(const LinearLayout& l, const std::string& dim);
  [[nodiscard]] static int rankOf(const Vecs& v);
  [[nodiscard]] static bool inSpan(const Vecs& basis, Vec x);
  [[nodiscard]] static Vecs extendBasis(const Vecs& base, const Vecs& candidates);
  [[nodiscard]] static Vecs intersectSpans(const Vecs& a, const Vecs& b);
  [[nodiscard]] static Vecs completeWithUnits(const Vecs& base, int bits);

  // Coordinates are the combinations core::Echelon keeps for each inserted
  // column (bit j: column j).
  class Coordinates {
   public:
    // Requires: basis independent, at most 64 vectors. Throws f2lay::Error
    // otherwise, as the reference's Coordinates does ("coordinates: ...").
    explicit Coordinates(const Vecs& basis);
    // Which basis vectors XOR to x (bit j: basis[j]); nullopt outside the
    // span.
    [[nodiscard]] std::optional<uint64_t> of(Vec x) const {
      uint64_t c;
      if (echelon_.reduce(x, &c) != 0) return std::nullopt;
      return c;
    }

   private:
    core::Echelon echelon_;
  };
};

}  // namespace f2lay::opt::analysis

template <>
struct f2lay::analysis::SpaceOf<f2lay::opt::LinearLayout> {
  using type = f2lay::opt::analysis::EchelonSpace;
};
