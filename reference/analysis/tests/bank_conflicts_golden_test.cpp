// Bank conflicts of whole layouts, with expected numbers taken literally from
// device_tests/HARDWARE.md (the 16x32 transpose: #seed-transpose) or derived
// by hand (the derivation is in the comment).
#include <gtest/gtest.h>

#include "definitions/layout_literals.h"
#include "reference/analysis/bank_conflicts.h"
#include "reference/analysis/tests/seed_transpose.h"
#include "reference/catalog/ldmatrix.h"
#include "reference/catalog/nvidia_mma.h"
#include "reference/catalog/shared.h"
#include "reference/catalog/tests/test_support.h"

namespace f2lay::ref::analysis {
namespace {

using catalog::contains;
using catalog::errorMessage;

WavefrontReport report(uint64_t instructions, uint64_t wavefronts, uint64_t ideal,
                       uint64_t vectorBytes) {
  return {instructions, wavefronts, ideal, wavefronts - ideal, vectorBytes};
}

AccessSpec spec(AccessKind kind, uint64_t elementBytes,
                Instruction instruction = Instruction::kVector) {
  return {kind, elementBytes, std::nullopt, instruction, {}};
}

// device_tests/HARDWARE.md#seed-transpose: 16 store wavefronts for every
// map; reads 256 / 32 / 16 (bank conflicts 240 / 16 / 0). 16 register steps
// each, fp32 scalars (no register lands on offset 1: v = 0).
TEST(BankConflictsGolden, SeedTranspose) {
  const uint64_t readWavefronts[] = {256, 32, 16};
  for (uint64_t factor = 0; factor < 3; ++factor) {
    LinearLayout shared = seed::rowMajorXor(factor);
    AccessSpec store = spec(AccessKind::kStore, 4), load = spec(AccessKind::kLoad, 4);
    EXPECT_EQ(simulateBankConflicts(seed::storeRowWise(), shared, store), report(16, 16, 16, 4))
        << "xor factor " << factor;
    EXPECT_EQ(simulateBankConflicts(seed::readColumnPairs(), shared, load),
              report(16, readWavefronts[factor], 16, 4))
        << "xor factor " << factor;
    // The lemma is exact for 4-byte accesses.
    EXPECT_EQ(lemma94(seed::storeRowWise(), shared, store), report(16, 16, 16, 4));
    EXPECT_EQ(lemma94(seed::readColumnPairs(), shared, load),
              report(16, readWavefronts[factor], 16, 4));
    EXPECT_EQ(widestVectorBytes(seed::readColumnPairs(), shared, 4), 4u);
  }
}

// device_tests/HARDWARE.md#triton-calibration: Gluon reports bank_conflicts
// == 7 for an fp16 64x64 tile held in NVMMADistributedLayout(version=[3,0],
// warps_per_cta=[4,1], instr_shape=[16,64,16]) stored to an unswizzled
// row-major shared layout, per instruction. By hand: each warp holds 16 rows x 64 columns = 1024
// elements = 32 registers a lane (5 register bits: column 1, row 8, columns 8,
// 16, 32; nvidia_mma.h). Register bit 0 is column 1 = offset 1, but column 2
// is lane bit 0, so the vector is 2 fp16 = 4 bytes; 2^(5-1) = 16 instructions
// per warp, 64 for the 4 warps. In one instruction lanes 4g..4g+3 write the
// 4 words of row g (lane bits 2-4 are rows 1, 2, 4); a row is 64 fp16 = 128
// bytes, so the 8 rows hit the same 4 banks: 8 wavefronts, 7 conflicts, and
// 64 * 8 = 512 wavefronts in all, 64 ideal.
TEST(BankConflictsGolden, GluonValueSeven) {
  LinearLayout mma = catalog::nvidiaMma({{3, 0}, {4, 1}, {16, 64, 16}, std::nullopt}, {64, 64});
  LinearLayout shared = catalog::unswizzledShared({1, 0}, {64, 64});
  AccessSpec store = spec(AccessKind::kStore, 2);
  WavefrontReport r = simulateBankConflicts(mma, shared, store);
  EXPECT_EQ(r, report(64, 512, 64, 4));
  EXPECT_EQ(r.conflicts / r.instructions, 7u);
  EXPECT_EQ(lemma94(mma, shared, store), report(64, 512, 64, 4));
  // 2-byte scalars are narrower than a bank: the lemma does not answer. By
  // hand each 2-byte store still puts 8 rows on one bank: 128 instructions of
  // 8 wavefronts.
  AccessSpec scalar = store;
  scalar.vectorBytes = 2;
  EXPECT_EQ(simulateBankConflicts(mma, shared, scalar), report(128, 1024, 128, 2));
  EXPECT_EQ(lemma94(mma, shared, scalar), std::nullopt);
}

// The ldmatrix tile itself (catalog/ldmatrix.h: register, lane -> row, col,
// matrix) as the distributed layout, over memories offset -> (row, col,
// matrix) of 256 b16 elements (bases [row, col, matrix]).
LinearLayout tileMemory(std::vector<Basis> offset) {
  return LinearLayout(LayoutValue{{{"offset", offset}}, {{"row", 8}, {"col", 8}, {"matrix", 4}}});
}

// Rows of 16 bytes one after another (pitch 16):
// device_tests/HARDWARE.md#strided-accesses, "LDSM.x4 row pitch 16 B": 4.
// Matrix above row: pitch 16 again per matrix, 4 in all.
// Rows 64 bytes apart (offset: col, matrix, row): row r of a matrix starts at
// word 16 r, bank 16 r mod 32, so rows 0, 2, 4, 6 share 4 banks: 4 distinct
// words a bank, 4 wavefronts per matrix, 16 in all.
TEST(BankConflictsGolden, LdmatrixTile) {
  LinearLayout pitch16 = tileMemory(
      {{0, 1, 0}, {0, 2, 0}, {0, 4, 0}, {1, 0, 0}, {2, 0, 0}, {4, 0, 0}, {0, 0, 1}, {0, 0, 2}});
  LinearLayout pitch64 = tileMemory(
      {{0, 1, 0}, {0, 2, 0}, {0, 4, 0}, {0, 0, 1}, {0, 0, 2}, {1, 0, 0}, {2, 0, 0}, {4, 0, 0}});
  for (bool trans : {false, true}) {
    LinearLayout tile = catalog::ldmatrix({4, trans});
    Instruction kind = trans ? Instruction::kMatrixTrans : Instruction::kMatrix;
    for (AccessKind ak : {AccessKind::kLoad, AccessKind::kStore}) {
      EXPECT_EQ(simulateBankConflicts(tile, pitch16, spec(ak, 2, kind)), report(1, 4, 4, 16));
      EXPECT_EQ(simulateBankConflicts(tile, pitch64, spec(ak, 2, kind)), report(1, 16, 4, 16));
      EXPECT_EQ(lemma94(tile, pitch16, spec(ak, 2, kind)), std::nullopt);
    }
  }
  // .x1 (no register bit left for a matrix) with rows of pitch 16:
  // device_tests/HARDWARE.md#strided-accesses, "LDSM.x1 row pitch 16 B": 1.
  LinearLayout x1 = catalog::ldmatrix({1, false});
  LinearLayout x1Memory(
      LayoutValue{{{"offset", {{0, 1, 0}, {0, 2, 0}, {0, 4, 0}, {1, 0, 0}, {2, 0, 0}, {4, 0, 0}}}},
                  {{"row", 8}, {"col", 8}, {"matrix", 1}}});
  EXPECT_EQ(simulateBankConflicts(x1, x1Memory, spec(AccessKind::kLoad, 2, Instruction::kMatrix)),
            report(1, 1, 1, 16));
  // The non-transposed tile read with .trans: its lane bits 2-4 are rows, not
  // the contiguous columns .trans needs.
  EXPECT_PRED2(contains, errorMessage([&] {
                 simulateBankConflicts(catalog::ldmatrix({4, false}), pitch16,
                                       spec(AccessKind::kLoad, 2, Instruction::kMatrixTrans));
               }),
               "lane bit 2 is at offset 8, not +1");
}

// The 16x32 transpose's 16 steps as one warp instruction each, shown per
// instruction: the xor-2m read's instruction 0 (registers 0) reads column 0
// with lanes 0-15 (banks 2m = 0, 2, ..., 30) and column 1 with lanes 16-31
// (banks 1 xor 2m = 1, 3, ..., 31): one wavefront.
TEST(BankConflictsGolden, WarpAccesses) {
  std::vector<InstructionAccess> in =
      warpAccesses(seed::readColumnPairs(), seed::rowMajorXor(2), spec(AccessKind::kLoad, 4), 0);
  ASSERT_EQ(in.size(), 16u);
  ASSERT_EQ(in[0].lanes.size(), 32u);
  for (uint64_t l = 0; l < 32; ++l)
    EXPECT_EQ(in[0].lanes[l].address / 4 % 32, l < 16 ? 2 * l : 2 * (l - 16) + 1) << l;
  EXPECT_EQ(in[0].cost, (WavefrontCount{1, 1}));
  EXPECT_EQ(in[1].registers, std::vector<uint64_t>{1});
}

TEST(BankConflictsGolden, Errors) {
  LinearLayout read = seed::readColumnPairs(), shared = seed::rowMajorXor(2);
  AccessSpec load = spec(AccessKind::kLoad, 4);
  auto both = [&](const LinearLayout& d, const LinearLayout& s, const AccessSpec& a) {
    std::string sim = errorMessage([&] { simulateBankConflicts(d, s, a); });
    EXPECT_EQ(sim, errorMessage([&] { lemma94(d, s, a); }));
    return sim;
  };
  AccessSpec bad = load;
  bad.elementBytes = 3;
  EXPECT_PRED2(contains, both(read, shared, bad), "element_bytes = 3");
  bad = load;
  bad.vectorBytes = 8;  // the read has no register at offset 1
  EXPECT_PRED2(contains, both(read, shared, bad), "vector_bytes = 8 is wider than");
  bad.vectorBytes = 12;
  EXPECT_PRED2(contains, both(read, shared, bad), "not a power of two");
  bad.vectorBytes = 2;
  EXPECT_PRED2(contains, both(read, shared, bad), "not a multiple of element_bytes = 4");
  bad.vectorBytes = 32;
  EXPECT_PRED2(contains, both(read, shared, bad), "more than 16");
  bad = spec(AccessKind::kLoad, 4, Instruction::kMatrix);
  EXPECT_PRED2(contains, both(read, shared, bad), "b16");
  // A memory layout sending two offsets to one element.
  LinearLayout twice(LayoutValue{
      {{"offset", {{1, 0}, {1, 0}, {4, 0}, {8, 0}, {16, 0}, {0, 1}, {0, 2}, {0, 4}, {0, 8}}}},
      {{"n", 32}, {"m", 16}}});
  EXPECT_PRED2(contains, both(read, twice, load), "not invertible");
  // Out dims of other names, or sizes.
  LinearLayout renamed = catalog::unswizzledShared({1, 0}, {16, 32});
  EXPECT_PRED2(contains, both(read, renamed, load), "same out dims");
  // Two CTAs.
  LinearLayout blocks = catalog::testkit::distributed({{0, 1}, {0, 2}, {0, 4}, {0, 8}},
                                                      {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 0}}, {},
                                                      {{16, 0}}, {32, 16});
  EXPECT_PRED2(contains, both(blocks, catalog::unswizzledShared({0, 1}, {32, 16}), load),
               "'block' of size 2");
  // A lane dim of 16 lanes.
  LinearLayout half =
      catalog::testkit::distributed({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {16, 0}},
                                    {{1, 0}, {2, 0}, {4, 0}, {8, 0}}, {}, {}, {32, 16});
  EXPECT_PRED2(contains, both(half, catalog::unswizzledShared({0, 1}, {32, 16}), load), "16 lanes");
  // An unknown in dim.
  LinearLayout odd(LayoutValue{{{"thread", {{1}}}}, {{"n", 2}}});
  EXPECT_PRED2(contains, errorMessage([&] { simulateBankConflicts(odd, shared, load); }),
               "in dim 'thread'");
  EXPECT_PRED2(contains, errorMessage([&] { warpAccesses(read, shared, load, 1); }),
               "warp 1 does not exist");
}

}  // namespace
}  // namespace f2lay::ref::analysis
