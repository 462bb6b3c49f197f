// Triton's shape operations (tt.trans, tt.reshape, tt.join, tt.split,
// tt.expand_dims, tt.broadcast) as transfer functions on distributed layouts
// (register, lane, warp, block -> dim0..), paper §4.4 "Propagation Through
// Shape Operations" and Theorem 9.3.
//
// A shape operation moves tensor elements between coordinates. It is a no-op
// on the hardware when every (register, lane, warp, block) slot holds, after
// the op, exactly the element the op moved its value to:
//     out(x) = op(in(x))  for every slot x.
// Forward: from the operand's layout `in`, the result's layout `out` with that
// property. Backward: from the result's layout `out` (one in the image of
// forward), an operand's layout `in` with it. All six ops act linearly on the
// coordinates, so both directions exist for every linear layout in the image,
// and a Def 4.10 layout stays Def 4.10 (Theorem 9.3, first part).
//
// The choices follow Triton's layout inference (lib/Dialect/TritonGPU/IR/
// Dialect.cpp, inferTransOpEncoding, inferReshapeOpEncoding,
// inferDefaultJoinOpEncoding, inferSplitOpEncoding and tryJoinOnAxis;
// LinearEncodingAttr::toLinearLayout for broadcast), on linear layouts:
//   trans(order)      result dim i is operand dim order[i] (tt.trans); each
//                     basis is permuted the same way (transposeLinearLayout).
//   reshape(shape)    Triton numbers elements row-major, the LAST dim the most
//                     minor, while a layout's dim0 is its least significant out
//                     dim: reverse the out dims, reshapeOuts, reverse back
//                     (Triton's reshapeLayout).
//   join              two operands of shape S, result S x 2: the new last dim
//                     is held by a new register bit 0, register r of the
//                     result being register r >> 1 of operand r & 1 (Triton's
//                     tryJoinOnAxis: identity1D(2, register, dimN) * in; the
//                     lowering interleaves the operands' registers).
//   split             one operand S x 2, two results of shape S: the register
//                     basis (0, ..., 0, 1) is removed; register bit p of the
//                     operand picks the result (Triton's SplitOp lowering).
//   expand_dims(axis) a dim of size 1 inserted before `axis`: a 0 coordinate
//                     in every basis. (Triton's inference takes the slice's
//                     parent, which may carry extra all-zero registers; the
//                     exact no-op keeps the registers as they are.)
//   broadcast(axis, size)  dim `axis` grows from 1 to `size`; forward adds
//                     new register bits along it (LinearEncodingAttr's
//                     ensureLayoutNotSmallerThan on the first in dim), so each
//                     thread holds `size` copies; backward zeroes the axis
//                     coordinate of every basis (ensureLayoutNotLargerThan,
//                     broadcast registers kept).
// Backward of trans is trans by the inverse order; reshape is its own
// backward (to the operand's shape); backward of join is forward split and
// the other way round; backward of expand_dims removes the size-1 dim.
//
// Every function needs the out dims dim0, dim1, ... in order (a catalog
// layout) and throws f2lay::Error naming the op, the parameter and the rule
// broken; join, split and forward broadcast need a "register" in dim.
#pragma once

#include "reference/catalog/shape_fit.h"

namespace f2lay::ref::catalog {

enum class Direction { kForward, kBackward };

// Reads "forward" / "backward"; throws f2lay::Error naming `what` otherwise.
Direction parseDirection(const std::string& what, const std::string& text);

// tt.trans: `order` is a permutation of 0..rank-1, as tt.trans takes it
// (result dim i = operand dim order[i]). Backward returns the operand's
// layout from the result's.
LinearLayout trans(const LinearLayout& layout, const std::vector<unsigned>& order,
                   Direction direction);

// tt.reshape: `shape` is the shape of the layout returned, i.e. the result's
// shape (forward) or the operand's (backward); both have the same number of
// elements as `layout`'s tensor.
LinearLayout reshape(const LinearLayout& layout, const Shape& shape, Direction direction);

// tt.join: forward from the (common) layout of the two operands; backward
// from the result's layout, whose last dim has size 2 and is held by one
// register basis (0, ..., 0, 1) and by no other basis.
LinearLayout join(const LinearLayout& layout, Direction direction);

// tt.split: forward from the operand's layout (last dim 2 held as for join's
// backward); backward from the (common) layout of the two results.
LinearLayout split(const LinearLayout& layout, Direction direction);

// tt.expand_dims: forward inserts a size-1 dim at `axis` (at most the
// operand's rank); backward removes dim `axis`, which must have size 1.
LinearLayout expandDims(const LinearLayout& layout, unsigned axis, Direction direction);

// tt.broadcast of one dim: `axis` has size 1 in the operand and `size` (a
// power of two) in the result. Forward needs size 1 at `axis`; backward
// needs `size` at `axis`.
LinearLayout broadcast(const LinearLayout& layout, unsigned axis, uint64_t size,
                       Direction direction);

}  // namespace f2lay::ref::catalog
