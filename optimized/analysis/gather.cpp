#include "optimized/analysis/gather.h"

#include "formats/error.h"
#include "optimized/analysis/subspace.h"

namespace f2lay::opt::analysis {

namespace {

constexpr int kMaxTableBits = 20;

int bitsOf(const LinearLayout& l, const char* dim) {
  int d = l.inDims().find(intern(dim));
  return d < 0 ? 0 : l.inDims().bits[d];
}

// The axis' part of a packed vector.
uint64_t alongAxis(const LinearLayout& l, size_t axis, Vec x) {
  int k = static_cast<int>(axis);
  return x >> l.outDims().offset(k) & core::lowMask(l.outDims().bits[k]);
}

std::string basisText(const LinearLayout& l, Vec x) {
  std::string s;
  for (int k = 0; k < l.outDims().count; ++k)
    s += (k ? ", " : "") + std::to_string(alongAxis(l, static_cast<size_t>(k), x));
  return "[" + s + "]";
}

void checkLayout(const LinearLayout& l, size_t axis) {
  const DimList& ins = l.inDims();
  for (int d = 0; d < ins.count; ++d) {
    const std::string& dim = nameOf(ins.id[d]);
    if (dim != "register" && dim != "lane" && dim != "warp" && dim != "block")
      throw Error("gather: the layout has in dim '" + dim +
                  "'; a distributed layout maps register, lane, warp and block only");
  }
  if (axis >= l.outDims().count)
    throw Error("gather: axis " + std::to_string(axis) + " is not an out dim of the layout (" +
                std::to_string(l.outDims().count) + " out dims)");
  if (!l.isSurjective())
    throw Error("gather: the layout is not surjective: it does not hold every element");
}

// The axis' unit vectors, packed.
Vecs axisUnits(const LinearLayout& l, size_t axis) {
  int k = static_cast<int>(axis);
  Vecs units;
  for (int i = 0; i < l.outDims().bits[k]; ++i)
    units.push_back(Vec{1} << (l.outDims().offset(k) + i));
  return units;
}

int basesAlongAxis(const LinearLayout& l, const char* dim, size_t axis) {
  int n = 0;
  for (Vec x : flatBases(l, dim)) n += alongAxis(l, axis, x) != 0;
  return n;
}

}  // namespace

GatherLocality gatherLocality(const LinearLayout& l, size_t axis) {
  checkLayout(l, axis);
  const std::string& axisName = nameOf(l.outDims().id[axis]);
  const DimList& ins = l.inDims();
  for (int d = 0; d < ins.count; ++d) {
    const std::string& dim = nameOf(ins.id[d]);
    if (dim != "warp" && dim != "block") continue;
    for (int i = 0; i < ins.bits[d]; ++i) {
      Vec x = l.columns()[ins.offset(d) + i];
      if (alongAxis(l, axis, x) != 0)
        return {false, dim + " bit " + std::to_string(i) + " maps to " + basisText(l, x) +
                           ", which moves along " + axisName +
                           ": the elements of a column lie in several " + dim + "s"};
    }
  }
  Vecs local = flatBases(l, "register"), lanes = flatBases(l, "lane");
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

  // Independent register then lane columns; each remembers where it came from.
  core::Echelon coords;
  std::vector<std::pair<bool, int>> origin;  // (is lane, bit)
  for (bool isLane : {false, true}) {
    Vecs bases = flatBases(l, isLane ? "lane" : "register");
    for (size_t i = 0; i < bases.size(); ++i)
      if (bases[i] != 0 && coords.insert(bases[i], static_cast<int>(origin.size())))
        origin.push_back({isLane, static_cast<int>(i)});
  }
  Vecs registerMoves;
  for (Vec u : axisUnits(l, axis)) {
    uint64_t combination;
    coords.reduce(u, &combination);  // in the span: gatherLocality checked it
    AxisSource s{0, 0};
    for (size_t k = 0; k < origin.size(); ++k)
      if (combination >> k & 1)
        (origin[k].first ? s.laneMask : s.registerMask) ^= uint64_t{1} << origin[k].second;
    plan.axisSources.push_back(s);
    registerMoves.push_back(s.registerMask);
  }
  Vecs k = extendBasis({}, registerMoves);
  int registerBits = bitsOf(l, "register");
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

}  // namespace f2lay::opt::analysis
