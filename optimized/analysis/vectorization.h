// Vectorization, instruction tiles and duplication (paper §5.1, §5.3,
// Theorem 5.1) on packed layouts: the contract, results and messages of
// reference/analysis/vectorization.h, which says what each part means.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "optimized/opt_linear_layout.h"

namespace f2lay::opt::analysis {

LinearLayout offsetsOf(const LinearLayout& dist, const LinearLayout& shared);
int contiguousRegisterBits(const LinearLayout& offsets);
std::vector<int> vectorRegisterBits(const LinearLayout& offsets);

LinearLayout vectorTile(uint64_t elements);
LinearLayout matrixTile(uint64_t elementBytes);

struct TileDivision {
  std::vector<int> registerOrder;
  LinearLayout permuted;
  LinearLayout quotient;
};
std::optional<TileDivision> divideByTile(const LinearLayout& offsets, const LinearLayout& tile);

struct Duplication {
  DimValues zeroBits;
  uint64_t heldElements;
  uint64_t distinctElements;
};
Duplication duplication(const LinearLayout& dist);

struct ReductionStores {
  uint64_t distinctPartials;
  uint64_t naiveStores;
};
ReductionStores reductionStores(const LinearLayout& dist, const std::string& axis);

}  // namespace f2lay::opt::analysis
