// The constructions of vectorization.h, for the layout type L and its F2
// space backend (space.h). Included only where an implementation
// instantiates them (F2LAY_INSTANTIATE_VECTORIZATION).
#pragma once

#include <algorithm>

#include "analysis/vectorization.h"
#include "formats/error.h"
#include "formats/layout_value.h"

namespace f2lay::analysis {

namespace vectorization_detail {

// The offset that register bit `bit` of `offsets` lands on, or nullopt when it
// also moves another out dim (a block).
template <class L>
[[nodiscard]] std::optional<uint64_t> registerOffset(const L& offsets, int bit) {
  Field offset = outField(offsets, "offset");
  Vec x = Space<L>::flatBases(offsets, "register")[bit];
  if (x != offset.at(offset.of(x))) return std::nullopt;
  return offset.of(x);
}

}  // namespace vectorization_detail

template <LayoutApi L>
L offsetsOf(const L& dist, const L& shared) {
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

template <LayoutApi L>
int contiguousRegisterBits(const L& offsets) {
  int bits = inBits(offsets, "register"), k = 0;
  while (k < bits && vectorization_detail::registerOffset(offsets, k) == uint64_t{1} << k) ++k;
  return k;
}

template <LayoutApi L>
std::vector<int> vectorRegisterBits(const L& offsets) {
  // The register bit landing on offset 2^k, for k = 0, 1, ...: the lowest
  // such bit each time, as long as one exists.
  int bits = inBits(offsets, "register");
  std::vector<int> order;
  for (bool found = true; found;) {
    found = false;
    for (int i = 0; i < bits && !found; ++i)
      if (vectorization_detail::registerOffset(offsets, i) == uint64_t{1} << order.size()) {
        order.push_back(i);
        found = true;
      }
  }
  return order;
}

template <LayoutApi L>
L vectorTile(uint64_t elements) {
  return L::identity1D(elements, "register", "offset");
}

template <LayoutApi L>
L matrixTile(uint64_t elementBytes) {
  if (elementBytes == 0 || elementBytes > 4 || !isPowerOfTwo(elementBytes))
    throw Error("matrix tile: element_bytes must be 1, 2 or 4 (got " +
                std::to_string(elementBytes) + ")");
  return L::identity1D(4 / elementBytes, "register", "offset") * L::identity1D(4, "lane", "offset");
}

template <LayoutApi L>
std::optional<TileDivision<L>> divideByTile(const L& offsets, const L& tile) {
  int tileRegisters = inBits(tile, "register");
  std::vector<int> vector = vectorRegisterBits(offsets);
  if (static_cast<int>(vector.size()) < tileRegisters) return std::nullopt;
  std::vector<int> order(vector.begin(), vector.begin() + tileRegisters);
  for (int i = 0; i < inBits(offsets, "register"); ++i)
    if (std::find(order.begin(), order.end(), i) == order.end()) order.push_back(i);

  LayoutValue permuted = offsets.value();
  for (InDim& d : permuted.in_dims) {
    if (d.name != "register") continue;
    std::vector<Basis> bases;
    for (int i : order) bases.push_back(d.bases[i]);
    d.bases = bases;
  }
  L permutedLayout(permuted);
  std::optional<L> quotient = divideLeft(permutedLayout, tile);
  if (!quotient) return std::nullopt;
  return TileDivision<L>{order, permutedLayout, *quotient};
}

template <LayoutApi L>
Duplication duplication(const L& dist) {
  Duplication out;
  for (const std::string& dim : dist.getInDimNames()) {
    Vecs bases = Space<L>::flatBases(dist, dim);
    uint64_t mask = 0;
    for (size_t i = 0; i < bases.size(); ++i)
      if (bases[i] == 0) mask |= uint64_t{1} << i;
    out.zeroBits.emplace_back(dim, mask);
  }
  int inBits = dist.getTotalInDimSizeLog2();
  if (inBits >= 64) throw Error("duplication: 64 input bits do not fit a count");
  out.heldElements = uint64_t{1} << inBits;
  out.distinctElements = uint64_t{1} << dist.rank();
  return out;
}

template <LayoutApi L>
ReductionStores reductionStores(const L& dist, const std::string& axis) {
  if (!dist.hasOutDim(axis)) throw Error("reduction: the layout has no out dim '" + axis + "'");
  // What a partial result is: its output element (the other dims) and, for
  // warps (and CTAs) only, which part of the axis they reduced (§5.1). So
  // registers and lanes lose their axis bits.
  Vec axisMask = outField(dist, axis).mask();
  Vecs partial;
  int keptRegisterBits = 0;
  for (const std::string& dim : dist.getInDimNames())
    for (Vec x : Space<L>::flatBases(dist, dim)) {
      bool keepsAxis = dim == "warp" || dim == "block";
      partial.push_back(keepsAxis ? x : x & ~axisMask);
      if (dim == "register" && (x & axisMask) == 0) ++keptRegisterBits;
    }
  int threadBits = inBits(dist, "lane") + inBits(dist, "warp");
  return {uint64_t{1} << Space<L>::rankOf(partial), uint64_t{1} << (keptRegisterBits + threadBits)};
}

}  // namespace f2lay::analysis

// The constructions of vectorization.h for layout type L.
#define F2LAY_INSTANTIATE_VECTORIZATION(L)                                     \
  template L offsetsOf<L>(const L&, const L&);                                 \
  template int contiguousRegisterBits<L>(const L&);                            \
  template std::vector<int> vectorRegisterBits<L>(const L&);                   \
  template L vectorTile<L>(uint64_t);                                          \
  template L matrixTile<L>(uint64_t);                                          \
  template std::optional<TileDivision<L>> divideByTile<L>(const L&, const L&); \
  template Duplication duplication<L>(const L&);                               \
  template ReductionStores reductionStores<L>(const L&, const std::string&);
