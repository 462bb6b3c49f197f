// Bank conflicts and the shared round trip on padded memory
// (analysis/padding.h) against a brute-force count written here from the
// wavefront rule's words (device_tests/HARDWARE.md: bank = byte address / 4
// mod 32; a phase costs the most distinct 4-byte words in one bank; 32
// lanes in one phase up to 4 bytes, 16 for 8 bytes, 8 for 16 bytes) and the
// padded address from Gluon's docstring (walk the offsets, skip `padding`
// cells after every `interval` elements). Accesses here are unvectorized
// (vector_bytes = element_bytes) and every element distinct, so no rule for
// vectors or repeated addresses is needed; plus the textbook case of a
// 32x32 fp32 tile padded by one word per row, read by columns.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "definitions/padded_walk.h"
#include "reference/analysis/bank_conflicts.h"
#include "reference/analysis/shared_roundtrip.h"
#include "reference/catalog/padded_shared.h"
#include "reference/catalog/shared.h"
#include "testkit/outcome.h"

namespace f2lay::ref::analysis {
namespace {

using f2lay::analysis::Padding;
using f2lay::ref::catalog::cellsByWalking;

struct Totals {
  uint64_t instructions = 0, wavefronts = 0, phases = 0;
};

// Every register of every warp is one instruction of elementBytes per lane.
Totals bruteForce(const LinearLayout& dist, const LinearLayout& shared, const Padding& padding,
                  uint64_t elementBytes) {
  uint64_t offsets = uint64_t{1} << shared.getInDimSizeLog2("offset");
  std::map<DimValues, uint64_t> offsetOf;
  for (uint64_t o = 0; o < offsets; ++o) offsetOf[shared.apply({{"offset", o}})] = o;
  std::vector<uint64_t> cell = cellsByWalking(padding, offsets);
  uint64_t regs = uint64_t{1} << dist.getInDimSizeLog2("register");
  uint64_t warps = uint64_t{1} << dist.getInDimSizeLog2("warp");
  uint64_t perPhase = elementBytes <= 4 ? 32 : 128 / elementBytes;
  uint64_t words = std::max<uint64_t>(1, elementBytes / 4);
  Totals t;
  for (uint64_t w = 0; w < warps; ++w)
    for (uint64_t r = 0; r < regs; ++r) {
      ++t.instructions;
      for (uint64_t first = 0; first < 32; first += perPhase) {
        std::map<uint64_t, std::set<uint64_t>> bank;
        for (uint64_t l = first; l < first + perPhase; ++l) {
          DimValues x = dist.apply({{"register", r}, {"lane", l}, {"warp", w}});
          uint64_t byte = cell[offsetOf.at(x)] * elementBytes;
          for (uint64_t k = 0; k < words; ++k) bank[(byte / 4 + k) % 32].insert(byte / 4 + k);
        }
        uint64_t most = 0;
        for (const auto& [b, ws] : bank) most = std::max<uint64_t>(most, ws.size());
        t.wavefronts += most;
        ++t.phases;
      }
    }
  return t;
}

// A distributed layout holding each element once: the tensor's bits dealt
// in random order to 5 lanes, some warps, the rest registers.
LinearLayout randomBijective(std::mt19937_64& rng, const std::vector<uint64_t>& shape,
                             int warpBits) {
  std::vector<Basis> units;
  for (size_t d = 0; d < shape.size(); ++d)
    for (uint64_t x = 1; x < shape[d]; x *= 2) {
      Basis b(shape.size(), 0);
      b[d] = x;
      units.push_back(b);
    }
  std::shuffle(units.begin(), units.end(), rng);
  LayoutValue v{{{"register", {}}, {"lane", {}}, {"warp", {}}}, {}};
  for (size_t i = 0; i < units.size(); ++i)
    v.in_dims[i < 5 ? 1 : i < 5 + static_cast<size_t>(warpBits) ? 2 : 0].bases.push_back(units[i]);
  for (size_t d = 0; d < shape.size(); ++d)
    v.out_dims.push_back({"dim" + std::to_string(d), shape[d]});
  return LinearLayout(v);
}

TEST(PaddedBanks, RandomPaddedLayoutsMatchTheBruteForceCount) {
  std::mt19937_64 rng(2222);
  int compared = 0;
  for (int round = 0; round < 40; ++round) {
    // A padded_shared layout on a 2-D tile of 2^7 to 2^9 elements.
    int bits = 7 + static_cast<int>(rng() % 3);
    int rowBits = static_cast<int>(rng() % static_cast<uint64_t>(bits + 1));
    std::vector<uint64_t> shape = {uint64_t{1} << rowBits, uint64_t{1} << (bits - rowBits)};
    catalog::PaddedSharedParams p;
    p.shape = shape;
    for (size_t d = 0; d < 2; ++d)
      for (uint64_t x = 1; x < shape[d]; x *= 2)
        p.offsetBases.push_back(d ? Basis{0, x} : Basis{x, 0});
    std::shuffle(p.offsetBases.begin(), p.offsetBases.end(), rng);
    p.intervalPaddingPairs.push_back({uint64_t{1} << rng() % 8, uint64_t{1} << rng() % 5});
    if (rng() % 2 && p.intervalPaddingPairs[0].interval != 64)
      p.intervalPaddingPairs.push_back({64, uint64_t{1} << rng() % 3});
    catalog::PaddedShared padded = catalog::paddedShared(p);
    LinearLayout shared = padded.linear.sublayout({"offset"}, padded.linear.getOutDimNames());
    LinearLayout dist = randomBijective(rng, shape, static_cast<int>(rng() % 3));
    for (uint64_t eb : {1, 2, 4, 8, 16})
      for (AccessKind kind : {AccessKind::kLoad, AccessKind::kStore}) {
        AccessSpec access{kind, eb, eb, Instruction::kVector, padded.padding};
        WavefrontReport got = simulateBankConflicts(dist, shared, access);
        Totals want = bruteForce(dist, shared, padded.padding, eb);
        ASSERT_EQ(got.instructions, want.instructions) << dist << shared;
        ASSERT_EQ(got.wavefronts, want.wavefronts) << "w=" << eb << "\n" << dist << shared;
        ASSERT_EQ(got.idealWavefronts, want.phases) << dist << shared;
        if (f2lay::analysis::padsInside(padded.padding, uint64_t{1} << bits)) {
          EXPECT_FALSE(lemma94(dist, shared, access).has_value());
        }
        ++compared;
      }
  }
  EXPECT_EQ(compared, 400);
}

// A 32x32 fp32 tile, row-major, one word of padding per 32-element row
// ([[32, 1]]): lane l reads (l, c) from the padded address 33 l + c, bank
// (l + c) mod 32, so each column read takes 1 wavefront instead of 32.
TEST(PaddedBanks, ColumnReadOfAPaddedRowMajorTile) {
  catalog::PaddedShared padded =
      catalog::paddedShared(catalog::paddedSharedIdentityFor({{32, 1}}, {32, 32}, {1, 0}, {}));
  LinearLayout shared = padded.linear.sublayout({"offset"}, padded.linear.getOutDimNames());
  LayoutValue v{{{"register", {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}}},
                 {"lane", {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}}},
                 {"warp", {}}},
                {{"dim0", 32}, {"dim1", 32}}};
  LinearLayout columns(v);
  AccessSpec plain{AccessKind::kLoad, 4, std::nullopt, Instruction::kVector, {}};
  AccessSpec withPadding = plain;
  withPadding.padding = padded.padding;
  WavefrontReport unpadded = simulateBankConflicts(columns, shared, plain);
  EXPECT_EQ(unpadded.instructions, 8u);  // 16-byte vectors along the row
  WavefrontReport got = simulateBankConflicts(columns, shared, withPadding);
  // The padding (1 element) allows no vector: 32 instructions of 4 bytes.
  EXPECT_EQ(got.vectorBytes, 4u);
  EXPECT_EQ(got.instructions, 32u);
  EXPECT_EQ(got.wavefronts, 32u);
  EXPECT_EQ(got.conflicts, 0u);
  AccessSpec narrow = plain;
  narrow.vectorBytes = 4;
  EXPECT_EQ(simulateBankConflicts(columns, shared, narrow).wavefronts, 32u * 32u);
  // Wider vectors are refused on this padding, saying why.
  AccessSpec wide = withPadding;
  wide.vectorBytes = 8;
  EXPECT_PRED2(f2lay::testkit::contains,
               f2lay::testkit::errorMessage([&] { simulateBankConflicts(columns, shared, wide); }),
               "smallest interval and padding");
  // Padding of 4 elements every 32 keeps 16-byte vectors: lane l's vector
  // at 36 l + 4 k words: bank 4 (l + k) mod 32, a quarter-warp of 8 lanes
  // covers 8 distinct 4-bank groups, so no conflicts.
  catalog::PaddedShared four =
      catalog::paddedShared(catalog::paddedSharedIdentityFor({{32, 4}}, {32, 32}, {1, 0}, {}));
  withPadding.padding = four.padding;
  got = simulateBankConflicts(columns, shared, withPadding);
  EXPECT_EQ(got.vectorBytes, 16u);
  EXPECT_EQ(got.instructions, 8u);
  EXPECT_EQ(got.wavefronts, 32u);
  EXPECT_EQ(got.conflicts, 0u);
}

TEST(PaddedBanks, RoundTripThroughPaddedMemory) {
  std::mt19937_64 rng(23);
  for (int round = 0; round < 100; ++round) {
    std::vector<uint64_t> shape = {32, 16};
    catalog::PaddedSharedParams p = catalog::paddedSharedIdentityFor(
        {{uint64_t{1} << rng() % 7, uint64_t{1} << rng() % 4}}, shape,
        rng() % 2 ? std::vector<unsigned>{1, 0} : std::vector<unsigned>{0, 1}, {});
    catalog::PaddedShared padded = catalog::paddedShared(p);
    LinearLayout shared = padded.linear.sublayout({"offset"}, padded.linear.getOutDimNames());
    LinearLayout a = randomBijective(rng, shape, 1), b = randomBijective(rng, shape, 2);
    for (uint64_t eb : {1, 2, 4, 8}) {
      RoundTrip rt = simulateSharedRoundTrip(a, b, shared, eb, padded.padding);
      EXPECT_EQ(rt.wrongElements, 0u) << rt.firstWrong;
      uint64_t limit = f2lay::analysis::paddedVectorLimit(padded.padding, 512);
      EXPECT_LE(rt.storeVectorElements, limit);
      EXPECT_LE(rt.loadVectorElements, limit);
    }
  }
}

}  // namespace
}  // namespace f2lay::ref::analysis
