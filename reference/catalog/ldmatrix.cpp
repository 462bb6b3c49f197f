#include "reference/catalog/ldmatrix.h"

namespace f2lay::ref::catalog {

LinearLayout ldmatrix(const LdmatrixParams& p) {
  if (p.count != 1 && p.count != 2 && p.count != 4)
    throw Error("count = " + std::to_string(p.count) +
                ": ldmatrix/stmatrix load 1, 2 or 4 matrices (.x1, .x2, .x4)");
  // The dim that the half bit and lane bits 0-1 run along (2 (t % 4) + h),
  // and the one lane bits 2-4 run along (t / 4); .trans swaps them.
  std::string pairs = p.trans ? "row" : "col";
  std::string quads = p.trans ? "col" : "row";
  LinearLayout l = LinearLayout::identity1D(2, "register", pairs) *
                   LinearLayout::identity1D(4, "lane", pairs) *
                   LinearLayout::identity1D(8, "lane", quads) *
                   LinearLayout::identity1D(p.count, "register", "matrix");
  return l.transposeOuts({"row", "col", "matrix"});
}

}  // namespace f2lay::ref::catalog
