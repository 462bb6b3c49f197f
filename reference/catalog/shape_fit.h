// Fitting a layout's tile to a tensor shape, shared by every distributed and
// shared-memory family of the catalog (Triton's LayoutUtils and
// combineCtaCgaWithShape). A tile smaller than the shape is repeated over more
// registers (or offsets); a larger one is cut down, its extra bases becoming
// broadcast zeros (paper §4.2, "Legacy layouts ... are defined by an initial
// tile ... replicated to cover the entire tensor").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "reference/linear_layout.h"

namespace f2lay::ref::catalog {

// A tensor shape, one power-of-two size per dim (dim0 first).
using Shape = std::vector<uint64_t>;

// "[a, b, c]", for messages.
std::string listText(const std::vector<uint64_t>& v);

// "dim0", "dim1", ...: the out dims of every catalog layout.
std::vector<std::string> standardOutDimNames(size_t rank);

// Throws f2lay::Error("<what>: ...") unless every entry is a power of two and
// there are `rank` of them.
void checkPowersOfTwo(const std::string& what, const std::vector<uint64_t>& sizes, size_t rank);
// Throws unless `order` is a permutation of 0..rank-1.
void checkOrder(const std::string& what, const std::vector<unsigned>& order, size_t rank);

// The product of identity1D(sizes[order[i]], inDim, dim<order[i]>) from the
// most minor dim order[0] up: inDim's low bits run along order[0].
LinearLayout identityStandardND(const std::string& inDim, const std::vector<uint64_t>& sizes,
                                const std::vector<unsigned>& order);

// Grows each out dim smaller than `shape` by multiplying with an identity on
// the layout's first in dim (register or offset), in the layout's out-dim
// order: the tile repeats.
LinearLayout ensureLayoutNotSmallerThan(const LinearLayout& layout,
                                        const std::vector<std::pair<std::string, uint64_t>>& shape);

// Shrinks each out dim larger than `shape`: every basis value at or above the
// wanted size becomes 0 (the data is broadcast), and out-dim sizes are then
// inferred from the largest values, as Triton does. With broadcastRegisters
// false (Triton's flag of that name) a register basis with such a value is
// removed instead: the thread holds one copy, not several.
LinearLayout ensureLayoutNotLargerThan(const LinearLayout& layout,
                                       const std::vector<std::pair<std::string, uint64_t>>& shape,
                                       bool broadcastRegisters = true);

// The legacy CTA layout (CTAsPerCGA, CTASplitNum, CTAOrder) as block -> dims:
// per dim, from the most minor, `split` distinct CTAs then ctas/split copies.
LinearLayout makeCgaLayout(const std::vector<uint64_t>& ctasPerCga,
                           const std::vector<uint64_t>& ctaSplitNum,
                           const std::vector<unsigned>& ctaOrder);

// The layout of a CTA tile `ctaLayout` (register/lane/warp or offset -> dims)
// and a CGA layout (block -> dims) for a tensor of `shape`: the CGA layout is
// cut to the shape, the CTA tile fitted to shape / CGA size (registers cut
// off kept as broadcasts or removed, as broadcastRegisters says), and the two
// multiplied, out dims in standard order.
LinearLayout combineCtaCgaWithShape(const LinearLayout& ctaLayout, const LinearLayout& cgaLayout,
                                    const Shape& shape, bool broadcastRegisters = true);

// The CGA layout of a single CTA: block has no bases.
LinearLayout singleCtaLayout(size_t rank);

}  // namespace f2lay::ref::catalog
