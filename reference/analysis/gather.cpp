#include "reference/analysis/gather.h"

#include "formats/error.h"
#include "reference/analysis/f2_coordinates.h"
#include "reference/analysis/f2_space.h"

namespace f2lay::ref::analysis {

namespace {

constexpr int kMaxTableBits = 20;

const char* const kHardwareDims[] = {"register", "lane", "warp", "block"};

std::string basisText(const Basis& b) {
  std::string s;
  for (uint64_t v : b) s += (s.empty() ? "" : ", ") + std::to_string(v);
  return "[" + s + "]";
}

void checkLayout(const LinearLayout& l, size_t axis) {
  for (const std::string& dim : l.getInDimNames()) {
    bool known = false;
    for (const char* h : kHardwareDims) known = known || dim == h;
    if (!known)
      throw Error("gather: the layout has in dim '" + dim +
                  "'; a distributed layout maps register, lane, warp and block only");
  }
  if (axis >= l.value().out_dims.size())
    throw Error("gather: axis " + std::to_string(axis) + " is not an out dim of the layout (" +
                std::to_string(l.value().out_dims.size()) + " out dims)");
  if (!l.isSurjective())
    throw Error("gather: the layout is not surjective: it does not hold every element");
}

// The flattened unit vectors of the axis' bits.
Vecs axisUnits(const LinearLayout& l, size_t axis) {
  Vecs units;
  const OutDim& d = l.value().out_dims[axis];
  for (uint64_t v = 1; v < d.size; v <<= 1) units.push_back(flatten(l, {{d.name, v}}));
  return units;
}

int basesAlongAxis(const LinearLayout& l, const std::string& dim, size_t axis) {
  int n = 0;
  for (const InDim& in : l.value().in_dims)
    if (in.name == dim)
      for (const Basis& b : in.bases) n += b[axis] != 0;
  return n;
}

}  // namespace

GatherLocality gatherLocality(const LinearLayout& l, size_t axis) {
  checkLayout(l, axis);
  const std::string& axisName = l.value().out_dims[axis].name;
  for (const InDim& in : l.value().in_dims) {
    if (in.name != "warp" && in.name != "block") continue;
    for (size_t i = 0; i < in.bases.size(); ++i)
      if (in.bases[i][axis] != 0)
        return {false, in.name + " bit " + std::to_string(i) + " maps to " +
                           basisText(in.bases[i]) + ", which moves along " + axisName +
                           ": the elements of a column lie in several " + in.name + "s"};
  }
  Vecs local = flatBases(l, "register");
  Vecs lanes = flatBases(l, "lane");
  local.insert(local.end(), lanes.begin(), lanes.end());
  Vecs units = axisUnits(l, axis);
  for (size_t j = 0; j < units.size(); ++j)
    if (!inSpan(local, units[j]))
      return {false, "bit " + std::to_string(j) + " of " + axisName +
                         " is reached only with warp or block bits: moving along the axis "
                         "crosses warps"};
  return {true, ""};
}

GatherPlan gatherPlan(const LinearLayout& l, size_t axis) {
  GatherLocality where = gatherLocality(l, axis);
  if (!where.warpLocal) throw Error("gather plan: not warp-local: " + where.reason);
  GatherPlan plan;
  plan.laneBitsAlongAxis = basesAlongAxis(l, "lane", axis);
  plan.registerBitsAlongAxis = basesAlongAxis(l, "register", axis);
  plan.paperRounds = uint64_t{1} << plan.laneBitsAlongAxis;

  // Independent register and lane bases, remembered as (is lane, bit).
  Vecs basis;
  std::vector<std::pair<bool, int>> origin;
  for (bool isLane : {false, true}) {
    Vecs bases = flatBases(l, isLane ? "lane" : "register");
    for (size_t i = 0; i < bases.size(); ++i)
      if (bases[i] != 0 && !inSpan(basis, bases[i])) {
        basis.push_back(bases[i]);
        origin.push_back({isLane, static_cast<int>(i)});
      }
  }
  Coordinates coords(basis);
  Vecs registerMoves;
  for (Vec u : axisUnits(l, axis)) {
    uint64_t combination = *coords.of(u);  // in the span: checked by gatherLocality
    AxisSource s{0, 0};
    for (size_t k = 0; k < origin.size(); ++k)
      if (combination >> k & 1)
        (origin[k].first ? s.laneMask : s.registerMask) ^= uint64_t{1} << origin[k].second;
    plan.axisSources.push_back(s);
    registerMoves.push_back(s.registerMask);
  }
  // K: a basis of the register offsets (register masks, read as vectors).
  Vecs k = extendBasis({}, registerMoves);
  int registerBits = l.hasInDim("register") ? l.getInDimSizeLog2("register") : 0;
  if (registerBits + static_cast<int>(k.size()) > kMaxTableBits)
    throw Error("gather plan: 2^" + std::to_string(registerBits) + " index registers times 2^" +
                std::to_string(k.size()) + " rounds; at most 2^" + std::to_string(kMaxTableBits) +
                " entries are planned");
  plan.rounds = uint64_t{1} << k.size();
  for (uint64_t r = 0; r < (uint64_t{1} << registerBits); ++r) {
    std::vector<uint64_t> sends;
    for (uint64_t i = 0; i < plan.rounds; ++i) {
      uint64_t offset = 0;
      for (size_t j = 0; j < k.size(); ++j)
        if (i >> j & 1) offset ^= k[j];
      sends.push_back(r ^ offset);
    }
    plan.sendRegisters.push_back(std::move(sends));
  }
  return plan;
}

}  // namespace f2lay::ref::analysis
