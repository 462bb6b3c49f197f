#include "formats/dim_names.h"

#include <algorithm>

namespace f2lay {

std::string joinNames(const std::vector<std::string>& names) {
  std::string s = "[";
  for (size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + names[i];
  return s + "]";
}

bool sameNamesIgnoringOrder(std::vector<std::string> a, std::vector<std::string> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return a == b;
}

}  // namespace f2lay
