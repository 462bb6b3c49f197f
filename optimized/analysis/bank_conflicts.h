// Shared-memory bank conflicts (paper §5.4, Lemma 9.4) on packed layouts: the
// access, the report and the checks of analysis/bank_access.h (which says what
// the access, the vector and the ldmatrix lowering are), answered on f2lay::opt
// only: a different implementation from the reference's simulator.
//
// Both models work in offset space: the offset of every input bit of `dist`
// (shared^-1 applied to its packed column, solved on core::Echelon), so an
// element's offset is the XOR of the offsets of its set input bits.
//   * lemma94: the closed form by ranks. A transaction's lanes are a coset of
//     U = span(the offsets of L_Thr); the lanes falling in one bank but
//     different rows are U ∩ K, K the offsets whose bank-slot bits (offset
//     bits v .. v+b-1) are zero, and dim(U ∩ K) = rank(U) - rank(U masked to
//     the slot bits). nullopt exactly where the reference's is.
//   * bankConflicts: the WavefrontReport of the reference's simulator. Where
//     lemma94 answers it is that answer (the lemma is exact there, for any
//     linear `dist`: lemma94.cpp's argument needs only linearity and an
//     invertible `shared`); elsewhere (vectors under 4 bytes, quad-merged
//     8/16-byte loads, ldmatrix / stmatrix) every lane's byte address of every
//     warp instruction is enumerated from the packed offsets and costed by the
//     H100 wavefront rule (device_tests/HARDWARE.md), written here on packed
//     data.
#pragma once

#include <cstdint>
#include <optional>

#include "analysis/bank_access.h"
#include "optimized/opt_linear_layout.h"

namespace f2lay::opt::analysis {

// The widest vector (bytes per lane, at most 16) `dist` can use on `shared`.
uint64_t widestVectorBytes(const LinearLayout& dist, const LinearLayout& shared,
                           uint64_t elementBytes);

// Lemma 9.4 by ranks; nullopt where it is not exact.
std::optional<WavefrontReport> lemma94(const LinearLayout& dist, const LinearLayout& shared,
                                       const AccessSpec& access);

// The reference simulator's report: by rank where Lemma 9.4 is exact, by
// enumeration elsewhere.
WavefrontReport bankConflicts(const LinearLayout& dist, const LinearLayout& shared,
                              const AccessSpec& access);

// Which way bankConflicts answered.
enum class BankPath { kRank, kEnumeration };
WavefrontReport bankConflictsWithPath(const LinearLayout& dist, const LinearLayout& shared,
                                      const AccessSpec& access, BankPath& path);

// The enumeration alone, for every access (tests check it where the rank
// path would answer too).
WavefrontReport enumerateBankConflicts(const LinearLayout& dist, const LinearLayout& shared,
                                       const AccessSpec& access);

}  // namespace f2lay::opt::analysis
