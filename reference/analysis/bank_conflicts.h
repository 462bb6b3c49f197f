// Shared-memory bank conflicts of a distributed layout accessing a memory
// layout: how many wavefronts its warp instructions take (paper §5.4, Lemma
// 9.4), two ways that share no code:
//   * simulateBankConflicts enumerates every lane's byte addresses in every
//     instruction (by apply only) and applies the wavefront rule measured on
//     an H100 (device_tests/HARDWARE.md, wavefront_rule.h). It is the truth.
//   * lemma94 is the paper's closed form, from the spans of the layouts'
//     bases; it answers only where the lemma says it is exact.
//
// The access, the vector and the ldmatrix lowering are analysis/bank_access.h's,
// which declares the request and report types and the checks both share.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/bank_access.h"
#include "reference/analysis/wavefront_rule.h"
#include "reference/linear_layout.h"

namespace f2lay::ref::analysis {

// The widest vector (bytes per lane, at most 16) that `dist` can use on
// `shared`: elementBytes * 2^k for the k of analysis/bank_access.h.
uint64_t widestVectorBytes(const LinearLayout& dist, const LinearLayout& shared,
                           uint64_t elementBytes);

// The truth, by enumeration. Throws f2lay::Error naming what is wrong
// (dims, sizes, widths, a layout ldmatrix cannot lower).
WavefrontReport simulateBankConflicts(const LinearLayout& dist, const LinearLayout& shared,
                                      const AccessSpec& access);

// One instruction of one warp, as the simulator sees it (for `f2lay show`).
struct InstructionAccess {
  std::vector<uint64_t> registers;   // the registers it moves, vector order
  std::vector<LaneAccess> lanes;     // kVector: each lane's byte address
  std::vector<MatrixRows> matrices;  // kMatrix*: row addresses per matrix
  uint64_t bytes = 0;                // per lane (kVector) or per row (16)
  WavefrontCount cost;
};

// Every instruction of warp `warp`, in register order, with its cost. Same
// checks and errors as simulateBankConflicts, and warp must exist.
std::vector<InstructionAccess> warpAccesses(const LinearLayout& dist, const LinearLayout& shared,
                                            const AccessSpec& access, uint64_t warp);

// Lemma 9.4: c = |span(S_Vec ∪ S_Idx) ∩ span(L_Thr)| wavefronts per
// instruction, times n = 2^v w / 4 when each vector covers n >= 1 banks.
// nullopt where the lemma is not exact (lemma94.cpp says why): vectors
// narrower than a bank, ldmatrix / stmatrix, and loads of 8 or 16 bytes where
// lane bit 0 or 1 has a zero offset (lanes l and l^1 or l^2 read one address,
// which the load's quad merge serves once). Throws the same
// errors as the simulator for invalid input (checkBankAccess).
std::optional<WavefrontReport> lemma94(const LinearLayout& dist, const LinearLayout& shared,
                                       const AccessSpec& access);

}  // namespace f2lay::ref::analysis
