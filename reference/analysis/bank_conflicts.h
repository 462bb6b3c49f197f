// Shared-memory bank conflicts of a distributed layout accessing a memory
// layout: how many wavefronts its warp instructions take (paper §5.4, Lemma
// 9.4), two ways that share no code:
//   * simulateBankConflicts enumerates every lane's byte addresses in every
//     instruction (by apply only) and applies the wavefront rule measured on
//     an H100 (device_tests/HARDWARE.md, wavefront_rule.h). It is the truth.
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
// order), provided every other register, lane and warp basis lands on an
// offset that is a multiple of 2^k (so each lane's vector is one aligned
// block of 2^k elements, register order = offset order). Registers whose basis
// is zero hold duplicates and are not accessed again; lanes and warps with
// zero bases access the same addresses (broadcast). Totals are over every
// instruction of every warp, as ncu's `.sum` counters count them for one CTA.
// The lane dim must have exactly 32 lanes (the rule is the H100's); an
// enumeration of more than 2^24 element accesses or offsets is refused.
//
// ldmatrix / stmatrix (b16 only, device_tests/HARDWARE.md#matrix-ownership):
// the layout is lowered onto the m8n8 tile of catalog/ldmatrix.h.
//   not transposed: a register bit h at offset +1 element (any register bit,
//     as in Generalized Vectorization), lane bits 0, 1 at offsets +2, +4: a
//     16-byte row; lane bits 2, 3, 4 pick the 8 rows (any offsets).
//   .trans: lane bits 2, 3, 4 at offsets +1, +2, +4 (a row's 8 elements); h
//     is the lowest other nonzero register bit; h and lane bits 0, 1 pick the
//     rows.
// Every other basis must land on a multiple of 8 elements (16-byte aligned
// rows). The next nonzero register bits, lowest first, up to two, pick the
// matrix of a .x4 (.x2 / .x1 when fewer are left); the remaining nonzero
// register bits select instructions. Row r of matrix i (given by lane 8i+r)
// is the address of the element of that row at column 0.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "reference/analysis/wavefront_rule.h"
#include "reference/linear_layout.h"

namespace f2lay::ref::analysis {

// AccessKind (load or store) is in wavefront_rule.h.
// kVector: ld.shared / st.shared of vectorBytes per lane.
// kMatrix: ldmatrix / stmatrix .x4 (x1, x2 when fewer register bits are
// left), 16-byte rows, the ownership of
// device_tests/HARDWARE.md#matrix-ownership; kMatrixTrans: .trans.
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
  uint64_t instructions = 0;  // warp instructions, all warps
  uint64_t wavefronts = 0;    // summed over them
  // The phases formed (wavefront_rule.h): 1 per instruction up to 4 bytes, 2
  // for 8, 4 for 16, one per matrix; fewer for loads whose quads repeat
  // addresses (the load's quad merge, wavefront_rule.h).
  uint64_t idealWavefronts = 0;
  uint64_t conflicts = 0;  // wavefronts - idealWavefronts
  // Bytes per lane per access: the vector width used, or 16 (a matrix row)
  // for ldmatrix / stmatrix.
  uint64_t vectorBytes = 0;
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
// errors as the simulator for invalid input (bank_access_checks.h).
std::optional<WavefrontReport> lemma94(const LinearLayout& dist, const LinearLayout& shared,
                                       const AccessSpec& access);

}  // namespace f2lay::ref::analysis
