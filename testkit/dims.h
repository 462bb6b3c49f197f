// A layout's dims without its bases, as (name, bits) per dim: what the test
// side builds layouts from (columns.h's layoutOf) and what its random sources
// draw first (random_layout.h, properties/ and fuzz/).
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "formats/layout_value.h"

namespace f2lay::testkit {

// One side of a layout, in order.
using DimBits = std::vector<std::pair<std::string, int>>;

int totalBits(const DimBits& dims);
DimBits inDimBits(const LayoutValue& l);
DimBits outDimBits(const LayoutValue& l);
std::vector<std::string> inDimNames(const LayoutValue& l);
std::vector<std::string> outDimNames(const LayoutValue& l);

// `total` bits spread over dims named `names`, in order: each dim but the
// last draws its bits as draw(most), a count from 0 to most (at most 63, the
// widest dim, and no more than are left); the last takes the rest. Where
// that rest is 64 bits (one more than a dim holds), the side is two dims
// instead, names[0] of 1 bit and names[1] of 63. The draws are the caller's
// (an engine, RapidCheck), so that each source keeps its own sequence and
// shrinking.
template <class Draw>
DimBits spreadBits(int total, const std::vector<std::string>& names, Draw&& draw) {
  DimBits dims;
  for (size_t k = 0, left = static_cast<size_t>(total); k < names.size(); ++k) {
    int bits = k + 1 == names.size() ? static_cast<int>(left)
                                     : draw(static_cast<int>(std::min<size_t>(63, left)));
    dims.push_back({names[k], bits});
    left -= static_cast<size_t>(bits);
  }
  if (dims.back().second > 63) dims = {{names[0], 1}, {names[1], 63}};
  return dims;
}

}  // namespace f2lay::testkit
