// Internal to the bank-conflict analysis (bank_conflicts.h is the public
// header): what its files share. The offset space (bank_offsets.cpp) and the
// two ways of costing a layout on it: Lemma 9.4 by ranks (bank_lemma94.cpp) and
// the enumeration of every instruction of every warp (bank_enumeration.cpp),
// costed by the H100 wavefront rule (bank_wavefronts.cpp). The entry points
// and the access checks are in bank_conflicts.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "optimized/analysis/bank_conflicts.h"

namespace f2lay::opt::analysis::bank_detail {

// The prefix of every message (analysis/bank_access.h).
using f2lay::analysis::bank_access_detail::kWhat;

// --- bank_offsets.cpp: where each input bit of `dist` lands in `shared` ------

struct BasisOffsets {
  std::vector<uint64_t> reg, lane, warp;
  // The padding's limit on a vector, in elements (analysis/padding.h); set by
  // the enumeration's callers, the maximum when unpadded.
  uint64_t vectorLimit = ~uint64_t{0};

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

// shared^-1 of each packed column of `dist` (shared is invertible, checked
// before).
BasisOffsets basisOffsets(const LinearLayout& dist, const LinearLayout& shared);
// The OR of every offset but the register bits of `exceptRegs` and the lane
// bits of `exceptLanes`.
uint64_t offsetsOr(const BasisOffsets& b, uint64_t exceptRegs, uint64_t exceptLanes);
// The register bits of the widest vector, element bit k first.
std::vector<int> vectorBits(const BasisOffsets& b, uint64_t elementBytes);
// The XOR of offsets[which[i]] over the set bits i of k.
uint64_t xorOfBits(const std::vector<uint64_t>& offsets, const std::vector<int>& which, uint64_t k);

// --- bank_lemma94.cpp --------------------------------------------------------

// Lemma 9.4 by ranks; nullopt where it is not exact.
std::optional<WavefrontReport> lemmaByRank(const BasisOffsets& b, const AccessSpec& access);

// --- bank_wavefronts.cpp: the wavefront rule on byte addresses ---------------

struct Cost {
  uint64_t wavefronts = 0, phases = 0;
};

// `count` accesses cut into phases of `size`, in order, added to `cost`.
void addPhases(const uint64_t* addresses, size_t count, size_t size, uint64_t bytes, Cost& cost);
// One ld/st.shared of `bytes` per lane; lanes[l] is lane l's byte address.
Cost vectorCost(AccessKind kind, uint64_t bytes, const uint64_t (&lanes)[32]);

// --- bank_enumeration.cpp ----------------------------------------------------

// Every lane's byte address of every warp instruction, costed by the
// wavefront rule (vectors, and ldmatrix / stmatrix lowered on the offsets).
WavefrontReport enumerateOnOffsets(const BasisOffsets& b, const AccessSpec& access);

}  // namespace f2lay::opt::analysis::bank_detail
