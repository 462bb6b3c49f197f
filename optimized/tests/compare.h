// Helpers of the opt-against-ref tests: run a computation and keep what it
// gave, its answer written out or its error message, so that both
// implementations' outcomes compare as strings.
#pragma once

#include <string>

#include "formats/error.h"
#include "optimized/opt_linear_layout.h"
#include "reference/linear_layout.h"

namespace f2lay::testing {

// f's answer, or "error: " and the message of the f2lay::Error it threw.
template <class F>
std::string outcome(const F& f) {
  try {
    return f();
  } catch (const Error& e) {
    return std::string("error: ") + e.what();
  }
}

inline opt::LinearLayout toOpt(const ref::LinearLayout& l) { return opt::LinearLayout(l.value()); }

}  // namespace f2lay::testing
