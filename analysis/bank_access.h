// A shared-memory access by a distributed layout (paper §5.4, Lemma 9.4):
// what it is, what its cost report holds, and the rules a question about it
// must follow. Declared once for every model that answers it: the
// reference's simulator (the truth, reference/analysis/bank_simulator.cpp)
// and Lemma 9.4 (reference/analysis/lemma94.cpp), f2lay::opt's fast rank and
// enumeration paths (optimized/analysis/bank_conflicts.h), and optimal
// swizzling's instructions. So they all refuse the same inputs with the same
// messages. Only checks are here: no model's arithmetic.
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
// Padded memory (AccessSpec::padding, analysis/padding.h): element offset o
// is at byte address P(o) * elementBytes instead. Vectors are as above and
// at most paddedVectorLimit elements, so that each stays consecutive and
// aligned at padded addresses; ldmatrix / stmatrix need that limit to be at
// least 8 (a 16-byte row). Lemma 9.4 is not exact there (P is not linear):
// only the enumerating models answer.
//
// ldmatrix / stmatrix (b16 only, device_tests/HARDWARE.md#matrix-ownership):
// the layout is lowered onto the m8n8 tile of reference/catalog/ldmatrix.h.
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

#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/layout_api.h"
#include "analysis/padding.h"
#include "analysis/space.h"
#include "formats/error.h"

namespace f2lay::analysis {

enum class AccessKind { kLoad, kStore };

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
  // The memory layout's padding (padded_shared); empty: none.
  Padding padding;
};

struct WavefrontReport {
  uint64_t instructions = 0;  // warp instructions, all warps
  uint64_t wavefronts = 0;    // summed over them
  // The phases formed (reference/analysis/wavefront_rule.h): 1 per
  // instruction up to 4 bytes, 2 for 8, 4 for 16, one per matrix; fewer for
  // loads whose quads repeat addresses (the load's quad merge).
  uint64_t idealWavefronts = 0;
  uint64_t conflicts = 0;  // wavefronts - idealWavefronts
  // Bytes per lane per access: the vector width used, or 16 (a matrix row)
  // for ldmatrix / stmatrix.
  uint64_t vectorBytes = 0;
  friend bool operator==(const WavefrontReport&, const WavefrontReport&) = default;
};

// The report of `instructions` warp instructions that each form `phases`
// phases and take `wavefronts` wavefronts (the closed forms' uniform case).
//   Requires: wavefronts >= phases.
//   Ensures: totals are per-instruction values times instructions;
//     conflicts == wavefronts - idealWavefronts.
[[nodiscard]] inline WavefrontReport uniformReport(uint64_t instructions, uint64_t phases,
                                                   uint64_t wavefronts, uint64_t vectorBytes) {
  return {instructions, instructions * wavefronts, instructions * phases,
          instructions * (wavefronts - phases), vectorBytes};
}

// The largest enumeration a model runs: element accesses, or offsets.
inline constexpr int kMaxBankSimulationBits = 24;

namespace bank_access_detail {

inline const std::string kWhat = "bank conflicts: ";

template <LayoutApi L>
[[nodiscard]] int bitsOf(const L& l, const char* dim) {
  return l.hasInDim(dim) ? l.getInDimSizeLog2(dim) : 0;
}

// Every in dim of `l` is one of `allowed`, or a block of size 1 (one CTA:
// shared memory is per CTA).
template <LayoutApi L>
void checkInDims(const L& l, const char* which, const std::vector<std::string>& allowed) {
  for (const std::string& d : l.getInDimNames()) {
    bool ok = false;
    for (const std::string& a : allowed) ok = ok || d == a;
    if (ok) continue;
    if (d == "block") {
      if (l.getInDimSizeLog2(d) == 0) continue;
      throw Error(kWhat + "the " + which + " layout has in dim 'block' of size " +
                  std::to_string(uint64_t{1} << l.getInDimSizeLog2(d)) +
                  "; shared memory is per CTA, so only a block of size 1 is allowed");
    }
    std::string list;
    for (const std::string& a : allowed) list += a + ", ";
    throw Error(kWhat + "the " + which + " layout has in dim '" + d + "'; expected " + list +
                "and optionally block (size 1)");
  }
}

template <LayoutApi L>
[[nodiscard]] std::string dimList(const L& l) {
  std::string s;
  for (const std::string& d : l.getOutDimNames())
    s += (s.empty() ? "" : ", ") + d + " (" + std::to_string(l.getOutDimSize(d)) + ")";
  return "[" + s + "]";
}

}  // namespace bank_access_detail

// Checks an access against the rules above, for every model alike.
//   Requires: dist's in dims are register, lane (exactly 32), warp and
//     optionally a block of size 1; shared's are offset and optionally a
//     block of size 1; both map to the same out dims (names and sizes, any
//     order); shared is invertible; elementBytes is 1, 2, 4, 8 or 16 (2 for
//     ldmatrix/stmatrix, which take no vectorBytes); a padding passes
//     checkPadding and leaves ldmatrix/stmatrix rows of 8 elements; the
//     enumeration stays within 2^kMaxBankSimulationBits offsets and element
//     accesses.
//   Throws f2lay::Error "bank conflicts: ..." naming the first rule broken
//     (e.g. "the distributed layout has 64 lanes; the wavefront rule
//     (device_tests/HARDWARE.md) is for warps of 32", "the memory layout is
//     not invertible (Def 4.14): ..."); returns otherwise.
//   Ensures, on return: the access follows the rules above, but for a
//     requested vectorBytes, which chosenVectorBytes checks against the
//     widest the layouts allow.
template <LayoutApi L>
void checkBankAccess(const L& dist, const L& shared, const AccessSpec& access) {
  using namespace bank_access_detail;
  checkInDims(dist, "distributed", {"register", "lane", "warp"});
  checkInDims(shared, "memory", {"offset"});
  if (!shared.hasInDim("offset")) throw Error(kWhat + "the memory layout has no in dim 'offset'");
  if (bitsOf(dist, "lane") != 5)
    throw Error(kWhat + "the distributed layout has " +
                std::to_string(uint64_t{1} << bitsOf(dist, "lane")) +
                " lanes; the wavefront rule (device_tests/HARDWARE.md) is for warps of 32");
  bool sameOuts = dist.getOutDimNames().size() == shared.getOutDimNames().size();
  for (const std::string& d : dist.getOutDimNames())
    sameOuts = sameOuts && shared.hasOutDim(d) && shared.getOutDimSize(d) == dist.getOutDimSize(d);
  if (!sameOuts)
    throw Error(kWhat + "the distributed layout maps to " + dimList(dist) +
                " but the memory layout to " + dimList(shared) +
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
  if (!access.padding.empty()) {
    checkPadding(access.padding, kWhat + "padding");
    uint64_t limit = paddedVectorLimit(access.padding, uint64_t{1} << bitsOf(shared, "offset"));
    if (access.instruction != Instruction::kVector && limit < 8)
      throw Error(kWhat + "ldmatrix/stmatrix rows are 8 elements, but the padding allows " +
                  std::to_string(limit) +
                  " consecutive aligned elements (the smallest interval or padding that pads "
                  "inside the layout)");
  }
  if (bitsOf(shared, "offset") > kMaxBankSimulationBits)
    throw Error(kWhat + "the memory layout has 2^" + std::to_string(bitsOf(shared, "offset")) +
                " offsets; at most 2^" + std::to_string(kMaxBankSimulationBits) + " are simulated");
  int accessBits = bitsOf(dist, "register") + bitsOf(dist, "lane") + bitsOf(dist, "warp");
  if (accessBits > kMaxBankSimulationBits)
    throw Error(kWhat + "the distributed layout makes 2^" + std::to_string(accessBits) +
                " element accesses; at most 2^" + std::to_string(kMaxBankSimulationBits) +
                " are simulated");
}

// The widest vector the padding allows, in elements (analysis/padding.h):
// the maximum uint64_t when the memory layout is not padded inside. Requires
// a padding that passes checkPadding; never throws.
template <LayoutApi L>
[[nodiscard]] uint64_t paddedVectorElements(const L& shared, const AccessSpec& access) {
  return paddedVectorLimit(access.padding,
                           uint64_t{1} << bank_access_detail::bitsOf(shared, "offset"));
}

// Whether the access's padding pads inside `shared` (so addresses are not
// linear in the offset). Never throws.
template <LayoutApi L>
[[nodiscard]] bool paddedInside(const L& shared, const AccessSpec& access) {
  return padsInside(access.padding, uint64_t{1} << bank_access_detail::bitsOf(shared, "offset"));
}

// The vector width to use: access.vectorBytes checked, or `widest` when it
// is not given.
//   Requires: access.vectorBytes, when given, is a power of two, a multiple
//     of elementBytes, at most 16, and at most `widest` (the widest the
//     layouts allow, in bytes).
//   Throws f2lay::Error "bank conflicts: vector_bytes = v is not a power of
//     two" / "... is not a multiple of element_bytes = w" / "... is more than
//     16, the widest ld/st.shared" / "... is wider than this layout allows on
//     this memory layout (n bytes: ...)" otherwise.
//   Ensures: the result is *access.vectorBytes, or widest.
[[nodiscard]] inline uint64_t chosenVectorBytes(const AccessSpec& access, uint64_t widest) {
  using bank_access_detail::kWhat;
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
                "other basis aligned" +
                (access.padding.empty() ? std::string()
                                        : std::string(", and no more elements than the smallest "
                                                      "interval and padding that pad inside the "
                                                      "layout")) +
                ")");
  return v;
}

}  // namespace f2lay::analysis
