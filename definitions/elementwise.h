// Element-wise definitions of catalog layouts, written from the families'
// descriptions and not from their basis constructions (every constructor
// has a second, independent definition). Each gives the tensor
// coordinate held by one (register, lane, warp, block) with plain index
// arithmetic; the tests compare it with the constructor's apply at every input.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace f2lay::ref::catalog::elementwise {

using Coord = std::vector<uint64_t>;
using Sizes = std::vector<uint64_t>;
using Order = std::vector<unsigned>;

// Splits `index` into one digit per dim, order[0] the fastest-varying dim:
// index = d[order[0]] + sizes[order[0]] * (d[order[1]] + ...).
inline Coord digits(uint64_t index, const Sizes& sizes, const Order& order) {
  Coord d(sizes.size(), 0);
  for (unsigned dim : order) {
    d[dim] = index % sizes[dim];
    index /= sizes[dim];
  }
  return d;
}

inline uint64_t product(const Sizes& s) {
  uint64_t p = 1;
  for (uint64_t x : s) p *= x;
  return p;
}

// Triton's blocked layout with the legacy CTA parameters (paper §4.1 Figure 1
// layout A; Triton's BlockedEncodingAttr documentation). A CTA's tile is
// sizePerThread x threadsPerWarp x warpsPerCTA elements per dim: a thread's
// registers are consecutive elements, its lane and warp pick the tile's
// sub-block, all numbered along `order`. Where a CTA's part of the tensor is
// larger than the tile, the tile repeats; the repetitions are further
// registers (after a thread's own sizePerThread ones), numbered along
// `order`. Where it is smaller, coordinates wrap around (the same element is
// held again: broadcast), except that Triton 3.9 drops a thread's own
// registers past its CTA's part of the tensor (3.6 kept them). CTAs: along dim d, block digit b_d
// (over CTAsPerCGA, numbered along CTAOrder) holds part b_d mod CTASplitNum[d] of the tensor, and
// at most shape[d] parts exist (again wrapping).
struct Blocked {
  Sizes sizePerThread, threadsPerWarp, warpsPerCta;
  Order order;
  Sizes ctasPerCga, ctaSplitNum;
  Order ctaOrder;
  Sizes shape;
  bool keepsCutRegisters = false;  // Triton 3.6's rule

  size_t rank() const { return shape.size(); }
  uint64_t parts(size_t d) const { return std::min(ctaSplitNum[d], shape[d]); }
  uint64_t ctaShape(size_t d) const { return shape[d] / parts(d); }
  // A thread's own registers along d.
  uint64_t own(size_t d) const {
    return keepsCutRegisters ? sizePerThread[d] : std::min(sizePerThread[d], ctaShape(d));
  }
  Sizes ownSizes() const {
    Sizes o;
    for (size_t d = 0; d < rank(); ++d) o.push_back(own(d));
    return o;
  }
  uint64_t tile(size_t d) const { return sizePerThread[d] * threadsPerWarp[d] * warpsPerCta[d]; }
  uint64_t repeats(size_t d) const { return std::max<uint64_t>(1, ctaShape(d) / tile(d)); }
  Sizes repeatSizes() const {
    Sizes r;
    for (size_t d = 0; d < rank(); ++d) r.push_back(repeats(d));
    return r;
  }

  uint64_t registers() const { return product(ownSizes()) * product(repeatSizes()); }
  uint64_t lanes() const { return product(threadsPerWarp); }
  uint64_t warps() const { return product(warpsPerCta); }
  uint64_t blocks() const { return product(ctasPerCga); }

  // Every register's coordinate, for one thread.
  std::vector<Coord> thread(uint64_t lane, uint64_t warp, uint64_t block) const {
    std::vector<Coord> held;
    for (uint64_t r = 0; r < registers(); ++r) held.push_back(at(r, lane, warp, block));
    return held;
  }

  Coord at(uint64_t reg, uint64_t lane, uint64_t warp, uint64_t block) const {
    uint64_t owned = product(ownSizes());
    Coord r = digits(reg % owned, ownSizes(), order);
    Coord rep = digits(reg / owned, repeatSizes(), order);
    Coord l = digits(lane, threadsPerWarp, order);
    Coord w = digits(warp, warpsPerCta, order);
    Coord b = digits(block, ctasPerCga, ctaOrder);
    Coord c(rank());
    for (size_t d = 0; d < rank(); ++d) {
      uint64_t inCta = rep[d] * tile(d) + w[d] * sizePerThread[d] * threadsPerWarp[d] +
                       l[d] * sizePerThread[d] + r[d];
      uint64_t part = (b[d] % ctaSplitNum[d]) % parts(d);
      c[d] = part * ctaShape(d) + inCta % ctaShape(d);
    }
    return c;
  }
};

// A slice (Triton's SliceEncodingAttr) of a parent given element-wise at the
// parent shape (the slice's shape with a 1 at `dim`): a thread's element is
// its parent element with coordinate `dim` dropped. A thread's registers that
// would repeat an element it already holds are not kept: register r of the
// slice is the r-th distinct element among the parent's registers 0, 1, ...
// of the same lane, warp and block.
template <typename Parent>
struct Slice {
  Parent parent;
  unsigned dim;

  Coord drop(Coord c) const {
    c.erase(c.begin() + dim);
    return c;
  }
  std::vector<Coord> thread(uint64_t lane, uint64_t warp, uint64_t block) const {
    std::vector<Coord> seen;
    for (uint64_t r = 0; r < parent.registers(); ++r) {
      Coord c = drop(parent.at(r, lane, warp, block));
      if (std::find(seen.begin(), seen.end(), c) == seen.end()) seen.push_back(c);
    }
    return seen;
  }
  uint64_t registers() const { return thread(0, 0, 0).size(); }
  uint64_t lanes() const { return parent.lanes(); }
  uint64_t warps() const { return parent.warps(); }
  uint64_t blocks() const { return parent.blocks(); }
};

}  // namespace f2lay::ref::catalog::elementwise
