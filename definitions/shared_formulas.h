// The offsets of Triton's shared-memory layouts, written from their
// definitions and not from the constructors (shared.h, nvmma_shared.h): the
// offset of each tensor element. shared_test.cpp and fuzz/catalog_fuzzer.cpp
// check that each constructor's layout is the inverse of these maps
// (elementwise_compare.h's memoryMismatch).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "reference/catalog/nvmma_shared.h"
#include "reference/catalog/shared.h"

namespace f2lay::ref::catalog::shared_formulas {

using Coords = std::vector<uint64_t>;

inline uint64_t product(const Shape& s) {
  uint64_t p = 1;
  for (uint64_t x : s) p *= x;
  return p;
}

// Def 4.11: the element (i, j) (row i along order[1], column j along
// order[0]) lives at column ((i/perPhase mod maxPhase) xor j/vec) * vec xor
// (j mod vec) of row i. Taken mod numCols: Triton keeps a phase wider than
// the row inside it. Further dims stack whole (i, j) planes along order[2..].
inline uint64_t def411Offset(const SwizzledSharedParams& p, const Shape& shape, const Coords& x) {
  if (shape.size() == 1) return x[0];
  uint64_t numCols = shape[p.order[0]], numRows = shape[p.order[1]];
  uint64_t i = x[p.order[1]], j = x[p.order[0]];
  uint64_t phase = (i / p.perPhase) % p.maxPhase;
  uint64_t col = (((phase ^ (j / p.vec)) * p.vec) ^ (j % p.vec)) % numCols;
  uint64_t outer = 0, stride = 1;
  for (size_t k = 2; k < shape.size(); ++k) {
    outer += x[p.order[k]] * stride;
    stride *= shape[p.order[k]];
  }
  return (outer * numRows + i) * numCols + col;
}

// The TMA engine's swizzle on byte addresses within a box whose rows are
// `width` bytes: bits [4, 4 + log2(width/16)) (the 16-byte chunk) are XORed
// with the same number of bits from bit 7 up (the row's phase):
// 128 B: chunk ^= row mod 8; 64 B: chunk ^= (row / 2) mod 4; 32 B: chunk ^=
// (row / 4) mod 2 (CUDA's CU_TENSOR_MAP_SWIZZLE_*).
inline uint64_t tmaSwizzle(uint64_t byteAddr, uint64_t width) {
  uint64_t mask = width / 16 - 1;
  return byteAddr ^ (((byteAddr >> 7) & mask) << 4);
}

// NVMMA shared, rank 2 (either orientation) or rank >= 2 not transposed.
// Boxes hold at most 256 elements per dim, the contiguous dim exactly one
// swizzle row; in a box, rows (the other dims, row-major) follow each other,
// `width` bytes apart, swizzled. Boxes are stored one after another, dim0's
// box index fastest. Without swizzle a box is plain row-major and boxes go
// last dim fastest.
inline uint64_t nvmmaOffset(const NvmmaSharedParams& p, const Shape& shape, const Coords& x) {
  size_t rank = shape.size();
  size_t contig = p.transposed ? 0 : rank - 1;
  Shape box(rank);
  for (size_t d = 0; d < rank; ++d) box[d] = std::min<uint64_t>(shape[d], 256);
  uint64_t boxElems = 0, inBox = 0, boxIndex = 0;
  if (p.swizzleByteWidth == 0) {
    // Row-major, the last dim fastest; in a box Triton 3.9 reads transposed
    // (rank 2) as the reverse, dim0 fastest.
    std::vector<size_t> slowFirst;
    for (size_t d = 0; d < rank; ++d) slowFirst.push_back(d);
    for (size_t d : slowFirst) boxIndex = boxIndex * (shape[d] / box[d]) + x[d] / box[d];
    if (p.transposed && p.triton == TritonVersion::k3_9)
      std::reverse(slowFirst.begin(), slowFirst.end());
    for (size_t d : slowFirst) inBox = inBox * box[d] + x[d] % box[d];
    return boxIndex * product(box) + inBox;
  }
  box[contig] = 8 * p.swizzleByteWidth / p.elementBitwidth;
  boxElems = product(box);
  uint64_t row = 0;
  for (size_t d = 0; d < rank; ++d)
    if (d != contig) row = row * box[d] + x[d] % box[d];
  uint64_t byteAddr = row * p.swizzleByteWidth + (x[contig] % box[contig]) * p.elementBitwidth / 8;
  inBox = tmaSwizzle(byteAddr, p.swizzleByteWidth) * 8 / p.elementBitwidth;
  for (size_t d = rank; d-- > 0;) boxIndex = boxIndex * (shape[d] / box[d]) + x[d] / box[d];
  return boxIndex * boxElems + inBox;
}

}  // namespace f2lay::ref::catalog::shared_formulas
