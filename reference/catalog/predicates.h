// The two families of the paper's §4.2, as properties of a layout's matrix
// (rows = output bits, columns = input bits, linear_layout.h).
#pragma once

#include "reference/linear_layout.h"

namespace f2lay::ref::catalog {

// Def 4.10 (distributed layout): surjective, every column has at most one
// non-zero bit, and no two non-zero columns are equal; "a permutation matrix
// that may have additional zero columns interleaved". The in dims are not
// looked at (Triton's are register, lane, warp and block).
bool isDistributed(const LinearLayout& layout);

// Def 4.14 (memory layout): invertible, and every column has exactly 1 or 2
// non-zero bits. The in dims are not looked at (Triton's are offset, and
// block).
bool isMemory(const LinearLayout& layout);

}  // namespace f2lay::ref::catalog
