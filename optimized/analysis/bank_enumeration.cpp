// The enumeration path of the bank-conflict analysis: every lane's byte
// address of every warp instruction, from the packed offsets, costed by the
// wavefront rule (bank_wavefronts.cpp). First the ldmatrix / stmatrix
// lowering (reference bank_conflicts.h), on offsets.
#include <algorithm>
#include <bit>
#include <string>
#include <vector>

#include "formats/error.h"
#include "optimized/analysis/bank_detail.h"

namespace f2lay::opt::analysis::bank_detail {

namespace {

struct MatrixLowering {
  int half = -1;                // the register bit of the second 16-bit half
  std::vector<int> matrixRegs;  // the register bits picking the matrix
};

std::string notLowerable(bool trans, const std::string& why) {
  return kWhat + (trans ? "ldmatrix/stmatrix .trans" : "ldmatrix/stmatrix") +
         " cannot lower this layout: " + why;
}

void requireLaneAt(const BasisOffsets& b, bool trans, int lane, uint64_t want) {
  uint64_t at = b.lane[static_cast<size_t>(lane)];
  if (at != want)
    throw Error(notLowerable(trans, "lane bit " + std::to_string(lane) + " is at offset " +
                                        std::to_string(at) + ", not +" + std::to_string(want) +
                                        " elements (a 16-byte row)"));
}

MatrixLowering lowerMatrix(const BasisOffsets& b, bool trans) {
  MatrixLowering m;
  uint64_t zeros = b.zeroRegisters();
  if (!trans) {  // a row: the half bit, lane bits 0, 1 at +1, +2, +4
    for (size_t j = 0; j < b.reg.size() && m.half < 0; ++j)
      if (b.reg[j] == 1) m.half = static_cast<int>(j);
    if (m.half < 0)
      throw Error(notLowerable(trans,
                               "no register bit holds the element at offset +1 (the "
                               "second 16-bit half of a register)"));
    requireLaneAt(b, trans, 0, 2);
    requireLaneAt(b, trans, 1, 4);
  } else {  // a row: lane bits 2, 3, 4 at +1, +2, +4; the half, the lowest nonzero register
    requireLaneAt(b, trans, 2, 1);
    requireLaneAt(b, trans, 3, 2);
    requireLaneAt(b, trans, 4, 4);
    uint64_t nonzero = b.registerMask() & ~zeros;
    if (!nonzero)
      throw Error(notLowerable(trans, "no register bit for the second 16-bit half of a register"));
    m.half = std::countr_zero(nonzero);
  }
  uint64_t exceptRegs = trans ? 0 : uint64_t{1} << m.half;
  if (offsetsOr(b, exceptRegs, trans ? 0b11100 : 0b00011) & 7)
    throw Error(notLowerable(trans,
                             "some register, lane or warp basis lands on an offset that "
                             "is not a multiple of 8 elements, so rows are not 16-byte "
                             "aligned"));
  for (size_t j = 0; j < b.reg.size() && m.matrixRegs.size() < 2; ++j)
    if (static_cast<int>(j) != m.half && !(zeros >> j & 1))
      m.matrixRegs.push_back(static_cast<int>(j));
  return m;
}

// ---------------------------------------------------------------------------
// The enumeration: every instruction of every warp.

// Calls f(base) for each instruction of each warp, base = the offset of its
// first element (register bits outside `grouped` and the warp).
template <class F>
void forEachInstruction(const BasisOffsets& b, uint64_t grouped, F&& f) {
  uint64_t free = b.registerMask() & ~grouped;
  std::vector<int> freeBits;
  for (uint64_t m = free; m; m &= m - 1) freeBits.push_back(std::countr_zero(m));
  std::vector<int> warpBits;
  for (size_t j = 0; j < b.warp.size(); ++j) warpBits.push_back(static_cast<int>(j));
  for (uint64_t warp = 0; warp < (uint64_t{1} << b.warp.size()); ++warp) {
    uint64_t warpOffset = xorOfBits(b.warp, warpBits, warp);
    // Gray code over the free register bits: one XOR per instruction.
    uint64_t regOffset = 0;
    for (uint64_t k = 0; k < (uint64_t{1} << freeBits.size()); ++k) {
      if (k) regOffset ^= b.reg[static_cast<size_t>(freeBits[std::countr_zero(k)])];
      f(warpOffset ^ regOffset);
    }
  }
}

}  // namespace

WavefrontReport enumerateOnOffsets(const BasisOffsets& b, const AccessSpec& access) {
  const uint64_t w = access.elementBytes;
  // An element's byte address: its offset, padded (analysis/padding.h).
  const f2lay::analysis::Padding& padding = access.padding;
  auto address = [&](uint64_t offset) {
    return f2lay::analysis::paddedOffset(padding, offset) * w;
  };
  WavefrontReport report;
  Cost total;
  uint64_t grouped = b.zeroRegisters();
  if (access.instruction == Instruction::kVector) {
    std::vector<int> bits = vectorBits(b, w);
    // vectorLimit is a power of two, or the maximum (no limit).
    size_t limitBits = static_cast<size_t>(std::bit_width(b.vectorLimit) - 1);
    bits.resize(std::min(bits.size(), limitBits));
    uint64_t bytes = chosenVectorBytes(access, w << bits.size());
    for (int k = 0; (w << k) < bytes; ++k) grouped |= uint64_t{1} << bits[static_cast<size_t>(k)];
    std::vector<int> laneBits = {0, 1, 2, 3, 4};
    uint64_t laneOffset[32];
    for (uint64_t l = 0; l < 32; ++l) laneOffset[l] = xorOfBits(b.lane, laneBits, l);
    report.vectorBytes = bytes;
    forEachInstruction(b, grouped, [&](uint64_t base) {
      uint64_t lanes[32];
      for (size_t l = 0; l < 32; ++l) lanes[l] = address(base ^ laneOffset[l]);
      Cost c = vectorCost(access.kind, bytes, lanes);
      ++report.instructions;
      total.wavefronts += c.wavefronts;
      total.phases += c.phases;
    });
  } else {
    bool trans = access.instruction == Instruction::kMatrixTrans;
    MatrixLowering m = lowerMatrix(b, trans);
    grouped |= uint64_t{1} << m.half;
    for (int j : m.matrixRegs) grouped |= uint64_t{1} << j;
    // Row r of every matrix (column 0): non-trans lane 4r; .trans lane r/2
    // with the half bit for odd rows (device_tests/HARDWARE.md#matrix-ownership).
    uint64_t rowOffset[8];
    for (uint64_t r = 0; r < 8; ++r)
      rowOffset[r] = trans ? xorOfBits(b.lane, {0, 1}, r >> 1) ^
                                 (r & 1 ? b.reg[static_cast<size_t>(m.half)] : 0)
                           : xorOfBits(b.lane, {2, 3, 4}, r);
    size_t matrices = size_t{1} << m.matrixRegs.size();
    uint64_t matrixOffset[4];
    for (size_t i = 0; i < matrices; ++i) matrixOffset[i] = xorOfBits(b.reg, m.matrixRegs, i);
    report.vectorBytes = 16;
    forEachInstruction(b, grouped, [&](uint64_t base) {
      for (size_t i = 0; i < matrices; ++i) {  // one phase per matrix
        uint64_t rows[8];
        for (size_t r = 0; r < 8; ++r) rows[r] = address(base ^ matrixOffset[i] ^ rowOffset[r]);
        addPhases(rows, 8, 8, 16, total);
      }
      ++report.instructions;
    });
  }
  report.wavefronts = total.wavefronts;
  report.idealWavefronts = total.phases;
  report.conflicts = report.wavefronts - report.idealWavefronts;
  return report;
}

}  // namespace f2lay::opt::analysis::bank_detail
