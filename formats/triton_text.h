// Triton's LinearLayout::toString text, written and read back exactly:
//
//
//    - register=1 -> (0, 1)
//      register=2 -> (1, 0)
//    - lane is a size 1 dimension
//   where out dims are: [dim0 (size 2), dim1 (size 2)]
//
// The text starts with a newline, as Triton's does. A layout without in dims
// reads "(empty layout)" or "(empty layout with out-dims [...])". The reader
// accepts any indentation, spacing and surrounding blank lines (and leading
// zeros in numbers), but every word and symbol must be Triton's, and the input
// values must be 1, 2, 4, ... in order.
#pragma once

#include <string>
#include <string_view>

#include "formats/layout_value.h"

namespace f2lay {

std::string writeTritonText(const LayoutValue& layout);
LayoutValue readTritonText(std::string_view text);

}  // namespace f2lay
