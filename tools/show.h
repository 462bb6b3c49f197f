// `f2lay show`: a layout printed for people.
#pragma once

#include <iosfwd>

#include "linear_layout.h"

namespace f2lay::tools {

// The dims, the rank and its properties, the matrix with dim labels, and, for
// a layout over register/lane/warp/block with at most 2^12 elements and 2^20
// inputs, a grid of which (warp, thread, register) holds each tensor element.
void showLayout(const ref::LinearLayout& layout, std::ostream& out);

}  // namespace f2lay::tools
