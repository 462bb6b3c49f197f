// NVMMA shared layouts (Triton's NVMMASharedEncodingAttr, Gluon's
// NVMMASharedLayout): the 32/64/128-byte swizzles of the TMA engine and of
// wgmma/tcgen05 operands, memory layouts of the paper's §4.3 (Def 4.14).
//
// Within a TMA box the contiguous dim holds swizzle_byte_width bytes per row
// and the swizzle XORs the 16-byte chunk index with the row's phase: rows
// 0..7 of a 128-byte swizzle use phases 0..7, a 64-byte swizzle changes phase
// every 2 rows (4 phases), a 32-byte one every 4 rows (2 phases). This is
// Def 4.11's mma swizzling with vec = 16 bytes, perPhase = 128 / width and
// maxPhase = width / 16 on an 8-row core matrix. Boxes are at most 256
// elements in every dim; a larger tensor repeats the box, dim0 first.
#pragma once

#include "formats/triton_version.h"
#include "reference/catalog/shared.h"

namespace f2lay::ref::catalog {

struct NvmmaSharedParams {
  uint64_t swizzleByteWidth = 0;  // 0, 32, 64 or 128
  uint64_t elementBitwidth = 16;  // 8, 16, 32 or 64
  // The contiguous dim is dim0 instead of the last dim.
  bool transposed = false;
  // fp4 data padded to one byte per element pair (Blackwell mma with
  // mixed fp4): each 16-byte group holds 8 real and 8 padding offsets.
  bool fp4Padded = false;
  // The CGA as block -> dims; empty means one CTA.
  std::optional<LinearLayout> cgaLayout;
  // Whose rules: Triton 3.6 ignored `transposed` when swizzle_byte_width is
  // 0; Triton 3.9 makes dim0 the fastest there (rank 2; see nvmmaShared).
  TritonVersion triton = kCurrentTriton;
};

// offset, block -> dim0.. for a tensor of `shape`, Triton's
// nvmmaSharedToLinearLayout. Throws f2lay::Error naming the parameter and the
// rule: a width or bitwidth outside the lists above, a swizzle wider than the
// tensor's contiguous dim, fewer than 8 rows for the swizzle pattern, fp4
// padding of elements other than bytes. Refuses swizzle_byte_width 0 with
// `transposed` above rank 2 under Triton 3.9: Gluon 3.9.0 answers layouts
// there that hold elements at several offsets (4 offsets for shape [2, 1, 1])
// or start along another dim than dim0, which f2lay takes for a Triton bug
// and does not reproduce.
LinearLayout nvmmaShared(const NvmmaSharedParams& params, const Shape& shape);

}  // namespace f2lay::ref::catalog
