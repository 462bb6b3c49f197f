#include "formats/dim_names.h"

#include <algorithm>

#include "formats/error.h"
#include "formats/layout_value.h"

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

std::vector<int> reshapeBits(const std::string& op, const DimSizes& dims, int totalBits) {
  std::vector<int> bits;
  std::vector<std::string> names;
  int sum = 0;
  for (const auto& [name, size] : dims) {
    if (!isIdentifier(name)) throw Error(op + ": '" + name + "' is not a valid dim name");
    for (const std::string& n : names)
      if (n == name) throw Error(op + ": dim '" + name + "' is named twice");
    names.push_back(name);
    if (!isPowerOfTwo(size))
      throw Error(op + ": size " + std::to_string(size) + " of dim '" + name +
                  "' is not a power of two");
    bits.push_back(log2Exact(size));
    sum += bits.back();
  }
  if (sum != totalBits)
    throw Error(op + ": the new dims have 2^" + std::to_string(sum) +
                " elements but the layout has 2^" + std::to_string(totalBits));
  return bits;
}

}  // namespace f2lay
