// Coordinates of a vector in a basis of F2 vectors (f2_space.h's Vec): which
// basis vectors XOR to it. The §5.4 shuffle plan uses it to name the round
// (coset) of an element, the §5.5 gather plan to find the register and lane
// bits that move along the gather axis.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "analysis/space.h"
#include "formats/error.h"

namespace f2lay::ref::analysis {

class Coordinates {
 public:
  // basis: at most 64 independent vectors; throws f2lay::Error otherwise.
  explicit Coordinates(const Vecs& basis) {
    if (basis.size() > 64) throw Error("coordinates: more than 64 basis vectors");
    for (size_t j = 0; j < basis.size(); ++j) {
      auto [rest, combination] = reduce(basis[j]);
      if (rest == 0)
        throw Error("coordinates: basis vector " + std::to_string(j) +
                    " is a combination of the earlier ones");
      rows_.push_back({rest, combination ^ (uint64_t{1} << j)});
    }
  }

  // Bit j set when basis[j] is in x's combination; nullopt outside the span.
  std::optional<uint64_t> of(Vec x) const {
    auto [rest, combination] = reduce(x);
    if (rest != 0) return std::nullopt;
    return combination;
  }

 private:
  // Rows are reduced against the earlier rows' pivots (their lowest bits), so
  // one pass in insertion order clears every pivot of x.
  std::pair<Vec, uint64_t> reduce(Vec x) const {
    uint64_t combination = 0;
    for (const auto& row : rows_)
      if (x & (row.first & -row.first)) {
        x ^= row.first;
        combination ^= row.second;
      }
    return {x, combination};
  }

  std::vector<std::pair<Vec, uint64_t>> rows_;  // (reduced vector, its combination)
};

}  // namespace f2lay::ref::analysis
