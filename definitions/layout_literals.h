// Layouts written out literally in catalog tests, in the shape Triton's and
// Gluon's printouts give them: bases per in dim, out dims dim0.. of `shape`.
#pragma once

#include <string>
#include <vector>

#include "reference/catalog/shape_fit.h"
#include "reference/linear_layout.h"

namespace f2lay::ref::catalog::testkit {

// register, lane, warp, block -> dim0.. with out-dim sizes `shape`.
inline LinearLayout distributed(std::vector<Basis> reg, std::vector<Basis> lane,
                                std::vector<Basis> warp, std::vector<Basis> block,
                                const Shape& shape) {
  LayoutValue v{{{"register", reg}, {"lane", lane}, {"warp", warp}, {"block", block}}, {}};
  for (size_t i = 0; i < shape.size(); ++i)
    v.out_dims.push_back({"dim" + std::to_string(i), shape[i]});
  return LinearLayout(v);
}

// Gluon's cga_layout: block bases, out-dim sizes inferred from the largest
// values (as the oracle's "cga_layout" key reads them).
inline LinearLayout cgaFromBases(std::vector<Basis> bases, size_t rank) {
  LayoutValue v{{{"block", bases}}, {}};
  for (size_t k = 0; k < rank; ++k) {
    uint64_t size = 1;
    for (const Basis& b : bases)
      while (size <= b[k]) size *= 2;
    v.out_dims.push_back({"dim" + std::to_string(k), size});
  }
  return LinearLayout(v);
}

}  // namespace f2lay::ref::catalog::testkit
