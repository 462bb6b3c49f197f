#include "reference/f2_matrix.h"

namespace f2lay::ref {

F2Matrix multiplyMod2(const F2Matrix& a, const F2Matrix& b) {
  F2Matrix product = a * b;
  return product.unaryExpr([](int x) { return x & 1; });
}

RowEchelon reducedRowEchelon(const F2Matrix& m, bool withTransform) {
  RowEchelon e{m, withTransform ? F2Matrix::Identity(m.rows(), m.rows()) : F2Matrix(), {}};
  int row = 0;
  for (int col = 0; col < m.cols() && row < m.rows(); ++col) {
    // Find a row at or below `row` with a 1 in this column.
    int found = -1;
    for (int r = row; r < m.rows() && found < 0; ++r)
      if (e.reduced(r, col)) found = r;
    if (found < 0) continue;  // no pivot here: the column is a free variable
    e.reduced.row(row).swap(e.reduced.row(found));
    if (withTransform) e.transform.row(row).swap(e.transform.row(found));
    // Clear this column in every other row (above and below): adding rows is
    // XOR over F2.
    for (int r = 0; r < m.rows(); ++r) {
      if (r == row || !e.reduced(r, col)) continue;
      e.reduced.row(r) =
          (e.reduced.row(r) + e.reduced.row(row)).unaryExpr([](int x) { return x & 1; });
      if (withTransform)
        e.transform.row(r) =
            (e.transform.row(r) + e.transform.row(row)).unaryExpr([](int x) { return x & 1; });
    }
    e.pivotColumns.push_back(col);
    ++row;
  }
  return e;
}

int rankOf(const F2Matrix& m) {
  return static_cast<int>(reducedRowEchelon(m, false).pivotColumns.size());
}

}  // namespace f2lay::ref
