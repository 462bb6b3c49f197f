// CUTLASS's TensorOpMultiplicand crosswise layouts: three tables printed by
// CUTLASS's example 03_visualize_layout (examples/03_visualize_layout in
// CUTLASS), copied below literally, as golden tests, and CUTLASS's address
// computation (operator() of TensorOpMultiplicand in
// include/cutlass/layout/tensor_op_multiplicand_sm75.h, in the steps cutlass.h
// explains: kFactor, TileShape, PartitionShape; cutlass_formula.h) evaluated
// on integers at every element.
#include "reference/catalog/cutlass.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <sstream>

#include "definitions/cutlass_formula.h"
#include "reference/catalog/tests/test_support.h"
#include "testkit/evaluate.h"

namespace f2lay::ref::catalog {
namespace {

using Params = TensorOpMultiplicandParams;

// visualize_layout --vectorize=8 --output-shape=64,4 prints 64 consecutive
// offsets per line as 8 cells of 8 elements: cell k of line r, "(a..b, s)",
// says offsets 64r + 8k + i (i < 8) hold the element (contiguous a + i,
// strided s). Blank lines only separate groups of 4 lines. Returns the
// number of elements checked.
uint64_t expectTable(const LinearLayout& memory, const std::string& table) {
  std::istringstream lines(table);
  std::string line;
  uint64_t row = 0, checked = 0;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    std::istringstream cells(line);
    std::string cell;
    uint64_t k = 0;
    while (std::getline(cells, cell, '|')) {
      unsigned long first = 0, last = 0, strided = 0;
      EXPECT_EQ(std::sscanf(cell.c_str(), "(%lu..%lu, %lu)", &first, &last, &strided), 3) << cell;
      EXPECT_EQ(last, first + 7) << cell;
      for (uint64_t i = 0; i < 8; ++i, ++checked) {
        uint64_t offset = 64 * row + 8 * k + i;
        EXPECT_EQ(f2lay::testkit::apply(memory.value(), offset),
                  (std::vector<uint64_t>{first + i, strided}))
            << "offset " << offset << " (line " << row << ", cell " << cell << ")";
      }
      ++k;
    }
    EXPECT_EQ(k, 8u) << line;
    ++row;
  }
  return checked;
}

// Printed by ./03_visualize_layout "TensorOpMultiplicand<16,32>" --extent=32,32
// --vectorize=8 --output-shape=64,4. 16-bit elements, crosswise 32: a
// 128-byte line holds kFactor = 2 strided rows.
const char* const kSeed16x32Extent32x32 =
    R"((0..7, 0)|(8..15, 0)|(16..23, 0)|(24..31, 0)|(0..7, 1)|(8..15, 1)|(16..23, 1)|(24..31, 1)
(8..15, 2)|(0..7, 2)|(24..31, 2)|(16..23, 2)|(8..15, 3)|(0..7, 3)|(24..31, 3)|(16..23, 3)
(16..23, 4)|(24..31, 4)|(0..7, 4)|(8..15, 4)|(16..23, 5)|(24..31, 5)|(0..7, 5)|(8..15, 5)
(24..31, 6)|(16..23, 6)|(8..15, 6)|(0..7, 6)|(24..31, 7)|(16..23, 7)|(8..15, 7)|(0..7, 7)
(0..7, 8)|(8..15, 8)|(16..23, 8)|(24..31, 8)|(0..7, 9)|(8..15, 9)|(16..23, 9)|(24..31, 9)
(8..15, 10)|(0..7, 10)|(24..31, 10)|(16..23, 10)|(8..15, 11)|(0..7, 11)|(24..31, 11)|(16..23, 11)
(16..23, 12)|(24..31, 12)|(0..7, 12)|(8..15, 12)|(16..23, 13)|(24..31, 13)|(0..7, 13)|(8..15, 13)
(24..31, 14)|(16..23, 14)|(8..15, 14)|(0..7, 14)|(24..31, 15)|(16..23, 15)|(8..15, 15)|(0..7, 15)
(0..7, 16)|(8..15, 16)|(16..23, 16)|(24..31, 16)|(0..7, 17)|(8..15, 17)|(16..23, 17)|(24..31, 17)
(8..15, 18)|(0..7, 18)|(24..31, 18)|(16..23, 18)|(8..15, 19)|(0..7, 19)|(24..31, 19)|(16..23, 19)
(16..23, 20)|(24..31, 20)|(0..7, 20)|(8..15, 20)|(16..23, 21)|(24..31, 21)|(0..7, 21)|(8..15, 21)
(24..31, 22)|(16..23, 22)|(8..15, 22)|(0..7, 22)|(24..31, 23)|(16..23, 23)|(8..15, 23)|(0..7, 23)
(0..7, 24)|(8..15, 24)|(16..23, 24)|(24..31, 24)|(0..7, 25)|(8..15, 25)|(16..23, 25)|(24..31, 25)
(8..15, 26)|(0..7, 26)|(24..31, 26)|(16..23, 26)|(8..15, 27)|(0..7, 27)|(24..31, 27)|(16..23, 27)
(16..23, 28)|(24..31, 28)|(0..7, 28)|(8..15, 28)|(16..23, 29)|(24..31, 29)|(0..7, 29)|(8..15, 29)
(24..31, 30)|(16..23, 30)|(8..15, 30)|(0..7, 30)|(24..31, 31)|(16..23, 31)|(8..15, 31)|(0..7, 31))";

// Printed by ./03_visualize_layout "TensorOpMultiplicand<16,64>" --extent=64,16
// --vectorize=8 --output-shape=64,4. kFactor = 1, kTileShapeStride = 8.
const char* const kSeed16x64Extent64x16 =
    R"((0..7, 0)|(8..15, 0)|(16..23, 0)|(24..31, 0)|(32..39, 0)|(40..47, 0)|(48..55, 0)|(56..63, 0)
(8..15, 1)|(0..7, 1)|(24..31, 1)|(16..23, 1)|(40..47, 1)|(32..39, 1)|(56..63, 1)|(48..55, 1)
(16..23, 2)|(24..31, 2)|(0..7, 2)|(8..15, 2)|(48..55, 2)|(56..63, 2)|(32..39, 2)|(40..47, 2)
(24..31, 3)|(16..23, 3)|(8..15, 3)|(0..7, 3)|(56..63, 3)|(48..55, 3)|(40..47, 3)|(32..39, 3)
(32..39, 4)|(40..47, 4)|(48..55, 4)|(56..63, 4)|(0..7, 4)|(8..15, 4)|(16..23, 4)|(24..31, 4)
(40..47, 5)|(32..39, 5)|(56..63, 5)|(48..55, 5)|(8..15, 5)|(0..7, 5)|(24..31, 5)|(16..23, 5)
(48..55, 6)|(56..63, 6)|(32..39, 6)|(40..47, 6)|(16..23, 6)|(24..31, 6)|(0..7, 6)|(8..15, 6)
(56..63, 7)|(48..55, 7)|(40..47, 7)|(32..39, 7)|(24..31, 7)|(16..23, 7)|(8..15, 7)|(0..7, 7)
(0..7, 8)|(8..15, 8)|(16..23, 8)|(24..31, 8)|(32..39, 8)|(40..47, 8)|(48..55, 8)|(56..63, 8)
(8..15, 9)|(0..7, 9)|(24..31, 9)|(16..23, 9)|(40..47, 9)|(32..39, 9)|(56..63, 9)|(48..55, 9)
(16..23, 10)|(24..31, 10)|(0..7, 10)|(8..15, 10)|(48..55, 10)|(56..63, 10)|(32..39, 10)|(40..47, 10)
(24..31, 11)|(16..23, 11)|(8..15, 11)|(0..7, 11)|(56..63, 11)|(48..55, 11)|(40..47, 11)|(32..39, 11)
(32..39, 12)|(40..47, 12)|(48..55, 12)|(56..63, 12)|(0..7, 12)|(8..15, 12)|(16..23, 12)|(24..31, 12)
(40..47, 13)|(32..39, 13)|(56..63, 13)|(48..55, 13)|(8..15, 13)|(0..7, 13)|(24..31, 13)|(16..23, 13)
(48..55, 14)|(56..63, 14)|(32..39, 14)|(40..47, 14)|(16..23, 14)|(24..31, 14)|(0..7, 14)|(8..15, 14)
(56..63, 15)|(48..55, 15)|(40..47, 15)|(32..39, 15)|(24..31, 15)|(16..23, 15)|(8..15, 15)|(0..7, 15))";

// Printed by ./03_visualize_layout "TensorOpMultiplicand<16,32>" --extent=32,64
// --vectorize=8 --output-shape=64,4. The printout copied here stops after 31
// of its 32 lines (strided 60, 61); those 31 are checked.
const char* const kSeed16x32Extent32x64 =
    R"((0..7, 0)|(8..15, 0)|(16..23, 0)|(24..31, 0)|(0..7, 1)|(8..15, 1)|(16..23, 1)|(24..31, 1)
(8..15, 2)|(0..7, 2)|(24..31, 2)|(16..23, 2)|(8..15, 3)|(0..7, 3)|(24..31, 3)|(16..23, 3)
(16..23, 4)|(24..31, 4)|(0..7, 4)|(8..15, 4)|(16..23, 5)|(24..31, 5)|(0..7, 5)|(8..15, 5)
(24..31, 6)|(16..23, 6)|(8..15, 6)|(0..7, 6)|(24..31, 7)|(16..23, 7)|(8..15, 7)|(0..7, 7)
(0..7, 8)|(8..15, 8)|(16..23, 8)|(24..31, 8)|(0..7, 9)|(8..15, 9)|(16..23, 9)|(24..31, 9)
(8..15, 10)|(0..7, 10)|(24..31, 10)|(16..23, 10)|(8..15, 11)|(0..7, 11)|(24..31, 11)|(16..23, 11)
(16..23, 12)|(24..31, 12)|(0..7, 12)|(8..15, 12)|(16..23, 13)|(24..31, 13)|(0..7, 13)|(8..15, 13)
(24..31, 14)|(16..23, 14)|(8..15, 14)|(0..7, 14)|(24..31, 15)|(16..23, 15)|(8..15, 15)|(0..7, 15)
(0..7, 16)|(8..15, 16)|(16..23, 16)|(24..31, 16)|(0..7, 17)|(8..15, 17)|(16..23, 17)|(24..31, 17)
(8..15, 18)|(0..7, 18)|(24..31, 18)|(16..23, 18)|(8..15, 19)|(0..7, 19)|(24..31, 19)|(16..23, 19)
(16..23, 20)|(24..31, 20)|(0..7, 20)|(8..15, 20)|(16..23, 21)|(24..31, 21)|(0..7, 21)|(8..15, 21)
(24..31, 22)|(16..23, 22)|(8..15, 22)|(0..7, 22)|(24..31, 23)|(16..23, 23)|(8..15, 23)|(0..7, 23)
(0..7, 24)|(8..15, 24)|(16..23, 24)|(24..31, 24)|(0..7, 25)|(8..15, 25)|(16..23, 25)|(24..31, 25)
(8..15, 26)|(0..7, 26)|(24..31, 26)|(16..23, 26)|(8..15, 27)|(0..7, 27)|(24..31, 27)|(16..23, 27)
(16..23, 28)|(24..31, 28)|(0..7, 28)|(8..15, 28)|(16..23, 29)|(24..31, 29)|(0..7, 29)|(8..15, 29)
(24..31, 30)|(16..23, 30)|(8..15, 30)|(0..7, 30)|(24..31, 31)|(16..23, 31)|(8..15, 31)|(0..7, 31)
(0..7, 32)|(8..15, 32)|(16..23, 32)|(24..31, 32)|(0..7, 33)|(8..15, 33)|(16..23, 33)|(24..31, 33)
(8..15, 34)|(0..7, 34)|(24..31, 34)|(16..23, 34)|(8..15, 35)|(0..7, 35)|(24..31, 35)|(16..23, 35)
(16..23, 36)|(24..31, 36)|(0..7, 36)|(8..15, 36)|(16..23, 37)|(24..31, 37)|(0..7, 37)|(8..15, 37)
(24..31, 38)|(16..23, 38)|(8..15, 38)|(0..7, 38)|(24..31, 39)|(16..23, 39)|(8..15, 39)|(0..7, 39)
(0..7, 40)|(8..15, 40)|(16..23, 40)|(24..31, 40)|(0..7, 41)|(8..15, 41)|(16..23, 41)|(24..31, 41)
(8..15, 42)|(0..7, 42)|(24..31, 42)|(16..23, 42)|(8..15, 43)|(0..7, 43)|(24..31, 43)|(16..23, 43)
(16..23, 44)|(24..31, 44)|(0..7, 44)|(8..15, 44)|(16..23, 45)|(24..31, 45)|(0..7, 45)|(8..15, 45)
(24..31, 46)|(16..23, 46)|(8..15, 46)|(0..7, 46)|(24..31, 47)|(16..23, 47)|(8..15, 47)|(0..7, 47)
(0..7, 48)|(8..15, 48)|(16..23, 48)|(24..31, 48)|(0..7, 49)|(8..15, 49)|(16..23, 49)|(24..31, 49)
(8..15, 50)|(0..7, 50)|(24..31, 50)|(16..23, 50)|(8..15, 51)|(0..7, 51)|(24..31, 51)|(16..23, 51)
(16..23, 52)|(24..31, 52)|(0..7, 52)|(8..15, 52)|(16..23, 53)|(24..31, 53)|(0..7, 53)|(8..15, 53)
(24..31, 54)|(16..23, 54)|(8..15, 54)|(0..7, 54)|(24..31, 55)|(16..23, 55)|(8..15, 55)|(0..7, 55)
(0..7, 56)|(8..15, 56)|(16..23, 56)|(24..31, 56)|(0..7, 57)|(8..15, 57)|(16..23, 57)|(24..31, 57)
(8..15, 58)|(0..7, 58)|(24..31, 58)|(16..23, 58)|(8..15, 59)|(0..7, 59)|(24..31, 59)|(16..23, 59)
(16..23, 60)|(24..31, 60)|(0..7, 60)|(8..15, 60)|(16..23, 61)|(24..31, 61)|(0..7, 61)|(8..15, 61))";

TEST(CutlassTensorOpGolden, SeedVisualizeLayout16x32Extent32x32) {
  EXPECT_EQ(expectTable(tensorOpMultiplicand({16, 32, 32, 32, 0, false}), kSeed16x32Extent32x32),
            32u * 32);
}

TEST(CutlassTensorOpGolden, SeedVisualizeLayout16x64Extent64x16) {
  EXPECT_EQ(expectTable(tensorOpMultiplicand({16, 64, 64, 16, 0, false}), kSeed16x64Extent64x16),
            64u * 16);
}

TEST(CutlassTensorOpGolden, SeedVisualizeLayout16x32Extent32x64) {
  EXPECT_EQ(expectTable(tensorOpMultiplicand({16, 32, 32, 64, 0, false}), kSeed16x32Extent32x64),
            31u * 64);
}

// The bases read off the first table: offset 2^k holds the element of cell
// (2^k mod 64) / 8 of line 2^k / 64, e.g. offset 64 -> line 1, cell 0 =
// (8..15, 2) -> (8, 2).
TEST(CutlassTensorOpGolden, SeedTable16x32Bases) {
  LayoutValue v{
      {{"offset",
        {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {0, 1}, {8, 2}, {16, 4}, {0, 8}, {0, 16}}}},
      {{"dim0", 32}, {"dim1", 32}}};
  EXPECT_EQ(tensorOpMultiplicand({16, 32, 32, 32, 0, false}), LinearLayout(v));
}

std::vector<Params> formulaCases() {
  std::vector<Params> cases;
  for (uint64_t bits : {4, 8, 16, 32, 64})
    for (uint64_t crosswise = 128 / bits; crosswise <= 8 * 128 / bits; crosswise *= 2)
      for (uint64_t times : {1, 4})
        for (uint64_t strided : {1, 4, 32})
          for (uint64_t ldmTimes : {1, 2})
            cases.push_back(
                {bits, crosswise, crosswise * times, strided, crosswise * times * ldmTimes, false});
  return cases;
}

TEST(CutlassTensorOp, AddressComputationAtEveryElement) {
  uint64_t checked = 0, inverted = 0;
  for (const Params& p : formulaCases()) {
    SCOPED_TRACE("bits " + std::to_string(p.elementBits) + " crosswise " +
                 std::to_string(p.crosswise) + " extent " + std::to_string(p.contiguous) + "x" +
                 std::to_string(p.strided) + " ldm " + std::to_string(p.ldm));
    LinearLayout toOffset = tensorOpMultiplicandToOffset(p);
    // testkit::apply's input: dim0 (contiguous) in the low bits.
    for (uint64_t s = 0; s < p.strided; ++s)
      for (uint64_t c = 0; c < p.contiguous; ++c, ++checked)
        ASSERT_EQ(f2lay::testkit::apply(toOffset.value(), c + s * p.contiguous)[0],
                  cutlassOffset(p, c, s))
            << "c " << c << " s " << s;
    // Invertible when the offsets are exactly 0 .. extent[0] * extent[1] - 1.
    std::vector<bool> hit(p.contiguous * p.strided, false);
    for (uint64_t s = 0; s < p.strided; ++s)
      for (uint64_t c = 0; c < p.contiguous; ++c) {
        uint64_t offset = cutlassOffset(p, c, s);
        if (offset < hit.size()) hit[offset] = true;
      }
    bool invertible = std::all_of(hit.begin(), hit.end(), [](bool b) { return b; });
    ASSERT_EQ(toOffset.isInvertible(), invertible);
    if (!invertible) {
      EXPECT_PRED2(contains, errorMessage([&] { tensorOpMultiplicand(p); }),
                   "leaves offsets without an element");
      continue;
    }
    LinearLayout memory = tensorOpMultiplicand(p);
    for (uint64_t s = 0; s < p.strided; ++s)
      for (uint64_t c = 0; c < p.contiguous; ++c, ++inverted)
        ASSERT_EQ(f2lay::testkit::apply(memory.value(), cutlassOffset(p, c, s)),
                  (std::vector<uint64_t>{c, s}));
  }
  // Sums of contiguous * strided by hand: per element size E = 128 / bits,
  // crosswise E..8E and 4x that, strided 1 + 4 + 32, two ldm: 5550 E. The
  // invertible ones: ldm = extent[0] and strided >= kFactor, 2720 E; and
  // 102 E more where the unused offset bits are all at the top: no strided
  // bit above kFactor (then ldm does not matter) and extent[0] = crosswise,
  // or strided = kFactor. E summed over 4..64 bits is 62.
  EXPECT_EQ(checked, 5550u * 62);
  EXPECT_EQ(inverted, (2720u + 102) * 62);
}

// RowMajorTensorOpMultiplicandCrosswise: (row, column) = (strided,
// contiguous), so dim0 is the strided coordinate.
TEST(CutlassTensorOp, RowMajorViewSwapsTheDims) {
  Params p{16, 64, 64, 16, 0, true};
  LinearLayout toOffset = tensorOpMultiplicandToOffset(p);
  for (uint64_t s = 0; s < 16; ++s)
    for (uint64_t c = 0; c < 64; ++c)
      ASSERT_EQ(f2lay::testkit::apply(toOffset.value(), s + c * 16)[0], cutlassOffset(p, c, s));
  LinearLayout memory = tensorOpMultiplicand(p);
  EXPECT_EQ(memory.getOutDimNames(), (std::vector<std::string>{"dim0", "dim1"}));
  EXPECT_EQ(memory.getOutDimSize("dim0"), 16u);
  EXPECT_EQ(f2lay::testkit::apply(memory.value(), 64),
            (std::vector<uint64_t>{1, 8}));  // (8..15, 1)
}

TEST(CutlassTensorOp, ParameterErrors) {
  EXPECT_EQ(errorMessage([] {
              tensorOpMultiplicand({12, 32, 32, 32, 0, false});
            }),
            "cutlass_tensorop: element_bits = 12 must be a power of two from 1 to 128 (CUTLASS "
            "moves 128 bits per access, kElementsPerAccess = 128 / element_bits)");
  EXPECT_EQ(errorMessage([] {
              tensorOpMultiplicand({16, 128, 128, 32, 0, false});
            }),
            "cutlass_tensorop: crosswise = 128 is more than one 128-byte cache line (64 elements "
            "of 16 bits): CUTLASS's kFactor would be 0");
  EXPECT_PRED2(contains, errorMessage([] {
                 tensorOpMultiplicand({16, 4, 32, 32, 0, false});
               }),
               "crosswise = 4 is less than one 128-bit access (8 elements of 16 bits)");
  EXPECT_PRED2(contains, errorMessage([] {
                 tensorOpMultiplicand({16, 24, 32, 32, 0, false});
               }),
               "crosswise = 24 is not a power of two");
  EXPECT_PRED2(contains, errorMessage([] {
                 tensorOpMultiplicand({16, 32, 48, 32, 0, false});
               }),
               "extent[0] = 48 is not a power of two");
  EXPECT_PRED2(contains, errorMessage([] {
                 tensorOpMultiplicand({16, 32, 32, 0, 0, false});
               }),
               "extent[1] = 0 is not a power of two");
  EXPECT_PRED2(contains, errorMessage([] {
                 tensorOpMultiplicand({16, 64, 32, 16, 0, false});
               }),
               "cutlass_tensorop: ldm = 32 is less than crosswise = 64");
  EXPECT_PRED2(contains, errorMessage([] {
                 tensorOpMultiplicand({16, 32, 64, 16, 32, false});
               }),
               "cutlass_tensorop: ldm = 32 is less than extent[0] = 64");
  EXPECT_EQ(errorMessage([] {
              tensorOpMultiplicand({16, 64, 64, 16, 128, false});
            }),
            "cutlass_tensorop: extent [64, 16] with ldm = 128 leaves offsets without an element, "
            "so there is no offset -> coordinate layout (there is when ldm = extent[0] >= "
            "crosswise = 64 and extent[1] >= kFactor = 1; or ask for the coordinate -> offset "
            "direction)");
}

}  // namespace
}  // namespace f2lay::ref::catalog
