// Element-wise definitions of the NVIDIA tensor-core layouts, written from
// NVIDIA's PTX ISA fragment tables and device_tests/HARDWARE.md, not from the
// basis constructions (a second, independent definition of each
// constructor). Each gives the (row, col) of a fragment element with the
// documents' own index arithmetic; the tests compare them with the
// constructors' apply at every input.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace f2lay::ref::catalog::ptx {

struct RowCol {
  uint64_t row, col;
};

// PTX ISA, "Matrix Fragments for mma.m16n8k*": lane = 4 * groupID +
// threadID_in_group.
inline uint64_t groupId(uint64_t lane) { return lane >> 2; }
inline uint64_t threadInGroup(uint64_t lane) { return lane % 4; }

// mma.m16n8k16 (and k8, k32) accumulator C/D, c0..c3:
//   row = groupID for c0, c1; groupID + 8 for c2, c3
//   col = threadID_in_group * 2 + (i & 1)
inline RowCol mmaAccumulator(uint64_t lane, uint64_t i) {
  return {groupId(lane) + (i < 2 ? 0 : 8), threadInGroup(lane) * 2 + (i & 1)};
}

// wgmma .m64nNk16 accumulator D, d0..d(N/2 - 1), for the warp with rank w in
// its warpgroup:
//   row = 16 w + groupID + 8 * ((i / 2) % 2)
//   col = 8 * (i / 4) + threadID_in_group * 2 + (i & 1)
inline RowCol wgmmaAccumulator(uint64_t w, uint64_t lane, uint64_t i) {
  return {16 * w + groupId(lane) + 8 * ((i / 2) % 2),
          8 * (i / 4) + threadInGroup(lane) * 2 + (i & 1)};
}

// Operand A (row M, col K) of mma.m16n8kK, per element width:
//   .tf32 m16n8k8, a0..a3:   row = groupID (+8 for a1, a3)
//                            col = threadID_in_group (+4 for a2, a3)
//   .f16 m16n8k16, a0..a7:   row = groupID for 0 <= i < 2 || 4 <= i < 6, else +8
//                            col = threadID_in_group * 2 + (i & 1) (+8 for i >= 4)
//   8-bit m16n8k32, a0..a15: row = groupID for i < 4 || 8 <= i < 12, else +8
//                            col = threadID_in_group * 4 + (i & 3) (+16 for i >= 8)
// `elementsPer32Bits`: 1 (tf32), 2 (16-bit) or 4 (8-bit); Triton's kWidth.
inline RowCol mmaOperandA(uint64_t elementsPer32Bits, uint64_t lane, uint64_t i) {
  uint64_t g = groupId(lane), t = threadInGroup(lane);
  switch (elementsPer32Bits) {
    case 1:  // tf32
      return {g + (i % 2 == 1 ? 8 : 0), t + (i >= 2 ? 4 : 0)};
    case 2:  // f16 / bf16
      return {g + ((i < 2 || (i >= 4 && i < 6)) ? 0 : 8), t * 2 + (i & 1) + (i >= 4 ? 8 : 0)};
    case 4:  // e4m3 / e5m2 / s8 / u8
      return {g + ((i < 4 || (i >= 8 && i < 12)) ? 0 : 8), t * 4 + (i & 3) + (i >= 8 ? 16 : 0)};
  }
  throw std::logic_error("mmaOperandA: no PTX table");
}

// Operand B (row K, col N) of mma.m16n8kK:
//   .tf32 m16n8k8, b0..b1:  row = threadID_in_group (+4 for b1), col = groupID
//   .f16 m16n8k16, b0..b3:  row = threadID_in_group * 2 + (i & 1) (+8 for i >= 2)
//   8-bit m16n8k32, b0..b7: row = threadID_in_group * 4 + (i & 3) (+16 for i >= 4)
inline RowCol mmaOperandB(uint64_t elementsPer32Bits, uint64_t lane, uint64_t i) {
  uint64_t g = groupId(lane), t = threadInGroup(lane);
  switch (elementsPer32Bits) {
    case 1:
      return {t + (i == 1 ? 4 : 0), g};
    case 2:
      return {t * 2 + (i & 1) + (i >= 2 ? 8 : 0), g};
    case 4:
      return {t * 4 + (i & 3) + (i >= 4 ? 16 : 0), g};
  }
  throw std::logic_error("mmaOperandB: no PTX table");
}

// device_tests/HARDWARE.md#matrix-ownership, ldmatrix/stmatrix b16 m8n8
// (.x4 measured, .trans stated): register i of thread t holds matrix i at
// (row t/4, col 2(t%4) + h) for its half h, and with .trans at
// (row 2(t%4) + h, col t/4).
struct MatrixElement {
  uint64_t row, col, matrix;
};
inline MatrixElement ldmatrixElement(bool trans, uint64_t t, uint64_t i, uint64_t h) {
  if (trans) return {2 * (t % 4) + h, t / 4, i};
  return {t / 4, 2 * (t % 4) + h, i};
}

// A rank-2 accumulator of Triton's nvidia_mma at `shape`, by the tables
// above: warp (wm, wn) of the warps_per_cta grid (numbered row-major for
// mma.sync; for wgmma, warps 4g..4g+3 form warpgroup g, which holds 64 rows)
// holds the 16 x n tile at rows 16 wm, cols n wn of a CTA tile 16 WM x n WN; the CTA
// tile repeats over further registers, along the columns first; coordinates
// beyond a smaller shape wrap (the data is broadcast).
struct Accumulator {
  bool wgmma;  // version 3; else mma.sync (n = 8)
  uint64_t n;  // the instruction's N
  std::vector<uint64_t> warpsPerCta, shape;

  uint64_t perTile() const { return n / 2; }  // 16 n elements over 32 lanes
  uint64_t reps(size_t d) const {
    uint64_t tile = d == 0 ? 16 * warpsPerCta[0] : n * warpsPerCta[1];
    return std::max<uint64_t>(1, shape[d] / tile);
  }
  uint64_t registers() const { return perTile() * reps(0) * reps(1); }
  uint64_t lanes() const { return 32; }
  uint64_t warps() const { return warpsPerCta[0] * warpsPerCta[1]; }
  uint64_t blocks() const { return 1; }
  std::vector<uint64_t> at(uint64_t reg, uint64_t lane, uint64_t warp, uint64_t) const {
    uint64_t i = reg % perTile(), rep = reg / perTile();
    uint64_t repN = rep % reps(1), repM = rep / reps(1);
    uint64_t row = repM * 16 * warpsPerCta[0], col = repN * n * warpsPerCta[1];
    if (wgmma) {
      // Warpgroups of 4 consecutive warps, each 64 rows, stacked along M.
      uint64_t wm = warp % warpsPerCta[0], wn = warp / warpsPerCta[0];
      RowCol rc = wgmmaAccumulator(wm % 4, lane, i);
      row += 64 * (wm / 4) + rc.row;
      col += wn * n + rc.col;
    } else {
      uint64_t wm = warp / warpsPerCta[1], wn = warp % warpsPerCta[1];
      RowCol rc = mmaAccumulator(lane, i);
      row += wm * 16 + rc.row;
      col += wn * n + rc.col;
    }
    return {row % shape[0], col % shape[1]};
  }
};

// A rank-2 mma.sync operand held as PTX's fragment tables say, one table per
// element width (kWidth = 4 bytes / element bytes: tf32 1, 16-bit 2, 8-bit 4).
// A's warp tile is 16 x 8 kWidth at rows 16 wm; B's is 8 kWidth x 8 at cols
// 8 wn; warps along K hold copies. The tile repeats along K first.
struct Operand {
  unsigned index;  // 0: A, 1: B
  uint64_t kWidth;
  std::vector<uint64_t> warpsPerCta, shape;

  uint64_t perTile() const { return (index == 0 ? 4 : 2) * kWidth; }
  size_t kDim() const { return index == 0 ? 1 : 0; }
  uint64_t tile(size_t d) const {
    if (d == kDim()) return 8 * kWidth;
    return index == 0 ? 16 * warpsPerCta[0] : 8 * warpsPerCta[1];
  }
  uint64_t reps(size_t d) const { return std::max<uint64_t>(1, shape[d] / tile(d)); }
  uint64_t registers() const { return perTile() * reps(0) * reps(1); }
  uint64_t lanes() const { return 32; }
  uint64_t warps() const { return warpsPerCta[0] * warpsPerCta[1]; }
  uint64_t blocks() const { return 1; }
  std::vector<uint64_t> at(uint64_t reg, uint64_t lane, uint64_t warp, uint64_t) const {
    uint64_t i = reg % perTile(), rep = reg / perTile();
    uint64_t repK = rep % reps(kDim()), repOther = rep / reps(kDim());
    uint64_t wm = warp / warpsPerCta[1], wn = warp % warpsPerCta[1];
    uint64_t row, col;
    if (index == 0) {
      RowCol rc = mmaOperandA(kWidth, lane, i);
      row = repOther * tile(0) + wm * 16 + rc.row;
      col = repK * tile(1) + rc.col;
    } else {
      RowCol rc = mmaOperandB(kWidth, lane, i);
      row = repK * tile(0) + rc.row;
      col = repOther * tile(1) + wn * 8 + rc.col;
    }
    return {row % shape[0], col % shape[1]};
  }
};

}  // namespace f2lay::ref::catalog::ptx
