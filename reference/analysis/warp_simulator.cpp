#include "reference/analysis/warp_simulator.h"

#include <bit>

#include "formats/error.h"
#include "reference/analysis/evaluated_layout.h"

namespace f2lay::ref::analysis {

namespace {

// Never a coordinate: a surjective layout within the limits below maps at
// most 2^32 locations, so its tensor has at most 32 bits.
constexpr uint64_t kPoison = ~uint64_t{0};
constexpr int kMaxWarpBits = 10;
constexpr int kMaxLocationBits = 22;
constexpr size_t kMaxReported = 5;
const std::vector<std::string> kDims = {"register", "lane", "warp", "block"};

uint64_t countOf(const LinearLayout& l, const char* dim) {
  return l.hasInDim(dim) ? uint64_t{1} << l.getInDimSizeLog2(dim) : 1;
}

class VirtualWarp {
 public:
  VirtualWarp(const LinearLayout& a, const LinearLayout& b, uint64_t warp, uint64_t block,
              WarpSimulation& report)
      : eb_(b, kDims),
        warp_(warp),
        block_(block),
        report_(report),
        lanes_(countOf(a, "lane")),
        aRegs_(countOf(a, "register")),
        bRegs_(countOf(b, "register")),
        aFile_(lanes_, std::vector<uint64_t>(aRegs_)),
        bFile_(lanes_, std::vector<uint64_t>(bRegs_, kPoison)) {
    EvaluatedLayout ea(a, kDims, b.getOutDimNames());
    for (uint64_t t = 0; t < lanes_; ++t)
      for (uint64_t r = 0; r < aRegs_; ++r) aFile_[t][r] = ea.at(r, t, warp, block);
  }

  void run(const ShufflePlan& plan) {
    for (size_t i = 0; i < plan.rounds.size(); ++i) runRound(plan, i);
    for (const RegisterCopy& c : plan.copies)
      for (uint64_t t = 0; t < lanes_; ++t) {
        if (c.dstRegister >= bRegs_ || c.srcRegister >= bRegs_) {
          fail("copy " + std::to_string(c.srcRegister) + " -> " + std::to_string(c.dstRegister) +
               " names a register B does not have");
          return;
        }
        bFile_[t][c.dstRegister] = bFile_[t][c.srcRegister];
      }
  }

  void check() {
    for (uint64_t t = 0; t < lanes_; ++t)
      for (uint64_t r = 0; r < bRegs_; ++r) {
        ++report_.locations;
        uint64_t want = eb_.at(r, t, warp_, block_);
        if (bFile_[t][r] != want)
          fail("lane " + std::to_string(t) + " register " + std::to_string(r) + " holds " +
               (bFile_[t][r] == kPoison ? std::string("nothing")
                                        : "element " + std::to_string(bFile_[t][r])) +
               ", B says element " + std::to_string(want));
      }
  }

 private:
  void runRound(const ShufflePlan& plan, size_t i) {
    const std::vector<ShuffleStep>& round = plan.rounds[i];
    if (round.size() != lanes_) {
      fail("round " + std::to_string(i) + " has " + std::to_string(round.size()) + " steps for " +
           std::to_string(lanes_) + " lanes");
      return;
    }
    // All lanes read at once; the A file is never written, so order is moot.
    for (uint64_t t = 0; t < lanes_; ++t) {
      const ShuffleStep& step = round[t];
      if (step.lane != t || step.srcLane >= lanes_) {
        fail("round " + std::to_string(i) + ", step " + std::to_string(t) +
             ": bad lane or srcLane");
        continue;
      }
      uint64_t send = round[step.srcLane].sendRegister;  // the source lane's operand
      for (uint64_t k = 0; k < plan.vectorElements; ++k) {
        uint64_t from = send ^ plan.sendOffsets.at(k),
                 to = step.recvRegister ^ plan.recvOffsets.at(k);
        if (from >= aRegs_ || to >= bRegs_) {
          fail("round " + std::to_string(i) + ", lane " + std::to_string(t) +
               ": register out of range");
          continue;
        }
        bFile_[t][to] = aFile_[step.srcLane][from];
      }
    }
  }

  void fail(const std::string& what) {
    if (report_.mismatches.size() < kMaxReported)
      report_.mismatches.push_back("warp " + std::to_string(warp_) + " block " +
                                   std::to_string(block_) + ": " + what);
    else if (report_.mismatches.size() == kMaxReported)
      report_.mismatches.push_back("...");
  }

  EvaluatedLayout eb_;
  uint64_t warp_, block_;
  WarpSimulation& report_;
  uint64_t lanes_, aRegs_, bRegs_;
  std::vector<std::vector<uint64_t>> aFile_, bFile_;
};

}  // namespace

WarpSimulation simulateShufflePlan(const LinearLayout& a, const LinearLayout& b,
                                   const ShufflePlan& plan) {
  uint64_t warps = countOf(a, "warp"), blocks = countOf(a, "block");
  if (std::countr_zero(warps) + std::countr_zero(blocks) > kMaxWarpBits)
    throw Error("warp simulator: " + std::to_string(warps * blocks) + " warps in all; at most 2^" +
                std::to_string(kMaxWarpBits) + " are simulated");
  for (const auto* l : {&a, &b})
    if (std::countr_zero(countOf(*l, "lane")) + std::countr_zero(countOf(*l, "register")) >
        kMaxLocationBits)
      throw Error("warp simulator: more than 2^" + std::to_string(kMaxLocationBits) +
                  " locations per warp");
  if (countOf(b, "lane") != countOf(a, "lane") || countOf(b, "warp") != warps ||
      countOf(b, "block") != blocks)
    throw Error("warp simulator: A and B have other lane, warp or block counts");
  if (plan.sendOffsets.size() < plan.vectorElements ||
      plan.recvOffsets.size() < plan.vectorElements)
    throw Error("warp simulator: the plan has fewer vector offsets than vector elements");
  WarpSimulation report;
  for (uint64_t block = 0; block < blocks; ++block)
    for (uint64_t warp = 0; warp < warps; ++warp) {
      VirtualWarp w(a, b, warp, block, report);
      w.run(plan);
      w.check();
      ++report.warps;
    }
  return report;
}

}  // namespace f2lay::ref::analysis
