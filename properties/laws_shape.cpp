// Theorem 9.3: Def 4.10 is closed under Triton's shape operations, forward
// and backward, and the operation is a no-op on the data: each hardware
// place holds the moved coordinate of what it held.
#include <map>

#include "properties/law_support.h"
#include "properties/laws.h"
#include "reference/catalog/blocked.h"
#include "reference/catalog/predicates.h"
#include "reference/catalog/shape_transfer.h"

namespace f2lay::properties {

using ref::catalog::Direction;
using Layout = ref::LinearLayout;

Layout applyShapeOp(const Layout& l, const Json& op, bool forward) {
  Direction dir = forward ? Direction::kForward : Direction::kBackward;
  std::string name = op.at("op").get<std::string>();
  if (name == "trans")
    return ref::catalog::trans(l, op.at("order").get<std::vector<unsigned>>(), dir);
  if (name == "reshape")
    return ref::catalog::reshape(l, op.at(forward ? "shape" : "from").get<ref::catalog::Shape>(),
                                 dir);
  if (name == "join")
    return forward ? ref::catalog::join(l, dir) : ref::catalog::split(l, Direction::kForward);
  if (name == "split")
    return forward ? ref::catalog::split(l, dir) : ref::catalog::join(l, Direction::kForward);
  if (name == "expand_dims") return ref::catalog::expandDims(l, op.at("axis").get<unsigned>(), dir);
  if (name == "broadcast")
    return ref::catalog::broadcast(l, op.at("axis").get<unsigned>(), op.at("size").get<uint64_t>(),
                                   dir);
  throw Error("unknown shape op '" + name + "'");
}

namespace {

std::vector<uint64_t> sizesOf(const Layout& l) {
  std::vector<uint64_t> s;
  for (const OutDim& d : l.value().out_dims) s.push_back(d.size);
  return s;
}

// The coordinate (one value per out dim) of a flattened output.
std::vector<uint64_t> coordinate(const Layout& l, uint64_t y) {
  std::vector<uint64_t> c;
  for (uint64_t size : sizesOf(l)) {
    c.push_back(y & (size - 1));
    y >>= std::countr_zero(size);
  }
  return c;
}

uint64_t rowMajor(const std::vector<uint64_t>& c, const std::vector<uint64_t>& sizes) {
  uint64_t i = 0;
  for (size_t k = 0; k < c.size(); ++k) i = i * sizes[k] + c[k];
  return i;
}

uint64_t lowBits(uint64_t x, int bits) { return x & ((uint64_t{1} << bits) - 1); }

// The data moves as the op's definition says (shape_transfer.h, after Triton's
// ops and their lowering; §4.4), element by element: for every slot of the
// result, the coordinate it holds is computed from the element the operand
// holds at the slot the definition names, never from the result's bases.
//   trans, reshape, expand_dims: the same slot; its coordinate permuted,
//     renumbered row-major, or given a 0 at the new axis.
//   join: result register r holds operand r & 1's register r >> 1 (both
//     operands share the layout), at coordinate (c, r & 1).
//   split: result k's register r is the operand's register r with bit k
//     inserted at p, the register whose basis is (0, ..., 0, 1); the last
//     coordinate, k, is dropped.
//   broadcast: the result's registers are the operand's, then log2(size)
//     new ones; the slot holds the operand's element with any value along
//     the axis, and the new registers of a slot hold every value once.
std::string movesData(const Layout& in, const Layout& out, const Json& op) {
  std::string name = op["op"].get<std::string>();
  int inRegs = in.getInDimSizeLog2("register"), outRegs = out.getInDimSizeLog2("register");
  int delta = name == "join" ? 1 : name == "split" ? -1 : 0;
  if (name == "broadcast") delta = std::countr_zero(op["size"].get<uint64_t>());
  if (outRegs != inRegs + delta ||
      out.getTotalInDimSizeLog2() - outRegs != in.getTotalInDimSizeLog2() - inRegs)
    return name + " holds the data in " + str(outRegs) + " registers (and " +
           str(out.getTotalInDimSizeLog2() - outRegs) + " other bits), the operand in " +
           str(inRegs) + " (and " + str(in.getTotalInDimSizeLog2() - inRegs) + ")";
  int p = -1;  // split: the operand's register holding the last dim (of size 2)
  for (int j = 0; name == "split" && j < inRegs; ++j)
    if (applyFlat(in, uint64_t{1} << j) == uint64_t{1} << (in.getTotalOutDimSizeLog2() - 1)) p = j;
  std::map<uint64_t, uint64_t> alongAxis;  // broadcast: operand slot -> axis values seen
  for (uint64_t x = 0; x < (uint64_t{1} << out.getTotalInDimSizeLog2()); ++x) {
    uint64_t reg = lowBits(x, outRegs), rest = x >> outRegs;
    auto held = [&](const Layout& l, uint64_t r) {
      return coordinate(l, applyFlat(l, rest << l.getInDimSizeLog2("register") | r));
    };
    std::vector<uint64_t> to = held(out, reg), want;
    if (name == "trans") {
      std::vector<uint64_t> from = held(in, reg);
      for (unsigned k : op["order"].get<std::vector<unsigned>>()) want.push_back(from[k]);
    } else if (name == "reshape") {
      if (rowMajor(held(in, reg), sizesOf(in)) != rowMajor(to, sizesOf(out)))
        return "reshape moved the element of slot " + str(x) + " wrongly";
      continue;
    } else if (name == "expand_dims") {
      want = held(in, reg);
      want.insert(want.begin() + op["axis"].get<long>(), 0);
    } else if (name == "join") {
      want = held(in, reg >> 1);
      want.push_back(reg & 1);
    } else if (name == "split") {
      if (p < 0) return "split of an operand with no register basis (0, ..., 0, 1)";
      for (uint64_t k : {0, 1}) {
        std::vector<uint64_t> from = held(in, lowBits(reg, p) | k << p | (reg >> p) << (p + 1));
        if (from.back() != k)
          return "split: operand register bit " + str(p) + " does not pick the result";
        from.pop_back();
        if (from != to)
          return "split moved the element of result " + str(k) + ", slot " + str(x) + " wrongly";
      }
      continue;
    } else {  // broadcast
      unsigned axis = op["axis"].get<unsigned>();
      want = held(in, lowBits(reg, inRegs));
      alongAxis[rest << inRegs | lowBits(reg, inRegs)] |= uint64_t{1} << to[axis];
      want[axis] = to[axis];
    }
    if (to != want) return name + " moved the element of slot " + str(x) + " wrongly";
  }
  for (const auto& [slot, seen] : alongAxis)
    if (seen != (uint64_t{1} << op["size"].get<uint64_t>()) - 1)
      return "broadcast: the new registers of operand slot " + str(slot) +
             " do not hold every value along the axis once";
  return "";
}

std::string shapeOpsClosedAndNoOp(const Case& c) {
  Layout l(c.layouts[0]);
  for (const Json& op : c.params.at("ops")) {
    Json withFrom = op;
    withFrom["from"] = sizesOf(l);
    Layout out = applyShapeOp(l, op, true);
    std::string what = op.dump();
    if (!ref::catalog::isDistributed(out)) return what + " forward left Def 4.10: " + str(out);
    if (std::string r = movesData(l, out, op); !r.empty()) return r;
    if (op["op"] != "broadcast") {
      // Backward from the result: an operand the op maps to that result.
      // trans, reshape and expand_dims are bijections on layouts, so it is
      // the operand itself; join and split may pick another register bit
      // for the moved dim where the operand has zero registers.
      Layout back = applyShapeOp(out, withFrom, false);
      if (!ref::catalog::isDistributed(back)) return what + " backward left Def 4.10";
      if (!(applyShapeOp(back, op, true) == out))
        return what + " forward from the backward operand is not the result: " + str(back);
      bool bijective = op["op"] != "join" && op["op"] != "split";
      if (bijective && !(back == l))
        return what + " backward from its result is not the operand: " + str(back);
    }
    l = out;
  }
  return "";
}

// Theorem 9.3's minimality, constructively: a Def 4.10 layout L with 32
// lanes and one block is a blocked layout over a 2 x 2 x ... x 2 tensor
// (dim k of size 2 for each non-zero column k of L, else 1: its column
// broadcasts), then a trans, then a reshape to L's shape. Column k of the
// blocked layout is coordinate dim k; the trans sends dim k to the place
// of L's tensor bit in the row-major order; the reshape merges the dims.
std::string def410IsBlockedTransReshape(const Case& c) {
  Layout l(c.layouts[0]);
  if (l.getInDimSizeLog2("lane") != 5 || l.getInDimSizeLog2("block") != 0) return "";
  std::vector<uint64_t> sizes = sizesOf(l);
  std::vector<int> rowMajorBit;  // L's flattened output bit -> its row-major index bit
  for (size_t d = 0; d < sizes.size(); ++d) {
    int below = 0;
    for (size_t e = d + 1; e < sizes.size(); ++e) below += std::countr_zero(sizes[e]);
    for (int i = 0; i < std::countr_zero(sizes[d]); ++i) rowMajorBit.push_back(below + i);
  }
  ref::catalog::BlockedParams p;
  ref::catalog::Shape shape;
  std::vector<int> place;  // column k -> row-major bit, -1 for a zero column
  const char* levels[] = {"register", "lane", "warp"};
  for (const char* level : levels)
    for (int i = 0; i < l.getInDimSizeLog2(level); ++i) {
      uint64_t x = uint64_t{1} << (static_cast<int>(place.size()));
      uint64_t y = applyFlat(l, x);
      place.push_back(y ? rowMajorBit[std::countr_zero(y)] : -1);
      shape.push_back(y ? 2 : 1);
      p.sizePerThread.push_back(level == levels[0] ? 2 : 1);
      p.threadsPerWarp.push_back(level == levels[1] ? 2 : 1);
      p.warpsPerCta.push_back(level == levels[2] ? 2 : 1);
    }
  int t = static_cast<int>(place.size());
  for (int k = 0; k < t; ++k) p.order.push_back(k);
  // A zero register column is a register past a size-1 dim, which Triton
  // 3.6's blocked layouts keep as a broadcast (3.9's remove it).
  p.triton = TritonVersion::k3_6;
  Layout blocked = ref::catalog::blocked(p, shape);
  // The trans puts the size-2 dims in decreasing row-major bit (the last
  // dim is the fastest), the size-1 dims in front.
  std::vector<unsigned> order;
  for (int k = 0; k < t; ++k)
    if (place[k] < 0) order.push_back(k);
  for (int bit = l.getTotalOutDimSizeLog2() - 1; bit >= 0; --bit)
    for (int k = 0; k < t; ++k)
      if (place[k] == bit) order.push_back(k);
  Layout built = ref::catalog::reshape(ref::catalog::trans(blocked, order, Direction::kForward),
                                       sizes, Direction::kForward);
  return unless(built == l, "blocked, trans and reshape build " + str(built));
}

}  // namespace

void addShapeLaws(std::map<std::string, Law>& laws) {
  laws["shape_ops_closed_and_no_op"] = shapeOpsClosedAndNoOp;
  laws["def_4_10_is_blocked_trans_reshape"] = def410IsBlockedTransReshape;
}

}  // namespace f2lay::properties
