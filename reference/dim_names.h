// Small helpers on lists of dim names, shared by the reference's operations.
#pragma once

#include <string>
#include <vector>

namespace f2lay::ref {

// "[a, b, c]", for error messages.
std::string joinNames(const std::vector<std::string>& names);
// Whether a and b hold the same names, ignoring order.
bool sameNamesIgnoringOrder(std::vector<std::string> a, std::vector<std::string> b);

}  // namespace f2lay::ref
