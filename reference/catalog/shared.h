// Memory layouts (paper §4.3): maps from a shared-memory offset (and the
// block, for a CGA) to tensor coordinates, as Triton's shared encodings give
// them. Every one is a Def 4.14 memory layout once the tensor is at least its
// tile: invertible, every matrix column with 1 or 2 non-zero bits.
//
//   unswizzledShared   the paper's "Unswizzled Layouts": offsets walk the
//                      tensor along `order` (order[0] the most minor dim).
//   swizzledShared     Def 4.11 "mma swizzling" (Triton's
//                      SwizzledSharedEncodingAttr, Gluon's SwizzledSharedLayout).
//   nvmmaShared        nvmma_shared.h (Hopper/Blackwell TMA and wgmma swizzles).
#pragma once

#include "reference/catalog/shape_fit.h"

namespace f2lay::ref::catalog {

struct SwizzledSharedParams {
  uint64_t vec = 1;
  uint64_t perPhase = 1;
  uint64_t maxPhase = 1;
  std::vector<unsigned> order;
  // The CGA as block -> dims; empty means one CTA.
  std::optional<LinearLayout> cgaLayout;
};

// offset, block -> dim0.. for a tensor of `shape`. Def 4.11 on the two most
// minor dims order[0] (columns j) and order[1] (rows i): offset bit k of j maps
// to column 2^k; the offset bit of row 2^t maps to (row 2^t, column c_t) with
//   c_t = (vec * ((2^t / perPhase) mod maxPhase)) mod numCols,
// the c_i of §4.3, so that the matrix is [I C; 0 I]. Further dims follow
// order[2..] unswizzled. Throws f2lay::Error naming a parameter that is not a
// power of two, or an order that is not a permutation.
LinearLayout swizzledShared(const SwizzledSharedParams& params, const Shape& shape);

// Triton builds the unswizzled layout as the swizzled one with
// vec = perPhase = maxPhase = 1 (every c_i = 0).
LinearLayout unswizzledShared(const std::vector<unsigned>& order, const Shape& shape,
                              const std::optional<LinearLayout>& cgaLayout = std::nullopt);

// What one CTA holds of `shape` under `cgaLayout` (block -> dims): per dim,
// shape / (distinct CTAs along it), at least 1, as combineCtaCgaWithShape and
// Triton's getShapePerCTA compute it.
Shape shapePerCta(const LinearLayout& cgaLayout, const Shape& shape);

// Throws f2lay::Error("<op>: <name> = <value> is not a power of two") unless
// `value` is one (at most 2^62).
void checkPowerOfTwoParam(const std::string& op, const std::string& name, uint64_t value);

}  // namespace f2lay::ref::catalog
