#include "shared_roundtrip.h"

#include <map>
#include <vector>

#include "error.h"

namespace f2lay::ref::analysis {

namespace {

constexpr uint64_t kPoison = ~uint64_t{0};

// Tensor coordinates as one key: the out values in out-dim order.
using Coordinate = std::vector<uint64_t>;

Coordinate coordinate(const DimValues& values) {
  Coordinate c;
  for (const auto& [name, value] : values) c.push_back(value);
  return c;
}

uint64_t sizeOf(const LinearLayout& l, const char* dim) {
  return l.hasInDim(dim) ? uint64_t{1} << l.getInDimSizeLog2(dim) : 1;
}

// The element held by (register, lane, warp); a block dim, if any, is 0.
Coordinate elementAt(const LinearLayout& l, uint64_t reg, uint64_t lane, uint64_t warp) {
  DimValues in;
  for (const std::string& d : l.getInDimNames())
    in.emplace_back(d, d == "register" ? reg : d == "lane" ? lane : d == "warp" ? warp : 0);
  return coordinate(l.apply(in));
}

// One side's warp instructions, found by evaluation: register bits j whose
// element sits 2^k offsets after register 0's, for k = 0, 1, ... in turn
// (Generalized Vectorization, §5.3), as long as the vector stays within 16
// bytes. Registers are grouped by the other bits; zero-basis registers hold
// duplicates and are skipped.
struct Grouping {
  std::vector<uint64_t> vectorRegisterMasks;  // register of the k-th element bit
  std::vector<uint64_t> groupStarts;          // first register of each instruction
};

Grouping groupRegisters(const LinearLayout& l, const std::map<Coordinate, uint64_t>& offsetOf,
                        uint64_t elementBytes) {
  auto offsetAt = [&](uint64_t reg, uint64_t lane, uint64_t warp) {
    return offsetOf.at(elementAt(l, reg, lane, warp));
  };
  int bits = l.hasInDim("register") ? l.getInDimSizeLog2("register") : 0;
  uint64_t base = offsetAt(0, 0, 0);
  std::vector<int> vectorBits;
  uint64_t used = 0;
  while ((uint64_t{2} << vectorBits.size()) * elementBytes <= 16) {
    uint64_t want = base ^ (uint64_t{1} << vectorBits.size());
    int found = -1;
    for (int j = 0; j < bits && found < 0; ++j)
      if (!(used >> j & 1) && offsetAt(uint64_t{1} << j, 0, 0) == want) found = j;
    if (found < 0) break;
    vectorBits.push_back(found);
    used |= uint64_t{1} << found;
  }
  uint64_t zero = 0;
  for (int j = 0; j < bits; ++j)
    if (offsetAt(uint64_t{1} << j, 0, 0) == base) zero |= uint64_t{1} << j;
  // A vector instruction moves one aligned block: every other register, lane
  // and warp must start at a multiple of the vector, or the vector shrinks.
  std::vector<uint64_t> starts;
  for (int j = 0; j < bits; ++j)
    if (!((used | zero) >> j & 1)) starts.push_back(offsetAt(uint64_t{1} << j, 0, 0) ^ base);
  for (uint64_t x = 1; x < sizeOf(l, "lane"); x *= 2) starts.push_back(offsetAt(0, x, 0) ^ base);
  for (uint64_t x = 1; x < sizeOf(l, "warp"); x *= 2) starts.push_back(offsetAt(0, 0, x) ^ base);
  starts.push_back(base);
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
  for (uint64_t r = 0; r < sizeOf(l, "register"); ++r)
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
                                  const LinearLayout& shared, uint64_t elementBytes) {
  if (!shared.isInvertible())
    throw Error("shared round trip: the memory layout is not invertible");
  uint64_t size = uint64_t{1} << shared.getTotalInDimSizeLog2();
  if (size > (uint64_t{1} << 24))
    throw Error("shared round trip: more than 2^24 offsets to simulate");
  std::map<Coordinate, uint64_t> offsetOf;
  for (uint64_t o = 0; o < size; ++o) offsetOf[coordinate(shared.apply({{"offset", o}}))] = o;

  // Memory holds the offset of the element each write claims to put there,
  // checked against the element's true offset; poison where none was written.
  std::vector<uint64_t> memory(size, kPoison);
  RoundTrip out;
  Grouping ga = groupRegisters(a, offsetOf, elementBytes);
  Grouping gb = groupRegisters(b, offsetOf, elementBytes);
  out.storeVectorElements = uint64_t{1} << ga.vectorRegisterMasks.size();
  out.loadVectorElements = uint64_t{1} << gb.vectorRegisterMasks.size();

  for (uint64_t w = 0; w < sizeOf(a, "warp"); ++w)
    for (uint64_t start : ga.groupStarts) {
      ++out.storeInstructions;
      for (uint64_t lane = 0; lane < sizeOf(a, "lane"); ++lane) {
        std::vector<uint64_t> regs = vectorRegisters(ga, start);
        uint64_t address = offsetOf.at(elementAt(a, regs[0], lane, w));
        for (size_t k = 0; k < regs.size(); ++k)  // the value: which element it is
          memory[address + k] = offsetOf.at(elementAt(a, regs[k], lane, w));
      }
    }

  for (uint64_t w = 0; w < sizeOf(b, "warp"); ++w)
    for (uint64_t start : gb.groupStarts) {
      ++out.loadInstructions;
      for (uint64_t lane = 0; lane < sizeOf(b, "lane"); ++lane) {
        std::vector<uint64_t> regs = vectorRegisters(gb, start);
        uint64_t address = offsetOf.at(elementAt(b, regs[0], lane, w));
        for (size_t k = 0; k < regs.size(); ++k) {
          uint64_t want = offsetOf.at(elementAt(b, regs[k], lane, w));
          if (memory[address + k] == want) continue;
          if (out.wrongElements++ == 0)
            out.firstWrong = "warp " + std::to_string(w) + " lane " + std::to_string(lane) +
                             " register " + std::to_string(regs[k]) + " read offset " +
                             std::to_string(address + k) + ", which does not hold its element";
        }
      }
    }
  return out;
}

}  // namespace f2lay::ref::analysis
