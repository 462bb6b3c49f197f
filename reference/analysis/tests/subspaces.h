// Alternatives to a memory layout, for the optimality checks of the optimal
// swizzle (reference/analysis/tests and properties/): every subspace of a
// span, and the memory layout with given offset bits.
#pragma once

#include <algorithm>
#include <functional>

#include "reference/analysis/f2_space.h"
#include "reference/linear_layout.h"

namespace f2lay::ref::analysis::testing {

// Every subspace of dimension `dim` of span(basis), as bases (reduced row
// echelon form over the given basis).
inline void forEachSubspace(const Vecs& basis, int dim,
                            const std::function<void(const Vecs&)>& visit) {
  int m = static_cast<int>(basis.size());
  std::vector<int> pivots;
  std::function<void(int)> choosePivots = [&](int from) {
    if (static_cast<int>(pivots.size()) == dim) {
      // Free entries: row r may use basis vectors after its pivot that are
      // not pivots themselves.
      std::vector<std::vector<int>> free(dim);
      int count = 0;
      for (int r = 0; r < dim; ++r)
        for (int c = pivots[r] + 1; c < m; ++c)
          if (std::find(pivots.begin(), pivots.end(), c) == pivots.end()) {
            free[r].push_back(c);
            ++count;
          }
      for (uint64_t mask = 0; mask < (uint64_t{1} << count); ++mask) {
        Vecs rows;
        int bit = 0;
        for (int r = 0; r < dim; ++r) {
          Vec x = basis[pivots[r]];
          for (int c : free[r])
            if (mask >> bit++ & 1) x ^= basis[c];
          rows.push_back(x);
        }
        visit(rows);
      }
      return;
    }
    for (int c = from; c < m; ++c) {
      pivots.push_back(c);
      choosePivots(c + 1);
      pivots.pop_back();
    }
  };
  choosePivots(0);
}

inline LinearLayout memoryFrom(const LinearLayout& like, const Vecs& offsetBits) {
  LayoutValue v{{{"offset", {}}}, like.value().out_dims};
  for (Vec x : offsetBits) {
    Basis b;
    for (const auto& [name, value] : unflatten(like, x)) b.push_back(value);
    v.in_dims[0].bases.push_back(b);
  }
  return LinearLayout(v);
}

}  // namespace f2lay::ref::analysis::testing
