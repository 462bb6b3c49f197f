// The wavefront rule against device_tests/HARDWARE.md, literally: the table of
// single instructions (#strided-accesses; quoted below as the lent machine's
// notes wrote it) and the examples of #load-phases and #quad-merge.
#include "reference/analysis/wavefront_rule.h"

#include <gtest/gtest.h>

#include "reference/catalog/tests/test_support.h"

namespace f2lay::ref::analysis {
namespace {

using catalog::contains;
using catalog::errorMessage;

// 32 lanes, lane l at byte address stride * l.
std::vector<LaneAccess> strided(uint64_t stride) {
  std::vector<LaneAccess> lanes;
  for (uint64_t l = 0; l < 32; ++l) lanes.push_back({true, stride * l});
  return lanes;
}

uint64_t loadWavefronts(uint64_t bytes, const std::vector<LaneAccess>& lanes) {
  return vectorWavefronts(AccessKind::kLoad, bytes, lanes).wavefronts;
}

// device_tests/HARDWARE.md#strided-accesses: "LDS.32 word stride
// 1/2/4/8/16/32/33 | 1/2/4/8/16/32/1".
TEST(WavefrontRule, Lds32WordStrides) {
  const uint64_t strides[] = {1, 2, 4, 8, 16, 32, 33};
  const uint64_t expected[] = {1, 2, 4, 8, 16, 32, 1};
  for (int i = 0; i < 7; ++i) {
    EXPECT_EQ(loadWavefronts(4, strided(4 * strides[i])), expected[i]) << strides[i];
    // "STS.32 / STS.128 | as the loads".
    EXPECT_EQ(vectorWavefronts(AccessKind::kStore, 4, strided(4 * strides[i])).wavefronts,
              expected[i]);
  }
  EXPECT_EQ(vectorWavefronts(AccessKind::kLoad, 4, strided(4)).phases, 1u);
}

// "LDS.32 all threads one address | 1".
TEST(WavefrontRule, Lds32OneAddress) { EXPECT_EQ(loadWavefronts(4, strided(0)), 1u); }

// "LDS.64 byte stride 8/16/32/256 | 2/4/8/32".
TEST(WavefrontRule, Lds64ByteStrides) {
  EXPECT_EQ(loadWavefronts(8, strided(8)), 2u);
  EXPECT_EQ(loadWavefronts(8, strided(16)), 4u);
  EXPECT_EQ(loadWavefronts(8, strided(32)), 8u);
  EXPECT_EQ(loadWavefronts(8, strided(256)), 32u);
  EXPECT_EQ(vectorWavefronts(AccessKind::kLoad, 8, strided(8)).phases, 2u);
}

// "LDS.128 byte stride 16/32/64/128 | 4/8/16/32", and STS.128 as the loads.
TEST(WavefrontRule, Lds128ByteStrides) {
  const uint64_t strides[] = {16, 32, 64, 128};
  const uint64_t expected[] = {4, 8, 16, 32};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(loadWavefronts(16, strided(strides[i])), expected[i]) << strides[i];
    EXPECT_EQ(vectorWavefronts(AccessKind::kStore, 16, strided(strides[i])).wavefronts,
              expected[i]);
  }
  EXPECT_EQ(vectorWavefronts(AccessKind::kStore, 16, strided(16)).phases, 4u);
}

// `count` matrices whose row r sits at pitch * r, the matrices 16 bytes apart
// side by side (each matrix's cost depends only on its own rows); xorChunk:
// the 16-byte chunk of row r xored with r & 7.
std::vector<MatrixRows> matrices(uint64_t count, uint64_t pitch, bool xorChunk = false) {
  std::vector<MatrixRows> out;
  for (uint64_t i = 0; i < count; ++i) {
    MatrixRows rows{};
    for (uint64_t r = 0; r < 8; ++r) rows[r] = pitch * r + 16 * (xorChunk ? i ^ (r & 7) : i);
    out.push_back(rows);
  }
  return out;
}

// "LDSM.x4 row pitch 16 B / 128 B / 144 B / 128 B with the 16-B chunk xor
// (row&7) | 4/32/4/4"; "LDSM.x1, x2 pitch 16 / 128 | x1: 1/8, x2: 2/16".
TEST(WavefrontRule, Ldmatrix) {
  // Pitch 16: matrix i's rows would overlap the next one's, so stack them.
  std::vector<MatrixRows> dense;
  for (uint64_t i = 0; i < 4; ++i) {
    MatrixRows rows{};
    for (uint64_t r = 0; r < 8; ++r) rows[r] = 128 * i + 16 * r;
    dense.push_back(rows);
  }
  EXPECT_EQ(matrixWavefronts(dense).wavefronts, 4u);
  EXPECT_EQ(matrixWavefronts(matrices(4, 128)).wavefronts, 32u);
  EXPECT_EQ(matrixWavefronts(matrices(4, 144)).wavefronts, 4u);
  EXPECT_EQ(matrixWavefronts(matrices(4, 128, true)).wavefronts, 4u);
  EXPECT_EQ(matrixWavefronts(matrices(4, 128)).phases, 4u);
  EXPECT_EQ(matrixWavefronts({dense[0]}).wavefronts, 1u);
  EXPECT_EQ(matrixWavefronts(matrices(1, 128)).wavefronts, 8u);
  EXPECT_EQ(matrixWavefronts({dense[0], dense[1]}).wavefronts, 2u);
  EXPECT_EQ(matrixWavefronts(matrices(2, 128)).wavefronts, 16u);
  // "equal rows share": eight copies of one row cost one wavefront.
  MatrixRows same{};
  EXPECT_EQ(matrixWavefronts({same}).wavefronts, 1u);
}

// "lanes 2k and 2k+1 reading the same address: one phase, not two" for an
// 8-byte load; the 16 distinct addresses 0, 8, ..., 120 cover 32 banks once.
TEST(WavefrontRule, QuadMergeOfEightByteLoads) {
  std::vector<LaneAccess> pairs;
  for (uint64_t l = 0; l < 32; ++l) pairs.push_back({true, 8 * (l / 2)});
  EXPECT_EQ(vectorWavefronts(AccessKind::kLoad, 8, pairs), (WavefrontCount{1, 1}));
  // A store has fixed half-warp phases: lanes 0-15 and 16-31, 1 each.
  EXPECT_EQ(vectorWavefronts(AccessKind::kStore, 8, pairs), (WavefrontCount{2, 2}));
  // "lanes 16 apart reading the same address are not merged": two phases.
  std::vector<LaneAccess> halves;
  for (uint64_t l = 0; l < 32; ++l) halves.push_back({true, 8 * (l % 16)});
  EXPECT_EQ(vectorWavefronts(AccessKind::kLoad, 8, halves), (WavefrontCount{2, 2}));
}

// "Loads of 16 bytes: each half-warp alone ... (so, by this rule, at least 2
// wavefronts)": all lanes one address gives 2; pairs of lanes sharing an
// address leave 8 accesses per half-warp, one phase each (128 distinct bytes).
TEST(WavefrontRule, QuadMergeOfSixteenByteLoads) {
  EXPECT_EQ(vectorWavefronts(AccessKind::kLoad, 16, strided(0)), (WavefrontCount{2, 2}));
  std::vector<LaneAccess> pairs;
  for (uint64_t l = 0; l < 32; ++l) pairs.push_back({true, 16 * ((l % 16) / 2)});
  EXPECT_EQ(vectorWavefronts(AccessKind::kLoad, 16, pairs), (WavefrontCount{2, 2}));
  EXPECT_EQ(vectorWavefronts(AccessKind::kStore, 16, pairs), (WavefrontCount{4, 4}));
}

// #quad-merge: a lane is served with lane l^1 or l^2 of its quad (4q..4q+3)
// reading the same address (never l^3, finding W1): the merge reaches past the
// pair. Lanes 4q and 4q+2 share an address (as do 4q+1 and 4q+3), so no two
// neighbours l, l^1 do: an 8-byte load keeps 16 distinct
// addresses, 0, 8, ..., 120, one phase over 32 banks; a 16-byte load keeps 8
// per half-warp, 128 distinct bytes, one phase each.
TEST(WavefrontRule, QuadMergeIsNotAPairMerge) {
  std::vector<LaneAccess> eight, sixteen;
  for (uint64_t l = 0; l < 32; ++l) {
    eight.push_back({true, 8 * (l / 4 * 2 + l % 2)});
    sixteen.push_back({true, 16 * (l % 16 / 4 * 2 + l % 2)});
  }
  EXPECT_EQ(vectorWavefronts(AccessKind::kLoad, 8, eight), (WavefrontCount{1, 1}));
  EXPECT_EQ(vectorWavefronts(AccessKind::kLoad, 16, sixteen), (WavefrontCount{2, 2}));
  // Stores merge nothing: 2 and 4 fixed phases, each 128 distinct bytes or less.
  EXPECT_EQ(vectorWavefronts(AccessKind::kStore, 8, eight), (WavefrontCount{2, 2}));
  EXPECT_EQ(vectorWavefronts(AccessKind::kStore, 16, sixteen), (WavefrontCount{4, 4}));
}

// Narrow accesses: bytes of one word broadcast; two bytes of different words
// in one bank conflict.
TEST(WavefrontRule, NarrowAccesses) {
  EXPECT_EQ(loadWavefronts(1, strided(1)), 1u);  // 32 bytes = 8 words
  EXPECT_EQ(loadWavefronts(2, strided(128)), 32u);
  std::vector<LaneAccess> two = {{true, 0}, {true, 128}, {false, 256}};
  EXPECT_EQ(loadWavefronts(2, two), 2u);
  // device_tests/HARDWARE.md#banks: "the largest number of distinct 4-byte
  // words that fall in one bank". Lane l at byte 4l + 2: a 2-byte access stays in word l, so
  // 32 words in 32 banks, one wavefront (it does not reach word l + 1).
  std::vector<LaneAccess> upperHalves;
  for (uint64_t l = 0; l < 32; ++l) upperHalves.push_back({true, 4 * l + 2});
  EXPECT_EQ(loadWavefronts(2, upperHalves), 1u);
  EXPECT_EQ(loadWavefronts(1, upperHalves), 1u);
  // Lane l at byte 8l + 2: words 2l, in 16 banks twice over: two.
  std::vector<LaneAccess> spread;
  for (uint64_t l = 0; l < 32; ++l) spread.push_back({true, 8 * l + 2});
  EXPECT_EQ(loadWavefronts(2, spread), 2u);
}

TEST(WavefrontRule, Errors) {
  EXPECT_PRED2(contains, errorMessage([] { loadWavefronts(3, strided(4)); }), "3 bytes");
  EXPECT_PRED2(contains, errorMessage([] { loadWavefronts(8, strided(4)); }), "not aligned");
  EXPECT_PRED2(contains, errorMessage([] { loadWavefronts(4, std::vector<LaneAccess>(33)); }),
               "33 lanes");
  EXPECT_PRED2(contains, errorMessage([] { matrixWavefronts({}); }), "1, 2 or 4 matrices");
  EXPECT_PRED2(contains, errorMessage([] { matrixWavefronts({MatrixRows{8}}); }),
               "not aligned to 16");
}

}  // namespace
}  // namespace f2lay::ref::analysis
