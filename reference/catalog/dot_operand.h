// The register operands of NVIDIA tensor-core instructions: Triton's
// DotOperandEncodingAttr, Gluon's DotOperandLayout, with an nvidia_mma parent.
//
// Operand A (index 0) of a warp is a 16 x 8*kWidth tile, K along dim1; operand
// B (index 1) an 8*kWidth x 8 tile, K along dim0. Each thread holds kWidth
// consecutive K elements per register group (PTX ISA "Matrix Fragments for
// mma.m16n8k8 / k16 / k32": kWidth 1, 2, 4 are the tf32, 16-bit and 8-bit
// fragments a_i, b_i exactly; Triton's kWidth 8 packs two 16-bit k16 steps into
// one thread's consecutive K values). Warps follow the parent's warps_per_cta
// but are broadcast along K: every warp along K holds the same data (paper
// §4.2, broadcasting is a zero basis). The tile repeats along K first, then
// the other dim (Triton's repOrder for operands), then is fitted to the shape.
// wgmma takes only A from registers, so a version 3 parent allows index 0 only.
#pragma once

#include "reference/catalog/nvidia_mma.h"

namespace f2lay::ref::catalog {

struct DotOperandParams {
  // 0: A (M x K), 1: B (K x N).
  uint64_t operandIndex = 0;
  // The accumulator layout; its CGA must be empty (one CTA).
  NvidiaMmaParams parent;
  // Consecutive K elements per thread: a power of two.
  uint64_t kWidth = 2;
};

// register, lane, warp, block -> dim0.. for a tensor of `shape`. Throws
// f2lay::Error naming the parameter that breaks a rule.
LinearLayout dotOperand(const DotOperandParams& params, const Shape& shape);

}  // namespace f2lay::ref::catalog
