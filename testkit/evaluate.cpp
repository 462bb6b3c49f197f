#include "testkit/evaluate.h"

#include <set>

#include "testkit/columns.h"

namespace f2lay::testkit {

std::vector<uint64_t> apply(const LayoutValue& l, uint64_t x) {
  return outValues(l, applyColumns(columnsOf(l), x));
}

uint64_t imageSize(const LayoutValue& l) {
  std::vector<uint64_t> cols = columnsOf(l);
  std::set<uint64_t> image;
  for (uint64_t x = 0; x < (uint64_t{1} << cols.size()); ++x) image.insert(applyColumns(cols, x));
  return image.size();
}

}  // namespace f2lay::testkit
