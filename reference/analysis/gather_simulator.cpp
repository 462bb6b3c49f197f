#include "reference/analysis/gather_simulator.h"

#include <optional>
#include <random>
#include <unordered_map>

#include "reference/analysis/evaluated_layout.h"

namespace f2lay::ref::analysis {

GatherSimulation simulateGather(const LinearLayout& l, size_t axis, const GatherPlan& plan,
                                uint64_t seed) {
  EvaluatedLayout e(l, {"register", "lane", "warp", "block"});
  const uint64_t regs = e.size(0), lanes = e.size(1), warps = e.size(2), blocks = e.size(3);
  // Elements are packed first out dim lowest; the axis coordinate sits at axisShift.
  int axisShift = 0;
  for (size_t i = 0; i < axis; ++i) axisShift += l.getOutDimSizeLog2(l.value().out_dims[i].name);
  const uint64_t axisSize = l.value().out_dims[axis].size;
  std::mt19937_64 rng(seed);
  std::unordered_map<uint64_t, uint64_t> src, index;  // element -> value, drawn on first use
  auto valueAt = [&rng](std::unordered_map<uint64_t, uint64_t>& m, uint64_t element,
                        uint64_t bound) {
    auto it = m.find(element);
    if (it == m.end()) it = m.emplace(element, rng() % bound).first;
    return it->second;
  };
  for (uint64_t b = 0; b < blocks; ++b)
    for (uint64_t w = 0; w < warps; ++w)
      for (uint64_t t = 0; t < lanes; ++t)
        for (uint64_t r = 0; r < regs; ++r) {
          uint64_t pos = e.at(r, t, w, b);
          uint64_t v = valueAt(index, pos, axisSize);
          uint64_t move = (pos >> axisShift & (axisSize - 1)) ^ v;
          uint64_t srcLane = t, srcReg = r;
          for (size_t j = 0; j < plan.axisSources.size(); ++j)
            if (move >> j & 1) {
              srcLane ^= plan.axisSources[j].laneMask;
              srcReg ^= plan.axisSources[j].registerMask;
            }
          if (srcLane >= lanes)
            return {false, "lane " + std::to_string(t) + " reads from lane " +
                               std::to_string(srcLane) + ", which does not exist"};
          std::optional<uint64_t> got;
          for (uint64_t sent : plan.sendRegisters.at(r)) {
            if (sent >= regs)
              return {false,
                      "round sends register " + std::to_string(sent) + ", which does not exist"};
            uint64_t value = valueAt(src, e.at(sent, srcLane, w, b), uint64_t{1} << 32);
            if (sent == srcReg) got = value;
          }
          uint64_t wanted = pos ^ (move << axisShift);  // pos with its axis coordinate v
          uint64_t want = valueAt(src, wanted, uint64_t{1} << 32);
          if (got != want)
            return {false, "block " + std::to_string(b) + " warp " + std::to_string(w) + " lane " +
                               std::to_string(t) + " register " + std::to_string(r) +
                               (got ? " got a wrong value" : " got nothing")};
        }
  return {};
}

}  // namespace f2lay::ref::analysis
