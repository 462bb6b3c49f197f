// Small helpers on lists of dim names, for the error messages and checks of
// every implementation (f2lay::ref, f2lay::opt), so that they say the same.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace f2lay {

// (dim name, value) pairs: inputs of apply, and its outputs in out-dim order.
using DimValues = std::vector<std::pair<std::string, uint64_t>>;
// (dim name, size) pairs, sizes powers of two: new dims for reshape.
using DimSizes = std::vector<std::pair<std::string, uint64_t>>;

// "[a, b, c]", for error messages.
std::string joinNames(const std::vector<std::string>& names);
// Whether a and b hold the same names, ignoring order.
bool sameNamesIgnoringOrder(std::vector<std::string> a, std::vector<std::string> b);
// The new dims of reshape_ins / reshape_outs (`op`) checked: identifiers,
// each named once, sizes powers of two, 2^totalBits elements in all. Returns
// log2 of each size; throws f2lay::Error naming the first dim that is wrong.
std::vector<int> reshapeBits(const std::string& op, const DimSizes& dims, int totalBits);

}  // namespace f2lay
