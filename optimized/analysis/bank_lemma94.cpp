// Lemma 9.4 by ranks (the reference's lemma94.cpp says where it is exact).
#include <bit>
#include <optional>

#include "optimized/analysis/bank_detail.h"

namespace f2lay::opt::analysis::bank_detail {

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
  return uniformReport(instructions, n, n * c, bytes);
}

}  // namespace f2lay::opt::analysis::bank_detail
