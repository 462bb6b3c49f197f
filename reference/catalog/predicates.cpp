#include "reference/catalog/predicates.h"

#include <set>

namespace f2lay::ref::catalog {

namespace {

// The columns of the matrix, each as its rows of 0/1.
std::vector<std::vector<int>> columns(const LinearLayout& layout) {
  MatrixView rows = layout.getMatrixView();
  std::vector<std::vector<int>> cols(static_cast<size_t>(layout.getTotalInDimSizeLog2()));
  for (const std::vector<int>& row : rows)
    for (size_t c = 0; c < cols.size(); ++c) cols[c].push_back(row[c]);
  return cols;
}

int nonZeroBits(const std::vector<int>& column) {
  int n = 0;
  for (int bit : column) n += bit;
  return n;
}

}  // namespace

bool isDistributed(const LinearLayout& layout) {
  if (!layout.isSurjective()) return false;
  std::set<std::vector<int>> seen;
  for (const std::vector<int>& col : columns(layout)) {
    int bits = nonZeroBits(col);
    if (bits > 1) return false;
    if (bits == 1 && !seen.insert(col).second) return false;  // a repeated column
  }
  return true;
}

bool isMemory(const LinearLayout& layout) {
  if (!layout.isInvertible()) return false;
  for (const std::vector<int>& col : columns(layout)) {
    int bits = nonZeroBits(col);
    if (bits != 1 && bits != 2) return false;
  }
  return true;
}

}  // namespace f2lay::ref::catalog
