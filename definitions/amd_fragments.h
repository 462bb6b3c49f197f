// Element-wise definitions of AMD's matrix-core accumulators, written from
// AMD's own descriptions of where D[row][col] lives, not from the basis
// constructions: a second, independent definition of each constructor. The
// tests compare them with amdMfma / amdWmma at every (register, lane, warp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace f2lay::ref::catalog::amd {

struct RowCol {
  uint64_t row, col;
};

// AMD matrix instruction calculator (ROCm/amd_matrix_instruction_calculator),
// MFMA results on a 64-lane wavefront, non-transposed, for an m x n output:
//   f32 results, in groups of 4 rows:
//     v_mfma_f32_32x32x8f16: lane = j + 32 * ((i / 4) % 2), item = i % 4 + 4 * (i / 8)
//     v_mfma_f32_16x16x16f16: lane = j + 16 * (i / 4), item = i % 4
//     4x64 (v_mfma_f32_4x4x4f16, 16 blocks side by side): lane = j, item = i
//   so row = item % 4 + 4 * (lane / n) + 4 * (64 / n) * (item / 4), col = lane % n.
//   f64 results (v_mfma_f64_16x16x4f64: lane = j + 16 * (i % 4), item = i / 4):
//   row = lane / n + (64 / n) * item, col = lane % n.
inline RowCol mfmaResult(uint64_t n, bool f64, uint64_t lane, uint64_t item) {
  uint64_t rowsPerLaneStep = 64 / n;
  if (f64) return {lane / n + rowsPerLaneStep * item, lane % n};
  return {item % 4 + 4 * (lane / n) + 4 * rowsPerLaneStep * (item / 4), lane % n};
}

// The registers one lane holds of one m x n MFMA result.
inline uint64_t mfmaItems(uint64_t m, uint64_t n) { return m * n / 64; }

// WMMA's 16x16 f32 result on a 32-lane wavefront (RDNA3 / RDNA4 ISA guides):
//   version 1: VGPR i of lane l holds row 2 i + l / 16 (even rows in lanes
//              0-15, odd rows in lanes 16-31), column l % 16;
//   version 2, 3: row i + 8 (l / 16), column l % 16; version 3's 32x16 result
//              continues in VGPRs 8-15 with rows 16-31 (Triton 3.9's
//              description: two 16x16 tiles stacked), row i % 8 + 8 (l / 16)
//              + 16 (i / 8).
inline RowCol wmmaResult(uint64_t version, uint64_t lane, uint64_t item) {
  if (version == 1) return {2 * item + lane / 16, lane % 16};
  return {item % 8 + 8 * (lane / 16) + 16 * (item / 8), lane % 16};
}

// A whole accumulator, Triton's arrangement of instruction tiles written as
// index arithmetic. The instruction's m x n tile (transposed: the
// instruction's n x m result read with rows and columns swapped) is held by
// the `items` registers above; then, from the least significant register
// index bit up: tiles_per_warp along N, repeats along N, tiles_per_warp along
// M, repeats along M, repeats along the batch dim; warp index bits: warps
// along N, along M, along the batch dim. Tile (tm, tn) of warp (wb, wm, wn)
// in repeat (rb, rm, rn) starts at
//   col = n * (tn + tpwN * (wn + warpsN * rn)),
//   row = m * (tm + tpwM * (wm + warpsM * rm)),  batch = wb + warpsB * rb.
// Coordinates past a smaller shape wrap (the data is broadcast).
struct Accumulator {
  bool wmma;         // else mfma
  uint64_t version;  // wmma's version
  bool f64;          // mfma's element_bitwidth 64
  bool transposed;
  uint64_t m, n;                                           // the instruction's output tile
  uint64_t warpSize;                                       // 64 (mfma) or 32 (wmma)
  std::vector<uint64_t> warpsPerCta, tilesPerWarp, shape;  // rank 2 or 3

  size_t rank() const { return shape.size(); }
  uint64_t items() const { return m * n / warpSize; }
  uint64_t extent(size_t fromEnd) const { return shape[rank() - 1 - fromEnd]; }
  uint64_t warpsAt(size_t fromEnd) const { return warpsPerCta[rank() - 1 - fromEnd]; }
  uint64_t tilesAt(size_t fromEnd) const { return tilesPerWarp[rank() - 1 - fromEnd]; }
  uint64_t reps(size_t fromEnd) const {
    uint64_t tile = fromEnd == 0 ? n : m;
    return std::max<uint64_t>(1, extent(fromEnd) / (tile * warpsAt(fromEnd) * tilesAt(fromEnd)));
  }
  uint64_t batchReps() const {
    return rank() == 3 ? std::max<uint64_t>(1, shape[0] / warpsPerCta[0]) : 1;
  }
  uint64_t registers() const {
    return items() * tilesAt(0) * reps(0) * tilesAt(1) * reps(1) * batchReps();
  }
  uint64_t lanes() const { return warpSize; }
  uint64_t warps() const {
    uint64_t w = 1;
    for (uint64_t x : warpsPerCta) w *= x;
    return w;
  }
  uint64_t blocks() const { return 1; }

  RowCol inTile(uint64_t lane, uint64_t item) const {
    if (!transposed) return wmma ? wmmaResult(version, lane, item) : mfmaResult(n, f64, lane, item);
    RowCol rc = wmma ? wmmaResult(version, lane, item) : mfmaResult(m, f64, lane, item);
    return {rc.col, rc.row};
  }

  std::vector<uint64_t> at(uint64_t reg, uint64_t lane, uint64_t warp, uint64_t) const {
    uint64_t item = reg % items(), r = reg / items();
    uint64_t tn = r % tilesAt(0);
    r /= tilesAt(0);
    uint64_t rn = r % reps(0);
    r /= reps(0);
    uint64_t tm = r % tilesAt(1);
    r /= tilesAt(1);
    uint64_t rm = r % reps(1), rb = r / reps(1);
    uint64_t wn = warp % warpsAt(0), wm = (warp / warpsAt(0)) % warpsAt(1);
    uint64_t wb = warp / (warpsAt(0) * warpsAt(1));
    RowCol rc = inTile(lane, item);
    uint64_t row = m * (tm + tilesAt(1) * (wm + warpsAt(1) * rm)) + rc.row;
    uint64_t col = n * (tn + tilesAt(0) * (wn + warpsAt(0) * rn)) + rc.col;
    std::vector<uint64_t> out;
    if (rank() == 3) out.push_back((wb + warpsPerCta[0] * rb) % shape[0]);
    out.push_back(row % extent(1));
    out.push_back(col % extent(0));
    return out;
  }
};

// Gluon 3.9's WMMA accumulator, its instruction tiles placed by bases. With
// reg = item + items * (t + 2^|reg_bases| * rep), the tile of (reg, warp) is
// the sum of reg_bases[i] over the set bits i of t and of warp_bases[j] over
// the set bits j of warp (each basis is 0 or moves one dim by a power of two,
// all moves distinct, so the sum never carries), plus the repeats: rep
// counts N fastest, then M, then batch, each dim repeated as often as the
// shape holds more than the tiles its bases reach (twice the largest move,
// or 1), a repeat moving by that reach. A tile is instrM x 16 elements (M x
// N; transposed: 16 x instrM, the AMD table's rows and columns swapped).
// Coordinates past a smaller shape wrap (the data is broadcast).
struct WmmaByBases {
  uint64_t version;
  bool transposed;
  uint64_t instrM;  // 16, or 32 (version 3's 32x16 instruction)
  std::vector<std::vector<uint64_t>> warpBases, regBases;
  std::vector<uint64_t> shape;  // rank 2 or 3

  size_t rank() const { return shape.size(); }
  uint64_t items() const { return instrM * 16 / 32; }
  // A tile's elements along dim d.
  uint64_t tileExtent(size_t d) const {
    if (d + 2 == rank()) return transposed ? 16 : instrM;
    if (d + 1 == rank()) return transposed ? instrM : 16;
    return 1;
  }
  uint64_t reach(size_t d) const {
    uint64_t most = 0;
    for (const auto* bases : {&warpBases, &regBases})
      for (const auto& b : *bases) most = std::max(most, b[d]);
    return most == 0 ? 1 : 2 * most;
  }
  uint64_t reps(size_t d) const {
    return std::max<uint64_t>(1, shape[d] / (tileExtent(d) * reach(d)));
  }
  // The dims the repeats run along, fastest first.
  std::vector<size_t> repeatOrder() const {
    std::vector<size_t> order = {rank() - 1, rank() - 2};
    if (rank() == 3) order.push_back(0);
    return order;
  }
  uint64_t registers() const {
    uint64_t r = items() << regBases.size();
    for (size_t d : repeatOrder()) r *= reps(d);
    return r;
  }
  uint64_t lanes() const { return 32; }
  uint64_t warps() const { return uint64_t{1} << warpBases.size(); }
  uint64_t blocks() const { return 1; }

  std::vector<uint64_t> at(uint64_t reg, uint64_t lane, uint64_t warp, uint64_t) const {
    uint64_t item = reg % items(), r = reg / items();
    std::vector<uint64_t> place(rank(), 0);
    for (size_t i = 0; i < regBases.size(); ++i, r /= 2)
      if (r % 2)
        for (size_t d = 0; d < rank(); ++d) place[d] += regBases[i][d];
    for (size_t j = 0; j < warpBases.size(); ++j)
      if ((warp >> j) & 1)
        for (size_t d = 0; d < rank(); ++d) place[d] += warpBases[j][d];
    for (size_t d : repeatOrder()) {
      place[d] += reach(d) * (r % reps(d));
      r /= reps(d);
    }
    RowCol rc = wmmaResult(version, lane, item);
    if (transposed) rc = {rc.col, rc.row};
    std::vector<uint64_t> out;
    for (size_t d = 0; d < rank(); ++d) {
      uint64_t within = d + 2 == rank() ? rc.row : d + 1 == rank() ? rc.col : 0;
      out.push_back((place[d] * tileExtent(d) + within) % shape[d]);
    }
    return out;
  }
};

}  // namespace f2lay::ref::catalog::amd
