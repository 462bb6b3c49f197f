// CUTLASS's TensorOpMultiplicand address computation (operator() of
// TensorOpMultiplicand in include/cutlass/layout/tensor_op_multiplicand_sm75.h,
// in its steps: kFactor, TileShape, PartitionShape, as cutlass.h's header
// explains them), evaluated on integers step by step and not from the
// constructor (cutlass.h). Shared by cutlass_test.cpp and
// fuzz/catalog_fuzzer.cpp.
#pragma once

#include <algorithm>
#include <cstdint>

#include "reference/catalog/cutlass.h"

namespace f2lay::ref::catalog {

// CUTLASS's offset of the pitch-linear coordinate (c, s) = (contiguous,
// strided). Defined for CUTLASS's parameters: elementBits a power of two up
// to 128, crosswise from kElementsPerAccess to 8 times that.
inline uint64_t cutlassOffset(const TensorOpMultiplicandParams& p, uint64_t c, uint64_t s) {
  uint64_t ldm = p.ldm ? p.ldm : p.contiguous;
  uint64_t perAccess = 128 / p.elementBits;                         // kElementsPerAccess
  uint64_t factor = 8 * perAccess / p.crosswise;                    // kFactor
  uint64_t tileC = 8;                                               // kTileShapeContiguous
  uint64_t tileS = std::max<uint64_t>(tileC / factor, 32 / tileC);  // kTileShapeStride
  uint64_t vecC = c / perAccess, vecS = s / factor;
  uint64_t tileIdx = vecC / (tileC / factor);
  uint64_t residualC = vecC % (tileC / factor) + (s % factor) * (tileC / factor);
  uint64_t residualS = vecS % tileS;
  uint64_t partitionC = residualC / 4, partitionS = residualS / 4;  // PartitionShape<4,4>
  uint64_t withinC = residualC % 4, withinS = residualS % 4;
  uint64_t permutedVec = withinC ^ (withinS % 4);
  uint64_t permutedPartition = partitionC ^ (partitionS % 2);
  uint64_t elementC =
      (tileIdx * tileC + permutedPartition * 4 + permutedVec) * perAccess + c % perAccess;
  return elementC + vecS * ldm * factor;
}

}  // namespace f2lay::ref::catalog
