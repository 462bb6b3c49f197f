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
//
// A parent with a CGA layout splits the tensor among CTAs by its block bases.
// An operand's CTAs split only its non-K dims the same way: the CTAs that
// split the accumulator along N (for A) or M (for B) need the same rows of A
// (columns of B), so the K part of every block basis is 0 (Gluon 3.9's
// DotOperandLayout.cga_layout; Triton 3.9's getCGALayout of a dot operand).
#pragma once

#include "reference/catalog/nvidia_mma.h"

namespace f2lay::ref::catalog {

struct DotOperandParams {
  // 0: A (M x K), 1: B (K x N).
  uint64_t operandIndex = 0;
  // The accumulator layout; its CGA, if any, is the operand's with K zeroed.
  NvidiaMmaParams parent;
  // Consecutive K elements per thread: a power of two.
  uint64_t kWidth = 2;
};

// register, lane, warp, block -> dim0.. for a tensor of `shape`. Throws
// f2lay::Error naming the parameter that breaks a rule.
LinearLayout dotOperand(const DotOperandParams& params, const Shape& shape);

// The operand's CGA layout from its parent's (block -> dims, nullopt for one
// CTA): every block basis with its `kDim` entry 0, out-dim sizes re-inferred.
// Shared by every family of parents.
LinearLayout dotOperandCga(const std::optional<LinearLayout>& parentCga, size_t kDim, size_t rank);

// The K dim of operand `operandIndex` (0: A, K last; 1: B, K the one before)
// at `rank`, after checking that the index is 0 or 1.
size_t operandKDim(uint64_t operandIndex, size_t rank);

// Triton's getOrderForDotOperand(opIdx, rank, kContig = true): the K dim, the
// other matrix dim, then the batch dim. Operand tiles repeat in this order.
std::vector<unsigned> dotOperandOrder(unsigned kDim, size_t rank);

}  // namespace f2lay::ref::catalog
