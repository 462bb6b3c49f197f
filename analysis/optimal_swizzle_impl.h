// The construction of optimal_swizzle.h (paper §5.4 "Optimal Swizzling",
// §9.2), for the layout type L and its F2 space backend (space.h). Included
// only where an implementation instantiates the constructions
// (F2LAY_INSTANTIATE_OPTIMAL_SWIZZLE).
#pragma once

#include <algorithm>
#include <bit>

#include "analysis/optimal_swizzle.h"
#include "formats/error.h"
#include "formats/layout_value.h"

namespace f2lay::analysis {

namespace swizzle_detail {

constexpr uint64_t kBankRowBytes = 128;   // 32 banks of 4 bytes
constexpr uint64_t kMaxVectorBytes = 16;  // ld/st.shared.v4.b32

template <class L>
void checkDistributed(const L& l, const char* which) {
  for (const std::string& d : l.getInDimNames()) {
    if (d == "register" || d == "lane" || d == "warp") continue;
    if (d == "block" && l.getInDimSizeLog2(d) == 0) continue;
    throw Error(std::string("optimal_swizzle: ") + which + " has in dim '" + d +
                "'; expected register, lane, warp (and a block of size 1)");
  }
  if (!l.hasInDim("lane") || l.getInDimSizeLog2("lane") != 5)
    throw Error(std::string("optimal_swizzle: ") + which +
                " must have a lane dim of 32 (the measured bank model is for 32-lane warps)");
  if (!l.isSurjective())
    throw Error(std::string("optimal_swizzle: ") + which +
                " does not hold every element of the tensor (not surjective)");
}

// What both swizzles take: an element width, and A and B distributed layouts
// (32 lanes) over one tensor, each holding all of it.
template <class L>
void checkPair(const L& a, const L& b, uint64_t w) {
  if (w == 0 || w > kMaxVectorBytes || !isPowerOfTwo(w))
    throw Error("optimal_swizzle: element_bytes must be 1, 2, 4, 8 or 16 (got " +
                std::to_string(w) + ")");
  checkDistributed(a, "self (A, the writer)");
  checkDistributed(b, "other (B, the reader)");
  if (a.value().out_dims != b.value().out_dims)
    throw Error("optimal_swizzle: A and B map to different out dims (names, order or sizes)");
}

[[nodiscard]] inline bool contains(const Vecs& v, Vec x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// One side of the transfer: the vectors of its contiguous tile, in offset
// order, and the vectors that separate the addresses of one phase.
struct Side {
  Vecs registers;  // nonzero register vectors
  Vecs lanes;      // all 5 lane vectors, zeros kept (phases go by lane index)
  Instruction instruction;
  AccessKind kind;
  const char* name;
};

template <class L>
[[nodiscard]] Side sideOf(const L& l, Instruction instruction, AccessKind kind, const char* name) {
  return {nonzero(Space<L>::flatBases(l, "register")), Space<L>::flatBases(l, "lane"), instruction,
          kind, name};
}

// ldmatrix/stmatrix tiles (device_tests/HARDWARE.md#matrix-ownership): the
// lane vectors of the 16-byte row, and those that pick one of the 8 rows of a
// matrix.
[[nodiscard]] inline Vecs matrixRowLanes(const Side& s) {
  return s.instruction == Instruction::kMatrix ? Vecs{s.lanes[0], s.lanes[1]}
                                               : Vecs{s.lanes[2], s.lanes[3], s.lanes[4]};
}

// Vec: for two ld/st.shared sides, V = A_Reg ∩ B_Reg cut to 16 bytes. With a
// matrix side, the row tile: a register bit (non-transposed only; one both
// sides hold in registers when there is one) then the row's lanes.
template <class S>
[[nodiscard]] Vecs chooseVec(const Side& a, const Side& b, uint64_t w) {
  Vecs common = S::intersectSpans(a.registers, b.registers);
  const Side* matrix = a.instruction != Instruction::kVector   ? &a
                       : b.instruction != Instruction::kVector ? &b
                                                               : nullptr;
  if (!matrix) {
    size_t maxBits = std::countr_zero(kMaxVectorBytes / w);
    if (common.size() > maxBits) common.resize(maxBits);
    return common;
  }
  if (w != 2)
    throw Error("optimal_swizzle: ldmatrix/stmatrix tiles are for 2-byte elements (b16), got " +
                std::to_string(w));
  Vecs vec;
  if (matrix->instruction == Instruction::kMatrix) {
    Vec reg = 0;
    for (Vec r : matrix->registers)
      if (!reg || (contains(common, r) && !contains(common, reg))) reg = r;
    if (!reg)
      throw Error(std::string("optimal_swizzle: ") + matrix->name +
                  " has no register to fill a 32-bit ldmatrix/stmatrix register");
    vec.push_back(reg);
  }
  for (Vec x : matrixRowLanes(*matrix)) vec.push_back(x);
  if (std::find(vec.begin(), vec.end(), Vec{0}) != vec.end() || S::rankOf(vec) != 3)
    throw Error(std::string("optimal_swizzle: ") + matrix->name +
                "'s ldmatrix/stmatrix row is not 8 distinct elements (a broadcast lane)");
  const Side& other = matrix == &a ? b : a;
  if (other.instruction != Instruction::kVector) {
    Vecs otherVec;
    if (other.instruction == Instruction::kMatrix) otherVec.push_back(vec[0]);
    for (Vec x : matrixRowLanes(other)) otherVec.push_back(x);
    if (otherVec != vec ||
        !(other.instruction == matrix->instruction ||
          matrix->instruction == Instruction::kMatrix) ||
        (other.instruction == Instruction::kMatrix && !contains(other.registers, vec[0])))
      throw Error("optimal_swizzle: the stmatrix and ldmatrix tiles of A and B are different rows");
  }
  return vec;
}

// The lanes that share one phase of a warp instruction of `bytes` per lane
// (device_tests/HARDWARE.md), as lane positions 0..4 -> vectors:
//   up to 4 bytes: the whole warp is one phase (#whole-warp-phase);
//   stores of 8 / 16 bytes: fixed phases of 16 / 8 consecutive lanes, so the
//     low 4 / 3 lane bits (the paper's transaction split, as the "One Bit
//     Off" swizzle walk-through applies it; #store-phases);
//   loads of 8 / 16 bytes: a lane reading the address of lane l^1 or l^2 of
//     its quad (a zero lane bit 0 or 1) is served with it and the rest fill
//     phases of 16 / 8 (16 bytes: per half-warp), so the phase takes the next
//     lane bits (#load-phases, #quad-merge; equal non-zero lane bits 0 and 1
//     pair l with l^3, which is not merged).
[[nodiscard]] inline Vecs phaseLanes(const Vecs& lanes, uint64_t bytes, AccessKind kind) {
  if (bytes <= 4) return nonzero(lanes);
  int phaseBits = bytes == 8 ? 4 : 3;
  size_t usable = bytes == 8 ? 5 : 4;  // 16-byte loads: each half-warp alone
  Vecs phase;
  for (size_t i = 0; i < usable && static_cast<int>(phase.size()) < phaseBits; ++i) {
    bool mergedInQuad = kind == AccessKind::kLoad && i < 2 && lanes[i] == 0;
    if (!mergedInQuad) phase.push_back(lanes[i]);
  }
  return nonzero(phase);
}

// The vectors that separate the accesses of one phase (§9.2's A_Thr after the
// transaction split; for a matrix instruction, its row addresses).
[[nodiscard]] inline Vecs bankThreads(const Side& s, const Vecs& vec, uint64_t w) {
  if (s.instruction == Instruction::kMatrix) return nonzero({s.lanes[2], s.lanes[3], s.lanes[4]});
  if (s.instruction == Instruction::kMatrixTrans) {
    // .trans rows: the register half (the lowest register bit that is not a
    // duplicate) and lanes 0, 1 (device_tests/HARDWARE.md#matrix-ownership).
    if (s.registers.empty())
      throw Error(std::string("optimal_swizzle: ") + s.name +
                  " has no register to fill a 32-bit ldmatrix/stmatrix register");
    return nonzero({s.registers[0], s.lanes[0], s.lanes[1]});
  }
  // The vector this side stores or loads: the leading Vec vectors it holds in
  // registers (Generalized Vectorization, §5.3).
  size_t k = 0;
  while (k < vec.size() && contains(s.registers, vec[k])) ++k;
  return phaseLanes(s.lanes, (uint64_t{1} << k) * w, s.kind);
}

// The memory layout offset -> A's out dims whose offset bits, lowest first,
// are the given vectors.
template <class L>
[[nodiscard]] L memoryLayout(const L& a, const Vecs& offsetBits) {
  LayoutValue v;
  InDim offset{"offset", {}};
  for (Vec x : offsetBits) {
    Basis basis;
    for (const std::string& d : a.getOutDimNames()) basis.push_back(outField(a, d).of(x));
    offset.bases.push_back(basis);
  }
  v.in_dims.push_back(offset);
  v.out_dims = a.value().out_dims;
  return L(v);
}

}  // namespace swizzle_detail

template <LayoutApi L>
OptimalSwizzle<L> optimalSwizzle(const L& a, const L& b, uint64_t w,
                                 const SwizzleOptions& options) {
  using namespace swizzle_detail;
  using S = Space<L>;
  checkPair(a, b, w);

  const int d = a.getTotalOutDimSizeLog2();
  Side sa = sideOf(a, options.write, AccessKind::kStore, "A");
  Side sb = sideOf(b, options.read, AccessKind::kLoad, "B");

  OptimalSwizzle<L> out;
  SwizzleSets& s = out.sets;
  s.V = chooseVec<S>(sa, sb, w);
  const int v = static_cast<int>(s.V.size());
  out.vectorBytes = (uint64_t{1} << v) * w;
  // One wavefront serves a 128-byte row of banks: 8 ldmatrix rows, or 32
  // lanes of 4 bytes (§9.2: b = log2(128 / (2^v w))).
  int b0 = std::countr_zero(kBankRowBytes / out.vectorBytes);
  out.bankBits = std::min(b0, d - v);
  out.idxBits = d - v - out.bankBits;

  s.ABank = bankThreads(sa, s.V, w);
  s.BBank = bankThreads(sb, s.V, w);
  Vecs pa = s.V, pb = s.V;
  pa.insert(pa.end(), s.ABank.begin(), s.ABank.end());
  pb.insert(pb.end(), s.BBank.begin(), s.BBank.end());
  s.I = S::extendBasis(s.V, S::intersectSpans(pa, pb));
  Vecs vi = s.V;
  vi.insert(vi.end(), s.I.begin(), s.I.end());
  s.E = S::extendBasis(vi, s.ABank);
  s.F = S::extendBasis(vi, s.BBank);
  size_t pairs = std::min(s.E.size(), s.F.size());
  for (size_t i = 0; i < pairs; ++i) s.G.push_back(s.E[i] ^ s.F[i]);
  Vecs all = pa;
  all.insert(all.end(), s.BBank.begin(), s.BBank.end());
  s.C = S::completeWithUnits(all, d);

  // Idx: l vectors of C ∪ G, which meet neither side's phase (Lemma 9.5).
  // There are always enough: a phase holds at most b independent lanes (32
  // lanes of 4 bytes, 16 of 8, 8 of 16, 8 ldmatrix rows: 128 bytes), so
  // |I| + max(|E|, |F|) <= b and |C| + |G| >= d - v - b = l. Conflicts are
  // unavoidable only when that fails, which the paper's general algorithm
  // allows for (wider warps); here it would be a broken invariant.
  Vecs candidates = s.C;
  candidates.insert(candidates.end(), s.G.begin(), s.G.end());
  Vecs vIdx = s.V;
  for (Vec x : candidates) {
    if (static_cast<int>(s.Idx.size()) == out.idxBits) break;
    if (S::inSpan(vIdx, x)) continue;
    s.Idx.push_back(x);
    vIdx.push_back(x);
  }
  if (static_cast<int>(s.Idx.size()) != out.idxBits)
    throw Error("optimal_swizzle: internal: C and G give " + std::to_string(s.Idx.size()) +
                " index vectors, " + std::to_string(out.idxBits) + " needed");
  s.Bank = S::completeWithUnits(vIdx, d);

  Vecs offsetBits = s.V;
  offsetBits.insert(offsetBits.end(), s.Bank.begin(), s.Bank.end());
  offsetBits.insert(offsetBits.end(), s.Idx.begin(), s.Idx.end());
  out.shared = memoryLayout(a, offsetBits);
  out.writeConflictBits = static_cast<int>(S::intersectSpans(vIdx, pa).size()) - v;
  out.readConflictBits = static_cast<int>(S::intersectSpans(vIdx, pb).size()) - v;
  return out;
}

}  // namespace f2lay::analysis

#define F2LAY_INSTANTIATE_OPTIMAL_SWIZZLE(L) \
  template OptimalSwizzle<L> optimalSwizzle<L>(const L&, const L&, uint64_t, const SwizzleOptions&);
