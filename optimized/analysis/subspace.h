// f2lay::opt's backend of analysis/space.h: subspaces of the flattened tensor
// space F2^d on core::Echelon (the packed echelon form the algebra uses),
// with the contracts analysis/space.h states, including the order of the
// vectors each returns.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/space.h"
#include "optimized/opt_linear_layout.h"

namespace f2lay::opt::analysis {

struct EchelonSpace {
  // The packed columns of in dim `dim` (zeros kept); empty without it.
  static Vecs flatBases(const LinearLayout& l, const std::string& dim);
  static int rankOf(const Vecs& v);
  static bool inSpan(const Vecs& basis, Vec x);
  static Vecs extendBasis(const Vecs& base, const Vecs& candidates);
  static Vecs intersectSpans(const Vecs& a, const Vecs& b);
  static Vecs completeWithUnits(const Vecs& base, int bits);

  // Coordinates are the combinations core::Echelon keeps for each inserted
  // column (bit j: column j).
  class Coordinates {
   public:
    explicit Coordinates(const Vecs& basis);
    std::optional<uint64_t> of(Vec x) const {
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
