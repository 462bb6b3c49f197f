// The rules a bank-conflict question must follow (bank_conflicts.h), checked
// once for both models (the simulator and Lemma 9.4), so they refuse the same
// inputs with the same messages. Only checks: neither model's arithmetic is
// here.
#pragma once

#include <cstdint>

#include "reference/analysis/bank_conflicts.h"

namespace f2lay::ref::analysis {

// The largest enumeration the simulator runs: element accesses, or offsets.
inline constexpr int kMaxBankSimulationBits = 24;

// Throws f2lay::Error naming the problem unless: dist's in dims are register,
// lane (exactly 32), warp and a block of size 1; shared's are offset and a
// block of size 1; both map to the same out dims (names and sizes, any
// order); shared is invertible; elementBytes is 1, 2, 4, 8 or 16 (2 for
// ldmatrix/stmatrix, which take no vectorBytes); and the enumeration stays
// within 2^kMaxBankSimulationBits.
void checkBankAccess(const LinearLayout& dist, const LinearLayout& shared,
                     const AccessSpec& access);

// The vector width to use: access.vectorBytes checked (a power of two, a
// multiple of elementBytes, at most 16, at most `widest`), or `widest`.
uint64_t chosenVectorBytes(const AccessSpec& access, uint64_t widest);

}  // namespace f2lay::ref::analysis
