// The register layouts of tcgen05.ld / tcgen05.st (Gluon's
// get_reg_layout / compute_tmem_reg_layout, Triton's
// getDistributedLayoutForTmemLdSt): the distributed layout a tensor has in
// registers when the warps of a CTA move it to or from tensor memory with one
// of the PTX data-movement shapes.
//
// Each shape (PTX ISA, "tcgen05 Matrix fragments", data movement shapes) says
// which TMEM lane (row) and 32-bit column one register of one thread holds,
// warp w % 4 of a warpgroup reaching TMEM lanes 32 (w % 4) .. + 31:
//   32x32b   thread l: TMEM lane l; register r of .xN: column r.
//   16x64b   thread l: lane (l / 4) + 8 (l % 2), column (l / 2) % 2.
//   16x128b  thread l, register r: lane (l / 4) + 8 r, column l % 4.
//   16x256b  thread l, register r: lane (l / 4) + 8 (r / 2), column
//            2 (l % 4) + r % 2.
//   16x32bx2 threads 0-15 lanes 0-15, threads 16-31 the same lanes at a
//            second column (an immediate offset): Triton picks it itself when a
//            32x32b load's upper 16 lanes would read copies.
// The distributed layout is that tile composed with the tensor memory layout,
// extended as Triton does: more columns go to registers (.xN), rows 16-31 of
// a 16-lane shape to a register (4 warps) or to warp bit 2 (more warps), and
// the warps past the first 4 split the columns (or hold copies once every
// column has one). Elements narrower than 32 bits are first packed into
// 32-bit cells (contiguous columns), unpacked (16-bit, col_stride 2) or
// padded (one element per cell).
#pragma once

#include <string>

#include "reference/catalog/tensor_memory.h"

namespace f2lay::ref::catalog {

struct TmemRegParams {
  uint64_t elementBitwidth = 32;  // 8, 16 or 32
  Shape shape;                    // the tensor (rank 2)
  Shape allocShape;               // the allocation (rank >= 2), at least shape
  TensorMemoryParams layout;
  uint64_t numWarps = 4;  // a power of two, at least 4
  // "32x32b", "16x64b", "16x128b", "16x256b" or "32x32b_splitn" (32x32b with
  // the column half N/2 on the last register, so that tl.split can take the
  // two halves); "16x32bx2" is Triton's own choice, never asked for.
  std::string instrVariant = "32x32b";
};

// register, lane, warp, block -> dim0, dim1. Throws f2lay::Error naming the
// key and the rule, and, where Gluon 3.9.0 answers None (its "TMEM layout
// ... unsupported"), saying why: fewer TMEM columns than the shape reads,
// a tile that would read a cell twice, a result that is not a permutation of
// the tensor.
LinearLayout tmemRegLayout(const TmemRegParams& params);

}  // namespace f2lay::ref::catalog
