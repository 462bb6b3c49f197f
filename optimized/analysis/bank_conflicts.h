// Shared-memory bank conflicts (paper §5.4, Lemma 9.4) on packed layouts: the
// contract, results and messages of reference/analysis/bank_conflicts.h
// (which says what the access, the vector and the ldmatrix lowering are) and
// bank_access_checks.h, written against f2lay::opt only.
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

#include "optimized/opt_linear_layout.h"

namespace f2lay::opt::analysis {

enum class AccessKind { kLoad, kStore };

// kVector: ld.shared / st.shared of vectorBytes per lane; kMatrix: ldmatrix /
// stmatrix .x4 (.x1, .x2 when fewer register bits are left); kMatrixTrans:
// their .trans.
enum class Instruction { kVector, kMatrix, kMatrixTrans };

struct AccessSpec {
  AccessKind kind = AccessKind::kLoad;
  uint64_t elementBytes = 4;  // 1, 2, 4, 8 or 16
  // A power of two, a multiple of elementBytes, at most 16 and at most the
  // widest the layouts allow; nullopt: the widest (widestVectorBytes).
  std::optional<uint64_t> vectorBytes;
  Instruction instruction = Instruction::kVector;
};

struct WavefrontReport {
  uint64_t instructions = 0;     // warp instructions, all warps
  uint64_t wavefronts = 0;       // summed over them
  uint64_t idealWavefronts = 0;  // the phases formed
  uint64_t conflicts = 0;        // wavefronts - idealWavefronts
  uint64_t vectorBytes = 0;      // bytes per lane per access (16 for matrices)
  friend bool operator==(const WavefrontReport&, const WavefrontReport&) = default;
};

// The largest enumeration: element accesses, or offsets.
inline constexpr int kMaxBankSimulationBits = 24;

// The rules of reference/analysis/bank_access_checks.h, with its messages.
void checkBankAccess(const LinearLayout& dist, const LinearLayout& shared,
                     const AccessSpec& access);
// access.vectorBytes checked against `widest`, or `widest`.
uint64_t chosenVectorBytes(const AccessSpec& access, uint64_t widest);

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
