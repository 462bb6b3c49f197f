// The MLIR attribute of Triton's LinearEncodingAttr:
//
//   #ttg.linear<{register = [[0, 1], [8, 0]], lane = [[0, 2], [1, 0]],
//                warp = [[16, 0]], block = []}>
//
// As in Triton, the attribute carries the four in dims register, lane, warp and
// block (each exactly once; the reader takes them in any order and returns them
// in that order) and no out-dim sizes: the out dims are dim0..dim(r-1), r the
// length of the first basis, and each size is the smallest power of two above
// the dim's largest basis value (Triton's inference for surjective layouts).
// The writer refuses, with an error saying why, a layout the attribute cannot
// carry exactly: other in dims, other out-dim names, or sizes that differ from
// the inferred ones (use JSON for those).
#pragma once

#include <string>
#include <string_view>

#include "formats/layout_value.h"

namespace f2lay {

std::string writeMlirAttr(const LayoutValue& layout);
LayoutValue readMlirAttr(std::string_view text);

}  // namespace f2lay
