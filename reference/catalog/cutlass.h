// CUTLASS's TensorOpMultiplicand shared-memory layouts (crosswise), as
// linear layouts: include/cutlass/layout/tensor_op_multiplicand_sm75.h, the
// layout behind TensorOpMultiplicandCrosswise and its RowMajor/ColumnMajor
// views. The tables CUTLASS's example 03_visualize_layout prints for it are
// this file's golden tests (tests/cutlass_test.cpp).
//
// CUTLASS's parameters: ElementSize (element bits) and Crosswise (elements);
// every access moves 128 bits, kElementsPerAccess E = 128 / ElementSize; a
// 128-byte cache line holds 8 accesses and kFactor F = 8E / Crosswise groups
// of Crosswise elements; kTileShapeStride T = max(8 / F, 4). A coordinate is
// pitch-linear (c, s) = (contiguous, strided); CUTLASS's operator() gives
//   offset = ((tile * 8 + (t xor (vs mod T))) * E + c mod E) + vs * ldm * F
// where vs = s / F, t = (c / E) mod (8 / F) + (s mod F) * (8 / F) (the 3-bit
// access slot in the cache line), tile = (c / E) / (8 / F), and the XOR is
// CUTLASS's two steps (vector within a partition of 4, partition within the
// tile). With powers of two every term is a bit field:
//   c bits below log2 E           -> the same offset bits (within an access),
//   c bits of (c / E) mod (8 / F) -> t's low bits,
//   c bits of tile                -> offset bits from log2(8E) up,
//   s bits of s mod F             -> t's high bits,
//   s bits of vs                  -> offset bits from log2(ldm * F) up, the
//                                    low log2 T of them also flipping t's.
// So the layout is linear exactly when those fields do not overlap: ldm a
// power of two, at least the contiguous extent and Crosswise.
#pragma once

#include "reference/catalog/shape_fit.h"

namespace f2lay::ref::catalog {

struct TensorOpMultiplicandParams {
  uint64_t elementBits = 16;  // ElementSize: 1, 2, 4, ..., 128
  uint64_t crosswise = 32;    // Crosswise, elements: E to 8E
  uint64_t contiguous = 0;    // extent of the contiguous dim
  uint64_t strided = 0;       // extent of the strided dim
  uint64_t ldm = 0;           // the stride; 0: packed (= contiguous), as packed(extent)
  // RowMajorTensorOpMultiplicandCrosswise: dim0 = row = strided, dim1 =
  // column = contiguous. Otherwise pitch-linear (dim0 = contiguous, dim1 =
  // strided), which is also the ColumnMajor view (row = contiguous).
  bool rowMajor = false;
};

// dim0, dim1 -> offset (CUTLASS's direction), the out dim the smallest power
// of two above every offset. Throws f2lay::Error naming the parameter and
// the rule it breaks.
LinearLayout tensorOpMultiplicandToOffset(const TensorOpMultiplicandParams& params);

// offset -> dim0, dim1 (Triton's direction, what visualize_layout prints).
// Throws unless every offset below extent[0] * extent[1] holds one element
// (so when ldm = extent[0] >= crosswise and extent[1] >= kFactor, and in a
// few smaller cases whose unused offset bits are all at the top).
LinearLayout tensorOpMultiplicand(const TensorOpMultiplicandParams& params);

}  // namespace f2lay::ref::catalog
