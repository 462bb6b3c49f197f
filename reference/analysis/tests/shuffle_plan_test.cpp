// shufflePlan (§5.4 "Intra-warp Data Exchange"): hand-derived plans, checked
// step by step and by the warp simulator, and the broadcast cases.
#include <gtest/gtest.h>

#include "analysis/conversion.h"
#include "definitions/layout_literals.h"
#include "reference/analysis/warp_simulator.h"
#include "reference/catalog/blocked.h"
#include "reference/catalog/tests/test_support.h"

namespace f2lay::ref::analysis {
namespace {

using catalog::contains;
using catalog::errorMessage;
using catalog::testkit::distributed;

LinearLayout oneD(std::vector<Basis> reg, std::vector<Basis> lane, std::vector<Basis> warp,
                  uint64_t size) {
  return LinearLayout(
      LayoutValue{{{"register", reg}, {"lane", lane}, {"warp", warp}}, {{"dim0", size}}});
}

bool sameStep(const ShuffleStep& s, uint32_t lane, uint64_t send, uint32_t src, uint64_t recv) {
  return s.lane == lane && s.sendRegister == send && s.srcLane == src && s.recvRegister == recv;
}

void expectSimulates(const LinearLayout& a, const LinearLayout& b, const ShufflePlan& plan) {
  WarpSimulation sim = simulateShufflePlan(a, b, plan);
  EXPECT_TRUE(sim.ok()) << ::testing::PrintToString(sim.mismatches);
}

// Figure 3, reconstructed. The text says V = I = {} in F2^3, R(0) = [0,0,0],
// R(1) = [0,1,0] and two shuffles. With V = I = {} the G vectors pair lane
// vectors whose spans meet only in 0, so |G| <= 1 when register and lane
// bits fill all 3 bits, and 2^|R| >= 4 rounds: the third bit must lie
// outside the warp space. Here it is a warp bit (assumption): 2 lanes, 2
// registers, 2 warps over 8 elements; A: register e1, lane e0; B: register
// e0, lane e1. Then E = {e0}, F = {e1}, G = {e0 ^ e1}, R = {e1} = [0,1,0].
TEST(ShufflePlan, Figure3Reconstructed) {
  LinearLayout a = oneD({{2}}, {{1}}, {{4}}, 8);
  LinearLayout b = oneD({{1}}, {{2}}, {{4}}, 8);
  ShufflePlan p = shufflePlan(a, b, 4);
  EXPECT_EQ(p.kind, ConversionKind::kWarpShuffle);
  EXPECT_EQ(p.V, Vecs{});
  EXPECT_EQ(p.I, Vecs{});
  EXPECT_EQ(p.E, Vecs{1});
  EXPECT_EQ(p.F, Vecs{2});
  EXPECT_EQ(p.G, Vecs{3});
  EXPECT_EQ(p.R, Vecs{2});
  EXPECT_EQ(p.vectorElements, 1u);
  ASSERT_EQ(p.rounds.size(), 2u);
  // Round 0, coset {0, 3}: lane 0 keeps element 0, lane 1 keeps element 3.
  EXPECT_TRUE(sameStep(p.rounds[0][0], 0, 0, 0, 0));
  EXPECT_TRUE(sameStep(p.rounds[0][1], 1, 1, 1, 1));
  // Round 1, coset {1, 2}: lane 0 reads element 1 (lane 1's register 0)
  // into register 1; lane 1 reads element 2 (lane 0's register 1) into 0.
  EXPECT_TRUE(sameStep(p.rounds[1][0], 0, 1, 1, 1));
  EXPECT_TRUE(sameStep(p.rounds[1][1], 1, 0, 0, 0));
  EXPECT_TRUE(p.copies.empty());
  expectSimulates(a, b, p);
}

// classify's blocked pair: 8x32, A registers (0,1) (0,2) (4,0), lanes (0,4)
// (0,8) (0,16) (1,0) (2,0); B registers (0,1) (0,2) (0,16), lanes (0,4)
// (0,8) (1,0) (2,0) (4,0). Flattened (i | j << 3): A_Reg 8 16 4, A_Thr 32 64
// 128 1 2; B_Reg 8 16 128, B_Thr 32 64 1 2 4.
TEST(ShufflePlan, BlockedThreadShapesByteElements) {
  LinearLayout a = catalog::blocked({{1, 4}, {4, 8}, {1, 1}, {1, 0}, std::nullopt}, {8, 32});
  LinearLayout b = catalog::blocked({{1, 4}, {8, 4}, {1, 1}, {1, 0}, std::nullopt}, {8, 32});
  ShufflePlan p = shufflePlan(a, b, 1);
  EXPECT_EQ(p.V, (Vecs{8, 16}));  // 4 one-byte elements per shuffle
  EXPECT_EQ(p.I, (Vecs{32, 64, 1, 2}));
  EXPECT_EQ(p.E, Vecs{128});
  EXPECT_EQ(p.F, Vecs{4});
  EXPECT_EQ(p.G, Vecs{132});
  EXPECT_EQ(p.R, Vecs{4});
  EXPECT_EQ(p.vectorElements, 4u);
  EXPECT_EQ(p.sendOffsets, (std::vector<uint64_t>{0, 1, 2, 3}));
  ASSERT_EQ(p.rounds.size(), 2u);
  ASSERT_EQ(p.rounds[0].size(), 32u);
  // A's lane t offers register 0 in round (t >> 2) & 1, else register 4; B's
  // lane t fills register 0 in round t >> 4, else 4. Lane 16 in round 0 fills
  // register 4 with (4,16), which A's lane 4 holds in register 4.
  EXPECT_TRUE(sameStep(p.rounds[0][16], 16, 0, 4, 4));
  EXPECT_TRUE(sameStep(p.rounds[1][16], 16, 4, 0, 0));
  // Lane 5 in round 1 fills register 4 with (1,20) from A's lane 13.
  EXPECT_TRUE(sameStep(p.rounds[1][5], 5, 0, 13, 4));
  expectSimulates(a, b, p);
  // 4-byte elements: V = {}, R = A's registers, 8 rounds; 8-byte the same.
  ShufflePlan wide = shufflePlan(a, b, 4);
  EXPECT_EQ(wide.V, Vecs{});
  EXPECT_EQ(wide.R, (Vecs{8, 16, 4}));
  EXPECT_EQ(wide.rounds.size(), 8u);
  expectSimulates(a, b, wide);
  ShufflePlan half = shufflePlan(a, b, 2);
  EXPECT_EQ(half.V, Vecs{8});
  EXPECT_EQ(half.rounds.size(), 4u);
  expectSimulates(a, b, half);
  EXPECT_EQ(shufflePlan(a, b, 8).rounds.size(), 8u);
}

TEST(ShufflePlan, NoOpAndRegisterPermutationReadFromTheirOwnLane) {
  // Equal layouts with a zero register basis and a zero lane basis.
  LinearLayout l = oneD({{0}, {1}}, {{2}, {4}, {8}, {16}, {0}}, {}, 32);
  ShufflePlan same = shufflePlan(l, l, 4);
  EXPECT_EQ(same.kind, ConversionKind::kNoOp);
  EXPECT_EQ(same.I, (Vecs{2, 4, 8, 16}));
  EXPECT_EQ(same.R, Vecs{1});
  ASSERT_EQ(same.copies.size(), 2u);  // registers 1 and 3 copy 0 and 2
  EXPECT_EQ(same.copies[0].dstRegister, 1u);
  EXPECT_EQ(same.copies[0].srcRegister, 0u);
  EXPECT_EQ(same.copies[1].dstRegister, 3u);
  EXPECT_EQ(same.copies[1].srcRegister, 2u);
  for (const auto& round : same.rounds)
    for (const ShuffleStep& s : round) EXPECT_EQ(s.srcLane, s.lane);
  expectSimulates(l, l, same);

  LinearLayout swapped = oneD({{1}, {0}}, {{2}, {4}, {8}, {16}, {0}}, {}, 32);
  ShufflePlan perm = shufflePlan(l, swapped, 4);
  EXPECT_EQ(perm.kind, ConversionKind::kRegisterPermutation);
  for (const auto& round : perm.rounds)
    for (const ShuffleStep& s : round) EXPECT_EQ(s.srcLane, s.lane);
  expectSimulates(l, swapped, perm);
}

TEST(ShufflePlan, LaneBroadcastsAtDifferentBitsPairUp) {
  // A broadcasts lane bit 4, B lane bit 0: both use 4 lane bits for distinct
  // data, so |E| = |F| = 1: E = {16}, F = {1}, I = {2, 4, 8}.
  LinearLayout a = oneD({{1}}, {{2}, {4}, {8}, {16}, {0}}, {}, 32);
  LinearLayout b = oneD({{16}}, {{0}, {1}, {2}, {4}, {8}}, {}, 32);
  ShufflePlan p = shufflePlan(a, b, 4);
  EXPECT_EQ(p.I, (Vecs{2, 4, 8}));
  EXPECT_EQ(p.E, Vecs{16});
  EXPECT_EQ(p.F, Vecs{1});
  EXPECT_EQ(p.G, Vecs{17});
  EXPECT_EQ(p.R, Vecs{1});
  expectSimulates(a, b, p);
}

TEST(ShufflePlan, RefusesBroadcastsItCannotPair) {
  // B broadcasts lane bit 4, which A uses for distinct data.
  LinearLayout a = oneD({}, {{1}, {2}, {4}, {8}, {16}}, {}, 32);
  LinearLayout b = oneD({{16}}, {{1}, {2}, {4}, {8}, {0}}, {}, 32);
  EXPECT_EQ(errorMessage([&] { (void)shufflePlan(a, b, 4); }),
            "shuffle plan: lane bit 4 is a broadcast in B but not in A: B's lanes t and t ^ 16 "
            "hold the same data while A's hold different data (|E| = 1, |F| = 0): the §5.4 "
            "construction pairs E with F one to one and cannot");
  try {
    (void)shufflePlan(a, b, 4);
    ADD_FAILURE() << "no refusal";
  } catch (const UnpairedBroadcast& e) {
    EXPECT_EQ(e.laneBit, 4);  // typed, with the lane bit it names
  }
  // A broadcasts lane bit 0, which B uses.
  EXPECT_PRED2(contains, errorMessage([&] {
                 (void)shufflePlan(oneD({{1}}, {{0}, {2}, {4}, {8}, {16}}, {}, 32), a, 4);
               }),
               "lane bit 0 is a broadcast in A but not in B");
  // A duplicate that is not a zero basis.
  EXPECT_PRED2(contains, errorMessage([&] {
                 (void)shufflePlan(oneD({{1}, {2}, {3}}, {{4}, {8}, {16}, {32}, {64}}, {}, 128),
                                   oneD({{1}, {2}}, {{4}, {8}, {16}, {32}, {64}}, {}, 128), 4);
               }),
               "register bit 2 of A is a combination of other bases without being zero");
  EXPECT_PRED2(contains, errorMessage([&] { (void)shufflePlan(a, a, 3); }), "must be 1, 2, 4 or 8");
}

TEST(ShufflePlan, WarpBasesMustAgree) {
  // B's warp bit also moves a lane bit: still inside the warp, but warp 1's
  // plan would differ from warp 0's.
  LinearLayout a = oneD({{1}}, {{2}, {4}, {8}, {16}, {32}}, {{64}}, 128);
  LinearLayout b = oneD({{1}}, {{2}, {4}, {8}, {16}, {32}}, {{66}}, 128);
  // Triton 3.6's invertAndCompose asserted on this pair (it set lanes aside
  // too). Triton 3.9 sets aside only registers: B's warp basis 66 shares
  // output bit 1 with B's lanes (PR #11645). Its lstsq reads warp bit 0 from
  // warp 1 ^ lane 1.
  Classification c = classifyConversion(a, b);
  EXPECT_EQ(c.kind, ConversionKind::kWarpShuffle);
  EXPECT_EQ(c.pull.value().in_dims[2].bases, (std::vector<Basis>{{0, 1, 1}}));
  EXPECT_PRED2(contains, errorMessage([&] { (void)shufflePlan(a, b, 4); }),
               "warp bit 0 holds other data in A than in B");
}

TEST(WarpSimulator, CatchesAWrongPlan) {
  LinearLayout a = oneD({{2}}, {{1}}, {{4}}, 8);
  LinearLayout b = oneD({{1}}, {{2}}, {{4}}, 8);
  ShufflePlan p = shufflePlan(a, b, 4);
  p.rounds[1][0].srcLane = 0;  // lane 0 now reads its own register 1
  WarpSimulation sim = simulateShufflePlan(a, b, p);
  EXPECT_FALSE(sim.ok());
  EXPECT_EQ(sim.warps, 2u);
  ASSERT_FALSE(sim.mismatches.empty());
  EXPECT_EQ(sim.mismatches[0],
            "warp 0 block 0: lane 0 register 1 holds element 2, B says element 1");
  p.rounds.pop_back();  // no round fills lane 0's register 1
  sim = simulateShufflePlan(a, b, p);
  EXPECT_PRED2(contains, sim.mismatches.at(0), "holds nothing");
}

}  // namespace
}  // namespace f2lay::ref::analysis
