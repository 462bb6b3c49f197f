// Helpers of the laws: layouts from a Case, flattened inputs and outputs
// through the public apply(), and a way to run one check on both
// implementations.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "optimized/opt_linear_layout.h"
#include "properties/case.h"
#include "reference/linear_layout.h"

namespace f2lay::properties {

// L(x) on flattened bits, through L::apply(DimValues) (the first dim is the
// least significant, as in the JSON format): the brute-force view of a
// layout, independent of how either implementation stores it.
template <class L>
uint64_t applyFlat(const L& l, uint64_t x) {
  typename std::decay_t<decltype(l.apply({}))> inputs;
  for (const std::string& name : l.getInDimNames()) {
    int bits = l.getInDimSizeLog2(name);
    inputs.push_back({name, x & ((uint64_t{1} << bits) - 1)});
    x >>= bits;
  }
  uint64_t y = 0;
  int shift = 0;
  for (const auto& [name, value] : l.apply(inputs)) {
    if (shift < 64) y |= value << shift;  // past 64 bits only empty dims
    shift += l.getOutDimSizeLog2(name);
  }
  return y;
}

// The identity on a side of a layout (dims named and sized as given).
LayoutValue identityOn(const std::vector<std::pair<std::string, uint64_t>>& dims);
std::vector<std::pair<std::string, uint64_t>> inSizes(const LayoutValue& l);
std::vector<std::pair<std::string, uint64_t>> outSizes(const LayoutValue& l);

// Runs check<L>() for ref, then opt; the first failure, prefixed by which.
template <class F>
std::string forBoth(const F& check) {
  std::string r = check.template operator()<ref::LinearLayout>();
  if (!r.empty()) return "ref: " + r;
  r = check.template operator()<opt::LinearLayout>();
  return r.empty() ? "" : "opt: " + r;
}

// "" when ok, else the message.
inline std::string unless(bool ok, const std::string& message) { return ok ? "" : message; }

template <class T>
std::string str(const T& x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

}  // namespace f2lay::properties

namespace f2lay::properties {

// One shape operation of a Case's params.ops (generators.h), applied
// forward to its operand or backward from its result (shape_transfer.h).
// For reshape backward, `op` carries the operand's shape as "from".
ref::LinearLayout applyShapeOp(const ref::LinearLayout& l, const Json& op, bool forward);

}  // namespace f2lay::properties
