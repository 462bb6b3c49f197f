// The wavefront rule: what one warp instruction's shared-memory accesses cost,
// as measured on an H100 (device_tests/HARDWARE.md, sections "Banks" through
// "Matrix phases"). A pure function of the lanes' byte addresses; it
// knows nothing of layouts, so the bank-conflict simulator
// (bank_simulator.cpp) is layouts + enumeration + this rule.
//
// bank = (byte address / 4) mod 32. The hardware serves an instruction in
// phases; each phase costs the largest number of distinct 4-byte words that
// fall in one bank (lanes touching the same word share it: broadcast), and the
// phases add up. How the lanes are cut into phases depends on the access:
//   <= 4 bytes a lane      one phase for the whole warp.
//   stores of 8 / 16 bytes fixed phases of 16 / 8 consecutive lanes.
//   loads of 8 bytes       a lane reading the address of lane l^1 or l^2
//                          of its quad is served with it (not with l^3:
//                          finding W1, device_tests/HARDWARE.md#quad-merge);
//                          the remaining accesses, in lane order, fill
//                          phases of 16.
//   loads of 16 bytes      each half-warp alone: that merge, then phases of 8.
//   ldmatrix / stmatrix    one phase per 8x16-byte matrix (its 8 row
//                          addresses; equal rows share).
// The ideal is the number of phases formed, so conflicts = wavefronts -
// phases >= 0. Without repeated addresses it reduces to: 32-bit whole warp,
// 64-bit by half-warps, 128-bit by quarter-warps
// (device_tests/HARDWARE.md#store-phases).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "analysis/bank_access.h"

namespace f2lay::ref::analysis {

// AccessKind is analysis/bank_access.h's.

// One lane's part of an ld/st.shared: its byte address, aligned to the
// access width. Inactive lanes access nothing.
struct LaneAccess {
  bool active = true;
  uint64_t address = 0;
};

struct WavefrontCount {
  uint64_t wavefronts = 0;
  uint64_t phases = 0;  // the ideal: phases that carry at least one access
  friend bool operator==(const WavefrontCount&, const WavefrontCount&) = default;
};

// ld.shared / st.shared of `bytes` (1, 2, 4, 8 or 16) per lane; at most 32
// lanes, lane i at index i. Throws f2lay::Error on a bad width, a misaligned
// address or more than 32 lanes.
WavefrontCount vectorWavefronts(AccessKind kind, uint64_t bytes,
                                const std::vector<LaneAccess>& lanes);

// The 8 row byte addresses (16 bytes each, 16-byte aligned) of one m8n8 b16
// matrix; row r is given by lane 8i + r for matrix i
// (device_tests/HARDWARE.md#matrix-ownership).
using MatrixRows = std::array<uint64_t, 8>;

// ldmatrix / stmatrix .x1, .x2, .x4 (loads and stores cost alike): one entry
// per matrix, 1 to 4 of them. Throws f2lay::Error on a misaligned row.
WavefrontCount matrixWavefronts(const std::vector<MatrixRows>& matrices);

}  // namespace f2lay::ref::analysis
