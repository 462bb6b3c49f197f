#include "optimized/analysis/bank_conflicts.h"

#include <algorithm>
#include <bit>
#include <initializer_list>
#include <string>
#include <vector>

#include "formats/error.h"

namespace f2lay::opt::analysis {

namespace {

const std::string kWhat = "bank conflicts: ";

int bitsOf(const LinearLayout& l, const char* dim) {
  int d = l.inDims().find(intern(dim));
  return d < 0 ? 0 : l.inDims().bits[d];
}

// Every in dim of `l` is one of `allowed`, or a block of size 1.
void checkInDims(const LinearLayout& l, const char* which,
                 std::initializer_list<const char*> allowed) {
  const DimList& ins = l.inDims();
  for (int d = 0; d < ins.count; ++d) {
    const std::string& name = nameOf(ins.id[d]);
    if (std::find(allowed.begin(), allowed.end(), name) != allowed.end()) continue;
    if (name == "block") {
      if (ins.bits[d] == 0) continue;
      throw Error(kWhat + "the " + which + " layout has in dim 'block' of size " +
                  std::to_string(uint64_t{1} << ins.bits[d]) +
                  "; shared memory is per CTA, so only a block of size 1 is allowed");
    }
    std::string expected;
    for (const char* a : allowed) expected += std::string(a) + ", ";
    throw Error(kWhat + "the " + which + " layout has in dim '" + name + "'; expected " + expected +
                "and optionally block (size 1)");
  }
}

std::string outDimsText(const LinearLayout& l) {
  const DimList& outs = l.outDims();
  std::string s;
  for (int k = 0; k < outs.count; ++k)
    s += (k ? ", " : "") + nameOf(outs.id[k]) + " (" + std::to_string(uint64_t{1} << outs.bits[k]) +
         ")";
  return "[" + s + "]";
}

bool sameOutDims(const LinearLayout& a, const LinearLayout& b) {
  if (a.outDims().count != b.outDims().count) return false;
  for (int k = 0; k < a.outDims().count; ++k) {
    int j = b.outDims().find(a.outDims().id[k]);
    if (j < 0 || b.outDims().bits[j] != a.outDims().bits[k]) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// Offset space: where each input bit of `dist` lands in `shared`.

struct BasisOffsets {
  std::vector<uint64_t> reg, lane, warp;

  uint64_t registerMask() const { return core::lowMask(static_cast<int>(reg.size())); }
  // Register bits whose basis is zero (offset 0 <=> the zero element, as
  // shared is invertible): duplicates, never accessed again.
  uint64_t zeroRegisters() const {
    uint64_t mask = 0;
    for (size_t j = 0; j < reg.size(); ++j)
      if (reg[j] == 0) mask |= uint64_t{1} << j;
    return mask;
  }
};

// shared^-1 of each packed column of `dist`: shared's columns (over dist's
// out-dim order) in a core::Echelon, each dist column reduced against it; the
// combination found is the offset (shared is invertible, checked before).
BasisOffsets basisOffsets(const LinearLayout& dist, const LinearLayout& shared) {
  LinearLayout s = shared.transposeOuts(dist.getOutDimNames());
  core::Echelon e = core::echelon(s.columns(), s.getTotalInDimSizeLog2());
  int firstOffsetBit = s.inDims().offset(s.inDims().find(intern("offset")));
  auto offsetsOf = [&](const char* dim) {
    std::vector<uint64_t> out;
    int d = dist.inDims().find(intern(dim));
    if (d < 0) return out;
    const uint64_t* cols = dist.columns() + dist.inDims().offset(d);
    for (int i = 0; i < dist.inDims().bits[d]; ++i) {
      uint64_t combination;
      e.reduce(cols[i], &combination);
      out.push_back(combination >> firstOffsetBit);
    }
    return out;
  };
  return {offsetsOf("register"), offsetsOf("lane"), offsetsOf("warp")};
}

// The OR of every offset but the register bits of `exceptRegs` and the lane
// bits of `exceptLanes`: its low zero bits are the alignment they all share.
uint64_t offsetsOr(const BasisOffsets& b, uint64_t exceptRegs, uint64_t exceptLanes) {
  uint64_t all = 0;
  for (size_t j = 0; j < b.reg.size(); ++j)
    if (!(exceptRegs >> j & 1)) all |= b.reg[j];
  for (size_t j = 0; j < b.lane.size(); ++j)
    if (!(exceptLanes >> j & 1)) all |= b.lane[j];
  for (uint64_t o : b.warp) all |= o;
  return all;
}

// The register bits of the widest vector, element bit k first: the lowest
// unused register bit at offset 2^k, while every other offset is a multiple
// of 2^(k+1) and the vector stays within 16 bytes.
std::vector<int> vectorBits(const BasisOffsets& b, uint64_t elementBytes) {
  std::vector<int> bits;
  uint64_t used = 0;
  while ((elementBytes << (bits.size() + 1)) <= 16) {
    uint64_t want = uint64_t{1} << bits.size();
    int found = -1;
    for (size_t j = 0; j < b.reg.size() && found < 0; ++j)
      if (!(used >> j & 1) && b.reg[j] == want) found = static_cast<int>(j);
    if (found < 0) break;
    uint64_t mine = used | uint64_t{1} << found;
    if (offsetsOr(b, mine, 0) & (2 * want - 1)) break;
    used = mine;
    bits.push_back(found);
  }
  return bits;
}

// The XOR of offsets[which[i]] over the set bits i of k: the offset of the
// input whose bits `which` are spread from k.
uint64_t xorOfBits(const std::vector<uint64_t>& offsets, const std::vector<int>& which,
                   uint64_t k) {
  uint64_t x = 0;
  for (size_t i = 0; i < which.size(); ++i)
    if (k >> i & 1) x ^= offsets[static_cast<size_t>(which[i])];
  return x;
}

// ---------------------------------------------------------------------------
// Lemma 9.4 by ranks (the reference's lemma94.cpp says where it is exact).

std::optional<WavefrontReport> lemmaByRank(const BasisOffsets& b, const AccessSpec& access) {
  const uint64_t w = access.elementBytes;
  uint64_t bytes = chosenVectorBytes(access, w << vectorBits(b, w).size());
  int v = std::countr_zero(bytes / w);
  if (bytes < 4) return std::nullopt;  // narrower than a bank
  uint64_t n = bytes / 4;
  int logN = std::countr_zero(n);
  bool quadMerges = b.lane[0] == 0 || b.lane[1] == 0;  // never lanes l and l^3
  if (access.kind == AccessKind::kLoad && n > 1 && quadMerges)
    return std::nullopt;  // the load's quad merge

  // Offset bits v .. v+slotBits-1 pick the vector's slot in a 128-byte row:
  // lanes of one transaction that agree there but differ elsewhere are one
  // bank's distinct words. U = span(L_Thr's offsets) (the transaction split
  // drops the last log2(n) lane bits); c = 2^dim(U ∩ {slot bits zero}).
  int slotBits = std::countr_zero(128 / bytes);
  uint64_t slotMask = core::lowMask(slotBits) << v;
  uint64_t thr[5], slots[5];
  int t = 5 - logN;
  for (int i = 0; i < t; ++i) {
    thr[i] = b.lane[static_cast<size_t>(i)];
    slots[i] = thr[i] & slotMask;
  }
  uint64_t c = uint64_t{1} << (core::rank(thr, t) - core::rank(slots, t));

  int nonzeroRegs = static_cast<int>(b.reg.size()) - std::popcount(b.zeroRegisters());
  uint64_t instructions = uint64_t{1} << (nonzeroRegs - v + static_cast<int>(b.warp.size()));
  WavefrontReport r;
  r.instructions = instructions;
  r.wavefronts = instructions * n * c;
  r.idealWavefronts = instructions * n;
  r.conflicts = r.wavefronts - r.idealWavefronts;
  r.vectorBytes = bytes;
  return r;
}

// ---------------------------------------------------------------------------
// The wavefront rule (device_tests/HARDWARE.md#banks) on byte addresses: a
// phase costs the largest number of distinct 4-byte words in one bank
// (bank = word mod 32; equal words are one, a broadcast).
//
// Accesses of at least 4 bytes are aligned to their width here, so one of
// `bytes` covers bytes/4 consecutive words of one 128-byte row, at the slot
// (address / bytes) mod (128 / bytes): two accesses' words share banks
// exactly when their slots are equal, and are distinct words when their
// units (address / bytes) differ. So the cost is the largest number of
// distinct units in one slot.
//
// Narrower accesses, aligned to their width, touch the one word they are in.

struct Cost {
  uint64_t wavefronts = 0, phases = 0;
};

uint64_t phaseCost(const uint64_t* addresses, size_t count, uint64_t bytes) {
  uint64_t keys[64];  // distinct units (wide) or words (narrow)
  uint64_t perBank[32] = {};
  size_t found = 0;
  uint64_t worst = 0;
  auto add = [&](uint64_t key, uint64_t bank) {
    if (std::find(keys, keys + found, key) != keys + found) return;
    keys[found++] = key;
    worst = std::max(worst, ++perBank[bank]);
  };
  if (bytes >= 4) {
    const uint64_t slots = 128 / bytes;
    for (size_t i = 0; i < count; ++i) {
      uint64_t unit = addresses[i] / bytes;
      add(unit, unit % slots);
    }
  } else {
    for (size_t i = 0; i < count; ++i) {
      uint64_t word = addresses[i] / 4;
      add(word, word % 32);
    }
  }
  return worst;
}

// `count` accesses cut into phases of `size`, in order.
void addPhases(const uint64_t* addresses, size_t count, size_t size, uint64_t bytes, Cost& cost) {
  for (size_t start = 0; start < count; start += size) {
    cost.wavefronts += phaseCost(addresses + start, std::min(size, count - start), bytes);
    ++cost.phases;
  }
}

// Lanes [begin, end) in lane order, leaving out a load's merged lanes: those
// repeating the address of lane l^1 or l^2 below them (the quad neighbours the
// H100 merges; never l^3, finding W1); returns how many are kept.
size_t quadMerged(const uint64_t* lanes, size_t begin, size_t end, uint64_t* out) {
  size_t kept = 0;
  for (size_t l = begin; l < end; ++l) {
    bool pairMerge = (l & 1) && lanes[l - 1] == lanes[l];
    bool halfQuadMerge = (l & 2) && lanes[l - 2] == lanes[l];
    if (!pairMerge && !halfQuadMerge) out[kept++] = lanes[l];
  }
  return kept;
}

// One ld/st.shared of `bytes` per lane; lanes[l] is lane l's byte address.
Cost vectorCost(AccessKind kind, uint64_t bytes, const uint64_t (&lanes)[32]) {
  Cost cost;
  if (bytes <= 4) {  // the whole warp, one phase
    addPhases(lanes, 32, 32, bytes, cost);
  } else if (kind == AccessKind::kStore) {  // fixed phases of 16 / 8 lanes
    addPhases(lanes, 32, 128 / bytes, bytes, cost);
  } else if (bytes == 8) {  // the warp, quads merged, phases of 16
    uint64_t kept[32];
    addPhases(kept, quadMerged(lanes, 0, 32, kept), 16, bytes, cost);
  } else {  // 16 bytes: each half-warp, quads merged, phases of 8
    for (size_t half = 0; half < 32; half += 16) {
      uint64_t kept[16];
      addPhases(kept, quadMerged(lanes, half, half + 16, kept), 8, bytes, cost);
    }
  }
  return cost;
}

// ---------------------------------------------------------------------------
// ldmatrix / stmatrix lowering (reference bank_conflicts.h), on offsets.

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

WavefrontReport enumerateOnOffsets(const BasisOffsets& b, const AccessSpec& access) {
  const uint64_t w = access.elementBytes;
  WavefrontReport report;
  Cost total;
  uint64_t grouped = b.zeroRegisters();
  if (access.instruction == Instruction::kVector) {
    std::vector<int> bits = vectorBits(b, w);
    uint64_t bytes = chosenVectorBytes(access, w << bits.size());
    for (int k = 0; (w << k) < bytes; ++k) grouped |= uint64_t{1} << bits[static_cast<size_t>(k)];
    std::vector<int> laneBits = {0, 1, 2, 3, 4};
    uint64_t laneOffset[32];
    for (uint64_t l = 0; l < 32; ++l) laneOffset[l] = xorOfBits(b.lane, laneBits, l);
    report.vectorBytes = bytes;
    forEachInstruction(b, grouped, [&](uint64_t base) {
      uint64_t lanes[32];
      for (size_t l = 0; l < 32; ++l) lanes[l] = (base ^ laneOffset[l]) * w;
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
        for (size_t r = 0; r < 8; ++r) rows[r] = (base ^ matrixOffset[i] ^ rowOffset[r]) * w;
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

}  // namespace

void checkBankAccess(const LinearLayout& dist, const LinearLayout& shared,
                     const AccessSpec& access) {
  checkInDims(dist, "distributed", {"register", "lane", "warp"});
  checkInDims(shared, "memory", {"offset"});
  if (shared.inDims().find(intern("offset")) < 0)
    throw Error(kWhat + "the memory layout has no in dim 'offset'");
  if (bitsOf(dist, "lane") != 5)
    throw Error(kWhat + "the distributed layout has " +
                std::to_string(uint64_t{1} << bitsOf(dist, "lane")) +
                " lanes; the wavefront rule (device_tests/HARDWARE.md) is for warps of 32");
  if (!sameOutDims(dist, shared))
    throw Error(kWhat + "the distributed layout maps to " + outDimsText(dist) +
                " but the memory layout to " + outDimsText(shared) +
                "; they must map to the same out dims (names and sizes)");
  if (!shared.isInvertible())
    throw Error(kWhat +
                "the memory layout is not invertible (Def 4.14): some offsets hold "
                "the same element or some element has no offset");
  uint64_t w = access.elementBytes;
  if (w != 1 && w != 2 && w != 4 && w != 8 && w != 16)
    throw Error(kWhat + "element_bytes = " + std::to_string(w) + " must be 1, 2, 4, 8 or 16");
  if (access.instruction != Instruction::kVector) {
    if (w != 2)
      throw Error(kWhat +
                  "ldmatrix/stmatrix are modelled for b16 elements only "
                  "(element_bytes = 2), not element_bytes = " +
                  std::to_string(w));
    if (access.vectorBytes)
      throw Error(kWhat + "vector_bytes does not apply to ldmatrix/stmatrix (rows are 16 bytes)");
  }
  int offsetBits = bitsOf(shared, "offset");
  if (offsetBits > kMaxBankSimulationBits)
    throw Error(kWhat + "the memory layout has 2^" + std::to_string(offsetBits) +
                " offsets; at most 2^" + std::to_string(kMaxBankSimulationBits) + " are simulated");
  int accessBits = bitsOf(dist, "register") + bitsOf(dist, "lane") + bitsOf(dist, "warp");
  if (accessBits > kMaxBankSimulationBits)
    throw Error(kWhat + "the distributed layout makes 2^" + std::to_string(accessBits) +
                " element accesses; at most 2^" + std::to_string(kMaxBankSimulationBits) +
                " are simulated");
}

uint64_t chosenVectorBytes(const AccessSpec& access, uint64_t widest) {
  if (!access.vectorBytes) return widest;
  uint64_t v = *access.vectorBytes, w = access.elementBytes;
  std::string named = "vector_bytes = " + std::to_string(v);
  if (!std::has_single_bit(v)) throw Error(kWhat + named + " is not a power of two");
  if (v < w)
    throw Error(kWhat + named + " is not a multiple of element_bytes = " + std::to_string(w));
  if (v > 16) throw Error(kWhat + named + " is more than 16, the widest ld/st.shared");
  if (v > widest)
    throw Error(kWhat + named + " is wider than this layout allows on this memory layout (" +
                std::to_string(widest) +
                " bytes: registers at offsets 1, 2, 4, ... with every "
                "other basis aligned)");
  return v;
}

uint64_t widestVectorBytes(const LinearLayout& dist, const LinearLayout& shared,
                           uint64_t elementBytes) {
  AccessSpec access;
  access.elementBytes = elementBytes;
  checkBankAccess(dist, shared, access);
  return elementBytes << vectorBits(basisOffsets(dist, shared), elementBytes).size();
}

std::optional<WavefrontReport> lemma94(const LinearLayout& dist, const LinearLayout& shared,
                                       const AccessSpec& access) {
  checkBankAccess(dist, shared, access);
  if (access.instruction != Instruction::kVector) return std::nullopt;  // not the lemma's
  return lemmaByRank(basisOffsets(dist, shared), access);
}

WavefrontReport bankConflictsWithPath(const LinearLayout& dist, const LinearLayout& shared,
                                      const AccessSpec& access, BankPath& path) {
  checkBankAccess(dist, shared, access);
  BasisOffsets b = basisOffsets(dist, shared);
  if (access.instruction == Instruction::kVector) {
    if (std::optional<WavefrontReport> exact = lemmaByRank(b, access)) {
      path = BankPath::kRank;
      return *exact;
    }
  }
  path = BankPath::kEnumeration;
  return enumerateOnOffsets(b, access);
}

WavefrontReport bankConflicts(const LinearLayout& dist, const LinearLayout& shared,
                              const AccessSpec& access) {
  BankPath path;
  return bankConflictsWithPath(dist, shared, access, path);
}

WavefrontReport enumerateBankConflicts(const LinearLayout& dist, const LinearLayout& shared,
                                       const AccessSpec& access) {
  checkBankAccess(dist, shared, access);
  return enumerateOnOffsets(basisOffsets(dist, shared), access);
}

}  // namespace f2lay::opt::analysis
