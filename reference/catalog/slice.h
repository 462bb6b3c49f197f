// Triton's slice layout (SliceEncodingAttr): the layout of a tensor obtained
// by reducing a parent's tensor along one dim (paper §4.2, "Sliced Layouts",
// Proposition 4.8: removing a dimension is a linear map, so the slice of a
// linear layout is linear; the Remark after it: in the matrix, slicing
// removes the rows of that dim).
//
// As in Triton 3.6, the parent is laid out at the slice's shape with a 1
// inserted at `dim` (sliceParentShape); its out dim `dim` is then dropped, the
// other out dims renamed dim0.. in order, and every register basis that has
// become zero removed (such a register would only repeat another one's
// element). Lane, warp and block bases that become zero stay: those resources
// exist whatever the shape, and hold broadcast copies.
#pragma once

#include "reference/catalog/shape_fit.h"

namespace f2lay::ref::catalog {

// `shape` with a 1 inserted before entry `dim` (dim == rank appends). Throws
// f2lay::Error naming "dim" when dim > shape.size().
Shape sliceParentShape(const Shape& shape, unsigned dim);

// The slice of `parent` (in dims register, lane, ...; out dims dim0..dimR)
// along out dim `dim`. `parent` should be the parent family's layout at
// sliceParentShape(sliceShape, dim), as Triton computes it; the projection is
// applied as Triton applies it whatever the size of that dim. Throws
// f2lay::Error when the out dims are not dim0..dimR or dim is not one of them.
LinearLayout slice(const LinearLayout& parent, unsigned dim);

}  // namespace f2lay::ref::catalog
