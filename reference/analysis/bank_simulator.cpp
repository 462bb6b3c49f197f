// The bank-conflict simulator: every lane's byte address of every instruction
// of every warp, found by evaluating the layouts (LinearLayout::apply on
// `dist`, and a table of `shared`'s inverse built from its values at every
// offset), then costed by the wavefront rule measured on an H100
// (wavefront_rule.h, device_tests/HARDWARE.md). No subspace algebra: it shares no
// code with Lemma 9.4 (lemma94.cpp), which it checks.
#include <bit>
#include <string>

#include "analysis/bank_access.h"
#include "formats/error.h"
#include "reference/analysis/bank_conflicts.h"
#include "reference/analysis/evaluated_layout.h"

namespace f2lay::ref::analysis {

namespace {

constexpr uint64_t kUnset = ~uint64_t{0};

int bitsOf(const LinearLayout& l, const char* dim) {
  return l.hasInDim(dim) ? l.getInDimSizeLog2(dim) : 0;
}

// The offset of each element (register, lane, warp) of `dist` holds: `dist`
// evaluated (evaluated_layout.h), and shared^-1 as a table built from its
// values at every offset.
class Addresser {
 public:
  Addresser(const LinearLayout& dist, const LinearLayout& shared)
      : dist_(dist, {"register", "lane", "warp"}) {
    // checkBankAccess has made sure `shared` is invertible and small enough.
    EvaluatedLayout memory(shared, {"offset"}, dist.getOutDimNames());
    offsetOf_.assign(memory.size(0), kUnset);
    for (uint64_t o = 0; o < offsetOf_.size(); ++o) offsetOf_[memory.at(o)] = o;
  }

  uint64_t offset(uint64_t reg, uint64_t lane, uint64_t warp) const {
    return offsetOf_[dist_.at(reg, lane, warp)];
  }

 private:
  EvaluatedLayout dist_;
  std::vector<uint64_t> offsetOf_;
};

// The offsets of the single-bit inputs: where each basis lands.
struct BasisOffsets {
  std::vector<uint64_t> reg, lane, warp;
};

BasisOffsets basisOffsets(const LinearLayout& dist, const Addresser& a) {
  BasisOffsets b;
  for (int j = 0; j < bitsOf(dist, "register"); ++j)
    b.reg.push_back(a.offset(uint64_t{1} << j, 0, 0));
  for (int j = 0; j < bitsOf(dist, "lane"); ++j) b.lane.push_back(a.offset(0, uint64_t{1} << j, 0));
  for (int j = 0; j < bitsOf(dist, "warp"); ++j) b.warp.push_back(a.offset(0, 0, uint64_t{1} << j));
  return b;
}

// Whether every basis offset but the register bits in `except` is a multiple
// of `align` elements.
bool alignedExcept(const BasisOffsets& b, uint64_t exceptRegs, uint64_t exceptLanes,
                   uint64_t align) {
  for (size_t j = 0; j < b.reg.size(); ++j)
    if (!(exceptRegs >> j & 1) && b.reg[j] % align != 0) return false;
  for (size_t j = 0; j < b.lane.size(); ++j)
    if (!(exceptLanes >> j & 1) && b.lane[j] % align != 0) return false;
  for (uint64_t o : b.warp)
    if (o % align != 0) return false;
  return true;
}

// The register bits of the widest vector, element bit k first: register bit
// j_k at offset 2^k, every other basis a multiple of 2^(k+1), up to 16 bytes.
std::vector<int> vectorBits(const BasisOffsets& b, uint64_t elementBytes) {
  std::vector<int> bits;
  uint64_t used = 0;
  while ((elementBytes << (bits.size() + 1)) <= 16) {
    uint64_t want = uint64_t{1} << bits.size();
    int found = -1;
    for (size_t j = 0; j < b.reg.size() && found < 0; ++j)
      if (!(used >> j & 1) && b.reg[j] == want) found = static_cast<int>(j);
    if (found < 0 || !alignedExcept(b, used | uint64_t{1} << found, 0, want * 2)) break;
    used |= uint64_t{1} << found;
    bits.push_back(found);
  }
  return bits;
}

uint64_t zeroRegisters(const BasisOffsets& b) {
  uint64_t mask = 0;  // offset 0 <=> the zero element (shared is invertible)
  for (size_t j = 0; j < b.reg.size(); ++j)
    if (b.reg[j] == 0) mask |= uint64_t{1} << j;
  return mask;
}

// ldmatrix / stmatrix lowering (bank_conflicts.h): the register bit of the
// second 16-bit half, those picking matrices, and the mask of both.
struct MatrixLowering {
  uint64_t half = 0;
  std::vector<uint64_t> matrixRegs;
};

std::string notLowerable(bool trans, const std::string& why) {
  return "bank conflicts: " +
         std::string(trans ? "ldmatrix/stmatrix .trans" : "ldmatrix/stmatrix") +
         " cannot lower this layout: " + why;
}

MatrixLowering lowerMatrix(const BasisOffsets& b, bool trans) {
  MatrixLowering m;
  uint64_t zeros = zeroRegisters(b);
  // The 8 contiguous elements of a row: (h, lane 0, lane 1) or lanes 2, 3, 4.
  const int rowLanes[2][3] = {{-1, 0, 1}, {2, 3, 4}};
  const int* row = rowLanes[trans ? 1 : 0];
  for (int k = 0; k < 3; ++k) {
    uint64_t want = uint64_t{1} << k;
    if (row[k] < 0) {
      for (size_t j = 0; j < b.reg.size() && !m.half; ++j)
        if (b.reg[j] == want) m.half = uint64_t{1} << j;
      if (!m.half)
        throw Error(notLowerable(trans,
                                 "no register bit holds the element at offset +1 (the "
                                 "second 16-bit half of a register)"));
    } else if (b.lane[row[k]] != want) {
      throw Error(notLowerable(trans, "lane bit " + std::to_string(row[k]) + " is at offset " +
                                          std::to_string(b.lane[row[k]]) + ", not +" +
                                          std::to_string(want) + " elements (a 16-byte row)"));
    }
  }
  if (trans) {
    uint64_t nonzero = ((uint64_t{1} << b.reg.size()) - 1) & ~zeros;
    if (!nonzero)
      throw Error(notLowerable(trans, "no register bit for the second 16-bit half of a register"));
    m.half = nonzero & (~nonzero + 1);
  }
  uint64_t rowLaneMask = trans ? 0b11100 : 0b00011;
  if (!alignedExcept(b, trans ? 0 : m.half, rowLaneMask, 8))
    throw Error(notLowerable(trans,
                             "some register, lane or warp basis lands on an offset that "
                             "is not a multiple of 8 elements, so rows are not 16-byte "
                             "aligned"));
  for (size_t j = 0; j < b.reg.size() && m.matrixRegs.size() < 2; ++j) {
    uint64_t bit = uint64_t{1} << j;
    if (bit != m.half && !(zeros & bit)) m.matrixRegs.push_back(bit);
  }
  return m;
}

// The registers of `base` with the bits of `k` spread over `masks`.
uint64_t spread(uint64_t base, const std::vector<uint64_t>& masks, uint64_t k) {
  for (size_t j = 0; j < masks.size(); ++j)
    if (k >> j & 1) base |= masks[j];
  return base;
}

// Everything one enumeration needs, set up once.
struct Simulation {
  const LinearLayout& dist;
  const AccessSpec& access;
  Addresser addresser;
  BasisOffsets bases;
  uint64_t vectorBytes = 0;
  std::vector<uint64_t> vectorRegs;  // kVector
  MatrixLowering lowering;           // kMatrix*
  uint64_t grouped = 0;              // register bits inside one instruction, or zero

  Simulation(const LinearLayout& d, const LinearLayout& shared, const AccessSpec& a)
      : dist(d), access(a), addresser(d, shared), bases(basisOffsets(d, addresser)) {
    uint64_t limit = f2lay::analysis::paddedVectorElements(shared, access);
    grouped = zeroRegisters(bases);
    if (access.instruction == Instruction::kVector) {
      std::vector<int> bits = vectorBits(bases, access.elementBytes);
      // No vector wider than the padding allows (analysis/bank_access.h).
      while (bits.size() > 0 && (uint64_t{1} << bits.size()) > limit) bits.pop_back();
      vectorBytes = chosenVectorBytes(access, access.elementBytes << bits.size());
      for (uint64_t k = 0; (access.elementBytes << k) < vectorBytes; ++k)
        vectorRegs.push_back(uint64_t{1} << bits[k]);
      for (uint64_t r : vectorRegs) grouped |= r;
    } else {
      vectorBytes = 16;
      lowering = lowerMatrix(bases, access.instruction == Instruction::kMatrixTrans);
      grouped |= lowering.half;
      for (uint64_t r : lowering.matrixRegs) grouped |= r;
    }
  }

  // Where the element at `offset` is, in bytes: padded (analysis/padding.h).
  uint64_t byteAddress(uint64_t offset) const {
    return f2lay::analysis::paddedOffset(access.padding, offset) * access.elementBytes;
  }

  InstructionAccess instruction(uint64_t start, uint64_t warp) const {
    InstructionAccess in;
    if (access.instruction == Instruction::kVector) {
      for (uint64_t k = 0; k < (uint64_t{1} << vectorRegs.size()); ++k)
        in.registers.push_back(spread(start, vectorRegs, k));
      in.bytes = vectorBytes;
      for (uint64_t lane = 0; lane < 32; ++lane)
        in.lanes.push_back({true, byteAddress(addresser.offset(start, lane, warp))});
      in.cost = vectorWavefronts(access.kind, vectorBytes, in.lanes);
      return in;
    }
    bool trans = access.instruction == Instruction::kMatrixTrans;
    std::vector<uint64_t> masks = {lowering.half};
    masks.insert(masks.end(), lowering.matrixRegs.begin(), lowering.matrixRegs.end());
    for (uint64_t k = 0; k < (uint64_t{1} << masks.size()); ++k)
      in.registers.push_back(spread(start, masks, k));
    in.bytes = 16;
    for (uint64_t i = 0; i < (uint64_t{1} << lowering.matrixRegs.size()); ++i) {
      uint64_t reg = spread(start, lowering.matrixRegs, i);
      MatrixRows rows{};
      for (uint64_t r = 0; r < 8; ++r) {
        // Column 0 of row r: non-trans, lane 4r (lane bits 2-4 are the row);
        // .trans, lane r/2 with the half bit for odd rows
        // (device_tests/HARDWARE.md#matrix-ownership).
        uint64_t offset = trans ? addresser.offset(reg | (r & 1 ? lowering.half : 0), r >> 1, warp)
                                : addresser.offset(reg, r << 2, warp);
        rows[r] = byteAddress(offset);
      }
      in.matrices.push_back(rows);
    }
    in.cost = matrixWavefronts(in.matrices);
    return in;
  }

  std::vector<InstructionAccess> warpInstructions(uint64_t warp) const {
    std::vector<InstructionAccess> out;
    for (uint64_t start = 0; start < (uint64_t{1} << bases.reg.size()); ++start)
      if ((start & grouped) == 0) out.push_back(instruction(start, warp));
    return out;
  }
};

}  // namespace

uint64_t widestVectorBytes(const LinearLayout& dist, const LinearLayout& shared,
                           uint64_t elementBytes) {
  AccessSpec access;
  access.elementBytes = elementBytes;
  checkBankAccess(dist, shared, access);
  Addresser a(dist, shared);
  return elementBytes << vectorBits(basisOffsets(dist, a), elementBytes).size();
}

std::vector<InstructionAccess> warpAccesses(const LinearLayout& dist, const LinearLayout& shared,
                                            const AccessSpec& access, uint64_t warp) {
  checkBankAccess(dist, shared, access);
  if (warp >= (uint64_t{1} << bitsOf(dist, "warp")))
    throw Error("bank conflicts: warp " + std::to_string(warp) +
                " does not exist (the layout has " +
                std::to_string(uint64_t{1} << bitsOf(dist, "warp")) + " warps)");
  return Simulation(dist, shared, access).warpInstructions(warp);
}

WavefrontReport simulateBankConflicts(const LinearLayout& dist, const LinearLayout& shared,
                                      const AccessSpec& access) {
  checkBankAccess(dist, shared, access);
  Simulation sim(dist, shared, access);
  WavefrontReport report;
  report.vectorBytes = sim.vectorBytes;
  for (uint64_t warp = 0; warp < (uint64_t{1} << bitsOf(dist, "warp")); ++warp)
    for (const InstructionAccess& in : sim.warpInstructions(warp)) {
      ++report.instructions;
      report.wavefronts += in.cost.wavefronts;
      report.idealWavefronts += in.cost.phases;
    }
  report.conflicts = report.wavefronts - report.idealWavefronts;
  return report;
}

}  // namespace f2lay::ref::analysis
