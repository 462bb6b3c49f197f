// The swizzle optimum against the simulators (bank_simulator,
// shared_roundtrip), which share no code with it: on random pairs of every
// element width, the memory layout converts correctly, each side costs on the
// simulator exactly what the optimum predicts (the store side: A's warps
// that hold copies left out), and the total is at most the paper's
// construction's (§5.4) and at least the sides' own bounds.
#include "analysis/swizzle_optimum.h"

#include <gtest/gtest.h>

#include <random>

#include "reference/analysis/bank_conflicts.h"
#include "reference/analysis/shared_roundtrip.h"
#include "reference/analysis/tests/seed_transpose.h"
#include "reference/catalog/blocked.h"
#include "reference/catalog/dot_operand.h"
#include "reference/catalog/nvidia_mma.h"
#include "reference/catalog/tests/test_support.h"
#include "testkit/random_tensor_layouts.h"

namespace f2lay::ref::analysis {
namespace {

using catalog::contains;
using catalog::errorMessage;
using testkit::randomDistributed;
using testkit::TensorShape;

// The side as the simulator sees it, with the optimum's vector width.
WavefrontReport simulated(const LinearLayout& dist, const LinearLayout& shared, uint64_t w,
                          AccessKind kind, Instruction instruction, const SideCost& cost) {
  std::optional<uint64_t> bytes;
  if (instruction == Instruction::kVector) bytes = cost.vectorBytes;
  return simulateBankConflicts(dist, shared, {kind, w, bytes, instruction, {}});
}

void expectPredicted(const WavefrontReport& r, const SideCost& cost) {
  EXPECT_EQ(r.wavefronts, cost.wavefronts());
  EXPECT_EQ(r.instructions, cost.instructions);
  EXPECT_EQ(r.idealWavefronts, cost.instructions * cost.phases);
}

// The pair of the optimum's first golden case: the convert_layout that
// Triton (3.6.0 and 3.9.0 alike) emits for tl.trans of a 32x32 int8 tile
// with num_warps=1 on 16-byte aligned pointers. Triton's own kernel measures
// 160 wavefronts on the H100 (ncu: 32 one-byte stores of 1, 32 one-byte
// loads of 4; adapters/FINDINGS.md S2); §5.4's construction costs 128 + 32
// (ncu). The optimum takes at most a quarter of that.
TEST(SwizzleOptimum, Int8TransposeCostsAQuarterOfTritons) {
  catalog::Shape shape{32, 32};
  LinearLayout a = catalog::blocked({{16, 1}, {2, 16}, {1, 1}, {0, 1}, std::nullopt}, shape);
  LinearLayout b = catalog::blocked({{1, 16}, {16, 2}, {1, 1}, {1, 0}, std::nullopt}, shape);
  SwizzleOptimum s = swizzleOptimum(a, b, 1);
  EXPECT_LE(s.wavefronts(), 40u);
  // Alone, either side could move 16 contiguous bytes a lane: two 16-byte
  // instructions of 4 phases, 8 wavefronts. Together they hold no common
  // register, so one side's vector lies across the other's lanes.
  EXPECT_EQ(s.storeBound.wavefronts(), 8u);
  EXPECT_EQ(s.loadBound.wavefronts(), 8u);
  EXPECT_FALSE(s.meetsBounds());
  // 16-byte stores (2 instructions) and one-byte loads (32), each conflict
  // free: 8 + 32, in 34 instructions where Triton's kernel issues 40.
  EXPECT_EQ(s.wavefronts(), 40u);
  EXPECT_EQ(s.instructions(), 34u);
  expectPredicted(
      simulated(storingWarps(a), s.shared, 1, AccessKind::kStore, Instruction::kVector, s.store),
      s.store);
  expectPredicted(simulated(b, s.shared, 1, AccessKind::kLoad, Instruction::kVector, s.load),
                  s.load);
  RoundTrip trip = simulateSharedRoundTrip(a, b, s.shared, 1);
  EXPECT_EQ(trip.wrongElements, 0u) << trip.firstWrong;
}

// A's two warps hold the same data (its warp base is zero: 8 rows cover a
// tile of 4), so one of them stores, as Triton 3.9.0's kernels do
// (adapters/FINDINGS.md S1). fp32 4x32: A holds dim0's 4 elements in
// registers (one 16-byte vector a lane: 512 bytes in 4 phases of 128, 4
// wavefronts in 1 instruction); B holds dim0 bit 0 in a register and spreads
// the rest over lanes and 2 warps (one 8-byte vector a lane and warp: 256
// bytes, 2 wavefronts a warp, 4 in 2 instructions). Both vectors start at
// dim0 bit 0, so one memory layout serves both at 128 bytes a wavefront,
// each side's bound. With both of A's warps storing it would be 12.
TEST(SwizzleOptimum, WarpsHoldingCopiesDoNotStore) {
  catalog::Shape shape{4, 32};
  LinearLayout a = catalog::blocked({{4, 1}, {1, 32}, {2, 1}, {0, 1}, std::nullopt}, shape);
  LinearLayout b = catalog::blocked({{2, 1}, {2, 16}, {1, 2}, {0, 1}, std::nullopt}, shape);
  SwizzleOptimum s = swizzleOptimum(a, b, 4);
  EXPECT_EQ(s.store.vectorBytes, 16u);
  EXPECT_EQ(s.store.instructions, 1u);
  EXPECT_EQ(s.store.wavefronts(), 4u);
  EXPECT_EQ(s.load.vectorBytes, 8u);
  EXPECT_EQ(s.load.instructions, 2u);
  EXPECT_EQ(s.load.wavefronts(), 4u);
  EXPECT_EQ(s.wavefronts(), 8u);
  EXPECT_TRUE(s.meetsBounds());
  expectPredicted(
      simulated(storingWarps(a), s.shared, 4, AccessKind::kStore, Instruction::kVector, s.store),
      s.store);
  // Both warps storing: twice the stores, on the same memory layout.
  WavefrontReport both =
      simulated(a, s.shared, 4, AccessKind::kStore, Instruction::kVector, s.store);
  EXPECT_EQ(both.wavefronts, 8u);
  RoundTrip trip = simulateSharedRoundTrip(a, b, s.shared, 4);
  EXPECT_EQ(trip.wrongElements, 0u) << trip.firstWrong;
}

// Which of a 16-byte run's bits share a 4-byte word matters (1-byte
// elements: offsets 0 and 1 lie inside a word; device_tests/HARDWARE.md#banks).
// A stores 16 contiguous bytes (registers e0..e3 of the flat tensor); B, one
// register-less byte a warp, has lanes e0^e4, e1^e5, e6, e7, e8 and warps e4,
// e5, e2, e3, e9. With e0, e1 inside the word, B's 32 lanes touch 32 words in
// the 8 banks A's run leaves free: 4 a bank. With e2, e3 inside it (B varies
// them only across warps), B's words spread over the banks: each of B's 32
// loads costs 1, A's 2 stores 4 each. By hand: 8 + 32; the exhaustive search
// (swizzle_certificate_test.cpp) agrees.
TEST(SwizzleOptimum, ChoosesWhichRunBitsShareAWord) {
  auto e = [](int i) { return Basis{uint64_t{1} << i}; };
  auto eXor = [](int i, int j) { return Basis{(uint64_t{1} << i) | (uint64_t{1} << j)}; };
  LinearLayout a(LayoutValue{{{"register", {e(0), e(1), e(2), e(3), e(9)}},
                              {"lane", {e(4), e(5), e(6), e(7), e(8)}},
                              {"warp", {}}},
                             {{"x", 1024}}});
  LinearLayout b(LayoutValue{{{"register", {}},
                              {"lane", {eXor(0, 4), eXor(1, 5), e(6), e(7), e(8)}},
                              {"warp", {e(4), e(5), e(2), e(3), e(9)}}},
                             {{"x", 1024}}});
  SwizzleOptimum s = swizzleOptimum(a, b, 1);
  EXPECT_EQ(s.store.wavefronts(), 8u);
  EXPECT_EQ(s.load.wavefronts(), 32u);
  expectPredicted(
      simulated(storingWarps(a), s.shared, 1, AccessKind::kStore, Instruction::kVector, s.store),
      s.store);
  expectPredicted(simulated(b, s.shared, 1, AccessKind::kLoad, Instruction::kVector, s.load),
                  s.load);
}

TEST(SwizzleOptimum, SeedTransposeIsSixteenPlusSixteen) {
  SwizzleOptimum s = swizzleOptimum(seed::storeRowWise(), seed::readColumnPairs(), 4);
  EXPECT_EQ(s.store.wavefronts(), 16u);
  EXPECT_EQ(s.load.wavefronts(), 16u);
}

struct Pair {
  LinearLayout a, b;
  uint64_t w;
};

Pair randomPair(std::mt19937_64& rng, int maxBits, uint64_t w) {
  int bits = 6 + static_cast<int>(rng() % (maxBits - 5));
  TensorShape t{static_cast<int>(rng() % (bits + 1)), 0};
  t.colBits = bits - t.rowBits;
  int warpBits = static_cast<int>(rng() % 2);
  int zeroLanesA = rng() % 4 == 0 ? 1 : 0, zeroLanesB = rng() % 4 == 0 ? 1 : 0;
  return {
      LinearLayout(randomDistributed(rng, t, warpBits, zeroLanesA, static_cast<int>(rng() % 2))),
      LinearLayout(randomDistributed(rng, t, warpBits, zeroLanesB, static_cast<int>(rng() % 2))),
      w};
}

uint64_t paperTotal(const Pair& p) {
  OptimalSwizzle paper = optimalSwizzle(p.a, p.b, p.w);
  AccessSpec store{AccessKind::kStore, p.w, paper.vectorBytes, Instruction::kVector, {}};
  AccessSpec load{AccessKind::kLoad, p.w, paper.vectorBytes, Instruction::kVector, {}};
  return simulateBankConflicts(p.a, paper.shared, store).wavefronts +
         simulateBankConflicts(p.b, paper.shared, load).wavefronts;
}

TEST(SwizzleOptimum, RandomPairsCostWhatItPredictsAndNoMoreThanThePaper) {
  std::mt19937_64 rng(32);
  for (uint64_t w : {1, 2, 4, 8, 16}) {
    int beaten = 0;
    for (int trial = 0; trial < 60; ++trial) {
      Pair p = randomPair(rng, 12, w);
      SwizzleOptimum s = swizzleOptimum(p.a, p.b, p.w);
      SCOPED_TRACE(::testing::Message() << "w " << w << " trial " << trial << "\nA " << p.a
                                        << "\nB " << p.b << "\nS " << s.shared);
      expectPredicted(simulated(storingWarps(p.a), s.shared, w, AccessKind::kStore,
                                Instruction::kVector, s.store),
                      s.store);
      expectPredicted(simulated(p.b, s.shared, w, AccessKind::kLoad, Instruction::kVector, s.load),
                      s.load);
      RoundTrip trip = simulateSharedRoundTrip(p.a, p.b, s.shared, w);
      EXPECT_EQ(trip.wrongElements, 0u) << trip.firstWrong;
      uint64_t paper = paperTotal(p);
      EXPECT_LE(s.wavefronts(), paper);
      beaten += s.wavefronts() < paper;
      EXPECT_GE(s.store.wavefronts(), s.storeBound.wavefronts());
      EXPECT_GE(s.load.wavefronts(), s.loadBound.wavefronts());
    }
    RecordProperty("beaten_w" + std::to_string(w), beaten);
  }
}

TEST(SwizzleOptimum, LdmatrixSidesCostWhatTheyPredict) {
  catalog::Shape shape{64, 64};
  LinearLayout blocked = catalog::blocked({{1, 8}, {8, 4}, {4, 1}, {1, 0}, std::nullopt}, shape);
  LinearLayout dot = catalog::dotOperand({0, {{2, 0}, {4, 1}, {16, 8}, std::nullopt}, 2}, shape);
  LinearLayout mma = catalog::nvidiaMma({{2, 0}, {4, 1}, {16, 8}, std::nullopt}, shape);
  struct Case {
    const LinearLayout &a, &b;
    Instruction write, read;
  };
  for (const Case& c : {Case{blocked, dot, Instruction::kVector, Instruction::kMatrix},
                        Case{mma, blocked, Instruction::kMatrix, Instruction::kVector}}) {
    SwizzleOptimum s = swizzleOptimum(c.a, c.b, 2, {c.write, c.read});
    expectPredicted(simulated(storingWarps(c.a), s.shared, 2, AccessKind::kStore, c.write, s.store),
                    s.store);
    expectPredicted(simulated(c.b, s.shared, 2, AccessKind::kLoad, c.read, s.load), s.load);
    EXPECT_EQ(s.store.conflictBits, 0);
    EXPECT_EQ(s.load.conflictBits, 0);
    RoundTrip trip = simulateSharedRoundTrip(c.a, c.b, s.shared, 2);
    EXPECT_EQ(trip.wrongElements, 0u) << trip.firstWrong;
  }
}

TEST(SwizzleOptimum, RefusesWhatItCannotModel) {
  LinearLayout a = seed::storeRowWise();
  EXPECT_PRED2(contains, errorMessage([&] { (void)swizzleOptimum(a, a, 3); }), "element_bytes");
  EXPECT_PRED2(contains, errorMessage([&] {
                 (void)swizzleOptimum(a, seed::readColumnPairs(), 4,
                                      {Instruction::kVector, Instruction::kMatrix});
               }),
               "2-byte");
  catalog::Shape shape{64, 64};
  LinearLayout blocked = catalog::blocked({{1, 8}, {8, 4}, {4, 1}, {1, 0}, std::nullopt}, shape);
  EXPECT_PRED2(contains, errorMessage([&] {
                 (void)swizzleOptimum(blocked, blocked, 2,
                                      {Instruction::kMatrix, Instruction::kMatrixTrans});
               }),
               "no memory layout serves");
}

}  // namespace
}  // namespace f2lay::ref::analysis
