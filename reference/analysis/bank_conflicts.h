// Shared-memory bank conflicts of a distributed layout accessing a memory
// layout: how many wavefronts its warp instructions take (paper §5.4, Lemma
// 9.4), two ways that share no code:
//   * simulateBankConflicts enumerates every lane's byte addresses in every
//     instruction (by apply only) and applies the wavefront rule measured on
//     an H100 (../shared/HARDWARE.md, wavefront_rule.h). It is the truth.
//   * lemma94 is the paper's closed form, from the spans of the layouts'
//     bases; it answers only where the lemma says it is exact.
//
// The access. `dist` maps register, lane, warp (and optionally a block of
// size 1) to the tensor; `shared` maps offset (and optionally a block of size
// 1) to the same tensor, and must be invertible (Def 4.14). Element (r, l, w)
// lives at offset shared^-1(dist(r, l, w)), byte address offset * elementBytes.
// Each warp issues one instruction per group of 2^k registers that form one
// vector: register bits whose images are the offsets 1, 2, ..., 2^(k-1)
// (Generalized Vectorization, §5.3: any register bits may be used, in offset
// order). Registers whose basis is zero hold duplicates and are not accessed
// again; lanes and warps with zero bases access the same addresses
// (broadcast). Totals are over every instruction of every warp, as ncu's
// `.sum` counters count them for one CTA.
#pragma once

#include <cstdint>
#include <optional>

#include "linear_layout.h"

namespace f2lay::ref::analysis {

enum class AccessKind { kLoad, kStore };
// kVector: ld.shared / st.shared of vectorBytes per lane.
// kMatrix: ldmatrix / stmatrix .x4 (x1, x2 when fewer register bits are
// left), 16-byte rows, the ownership of HARDWARE.md; kMatrixTrans: .trans.
enum class Instruction { kVector, kMatrix, kMatrixTrans };

struct AccessSpec {
  AccessKind kind = AccessKind::kLoad;
  uint64_t elementBytes = 4;  // 1, 2, 4, 8 or 16
  // Bytes per lane per ld/st.shared: a power of two, a multiple of
  // elementBytes, at most 16, and no wider than the layout allows.
  // nullopt: the widest the layout allows (widestVectorBytes).
  std::optional<uint64_t> vectorBytes;
  Instruction instruction = Instruction::kVector;
};

struct WavefrontReport {
  uint64_t instructions = 0;     // warp instructions, all warps
  uint64_t wavefronts = 0;       // summed over them
  uint64_t idealWavefronts = 0;  // phases: 1 per instruction up to 4 bytes, 2 for 8, 4 for 16
  uint64_t conflicts = 0;        // wavefronts - idealWavefronts
  friend bool operator==(const WavefrontReport&, const WavefrontReport&) = default;
};

// The widest vector (bytes per lane, at most 16) that `dist` can use on
// `shared`: elementBytes * 2^k for the k of the header comment.
uint64_t widestVectorBytes(const LinearLayout& dist, const LinearLayout& shared,
                           uint64_t elementBytes);

// The truth, by enumeration. Throws f2lay::Error naming what is wrong
// (dims, sizes, widths, a layout ldmatrix cannot lower).
WavefrontReport simulateBankConflicts(const LinearLayout& dist, const LinearLayout& shared,
                                      const AccessSpec& access);

// Lemma 9.4: c = |span(S_Vec ∪ S_Idx) ∩ span(L_Thr)| wavefronts per
// instruction, times n = 2^v w / 4 when each vector covers n >= 1 banks.
// nullopt where the lemma is not exact (vectors narrower than a bank, or an
// access the lemma does not model).
std::optional<WavefrontReport> lemma94(const LinearLayout& dist, const LinearLayout& shared,
                                       const AccessSpec& access);

}  // namespace f2lay::ref::analysis
