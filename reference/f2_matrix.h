// Dense matrices over F2 for the reference model, on Eigen.
//
// Entries are ints holding 0 or 1. Eigen's bool matrices compute OR instead of
// XOR, so products are taken over the integers and reduced mod 2 (with at most
// 64 terms a sum never overflows). Gauss-Jordan elimination is written out
// plainly: this file is meant to be checked by reading, not to be fast.
#pragma once

#include <Eigen/Core>
#include <vector>

namespace f2lay::ref {

using F2Matrix = Eigen::Matrix<int, Eigen::Dynamic, Eigen::Dynamic>;

// (a * b) mod 2.
F2Matrix multiplyMod2(const F2Matrix& a, const F2Matrix& b);

// The reduced row echelon form of m over F2, found by Gauss-Jordan elimination
// scanning columns left to right, so the pivot columns are the leftmost
// maximal set of linearly independent columns. `transform` is the invertible
// matrix with transform * m = reduced; without `withTransform` it is left
// empty (0 x 0), which halves the work of a caller that needs only the pivots.
struct RowEchelon {
  F2Matrix reduced;
  F2Matrix transform;
  std::vector<int> pivotColumns;  // pivotColumns[r] is the pivot of row r
};
RowEchelon reducedRowEchelon(const F2Matrix& m, bool withTransform = true);

int rankOf(const F2Matrix& m);

}  // namespace f2lay::ref
