// Padded shared memory: Gluon 3.9's PaddedSharedLayout (Triton's
// PaddedSharedEncodingAttr), and AMD's choice of one for a CDNA4 dot operand.
//
// How f2lay models it (the contract, reference/linear_layout.h "Padded memory
// layouts"): a padded layout is two things,
//   linear   the layout (offset, block) -> dim0.., exactly Triton's linear
//            component: Gluon's offset_bases as given, times its cga_layout
//            (block bases in units of the CTA tile, as every Gluon
//            cga_layout), which is what Gluon's builder makes of them
//            (get_padded_shared_layout: LinearLayout(offset) *
//            LinearLayout(block), out dims dim0..). Element x sits at linear
//            offset linear^-1(x) of CTA block(x).
//   padding  the (interval, padding) pairs, as given: the element at linear
//            offset o is stored at padded address P(o) (analysis/padding.h,
//            Triton's emitPadding), in elements, in its CTA's shared memory.
// The oracle answers padded_shared with the linear layout's JSON plus a
// "padding" key ([[interval, padding], ...]); bank_conflicts takes that
// answer as its memory layout, and every op that needs a linear offset map
// refuses it, saying why.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/padding.h"
#include "reference/catalog/shape_fit.h"

namespace f2lay::ref::catalog {

struct PaddedSharedParams {
  analysis::Padding intervalPaddingPairs;
  std::vector<Basis> offsetBases;  // one value per dim each
  std::vector<Basis> cgaBases;     // block bases in CTA tiles; empty: one CTA
  Shape shape;
};

struct PaddedShared {
  LinearLayout linear;  // offset, block -> dim0..
  analysis::Padding padding;
};

// Validates as Gluon 3.9 and Triton's verifier do, and throws f2lay::Error
// naming the key and the rule: the pairs (analysis::checkPadding); every
// offset basis moves in exactly one dim by a power of two (Triton: "at most
// one dimension", "0 or a power of two", no broadcasting in the offset dim);
// every cga_layout basis is zero or moves in one dim by a power of two; per
// dim, the offset bases (and, apart, the nonzero block bases) are the powers
// 1, 2, 4, ... up to some size, each once (Triton's LinearLayout of the
// bases must be surjective onto the sizes they imply, and the block part
// must factor into a CGA layout); and `shape` is the size the bases span
// (Gluon takes the size from the bases and only the rank from `shape`, so a
// different shape would describe another tensor than the memory descriptor).
PaddedShared paddedShared(const PaddedSharedParams& params);

// Gluon's PaddedSharedLayout.with_identity_for(pairs, shape, order,
// cga_layout): offset bases walking the per-CTA shape along `order`
// (order[0] fastest), as Triton's identityStandardND.
PaddedSharedParams paddedSharedIdentityFor(const analysis::Padding& pairs, const Shape& shape,
                                           const std::vector<unsigned>& order,
                                           const std::vector<Basis>& cgaBases);

// AMD's choice of a padded layout for a CDNA4 (MFMA v4) dot operand that is
// copied to LDS asynchronously: Gluon 3.9's
// ttgl.amd.cdna4.compute_efficient_padded_shared_layout(dot_operand_layout,
// shape, dtype, is_k_contig), which calls Triton's
// composePaddedLayoutForAsyncCopyCDNA4 (third_party/amd/lib/.../Utility.cpp).
// It reads of the dot operand only its operand index, k_width and the
// parent's instruction size along the operand's non-K dim (instr_shape[0]
// for A, [1] for B), so those are its parameters here (f2lay's dot_operand
// does not build AMD operands yet).
struct AmdPaddedParams {
  uint64_t operandIndex = 0;  // 0: A ([M, K]), 1: B ([K, N])
  uint64_t kWidth = 8;
  uint64_t mfmaNonKDim = 16;  // the parent's instr_shape[operandIndex]
  Shape shape;                // [BM, BK] for A, [BK, BN] for B
  uint64_t dtypeBitwidth = 16;
  bool kContig = true;
  uint64_t warpSize = 64;  // CDNA wavefronts
};

// The layout, or nullopt where Triton returns none (Gluon: None): element
// bytes (bitwidth / 8, at least 1) not 1 or 2, a non-K instruction size not
// 16 or 32, k_width not 4, 8 or 16, padding wider than a row, or more bank
// conflicts than Triton tolerates. The rule, in element units: ds_read_b128
// (K contiguous, k_width * bytes = 16) or ds_read_b64_tr (K not contiguous,
// k_width * bytes >= 8) see 64 banks, else 32; padding = 2 k_width or k_width
// (b128, non-K 16 or 32), 16 or 32 (b64_tr), else 8 bytes; one pair
// (warpSize * 16 bytes, padding); offsets run along the contiguous dim, then
// the rows staggered `wrap` apart (16 where the tile has rows enough), then
// the rows within a wrap, then the rest; and Triton's two fix-ups (rows of
// 8 and 16 bytes exchanged for ds_read_b64_tr of 16 bytes on non-K 16; the
// 16th row exchanged with offset 256 or 128 for ds_read_b128 on non-K 32).
// Throws f2lay::Error naming the key for parameters Gluon rejects (rank,
// powers of two, operand_index) and where Triton would build offsets past
// the shape (it aborts there).
std::optional<PaddedShared> amdEfficientPaddedShared(const AmdPaddedParams& params);

}  // namespace f2lay::ref::catalog
