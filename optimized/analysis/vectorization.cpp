#include "optimized/analysis/vectorization.h"

#include <algorithm>

#include "formats/error.h"

namespace f2lay::opt::analysis {

namespace {

int registerBits(const LinearLayout& l) {
  int d = l.inDims().find(intern("register"));
  return d < 0 ? 0 : l.inDims().bits[d];
}

// Each register bit's column, in bit order.
const uint64_t* registerColumns(const LinearLayout& l) {
  int d = l.inDims().find(intern("register"));
  return l.columns() + (d < 0 ? 0 : l.inDims().offset(d));
}

// The offset register bit `bit` lands on, or -1 (as ~0) when it also moves
// another out dim: the offset dim's bits are the only ones it may set.
uint64_t registerOffset(const LinearLayout& offsets, int bit) {
  int o = offsets.outDims().find(intern("offset"));
  uint64_t column = registerColumns(offsets)[bit];
  uint64_t mask =
      o < 0 ? 0 : core::lowMask(offsets.outDims().bits[o]) << offsets.outDims().offset(o);
  if (column & ~mask) return ~uint64_t{0};
  return o < 0 ? 0 : column >> offsets.outDims().offset(o);
}

}  // namespace

LinearLayout offsetsOf(const LinearLayout& dist, const LinearLayout& shared) {
  if (!(dist.outDims().count == shared.outDims().count &&
        std::equal(dist.outDims().id, dist.outDims().id + dist.outDims().count,
                   shared.outDims().id)))
    throw Error("offsets: the distributed and the memory layout map to different out dims");
  for (int k = 0; k < dist.outDims().count; ++k)
    if (dist.outDims().bits[k] != shared.outDims().bits[k])
      throw Error("offsets: out dim " + nameOf(dist.outDims().id[k]) + " has size " +
                  std::to_string(uint64_t{1} << dist.outDims().bits[k]) +
                  " in the distributed layout but " +
                  std::to_string(uint64_t{1} << shared.outDims().bits[k]) +
                  " in the memory layout");
  if (shared.inDims().find(intern("offset")) < 0)
    throw Error("offsets: the memory layout has no in dim 'offset'");
  if (!shared.isInvertible())
    throw Error("offsets: the memory layout is not invertible (Def 4.14)");
  return dist.invertAndCompose(shared);
}

int contiguousRegisterBits(const LinearLayout& offsets) {
  int bits = registerBits(offsets), k = 0;
  while (k < bits && registerOffset(offsets, k) == uint64_t{1} << k) ++k;
  return k;
}

std::vector<int> vectorRegisterBits(const LinearLayout& offsets) {
  // The register bit landing on offset 2^k, for k = 0, 1, ...: the lowest
  // such bit each time, as long as one exists.
  std::vector<int> order;
  int bits = registerBits(offsets);
  for (bool found = true; found && order.size() < 64;) {
    found = false;
    for (int i = 0; i < bits && !found; ++i)
      if (registerOffset(offsets, i) == uint64_t{1} << order.size()) {
        order.push_back(i);
        found = true;
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
  int tileRegisters = registerBits(tile);
  std::vector<int> vector = vectorRegisterBits(offsets);
  if (static_cast<int>(vector.size()) < tileRegisters) return std::nullopt;
  std::vector<int> order(vector.begin(), vector.begin() + tileRegisters);
  int bits = registerBits(offsets);
  for (int i = 0; i < bits; ++i)
    if (std::find(order.begin(), order.end(), i) == order.end()) order.push_back(i);
  // The registers renumbered: new bit i is old bit order[i].
  LayoutValue v = offsets.value();
  for (InDim& d : v.in_dims)
    if (d.name == "register") {
      std::vector<Basis> bases;
      for (int i : order) bases.push_back(d.bases[i]);
      d.bases = bases;
    }
  LinearLayout permuted(v);
  std::optional<LinearLayout> quotient = divideLeft(permuted, tile);
  if (!quotient) return std::nullopt;
  return TileDivision{order, permuted, *quotient};
}

Duplication duplication(const LinearLayout& dist) {
  Duplication out;
  const DimList& ins = dist.inDims();
  for (int d = 0; d < ins.count; ++d) {
    uint64_t mask = 0;
    for (int i = 0; i < ins.bits[d]; ++i)
      if (dist.columns()[ins.offset(d) + i] == 0) mask |= uint64_t{1} << i;
    out.zeroBits.emplace_back(nameOf(ins.id[d]), mask);
  }
  int inBits = dist.getTotalInDimSizeLog2();
  if (inBits >= 64) throw Error("duplication: 64 input bits do not fit a count");
  out.heldElements = uint64_t{1} << inBits;
  out.distinctElements = uint64_t{1} << dist.rank();
  return out;
}

ReductionStores reductionStores(const LinearLayout& dist, const std::string& axis) {
  int a = dist.outDims().find(intern(axis));
  if (a < 0) throw Error("reduction: the layout has no out dim '" + axis + "'");
  // A partial result is its output element and, for warps and CTAs only, the
  // part of the axis they reduced: registers and lanes lose the axis bits.
  uint64_t axisMask = core::lowMask(dist.outDims().bits[a]) << dist.outDims().offset(a);
  const DimList& ins = dist.inDims();
  NameId warp = intern("warp"), block = intern("block"), reg = intern("register");
  uint64_t partial[kMaxInBits];
  int keptRegisterBits = 0, n = 0, threadBits = 0;
  for (int d = 0; d < ins.count; ++d)
    for (int i = 0; i < ins.bits[d]; ++i) {
      uint64_t column = dist.columns()[ins.offset(d) + i];
      bool keepsAxis = ins.id[d] == warp || ins.id[d] == block;
      partial[n++] = keepsAxis ? column : column & ~axisMask;
      if (ins.id[d] == reg && (column & axisMask) == 0) ++keptRegisterBits;
    }
  for (const char* dim : {"lane", "warp"}) {
    int d = ins.find(intern(dim));
    if (d >= 0) threadBits += ins.bits[d];
  }
  return {uint64_t{1} << core::rank(partial, n), uint64_t{1} << (keptRegisterBits + threadBits)};
}

}  // namespace f2lay::opt::analysis
