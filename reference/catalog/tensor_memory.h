// Blackwell tensor memory (TMEM) layouts: Gluon's TensorMemoryLayout and
// TensorMemoryScalesLayout (Triton's TensorMemoryEncodingAttr and
// TensorMemoryScalesEncodingAttr), as Triton's tensorMemoryToLinearLayout and
// tensorMemoryScalesToLinearLayout give them.
//
// TMEM is 128 lanes ("rows") of 32-bit cells ("columns") per CTA (PTX ISA,
// "Tensor Memory"): in dims row (7 bits: TMEM lane 0..127), col (one bit per
// 32-bit column step) and block (the CTA of a cluster) map to the tensor's
// dim0, dim1. Warp w of a warpgroup may only touch TMEM lanes 32(w%4)..+31,
// so row bits 5 and 6 are the warp's; a zero there is a copy, a zero on any
// other row or col bit an unused cell (Triton's "[Zeros in TMEM
// LinearLayouts]").
#pragma once

#include <array>
#include <optional>

#include "reference/catalog/shape_fit.h"

namespace f2lay::ref::catalog {

struct TensorMemoryParams {
  // [blockM, blockN]: rows (64 or 128) and columns of one MMA tile.
  std::array<uint64_t, 2> block = {128, 128};
  // 32-bit columns between logically adjacent columns: 1 packed, 32 / bitwidth
  // unpacked (a power of two).
  uint64_t colStride = 1;
  // The CGA as block -> dim0, dim1; empty means one CTA.
  std::optional<LinearLayout> cgaLayout;
  // Two-CTA MMA (tcgen05 cta_group::2): the CGA's first basis is [1, 0].
  bool twoCtas = false;
  // MMAv5's padded fp4 operand A: one byte of TMEM per fp4 element, so every
  // logical column takes two (col_stride must be 1).
  bool fp4Padded = false;
};

// row, col, block -> dim0, dim1 for a tensor of `shape` (rank 2):
//   rows: blockM = 128 (or two_ctas): row 2^i -> dim0 2^i; blockM = 64: TMEM
//   lanes 0-15 of each warp's 32 hold rows 0-15, row bit 4 holds the next
//   64-row block, or else the next blockN columns, or else nothing, and row
//   bits 5, 6 hold dim0 16, 32 (a 64-row tile uses half of every warp's
//   lanes); with two_ctas and blockM = 64 the last column bit moves to row
//   bit 6 instead.
//   cols: col_stride (x2 when fp4_padded) unused low cells per column, then
//   min(blockN, shape per CTA) columns, then the tile repeats along dim0, then
//   dim1; the CGA's bases come last (scaled by the shape per CTA).
// Throws f2lay::Error naming the key and the rule: blockM other than 64, 128,
// sizes not powers of two, a shape per CTA with fewer rows than the tile,
// fp4_padded with col_stride > 1, two_ctas without a CGA basis [1, 0] first.
LinearLayout tensorMemory(const TensorMemoryParams& params, const Shape& shape);

// row, col, block -> dim0, dim1 of MMA scale factors (PTX ISA "tcgen05 Matrix
// fragments", scale factor A layout): rows 0-31 of dim0 on TMEM lanes 0-31,
// the same in all 4 warps (row bits 5, 6 copies); col bits 0, 1 -> dim1 1, 2
// and col bit 2 -> dim0 32 (a 64 x 4 tile), then repeats along dim0 by 64 and
// dim1 by 4; bases past a smaller shape become zeros (unused cells).
LinearLayout tensorMemoryScales(const std::optional<LinearLayout>& cgaLayout, const Shape& shape);

}  // namespace f2lay::ref::catalog
