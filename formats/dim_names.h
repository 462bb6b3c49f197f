// Small helpers on lists of dim names, for the error messages and checks of
// every implementation (f2lay::ref, f2lay::opt), so that they say the same.
#pragma once

#include <string>
#include <vector>

namespace f2lay {

// "[a, b, c]", for error messages.
std::string joinNames(const std::vector<std::string>& names);
// Whether a and b hold the same names, ignoring order.
bool sameNamesIgnoringOrder(std::vector<std::string> a, std::vector<std::string> b);

}  // namespace f2lay
