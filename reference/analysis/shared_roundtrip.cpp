#include "reference/analysis/shared_roundtrip.h"

#include <bit>
#include <vector>

#include "formats/error.h"
#include "reference/analysis/evaluated_layout.h"

namespace f2lay::ref::analysis {

namespace {

constexpr uint64_t kPoison = ~uint64_t{0};

const std::vector<std::string> kDistributedDims = {"register", "lane", "warp"};
enum { kReg, kLane, kWarp };

// One side's warp instructions, found by evaluation: register bits j whose
// element sits 2^k offsets after register 0's, for k = 0, 1, ... in turn
// (Generalized Vectorization, §5.3), within 16 bytes and while every other
// register, lane and warp starts at a multiple of the vector (one aligned
// block per lane). Registers are grouped by the other bits; zero-basis
// registers hold duplicates of a register that is moved, and are skipped.
struct Grouping {
  std::vector<uint64_t> vectorRegisterMasks;  // register of the k-th element bit
  std::vector<uint64_t> groupStarts;          // first register of each instruction
};

Grouping groupRegisters(const EvaluatedLayout& l, const std::vector<uint64_t>& offsetOf,
                        uint64_t elementBytes, uint64_t limit) {
  auto offsetAt = [&](uint64_t reg, uint64_t lane, uint64_t warp) {
    return offsetOf[l.at(reg, lane, warp)];
  };
  uint64_t base = offsetAt(0, 0, 0);
  std::vector<int> vectorBits;
  uint64_t used = 0;
  while ((uint64_t{2} << vectorBits.size()) * elementBytes <= 16 &&
         (uint64_t{2} << vectorBits.size()) <= limit) {
    uint64_t want = base ^ (uint64_t{1} << vectorBits.size());
    int found = -1;
    for (int j = 0; j < l.bits(kReg) && found < 0; ++j)
      if (!(used >> j & 1) && offsetAt(uint64_t{1} << j, 0, 0) == want) found = j;
    if (found < 0) break;
    vectorBits.push_back(found);
    used |= uint64_t{1} << found;
  }
  uint64_t zero = 0;
  for (int j = 0; j < l.bits(kReg); ++j)
    if (l.image(kReg, j) == 0) zero |= uint64_t{1} << j;
  std::vector<uint64_t> starts{base};
  for (int j = 0; j < l.bits(kReg); ++j)
    if (!((used | zero) >> j & 1)) starts.push_back(offsetAt(uint64_t{1} << j, 0, 0) ^ base);
  for (int j = 0; j < l.bits(kLane); ++j) starts.push_back(offsetAt(0, uint64_t{1} << j, 0) ^ base);
  for (int j = 0; j < l.bits(kWarp); ++j) starts.push_back(offsetAt(0, 0, uint64_t{1} << j) ^ base);
  auto aligned = [&](size_t k) {
    for (uint64_t o : starts)
      if (o & ((uint64_t{1} << k) - 1)) return false;
    return true;
  };
  while (!vectorBits.empty() && !aligned(vectorBits.size())) {
    used &= ~(uint64_t{1} << vectorBits.back());
    vectorBits.pop_back();
  }
  Grouping g;
  for (int j : vectorBits) g.vectorRegisterMasks.push_back(uint64_t{1} << j);
  for (uint64_t r = 0; r < l.size(kReg); ++r)
    if ((r & (used | zero)) == 0) g.groupStarts.push_back(r);
  return g;
}

// The registers of one instruction, element k of the vector first.
std::vector<uint64_t> vectorRegisters(const Grouping& g, uint64_t start) {
  std::vector<uint64_t> regs;
  for (uint64_t k = 0; k < (uint64_t{1} << g.vectorRegisterMasks.size()); ++k) {
    uint64_t r = start;
    for (size_t j = 0; j < g.vectorRegisterMasks.size(); ++j)
      if (k >> j & 1) r |= g.vectorRegisterMasks[j];
    regs.push_back(r);
  }
  return regs;
}

}  // namespace

RoundTrip simulateSharedRoundTrip(const LinearLayout& a, const LinearLayout& b,
                                  const LinearLayout& shared, uint64_t elementBytes,
                                  const f2lay::analysis::Padding& padding) {
  if (!padding.empty()) f2lay::analysis::checkPadding(padding, "shared round trip: padding");
  if (a.value().out_dims != shared.value().out_dims ||
      b.value().out_dims != shared.value().out_dims)
    throw Error("shared round trip: the layouts map to different out dims");
  if (!shared.isInvertible()) throw Error("shared round trip: the memory layout is not invertible");
  if (!shared.hasInDim("offset") ||
      shared.getInDimSizeLog2("offset") != shared.getTotalInDimSizeLog2())
    throw Error("shared round trip: the memory layout must map offset (and a block of size 1)");
  if (shared.getTotalInDimSizeLog2() > 24)
    throw Error("shared round trip: more than 2^24 offsets to simulate");
  EvaluatedLayout memory(shared, {"offset"}), ea(a, kDistributedDims), eb(b, kDistributedDims);
  uint64_t size = memory.size(0);
  std::vector<uint64_t> offsetOf(size);  // packed coordinate -> offset
  for (uint64_t o = 0; o < size; ++o) offsetOf[memory.at(o)] = o;

  // The memory holds, at each offset, the element a store claims to put
  // there (its packed coordinate); poison where none was written.
  // Cells at padded addresses; the padding's own cells are never written.
  auto padded = [&](uint64_t offset) { return f2lay::analysis::paddedOffset(padding, offset); };
  std::vector<uint64_t> cells(padded(size - 1) + 1, kPoison);
  RoundTrip out;
  uint64_t limit = f2lay::analysis::paddedVectorLimit(padding, size);
  Grouping ga = groupRegisters(ea, offsetOf, elementBytes, limit);
  Grouping gb = groupRegisters(eb, offsetOf, elementBytes, limit);
  out.storeVectorElements = uint64_t{1} << ga.vectorRegisterMasks.size();
  out.loadVectorElements = uint64_t{1} << gb.vectorRegisterMasks.size();

  for (uint64_t w = 0; w < ea.size(kWarp); ++w)
    for (uint64_t start : ga.groupStarts) {
      ++out.storeInstructions;
      std::vector<uint64_t> regs = vectorRegisters(ga, start);
      for (uint64_t lane = 0; lane < ea.size(kLane); ++lane) {
        uint64_t address = padded(offsetOf[ea.at(regs[0], lane, w)]);
        for (size_t k = 0; k < regs.size(); ++k) cells[address + k] = ea.at(regs[k], lane, w);
      }
    }

  for (uint64_t w = 0; w < eb.size(kWarp); ++w)
    for (uint64_t start : gb.groupStarts) {
      ++out.loadInstructions;
      std::vector<uint64_t> regs = vectorRegisters(gb, start);
      for (uint64_t lane = 0; lane < eb.size(kLane); ++lane) {
        uint64_t address = padded(offsetOf[eb.at(regs[0], lane, w)]);
        for (size_t k = 0; k < regs.size(); ++k) {
          if (cells[address + k] == eb.at(regs[k], lane, w)) continue;
          if (out.wrongElements++ == 0)
            out.firstWrong = "warp " + std::to_string(w) + " lane " + std::to_string(lane) +
                             " register " + std::to_string(regs[k]) + " read padded offset " +
                             std::to_string(address + k) + ", which does not hold its element";
        }
      }
    }
  return out;
}

}  // namespace f2lay::ref::analysis
