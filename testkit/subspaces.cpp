#include "testkit/subspaces.h"

#include <algorithm>

#include "testkit/columns.h"

namespace f2lay::testkit {

void forEachSubspace(const std::vector<uint64_t>& basis, int dim,
                     const std::function<void(const std::vector<uint64_t>&)>& visit) {
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
        std::vector<uint64_t> rows;
        int bit = 0;
        for (int r = 0; r < dim; ++r) {
          uint64_t x = basis[pivots[r]];
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

LayoutValue memoryFrom(const LayoutValue& like, const std::vector<uint64_t>& offsetBits) {
  return layoutOf({{"offset", static_cast<int>(offsetBits.size())}}, outDimBits(like), offsetBits);
}

}  // namespace f2lay::testkit
