// The warp-shuffle gather of gather.h (paper §5.5), for the layout type L and
// its F2 space backend (space.h). Included only where an implementation
// instantiates the constructions (F2LAY_INSTANTIATE_GATHER).
#pragma once

#include "analysis/gather.h"
#include "formats/error.h"

namespace f2lay::analysis {

namespace gather_detail {

constexpr int kMaxTableBits = 20;

// The out-dim values of a flattened vector, as "[a, b]".
template <class L>
[[nodiscard]] std::string basisText(const L& l, Vec x) {
  std::string s;
  for (const std::string& d : l.getOutDimNames())
    s += (s.empty() ? "" : ", ") + std::to_string(outField(l, d).of(x));
  return "[" + s + "]";
}

template <class L>
void checkLayout(const L& l, size_t axis) {
  for (const std::string& dim : l.getInDimNames())
    if (dim != "register" && dim != "lane" && dim != "warp" && dim != "block")
      throw Error("gather: the layout has in dim '" + dim +
                  "'; a distributed layout maps register, lane, warp and block only");
  if (axis >= l.getOutDimNames().size())
    throw Error("gather: axis " + std::to_string(axis) + " is not an out dim of the layout (" +
                std::to_string(l.getOutDimNames().size()) + " out dims)");
  if (!l.isSurjective())
    throw Error("gather: the layout is not surjective: it does not hold every element");
}

// The flattened unit vectors of the axis' bits.
[[nodiscard]] inline Vecs axisUnits(const Field& axis) {
  Vecs units;
  for (int i = 0; i < axis.bits; ++i) units.push_back(axis.at(uint64_t{1} << i));
  return units;
}

template <class L>
[[nodiscard]] int basesAlongAxis(const L& l, const std::string& dim, const Field& axis) {
  int n = 0;
  for (Vec x : Space<L>::flatBases(l, dim)) n += axis.of(x) != 0;
  return n;
}

}  // namespace gather_detail

template <LayoutApi L>
GatherLocality gatherLocality(const L& l, size_t axis) {
  using namespace gather_detail;
  checkLayout(l, axis);
  const std::string axisName = l.getOutDimNames()[axis];
  Field along = outField(l, axisName);
  for (const std::string& dim : l.getInDimNames()) {
    if (dim != "warp" && dim != "block") continue;
    Vecs bases = Space<L>::flatBases(l, dim);
    for (size_t i = 0; i < bases.size(); ++i)
      if (along.of(bases[i]) != 0)
        return {false, dim + " bit " + std::to_string(i) + " maps to " + basisText(l, bases[i]) +
                           ", which moves along " + axisName +
                           ": the elements of a column lie in several " + dim + "s"};
  }
  Vecs local = concat({Space<L>::flatBases(l, "register"), Space<L>::flatBases(l, "lane")});
  Vecs units = axisUnits(along);
  for (size_t j = 0; j < units.size(); ++j)
    if (!Space<L>::inSpan(local, units[j]))
      return {false, "bit " + std::to_string(j) + " of " + axisName +
                         " is reached only with warp or block bits: moving along the axis "
                         "crosses warps"};
  return {true, ""};
}

template <LayoutApi L>
GatherPlan gatherPlan(const L& l, size_t axis) {
  using namespace gather_detail;
  using S = Space<L>;
  GatherLocality where = gatherLocality(l, axis);
  if (!where.warpLocal) throw Error("gather plan: not warp-local: " + where.reason);
  Field along = outField(l, l.getOutDimNames()[axis]);
  GatherPlan plan;
  plan.laneBitsAlongAxis = basesAlongAxis(l, "lane", along);
  plan.registerBitsAlongAxis = basesAlongAxis(l, "register", along);
  plan.paperRounds = uint64_t{1} << plan.laneBitsAlongAxis;

  // Independent register and lane bases, remembered as (is lane, bit).
  Vecs basis;
  std::vector<std::pair<bool, int>> origin;
  for (bool isLane : {false, true}) {
    Vecs bases = S::flatBases(l, isLane ? "lane" : "register");
    for (size_t i = 0; i < bases.size(); ++i)
      if (bases[i] != 0 && !S::inSpan(basis, bases[i])) {
        basis.push_back(bases[i]);
        origin.push_back({isLane, static_cast<int>(i)});
      }
  }
  typename S::Coordinates coords(basis);
  Vecs registerMoves;
  for (Vec u : axisUnits(along)) {
    uint64_t combination = *coords.of(u);  // in the span: checked by gatherLocality
    AxisSource s{0, 0};
    for (size_t k = 0; k < origin.size(); ++k)
      if (combination >> k & 1)
        (origin[k].first ? s.laneMask : s.registerMask) ^= uint64_t{1} << origin[k].second;
    plan.axisSources.push_back(s);
    registerMoves.push_back(s.registerMask);
  }
  // K: a basis of the register offsets (register masks, read as vectors).
  Vecs k = S::extendBasis({}, registerMoves);
  int registerBits = inBits(l, "register");
  if (registerBits + static_cast<int>(k.size()) > kMaxTableBits)
    throw Error("gather plan: 2^" + std::to_string(registerBits) + " index registers times 2^" +
                std::to_string(k.size()) + " rounds; at most 2^" + std::to_string(kMaxTableBits) +
                " entries are planned");
  plan.rounds = uint64_t{1} << k.size();
  for (uint64_t r = 0; r < (uint64_t{1} << registerBits); ++r) {
    std::vector<uint64_t> sends;
    for (uint64_t i = 0; i < plan.rounds; ++i) sends.push_back(r ^ xorOfBits(k, i));
    plan.sendRegisters.push_back(std::move(sends));
  }
  return plan;
}

}  // namespace f2lay::analysis

#define F2LAY_INSTANTIATE_GATHER(L)                            \
  template GatherLocality gatherLocality<L>(const L&, size_t); \
  template GatherPlan gatherPlan<L>(const L&, size_t);
