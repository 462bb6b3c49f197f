#include "reference/catalog/shape_transfer.h"

#include <algorithm>

#include "formats/dim_names.h"

namespace f2lay::ref::catalog {

namespace {

// The rank of a catalog layout: its out dims must be dim0, dim1, ... in order.
size_t checkedRank(const std::string& op, const LinearLayout& layout) {
  std::vector<std::string> names = layout.getOutDimNames();
  if (names != standardOutDimNames(names.size()))
    throw Error(op +
                ": the layout's out dims must be dim0, dim1, ... in order (a catalog "
                "layout), not " +
                joinNames(names));
  return names.size();
}

void requireRegister(const std::string& op, const LinearLayout& layout) {
  if (!layout.hasInDim("register"))
    throw Error(op + ": the layout needs a \"register\" in dim (a distributed layout)");
}

std::string dimName(size_t i) { return "dim" + std::to_string(i); }

// Out dims dim0.. of the given sizes.
std::vector<OutDim> standardOutDims(const std::vector<uint64_t>& sizes) {
  std::vector<OutDim> dims;
  for (size_t i = 0; i < sizes.size(); ++i) dims.push_back({dimName(i), sizes[i]});
  return dims;
}

std::vector<uint64_t> outSizes(const LinearLayout& layout) {
  std::vector<uint64_t> sizes;
  for (const OutDim& d : layout.value().out_dims) sizes.push_back(d.size);
  return sizes;
}

// Result dim i is operand dim order[i]: the coordinates of every basis, and
// the out-dim sizes, are permuted alike (Triton's transposeLinearLayout).
LinearLayout permuteDims(const LinearLayout& layout, const std::vector<unsigned>& order) {
  std::vector<uint64_t> sizes = outSizes(layout), permuted;
  for (unsigned from : order) permuted.push_back(sizes[from]);
  LayoutValue v{{}, standardOutDims(permuted)};
  for (const InDim& d : layout.value().in_dims) {
    InDim moved{d.name, {}};
    for (const Basis& b : d.bases) {
      Basis p;
      for (unsigned from : order) p.push_back(b[from]);
      moved.bases.push_back(std::move(p));
    }
    v.in_dims.push_back(std::move(moved));
  }
  return LinearLayout(std::move(v));
}

std::vector<unsigned> inverse(const std::vector<unsigned>& order) {
  std::vector<unsigned> inv(order.size());
  for (unsigned i = 0; i < order.size(); ++i) inv[order[i]] = i;
  return inv;
}

// tt.reshape keeps the row-major index of every element: the last dim is the
// most minor. A layout flattens with dim0 the least significant, so the out
// dims are reversed around reshapeOuts (Triton's reshapeLayout).
LinearLayout reshapeRowMajor(const LinearLayout& layout, const Shape& shape) {
  std::vector<std::string> reversed = layout.getOutDimNames();
  std::reverse(reversed.begin(), reversed.end());
  DimSizes newDims;
  for (size_t i = shape.size(); i-- > 0;) newDims.push_back({dimName(i), shape[i]});
  return layout.transposeOuts(reversed).reshapeOuts(newDims).transposeOuts(
      standardOutDimNames(shape.size()));
}

// A 0 coordinate inserted at `axis` in every basis: a new dim of size 1.
LinearLayout insertUnitDim(const LinearLayout& layout, unsigned axis) {
  std::vector<uint64_t> sizes = outSizes(layout);
  sizes.insert(sizes.begin() + axis, 1);
  LayoutValue v{layout.value().in_dims, standardOutDims(sizes)};
  for (InDim& d : v.in_dims)
    for (Basis& b : d.bases) b.insert(b.begin() + axis, 0);
  return LinearLayout(std::move(v));
}

// The coordinate `axis` dropped from every basis, the dims after it renamed.
// Callers make sure that coordinate holds nothing they need.
LinearLayout dropDim(const LinearLayout& layout, unsigned axis) {
  std::vector<uint64_t> sizes = outSizes(layout);
  sizes.erase(sizes.begin() + axis);
  LayoutValue v{layout.value().in_dims, standardOutDims(sizes)};
  for (InDim& d : v.in_dims)
    for (Basis& b : d.bases) b.erase(b.begin() + axis);
  return LinearLayout(std::move(v));
}

// Join forward (= split backward): the new last dim of size 2 on a new
// register bit 0, the operand's registers moving up one bit (Triton's
// tryJoinOnAxis with fwdInference: identity1D(2, register, dimN) * layout).
LinearLayout appendRegisterDim(const std::string& op, const LinearLayout& layout) {
  size_t rank = checkedRank(op, layout);
  requireRegister(op, layout);
  auto axis = static_cast<unsigned>(rank);
  LinearLayout joined =
      LinearLayout::identity1D(2, "register", dimName(axis)) * insertUnitDim(layout, axis);
  return joined.transposeOuts(standardOutDimNames(rank + 1));
}

// Split forward (= join backward): the register basis (0, ..., 0, 1) picks
// which half an element belongs to; removing it leaves each half's layout.
// Triton's tryJoinOnAxis (fwdInference false) drops every register basis whose
// last coordinate is 1 and halves the last coordinate of the rest; that is a
// no-op only when no other basis touches the last dim, which is required here
// (it always holds for Def 4.10 layouts, whose non-zero columns differ).
LinearLayout removeRegisterDim(const std::string& op, const LinearLayout& layout) {
  size_t rank = checkedRank(op, layout);
  requireRegister(op, layout);
  if (rank == 0 || layout.value().out_dims.back().size != 2)
    throw Error(op + ": the last dim must have size 2 (the two halves), it has " +
                (rank == 0 ? std::string("no dims")
                           : "size " + std::to_string(layout.value().out_dims.back().size)));
  size_t last = rank - 1;
  Basis unit(rank, 0);
  unit[last] = 1;
  LayoutValue v = layout.value();
  int holders = 0;
  bool inRegister = false;
  for (InDim& d : v.in_dims) {
    std::vector<Basis> kept;
    for (Basis& b : d.bases) {
      if (b[last] == 0) {
        kept.push_back(b);
        continue;
      }
      ++holders;
      if (d.name == "register" && b == unit) inRegister = true;
    }
    d.bases = std::move(kept);
  }
  if (holders != 1 || !inRegister)
    throw Error(op + ": the last dim must be held by exactly one basis, a register basis " +
                "(0, ..., 0, 1) (Triton: \"SplitOp requires at least 2 elements per thread "
                "in the last dimension\"); " +
                std::to_string(holders) + " bases have a non-zero last coordinate" +
                (holders == 1 ? ", and it is not that register basis" : ""));
  v.out_dims.back().size = 1;
  return dropDim(LinearLayout(std::move(v)), static_cast<unsigned>(last));
}

void checkAxis(const std::string& op, unsigned axis, size_t limit, const std::string& rule) {
  if (axis > limit)
    throw Error(op + ": axis = " + std::to_string(axis) + " must be " + rule + " (" +
                std::to_string(limit) + ")");
}

}  // namespace

Direction parseDirection(const std::string& what, const std::string& text) {
  if (text == "forward") return Direction::kForward;
  if (text == "backward") return Direction::kBackward;
  throw Error(what + ": \"" + text + "\" must be \"forward\" or \"backward\"");
}

LinearLayout trans(const LinearLayout& layout, const std::vector<unsigned>& order,
                   Direction direction) {
  size_t rank = checkedRank("trans", layout);
  if (rank == 0) throw Error("trans: the layout has no out dims to permute");
  checkOrder("trans: order", order, rank);
  return permuteDims(layout, direction == Direction::kForward ? order : inverse(order));
}

LinearLayout reshape(const LinearLayout& layout, const Shape& shape, Direction /*direction*/) {
  checkedRank("reshape", layout);
  if (shape.empty()) throw Error("reshape: shape must have at least one dim");
  checkPowersOfTwo("reshape: shape", shape, shape.size());
  int bits = 0;
  for (uint64_t s : shape) bits += log2Exact(s);
  if (bits != layout.getTotalOutDimSizeLog2())
    throw Error("reshape: shape has 2^" + std::to_string(bits) +
                " elements but the layout's tensor has 2^" +
                std::to_string(layout.getTotalOutDimSizeLog2()));
  // The row-major index is kept both ways: backward is reshape to the
  // operand's shape.
  return reshapeRowMajor(layout, shape);
}

LinearLayout join(const LinearLayout& layout, Direction direction) {
  return direction == Direction::kForward ? appendRegisterDim("join", layout)
                                          : removeRegisterDim("join (backward)", layout);
}

LinearLayout split(const LinearLayout& layout, Direction direction) {
  return direction == Direction::kForward ? removeRegisterDim("split", layout)
                                          : appendRegisterDim("split (backward)", layout);
}

LinearLayout expandDims(const LinearLayout& layout, unsigned axis, Direction direction) {
  size_t rank = checkedRank("expand_dims", layout);
  if (direction == Direction::kForward) {
    checkAxis("expand_dims", axis, rank, "at most the operand's rank");
    return insertUnitDim(layout, axis);
  }
  if (rank == 0) throw Error("expand_dims (backward): the result has no dims");
  checkAxis("expand_dims (backward)", axis, rank - 1, "below the result's rank");
  if (layout.value().out_dims[axis].size != 1)
    throw Error("expand_dims (backward): dim " + std::to_string(axis) +
                " of the result must have size 1 (the inserted dim), it has size " +
                std::to_string(layout.value().out_dims[axis].size));
  return dropDim(layout, axis);
}

LinearLayout broadcast(const LinearLayout& layout, unsigned axis, uint64_t size,
                       Direction direction) {
  std::string op = direction == Direction::kForward ? "broadcast" : "broadcast (backward)";
  size_t rank = checkedRank(op, layout);
  if (rank == 0) throw Error(op + ": the layout has no dims");
  checkAxis(op, axis, rank - 1, "below the rank");
  checkPowersOfTwo(op + ": size", {size}, 1);
  uint64_t have = layout.value().out_dims[axis].size;
  if (direction == Direction::kForward) {
    if (have != 1)
      throw Error(op + ": dim " + std::to_string(axis) +
                  " of the operand must have size 1 to be broadcast, it has size " +
                  std::to_string(have));
    requireRegister(op, layout);
    // LinearEncodingAttr::toLinearLayout at the larger shape: the tile grows
    // along `axis` by new register bits (ensureLayoutNotSmallerThan), every
    // thread holding `size` copies of its element.
    return (layout * LinearLayout::identity1D(size, "register", dimName(axis)))
        .transposeOuts(standardOutDimNames(rank));
  }
  if (have != size)
    throw Error(op + ": dim " + std::to_string(axis) + " of the result has size " +
                std::to_string(have) + ", not size = " + std::to_string(size));
  // The operand holds coordinate 0 along `axis`: that coordinate of every
  // basis becomes 0 (zero columns, the broadcast), registers kept.
  LayoutValue v = layout.value();
  for (InDim& d : v.in_dims)
    for (Basis& b : d.bases) b[axis] = 0;
  v.out_dims[axis].size = 1;
  return LinearLayout(std::move(v));
}

}  // namespace f2lay::ref::catalog
