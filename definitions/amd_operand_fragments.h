// Element-wise definitions of the register operands of AMD's matrix
// instructions and of the MFMA scale operand, written from AMD's operand
// tables, not from the basis constructions. The tests compare them with
// amdMfmaDotOperand / amdWmmaDotOperand / amdMfmaScale at every (register,
// lane, warp). One CTA; coordinates past a smaller shape wrap (the data is
// broadcast).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace f2lay::ref::catalog::amd {

// An operand's coordinates: the K index and the index along the other matrix
// dim (M for A, N for B).
struct KNonK {
  uint64_t k, nonK;
};

// MFMA operands on a 64-lane wavefront (CDNA3 ISA section 7.1, the AMD matrix
// instruction calculator): for v_mfma_f32_32x32x8f16 A[i][k] is lane i + 32
// (k / 4), item k % 4; for 16x16x16f16 lane i + 16 (k / 4). With kWidth K
// elements per lane and nonK lanes per K group (the instruction's M for A, N
// for B): lane l, item i holds nonK index l % nonK, K index i + kWidth (l /
// nonK). The 64-wide operand of a 4x64 instruction (16 blocks of 4x4) is read
// block by block: block b adds 64 / nonK * kWidth * b = kWidth * b to K.
inline KNonK mfmaOperand(uint64_t nonK, uint64_t kWidth, uint64_t lane, uint64_t item,
                         uint64_t block) {
  return {item + kWidth * (lane / nonK) + kWidth * (64 / nonK) * block, lane % nonK};
}

// WMMA operands on a 32-lane wavefront (RDNA3 ISA section 7.9 and RDNA4 ISA WMMA
// operand tables): lane l holds row (column) l % 16 of the 16-wide tile;
// kWidth consecutive K elements per lane; RDNA3 (version 1) wants lanes
// 16-31 to hold the same elements as lanes 0-15, RDNA4 and gfx1250 give them
// the next kWidth K elements.
inline KNonK wmmaOperand(uint64_t version, uint64_t kWidth, uint64_t lane, uint64_t item) {
  return {item + (version == 1 ? 0 : kWidth * (lane / 16)), lane % 16};
}

// A whole operand, Triton's arrangement of instruction tiles as index
// arithmetic. `rank` 2 or 3; A is [batch,] M x K, B [batch,] K x N. Register
// index bits, lowest first: the items of one lane (kWidth), the K steps of
// one instruction (kSteps), the rows of a 32-wide WMMA tile (nonKSteps);
// then for MFMA the K repeats up to the tensor's K and tiles_per_warp along
// non-K, for WMMA the tile grid's registers (the non-K moves of reg_bases,
// in tiles) and the K repeats; then non-K and batch repeats. Warps: `warpNonK(w)` and
// `warpBatch(w)` give a warp's tile along non-K and batch (warps along K hold copies).
struct Operand {
  bool wmma;
  uint64_t version;  // wmma's
  bool isA;
  uint64_t nonK;       // lanes along non-K (MFMA: M or N; WMMA: 16)
  uint64_t kWidth;     // K elements per lane and step
  uint64_t kPerStep;   // K elements one step of all lanes covers
  uint64_t kSteps;     // steps per instruction (MFMA 4x64 blocks, WMMA K repeats)
  uint64_t nonKSteps;  // 2 for a 32-wide WMMA tile
  uint64_t tilesNonK;  // MFMA tiles_per_warp along non-K
  std::vector<uint64_t> gridRegNonK, gridRegBatch;    // WMMA reg_bases, in tiles
  std::vector<uint64_t> gridWarpNonK, gridWarpBatch;  // per warp bit, in tiles
  std::vector<uint64_t> warpsPerCta;                  // MFMA: row-major warps
  std::vector<uint64_t> shape;

  size_t rank() const { return shape.size(); }
  size_t kDim() const { return isA ? rank() - 1 : rank() - 2; }
  size_t nonKDim() const { return isA ? rank() - 2 : rank() - 1; }
  uint64_t tileK() const { return kPerStep * kSteps; }
  uint64_t tileNonK() const { return nonK * nonKSteps * tilesNonK; }
  // MFMA: warps along non-K and batch; WMMA: the reach of the grid.
  uint64_t reachNonK() const {
    if (!wmma) return warpsPerCta[nonKDim()];
    uint64_t most = 0;
    for (uint64_t v : gridRegNonK) most = std::max(most, v);
    for (uint64_t v : gridWarpNonK) most = std::max(most, v);
    return most == 0 ? 1 : 2 * most;
  }
  uint64_t reachBatch() const {
    if (rank() != 3) return 1;
    if (!wmma) return warpsPerCta[0];
    uint64_t most = 0;
    for (uint64_t v : gridRegBatch) most = std::max(most, v);
    for (uint64_t v : gridWarpBatch) most = std::max(most, v);
    return most == 0 ? 1 : 2 * most;
  }
  uint64_t kReps() const { return std::max<uint64_t>(1, shape[kDim()] / tileK()); }
  uint64_t nonKReps() const {
    return std::max<uint64_t>(1, shape[nonKDim()] / (tileNonK() * reachNonK()));
  }
  uint64_t batchReps() const {
    return rank() == 3 ? std::max<uint64_t>(1, shape[0] / reachBatch()) : 1;
  }
  uint64_t gridRegs() const { return uint64_t{1} << gridRegNonK.size(); }
  uint64_t registers() const {
    return kWidth * kSteps * nonKSteps * tilesNonK * gridRegs() * kReps() * nonKReps() *
           batchReps();
  }
  uint64_t lanes() const { return wmma ? 32 : 64; }
  uint64_t warps() const {
    if (wmma) return uint64_t{1} << gridWarpNonK.size();
    uint64_t w = 1;
    for (uint64_t x : warpsPerCta) w *= x;
    return w;
  }
  uint64_t blocks() const { return 1; }

  // A warp's tile along non-K and batch.
  std::pair<uint64_t, uint64_t> warpTile(uint64_t warp) const {
    if (wmma) {
      uint64_t n = 0, b = 0;
      for (size_t j = 0; j < gridWarpNonK.size(); ++j)
        if ((warp >> j) & 1) n += gridWarpNonK[j], b += gridWarpBatch[j];
      return {n, b};
    }
    // Row-major over the accumulator's warps: N fastest, then M, then batch.
    size_t r = rank();
    uint64_t wN = warp % warpsPerCta[r - 1], wM = (warp / warpsPerCta[r - 1]) % warpsPerCta[r - 2];
    uint64_t wB = warp / (warpsPerCta[r - 1] * warpsPerCta[r - 2]);
    return {isA ? wM : wN, wB};
  }

  std::vector<uint64_t> at(uint64_t reg, uint64_t lane, uint64_t warp, uint64_t) const {
    uint64_t item = reg % kWidth, r = reg / kWidth;
    uint64_t step = r % kSteps;
    r /= kSteps;
    uint64_t row = r % nonKSteps;
    r /= nonKSteps;
    // MFMA repeats along the whole K before its tiles; WMMA after its grid.
    uint64_t kRep = 0;
    if (!wmma) kRep = r % kReps(), r /= kReps();
    uint64_t tile = r % tilesNonK;
    r /= tilesNonK;
    uint64_t gridNonK = 0, gridBatch = 0;
    for (size_t i = 0; i < gridRegNonK.size(); ++i, r /= 2)
      if (r % 2) gridNonK += gridRegNonK[i], gridBatch += gridRegBatch[i];
    if (wmma) kRep = r % kReps(), r /= kReps();
    uint64_t nonKRep = r % nonKReps(), batchRep = r / nonKReps();
    KNonK e = wmma ? wmmaOperand(version, kWidth, lane, item)
                   : mfmaOperand(nonK, kWidth, lane, item, step);
    uint64_t k = e.k + (wmma ? kPerStep * step : 0) + tileK() * kRep;
    auto [warpNonK, warpBatch] = warpTile(warp);
    uint64_t tiles = wmma ? gridNonK + warpNonK + reachNonK() * nonKRep
                          : tile + tilesNonK * (warpNonK + reachNonK() * nonKRep);
    uint64_t nonKIndex = e.nonK + nonK * row + (wmma ? nonK * nonKSteps : nonK) * tiles;
    uint64_t batch = gridBatch + warpBatch + reachBatch() * batchRep;
    std::vector<uint64_t> out(rank(), 0);
    out[kDim()] = k % shape[kDim()];
    out[nonKDim()] = nonKIndex % shape[nonKDim()];
    if (rank() == 3) out[0] = batch % shape[0];
    return out;
  }
};

// The operand of an MFMA accumulator with instruction `instr` ([M, N, K]),
// warps and tiles_per_warp (all of the shape's rank).
inline Operand mfmaOperandModel(const std::vector<uint64_t>& instr,
                                const std::vector<uint64_t>& warps,
                                const std::vector<uint64_t>& tiles, uint64_t index, uint64_t kWidth,
                                const std::vector<uint64_t>& shape) {
  bool isA = index == 0;
  uint64_t nonK = isA ? instr[0] : instr[1];
  // The 64-wide operand of a 4x64 (64x4) instruction: 16 blocks along K.
  bool blocks = nonK == 64 && (isA ? instr[1] : instr[0]) == 4;
  size_t r = shape.size();
  return {false,
          0,
          isA,
          nonK,
          kWidth,
          kWidth * (64 / nonK),
          blocks ? 16u : 1u,
          1,
          tiles[isA ? r - 2 : r - 1],
          {},
          {},
          {},
          {},
          warps,
          shape};
}

// The operand of a WMMA accumulator (Gluon 3.9's bases): the tile grid's
// moves along the operand's non-K dim and batch (moves along K dropped,
// registers moving along K alone removed); kWidth K elements per lane, the
// instruction's K in steps of 2 kWidth; a 32-wide tile (instr M 32 along A's
// M, or along B's N when transposed) takes two 16-lane row groups.
inline Operand wmmaOperandModel(uint64_t version, bool transposed,
                                const std::vector<uint64_t>& instr,
                                const std::vector<std::vector<uint64_t>>& warpBases,
                                const std::vector<std::vector<uint64_t>>& regBases, uint64_t index,
                                uint64_t kWidth, const std::vector<uint64_t>& shape) {
  bool isA = index == 0;
  size_t r = shape.size(), nonKDim = isA ? r - 2 : r - 1;
  uint64_t nonKExtent = (isA != transposed) ? instr[0] : 16;
  Operand o{true,
            version,
            isA,
            16,
            kWidth,
            version == 1 ? kWidth : 2 * kWidth,
            std::max<uint64_t>(1, instr[2] / (2 * kWidth)),
            nonKExtent / 16,
            1,
            {},
            {},
            {},
            {},
            {},
            shape};
  for (const auto& b : regBases)
    if (b[nonKDim] != 0 || (r == 3 && b[0] != 0)) {
      o.gridRegNonK.push_back(b[nonKDim]);
      o.gridRegBatch.push_back(r == 3 ? b[0] : 0);
    }
  for (const auto& b : warpBases) {
    o.gridWarpNonK.push_back(b[nonKDim]);
    o.gridWarpBatch.push_back(r == 3 ? b[0] : 0);
  }
  return o;
}

// The MFMA scale operand (CDNA4 ISA, V_MFMA_SCALE_F32_32X32X64_F8F6F4 and
// 16X16X128): a lane reads 32 consecutive K elements of one row of A (column
// of B) and the scale of those 32. The scale tensor is [non-K, K / 32]:
// lane l holds row l % M of K group l / M (64 / M groups per instruction,
// M = 16 or 32); registers, lowest first: further K groups (64 / M at a
// time) up to the shape, then tiles_per_warp along non-K, then repeats along
// non-K where the shape holds more than the warps' tiles. Warps row-major
// over the accumulator's (N fastest): A's warps along N fall on K (copies),
// B's along M likewise.
struct MfmaScale {
  bool isA;
  uint64_t m;  // 16 or 32
  uint64_t tilesNonK;
  uint64_t warpsM, warpsN;
  std::vector<uint64_t> shape;  // [non-K, K groups]

  uint64_t groupsPerStep() const { return 64 / m; }
  uint64_t kRegs() const { return std::max<uint64_t>(1, shape[1] / groupsPerStep()); }
  uint64_t warpsNonK() const { return isA ? warpsM : warpsN; }
  // Divided one factor at a time, so that no product of the parameters can
  // wrap (the fuzzer draws huge tiles_per_warp, which the constructor refuses).
  uint64_t nonKReps() const {
    return std::max<uint64_t>(1, shape[0] / m / tilesNonK / warpsNonK());
  }
  uint64_t registers() const { return kRegs() * tilesNonK * nonKReps(); }
  uint64_t lanes() const { return 64; }
  uint64_t warps() const { return warpsM * warpsN; }
  uint64_t blocks() const { return 1; }
  std::vector<uint64_t> at(uint64_t reg, uint64_t lane, uint64_t warp, uint64_t) const {
    uint64_t kReg = reg % kRegs(), r = reg / kRegs();
    uint64_t tile = r % tilesNonK, rep = r / tilesNonK;
    uint64_t wN = warp % warpsN, wM = warp / warpsN;
    uint64_t warpNonK = isA ? wM : wN;
    uint64_t row = lane % m + m * (tile + tilesNonK * (warpNonK + warpsNonK() * rep));
    uint64_t group = lane / m + groupsPerStep() * kReg;
    return {row % shape[0], group % shape[1]};
  }
};

// The WMMA scale operand (gfx1250 V_WMMA_SCALE_F32_16X16X128_F8F6F4 and the
// 32x16 forms; Gluon 3.9.0's placement). The scale tensor is [non-K, K /
// scale_factor]; one instruction's K of 128 elements has 128 / scale_factor
// scales, which one lane holds in consecutive registers for its row (lane %
// 16); registers go on along K up to the shape. Rows come in tiles of 16, or
// 32 where the accumulator tile is 32 wide along the operand's non-K dim:
// there lanes 16-31 take rows 16-31. With a 16x16 instruction lanes 16-31
// take the next tile instead: the one the first tile register would move to
// (that register then is not one). Otherwise (a 32x16 instruction, 16 wide
// here) lanes 16-31 hold copies. Tile registers, lowest first: the tile
// grid's non-K moves (reg_bases, in tiles), then repeats of the grid's
// reach up to the shape; warps move by warp_bases' non-K moves. One CTA.
struct WmmaScale {
  uint64_t instrM;                                  // 16 or 32
  uint64_t tileRows;                                // 16 or 32
  uint64_t perLane;                                 // 128 / scale_factor
  std::vector<uint64_t> gridRegNonK, gridWarpNonK;  // in tiles
  std::vector<uint64_t> shape;                      // [non-K, K groups]

  uint64_t reach() const {
    uint64_t most = 0;
    for (uint64_t v : gridRegNonK) most = std::max(most, v);
    for (uint64_t v : gridWarpNonK) most = std::max(most, v);
    return most == 0 ? 1 : 2 * most;
  }
  // The tile moves of the register bits above the K registers, the one lanes
  // 16-31 take left out.
  std::vector<uint64_t> tileMoves(uint64_t* laneMove) const {
    std::vector<uint64_t> moves = gridRegNonK;
    for (uint64_t r = 1; tileRows * reach() * r < shape[0]; r *= 2) moves.push_back(reach() * r);
    *laneMove = 0;
    if (instrM == 16 && !moves.empty()) {
      *laneMove = moves.front();
      moves.erase(moves.begin());
    }
    return moves;
  }
  uint64_t kRegs() const { return std::max(perLane, shape[1]); }
  uint64_t registers() const {
    uint64_t laneMove;
    return kRegs() << tileMoves(&laneMove).size();
  }
  uint64_t lanes() const { return 32; }
  uint64_t warps() const { return uint64_t{1} << gridWarpNonK.size(); }
  uint64_t blocks() const { return 1; }

  std::vector<uint64_t> at(uint64_t reg, uint64_t lane, uint64_t warp, uint64_t) const {
    uint64_t laneMove;
    std::vector<uint64_t> moves = tileMoves(&laneMove);
    uint64_t k = reg % kRegs(), r = reg / kRegs(), tiles = 0;
    for (size_t i = 0; i < moves.size(); ++i, r /= 2)
      if (r % 2) tiles += moves[i];
    for (size_t j = 0; j < gridWarpNonK.size(); ++j)
      if ((warp >> j) & 1) tiles += gridWarpNonK[j];
    uint64_t upper = lane / 16;
    uint64_t row =
        lane % 16 + (tileRows == 32 ? 16 * upper : tileRows * laneMove * upper) + tileRows * tiles;
    return {row % shape[0], k % shape[1]};
  }
};

}  // namespace f2lay::ref::catalog::amd
