// Which thread holds which element after ldmatrix (before stmatrix) of b16
// m8n8 matrices, .x1 / .x2 / .x4, with and without .trans (PTX ISA "Warp-level
// matrix load instruction: ldmatrix", as stated in
// device_tests/HARDWARE.md#matrix-ownership: .x4 measured on an H100, .x1,
// .x2 and .trans not; stmatrix has the same ownership, in reverse).
//
// In dims: register, whose bit 0 is the 16-bit half of a 32-bit register
// (h) and whose higher bits are the register index i (= the matrix index), and
// lane (t, 32 lanes). Out dims, in this order: row (8), col (8), matrix
// (count): the element (row, col) of matrix i, in the matrix as the row
// addresses give it (thread 8i + r gives the address of row r of matrix i).
//   not transposed: (t / 4, 2 (t % 4) + h, i)
//     register: h -> col 1, i bits -> matrix; lane bits 0,1 -> col 2, 4,
//     lane bits 2,3,4 -> row 1, 2, 4.
//   .trans:         (2 (t % 4) + h, t / 4, i): row and col swapped.
// Both are invertible: every element of the count matrices is held once.
#pragma once

#include "reference/linear_layout.h"

namespace f2lay::ref::catalog {

struct LdmatrixParams {
  // Matrices per instruction: 1, 2 or 4 (.x1, .x2, .x4).
  uint64_t count = 4;
  bool trans = false;
};

// register, lane -> row, col, matrix. Throws f2lay::Error when count is not
// 1, 2 or 4.
LinearLayout ldmatrix(const LdmatrixParams& params);

}  // namespace f2lay::ref::catalog
