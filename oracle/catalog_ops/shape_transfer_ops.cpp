// Oracle ops for Triton's shape operations as layout transfer functions
// (paper §4.4, Theorem 9.3; reference/catalog/shape_transfer.h): trans, reshape,
// join, split, expand_dims, broadcast. Each takes the layout on one side of
// the op and a "direction": "forward" gives the result's layout from the
// operand's, "backward" an operand's layout from the result's, so that the op
// moves no data.
#include "oracle/op_table.h"
#include "reference/catalog/shape_transfer.h"

namespace f2lay::oracle {

namespace {

using ref::catalog::Direction;

const OpArg kLayout{"layout",
                    "the layout on the known side: register, lane, warp, block -> dim0, dim1, "
                    "..."};
const OpArg kDirection{"direction",
                       "\"forward\": `layout` is the operand's, the result's is returned; "
                       "\"backward\": `layout` is the result's, the operand's is returned"};

Direction direction(const std::string& op, const Args& a) {
  return ref::catalog::parseDirection(op + ": direction", a.name("direction"));
}

// An axis read as a number; values beyond any rank are refused before they
// could wrap around as unsigned (the exact bound is the op's own check).
unsigned axisArg(const std::string& op, const Args& a) {
  uint64_t axis = a.number("axis");
  if (axis > 64) throw Error(op + ": axis = " + std::to_string(axis) + " is larger than any rank");
  return static_cast<unsigned>(axis);
}

std::vector<unsigned> orderArg(const Args& a) {
  std::vector<unsigned> order;
  for (uint64_t v : a.numbers("order")) {
    if (v > 64)
      throw Error("trans: order has " + std::to_string(v) +
                  ", which is not a dim; it must be a permutation of 0..rank-1");
    order.push_back(static_cast<unsigned>(v));
  }
  return order;
}

}  // namespace

std::vector<Op> shapeTransferOps() {
  return {
      {{"trans",
        {kLayout,
         {"order",
          "tt.trans's order: result dim i is operand dim order[i] (a permutation of "
          "0..rank-1)"},
         kDirection},
        "layout",
        "tt.trans as a no-op: every basis permuted by order (backward: by its inverse)"},
       [](const Args& a) {
         return layoutJson(
             ref::catalog::trans(a.layout("layout"), orderArg(a), direction("trans", a)));
       }},
      {{"reshape",
        {kLayout,
         {"shape",
          "the shape of the layout returned: the result's (forward) or the "
          "operand's (backward); same number of elements"},
         kDirection},
        "layout",
        "tt.reshape as a no-op: every element keeps its row-major index (last dim most "
        "minor), Triton's reshapeLayout"},
       [](const Args& a) {
         return layoutJson(ref::catalog::reshape(a.layout("layout"), a.numbers("shape"),
                                                 direction("reshape", a)));
       }},
      {{"join",
        {kLayout, kDirection},
        "layout",
        "tt.join as a no-op: forward adds a last dim of size 2 on a new register bit 0 "
        "(register r holds operand r & 1's register r >> 1); backward removes the register "
        "basis (0, ..., 0, 1)"},
       [](const Args& a) {
         return layoutJson(ref::catalog::join(a.layout("layout"), direction("join", a)));
       }},
      {{"split",
        {kLayout, kDirection},
        "layout",
        "tt.split as a no-op: forward removes the register basis (0, ..., 0, 1) of the size-2 "
        "last dim, which must be its only basis; backward is join forward"},
       [](const Args& a) {
         return layoutJson(ref::catalog::split(a.layout("layout"), direction("split", a)));
       }},
      {{"expand_dims",
        {kLayout,
         {"axis",
          "where the size-1 dim is inserted (forward: at most the operand's rank) or "
          "removed (backward)"},
         kDirection},
        "layout",
        "tt.expand_dims as a no-op: a 0 coordinate inserted at axis (backward: removed)"},
       [](const Args& a) {
         return layoutJson(ref::catalog::expandDims(a.layout("layout"), axisArg("expand_dims", a),
                                                    direction("expand_dims", a)));
       }},
      {{"broadcast",
        {kLayout,
         {"axis", "the broadcast dim: size 1 in the operand"},
         {"size", "its size in the result (a power of two)"},
         kDirection},
        "layout",
        "tt.broadcast of one dim: forward adds register bits along axis (each thread holds "
        "size copies, Triton's ensureLayoutNotSmallerThan); backward zeroes the axis "
        "coordinate of every basis"},
       [](const Args& a) {
         return layoutJson(ref::catalog::broadcast(a.layout("layout"), axisArg("broadcast", a),
                                                   a.number("size"), direction("broadcast", a)));
       }},
  };
}

}  // namespace f2lay::oracle
