// Alternatives to a memory layout, for the optimality checks of the optimal
// swizzle (reference/analysis/tests and properties/): every subspace of a
// span, and the memory layout with given offset bits.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "formats/layout_value.h"

namespace f2lay::testkit {

// Every subspace of dimension `dim` of span(basis), as bases (reduced row
// echelon form over the given basis).
void forEachSubspace(const std::vector<uint64_t>& basis, int dim,
                     const std::function<void(const std::vector<uint64_t>&)>& visit);

// offset -> the out dims of `like`: offset bit i maps to the flat vector
// offsetBits[i] (columns.h).
LayoutValue memoryFrom(const LayoutValue& like, const std::vector<uint64_t>& offsetBits);

}  // namespace f2lay::testkit
