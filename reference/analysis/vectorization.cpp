#include "reference/analysis/vectorization.h"

#include <algorithm>
#include <bit>

#include "formats/error.h"

namespace f2lay::ref::analysis {

namespace {

// The offset (out dim "offset") that register bit i of `offsets` lands on, or
// nullopt when it also moves another out dim (a block).
std::optional<uint64_t> registerOffset(const LinearLayout& offsets, int bit) {
  const LayoutValue& v = offsets.value();
  for (const InDim& d : v.in_dims) {
    if (d.name != "register") continue;
    uint64_t offset = 0;
    for (size_t k = 0; k < v.out_dims.size(); ++k) {
      if (v.out_dims[k].name == "offset")
        offset = d.bases[bit][k];
      else if (d.bases[bit][k] != 0)
        return std::nullopt;
    }
    return offset;
  }
  return std::nullopt;
}

}  // namespace

LinearLayout offsetsOf(const LinearLayout& dist, const LinearLayout& shared) {
  if (dist.getOutDimNames() != shared.getOutDimNames())
    throw Error("offsets: the distributed and the memory layout map to different out dims");
  for (const std::string& d : dist.getOutDimNames())
    if (dist.getOutDimSize(d) != shared.getOutDimSize(d))
      throw Error("offsets: out dim " + d + " has size " + std::to_string(dist.getOutDimSize(d)) +
                  " in the distributed layout but " + std::to_string(shared.getOutDimSize(d)) +
                  " in the memory layout");
  if (!shared.hasInDim("offset")) throw Error("offsets: the memory layout has no in dim 'offset'");
  if (!shared.isInvertible())
    throw Error("offsets: the memory layout is not invertible (Def 4.14)");
  return dist.invertAndCompose(shared);
}

int contiguousRegisterBits(const LinearLayout& offsets) {
  int bits = offsets.hasInDim("register") ? offsets.getInDimSizeLog2("register") : 0;
  int k = 0;
  while (k < bits && registerOffset(offsets, k) == uint64_t{1} << k) ++k;
  return k;
}

std::vector<int> vectorRegisterBits(const LinearLayout& offsets) {
  int bits = offsets.hasInDim("register") ? offsets.getInDimSizeLog2("register") : 0;
  std::vector<int> order;
  for (bool found = true; found;) {
    found = false;
    for (int i = 0; i < bits && !found; ++i) {
      if (registerOffset(offsets, i) == uint64_t{1} << order.size()) {
        order.push_back(i);
        found = true;
      }
    }
  }
  return order;
}

LinearLayout vectorTile(uint64_t elements) {
  return LinearLayout::identity1D(elements, "register", "offset");
}

LinearLayout matrixTile(uint64_t elementBytes) {
  if (elementBytes == 0 || elementBytes > 4 || !isPowerOfTwo(elementBytes))
    throw Error("matrix tile: element_bytes must be 1, 2 or 4 (got " +
                std::to_string(elementBytes) + ")");
  return LinearLayout::identity1D(4 / elementBytes, "register", "offset") *
         LinearLayout::identity1D(4, "lane", "offset");
}

std::optional<TileDivision> divideByTile(const LinearLayout& offsets, const LinearLayout& tile) {
  int tileRegisters = tile.hasInDim("register") ? tile.getInDimSizeLog2("register") : 0;
  std::vector<int> vector = vectorRegisterBits(offsets);
  if (static_cast<int>(vector.size()) < tileRegisters) return std::nullopt;
  std::vector<int> order(vector.begin(), vector.begin() + tileRegisters);
  int bits = offsets.hasInDim("register") ? offsets.getInDimSizeLog2("register") : 0;
  for (int i = 0; i < bits; ++i)
    if (std::find(order.begin(), order.end(), i) == order.end()) order.push_back(i);

  LayoutValue permuted = offsets.value();
  for (InDim& d : permuted.in_dims) {
    if (d.name != "register") continue;
    std::vector<Basis> bases;
    for (int i : order) bases.push_back(d.bases[i]);
    d.bases = bases;
  }
  LinearLayout permutedLayout(permuted);
  std::optional<LinearLayout> quotient = divideLeft(permutedLayout, tile);
  if (!quotient) return std::nullopt;
  return TileDivision{order, permutedLayout, *quotient};
}

Duplication duplication(const LinearLayout& dist) {
  Duplication out;
  for (const InDim& d : dist.value().in_dims) {
    uint64_t mask = 0;
    for (size_t i = 0; i < d.bases.size(); ++i) {
      bool zero = true;
      for (uint64_t x : d.bases[i]) zero = zero && x == 0;
      if (zero) mask |= uint64_t{1} << i;
    }
    out.zeroBits.emplace_back(d.name, mask);
  }
  int inBits = dist.getTotalInDimSizeLog2();
  if (inBits >= 64) throw Error("duplication: 64 input bits do not fit a count");
  out.heldElements = uint64_t{1} << inBits;
  out.distinctElements = uint64_t{1} << dist.rank();
  return out;
}

ReductionStores reductionStores(const LinearLayout& dist, const std::string& axis) {
  if (!dist.hasOutDim(axis)) throw Error("reduction: the layout has no out dim '" + axis + "'");
  const LayoutValue& v = dist.value();
  size_t axisIndex = 0;
  while (v.out_dims[axisIndex].name != axis) ++axisIndex;

  // What a partial result is: its output element (the other dims) and, for
  // warps (and CTAs) only, which part of the axis they reduced (§5.1).
  LayoutValue partial;
  for (const OutDim& o : v.out_dims)
    partial.out_dims.push_back(o.name == axis ? OutDim{"warp_part", o.size} : o);
  int keptRegisterBits = 0;
  for (const InDim& d : v.in_dims) {
    InDim p{d.name, {}};
    for (const Basis& b : d.bases) {
      Basis q = b;
      if (d.name != "warp" && d.name != "block") q[axisIndex] = 0;
      if (d.name == "register" && b[axisIndex] == 0) ++keptRegisterBits;
      p.bases.push_back(q);
    }
    partial.in_dims.push_back(p);
  }
  ReductionStores out;
  out.distinctPartials = uint64_t{1} << LinearLayout(partial).rank();
  int threadBits = (dist.hasInDim("lane") ? dist.getInDimSizeLog2("lane") : 0) +
                   (dist.hasInDim("warp") ? dist.getInDimSizeLog2("warp") : 0);
  out.naiveStores = uint64_t{1} << (keptRegisterBits + threadBits);
  return out;
}

}  // namespace f2lay::ref::analysis
