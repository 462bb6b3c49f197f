// Tests of the Triton text format (formats/triton_text.h): the text of
// Triton's LinearLayout::toString, golden strings pasted from Triton 3.6
// itself (see the comment on each), and its errors, each naming the line and
// the problem.
#include "formats/triton_text.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>

#include "formats/error.h"
#include "formats/layout_value.h"
#include "formats/tests/format_test_support.h"

namespace f2lay {
namespace {

using namespace format_tests;

// Writes `layout` and compares with Triton's own text, then reads that text.
void expectTritonGolden(const LayoutValue& layout, const std::string& golden) {
  EXPECT_EQ(writeTritonText(layout), golden);
  EXPECT_EQ(readTritonText(golden), layout);
}

TEST(TritonTextGolden, Figure1LayoutAWithSizeOneBlockDim) {
  // Triton 3.6 toString: LL.from_bases([('register',[[0,1],[1,0]]),
  //   ('lane',[[0,2],[0,4],[0,8],[2,0],[4,0]]),('warp',[[8,0]]),('block',[])],
  //   ['dim0','dim1'])
  expectTritonGolden(figure1A(),
                     "\n - register=1 -> (0, 1)\n   register=2 -> (1, 0)\n"
                     " - lane=1 -> (0, 2)\n   lane=2 -> (0, 4)\n   lane=4 -> (0, 8)\n"
                     "   lane=8 -> (2, 0)\n   lane=16 -> (4, 0)\n"
                     " - warp=1 -> (8, 0)\n - block is a size 1 dimension\n"
                     "where out dims are: [dim0 (size 16), dim1 (size 16)]");
}

TEST(TritonTextGolden, SizeOneLaneDim) {
  // Triton 3.6 toString: LL.from_bases([('register',[[0,1],[1,0]]),('lane',[])],
  //   ['dim0','dim1'])
  expectTritonGolden({{{"register", {{0, 1}, {1, 0}}}, {"lane", {}}}, {{"dim0", 2}, {"dim1", 2}}},
                     "\n - register=1 -> (0, 1)\n   register=2 -> (1, 0)\n"
                     " - lane is a size 1 dimension\n"
                     "where out dims are: [dim0 (size 2), dim1 (size 2)]");
}

TEST(TritonTextGolden, OutDimsWithoutInDims) {
  // Triton 3.6 toString: LL.from_bases([], ['dim0','dim1'], [4,8], False)
  expectTritonGolden({{}, {{"dim0", 4}, {"dim1", 8}}},
                     "\n(empty layout with out-dims [dim0 (size 4), dim1 (size 8)])");
}

TEST(TritonTextGolden, FullyEmptyLayout) {
  // Triton 3.6 toString: LL.from_bases([], [])
  expectTritonGolden({}, "\n(empty layout)");
}

TEST(TritonTextGolden, ThreeOutDims) {
  // Triton 3.6 toString: LL.from_bases([('register',[[1,0,0],[0,2,0],[0,0,16]]),
  //   ('lane',[[2,1,0],[4,0,32]])], ['dim0','dim1','dim2'], [8,4,64], False)
  expectTritonGolden(
      {{{"register", {{1, 0, 0}, {0, 2, 0}, {0, 0, 16}}}, {"lane", {{2, 1, 0}, {4, 0, 32}}}},
       {{"dim0", 8}, {"dim1", 4}, {"dim2", 64}}},
      "\n - register=1 -> (1, 0, 0)\n   register=2 -> (0, 2, 0)\n"
      "   register=4 -> (0, 0, 16)\n"
      " - lane=1 -> (2, 1, 0)\n   lane=2 -> (4, 0, 32)\n"
      "where out dims are: [dim0 (size 8), dim1 (size 4), dim2 (size 64)]");
}

TEST(TritonTextGolden, MultiDigitValuesAndDottedOutDimName) {
  // Triton 3.6 toString: LL.from_bases([('register',[[16,0],[32,0],[0,128],
  //   [64,1024]]),('warp',[[128,0],[0,2048]])], ['x','y.z'], [256,4096], False)
  expectTritonGolden(
      {{{"register", {{16, 0}, {32, 0}, {0, 128}, {64, 1024}}}, {"warp", {{128, 0}, {0, 2048}}}},
       {{"x", 256}, {"y.z", 4096}}},
      "\n - register=1 -> (16, 0)\n   register=2 -> (32, 0)\n"
      "   register=4 -> (0, 128)\n   register=8 -> (64, 1024)\n"
      " - warp=1 -> (128, 0)\n   warp=2 -> (0, 2048)\n"
      "where out dims are: [x (size 256), y.z (size 4096)]");
}

TEST(TritonTextGolden, ElevenBasesGiveFourDigitInputValues) {
  // Triton 3.6 toString: LL.from_bases([('register',[[1<<i] for i in range(11)]),
  //   ('lane',[[0],[1024]])], ['dim0'], [2048], False)
  LayoutValue layout{{{"register", {}}, {"lane", {{0}, {1024}}}}, {{"dim0", 2048}}};
  for (uint64_t i = 0; i < 11; ++i) layout.in_dims[0].bases.push_back({uint64_t{1} << i});
  expectTritonGolden(layout,
                     "\n - register=1 -> (1)\n   register=2 -> (2)\n   register=4 -> (4)\n"
                     "   register=8 -> (8)\n   register=16 -> (16)\n   register=32 -> (32)\n"
                     "   register=64 -> (64)\n   register=128 -> (128)\n"
                     "   register=256 -> (256)\n   register=512 -> (512)\n"
                     "   register=1024 -> (1024)\n - lane=1 -> (0)\n   lane=2 -> (1024)\n"
                     "where out dims are: [dim0 (size 2048)]");
}

TEST(TritonTextGolden, InDimsWithoutOutDims) {
  // Triton 3.6 toString: LL.from_bases([('register',[[],[]])], [], [], False)
  expectTritonGolden({{{"register", {{}, {}}}}, {}},
                     "\n - register=1 -> ()\n   register=2 -> ()\nwhere out dims are: []");
}

TEST(TritonText, ReaderAcceptsOtherIndentationAndSurroundingBlankLines) {
  std::string text =
      "\n\n   - register=1 -> (0, 1)\n register=2 -> (1, 0)\n"
      "\t- lane is a size 1 dimension\r\n  where out dims are: [dim0 (size 2), dim1 (size 2)]\n\n";
  LayoutValue expected{{{"register", {{0, 1}, {1, 0}}}, {"lane", {}}}, {{"dim0", 2}, {"dim1", 2}}};
  EXPECT_EQ(readTritonText(text), expected);
  EXPECT_EQ(readTritonText("- register=1 -> (0, 1)\nregister=2 -> (1, 0)\n- lane is a size 1 "
                           "dimension\nwhere out dims are: [dim0 (size 2), dim1 (size 2)]"),
            expected);
  EXPECT_EQ(readTritonText("  (empty layout)  \n"), LayoutValue{});
}

// Triton text of in dims r (n bases) and s (m bases) into out dim x of size 1.
std::string tritonWithBases(int n, int m) {
  std::string s = "\n";
  for (auto [name, count] : {std::pair<std::string, int>{"r", n}, {"s", m}}) {
    for (int i = 0; i < count; ++i)
      s += (i ? "   " : " - ") + name + "=" + std::to_string(uint64_t{1} << i) + " -> (0)\n";
    if (count == 0) s += " - " + name + " is a size 1 dimension\n";
  }
  return s + "where out dims are: [x (size 1)]";
}

TEST(TritonTextErrors, BadInputsNameTheLineAndTheProblem) {
  const std::string& b = kTritonBase;
  expectAllRejected(
      readTritonText,
      {{"truncated",
        "\n - register=1 -> (0, 1",
        {"Triton text: line 2, column 23", "expected ',' or ')', found end of input"}},
       {"empty input", "", {"line 1, column 1", "expected '- <in dim>' or 'where out dims are: '"}},
       {"truncated empty layout",
        "\n(empty layout",
        {"line 2, column 14", "expected ')', found end of input"}},
       {"wrong arrow",
        replaced(b, "register=1 -> (0, 1)", "register=1 => (0, 1)"),
        {"line 2, column 14", "expected ' -> ('"}},
       {"missing '- '",
        replaced(b, " - register=1", " register=1"),
        {"line 2, column 2", "expected '- <in dim>' or 'where out dims are: '"}},
       {"negative number",
        replaced(b, "(1, 0)", "(1, -1)"),
        {"line 3, column 22", "expected a basis value (a non-negative integer)"}},
       {"float",
        replaced(b, "(0, 1)", "(0.5, 1)"),
        {"line 2, column 20", "expected ',' or ')', found '.5, 1)"}},
       {"number >= 2^64",
        replaced(b, "(1, 0)", "(18446744073709551616, 0)"),
        {"line 3", "a basis value does not fit in 64 bits"}},
       {"input value register=3",
        replaced(b, "register=2", "register=3"),
        {"line 3, column 14", "in dim 'register': the input value of basis 1 must be 2"}},
       {"first input value not 1",
        replaced(b, "register=1", "register=2"),
        {"line 2", "the input value of basis 0 must be 1"}},
       {"continuation of another dim",
        replaced(b, "   register=2", "   lane=2"),
        {"line 3", "expected 'register=...' (continuing in dim 'register'), found 'lane'"}},
       {"non-identifier in dim",
        replaced(b, "lane is", "9lane is"),
        {"line 4, column 4", "expected an in dim name (an identifier)"}},
       {"non-identifier out dim",
        replaced(b, "dim1 (size", "-dim1 (size"),
        {"line 5, column 37", "expected an out dim name (an identifier)"}},
       {"missing out-dim bracket",
        replaced(b, "(size 2)]", "(size 2)"),
        {"line 5", "expected ',' or ']', found end of input"}},
       {"text after the layout",
        b + "\nextra",
        {"line 6, column 1", "unexpected text after the layout"}},
       {"value not below its size",
        replaced(b, "(1, 0)", "(2, 0)"),
        {"Triton text: basis 1 of in dim 'register' has value 2 for out dim 'dim0', which is "
         "not below its size 2"}},
       {"size not a power of two",
        replaced(b, "dim0 (size 2)", "dim0 (size 3)"),
        {"Triton text: out dim 'dim0' has size 3, which is not a power of two"}},
       {"duplicate in dim",
        replaced(b, "lane is", "register is"),
        {"Triton text: in dim 'register' appears twice"}},
       {"duplicate out dim",
        replaced(b, "dim1 (size", "dim0 (size"),
        {"Triton text: out dim 'dim0' appears twice"}},
       {"ragged basis",
        replaced(b, "(1, 0)", "(1)"),
        {"basis 1 of in dim 'register' has 1 values but there are 2 out dims"}},
       {"more than 64 in bits in total",
        tritonWithBases(33, 32),
        {"Triton text: the in dims have more than 64 bits in total"}},
       {"more than 63 bits in one dim",
        tritonWithBases(64, 0),
        {"line 65, column 32", "in dim 'r' has more than 63 bases; one dim has at most 63 bits"}},
       {"more than 64 out bits",
        replaced(replaced(b, "dim0 (size 2)", "dim0 (size 1099511627776)"), "dim1 (size 2)",
                 "dim1 (size 1073741824)"),
        {"Triton text: the out dims have 70 bits in total; the limit is 64"}}});
}

TEST(TritonTextErrors, SixtyThreeBasesInOneDimAreAllowed) {
  // The last input value is 2^62.
  std::string text = tritonWithBases(63, 1);
  expectContains(text, "   r=4611686018427387904 -> (0)\n");
  EXPECT_EQ(totalInBits(readTritonText(text)), 64);
}

TEST(TritonTextErrors, SixtyFifthInputValueIsRejectedWithoutOverflow) {
  // After 63 bases the reader stops before computing the next input value
  // (2^64 would overflow); "r=1" must not be taken for a 65th basis.
  std::string text = tritonWithBases(64, 0);
  text = replaced(text, "   r=9223372036854775808 -> (0)\n",
                  "   r=9223372036854775808 -> (0)\n   r=1 -> (0)\n");
  expectContains(errorMessage(readTritonText, text), "has more than 63 bases");
}

}  // namespace
}  // namespace f2lay
