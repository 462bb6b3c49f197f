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

}  // namespace f2lay::ref::catalog
