// Tests of the MLIR attribute #ttg.linear<{...}> (formats/mlir_attr.h): what
// it infers (out dims and their sizes), what its writer refuses, and its
// errors, each naming the line and the problem.
#include "formats/mlir_attr.h"

#include <gtest/gtest.h>

#include <string>

#include "formats/error.h"
#include "formats/layout_value.h"
#include "formats/tests/format_test_support.h"

namespace f2lay {
namespace {

using namespace format_tests;

TEST(Mlir, ReadingInfersOutDimsFromLargestValues) {
  // dim0: largest 3 -> size 4; dim1: largest 4 -> 8 (strictly above);
  // dim2: only zeros -> 1.
  LayoutValue layout = readMlirAttr(
      "#ttg.linear<{register = [[0, 4, 0], [3, 1, 0]], lane = [[1, 0, 0]], "
      "warp = [], block = [[2, 2, 0]]}>");
  std::vector<OutDim> expected{{"dim0", 4}, {"dim1", 8}, {"dim2", 1}};
  EXPECT_EQ(layout.out_dims, expected);
}

TEST(Mlir, ReadingInfersTheLargestSize) {
  // 2^63 - 1 needs size 2^63, the largest a dim may have.
  LayoutValue layout = readMlirAttr(
      "#ttg.linear<{register = [[9223372036854775807]], lane = [], warp = [], block = []}>");
  std::vector<OutDim> expected{{"dim0", 9223372036854775808u}};
  EXPECT_EQ(layout.out_dims, expected);
}

TEST(Mlir, KeysInAnyOrderAndFreeWhitespaceAreAccepted) {
  EXPECT_EQ(readMlirAttr("#ttg.linear<{block = [], warp = [[8, 0]], lane = [[0, 2], [0, 4], "
                         "[0, 8], [2, 0], [4, 0]], register = [[0, 1], [1, 0]]}>"),
            figure1A());
  EXPECT_EQ(readMlirAttr("\n  #ttg.linear<{ lane=[[0,2],[0,4],[0,8],[2,0],[4,0]],\n"
                         "    register = [ [0 ,1] , [1, 0] ],\twarp=[[8,0]], block=[ ] }>\n"),
            figure1A());
}

TEST(Mlir, ReaderRejectsMissingDuplicateUnknownEmptyAndRaggedKeys) {
  expectAllRejected(
      readMlirAttr,
      {{"missing key",
        "#ttg.linear<{register = [[1]], lane = [], warp = []}>",
        {"MLIR attribute: in dim 'block' is missing"}},
       {"duplicate key",
        "#ttg.linear<{register = [[1]], lane = [],\n warp = [], lane = [], block = []}>",
        {"line 2, column 17", "in dim 'lane' appears twice"}},
       {"unknown key",
        "#ttg.linear<{register = [[1]], thread = [], warp = [], block = []}>",
        {"line 1, column 38", "in dim 'thread' is not one of register, lane, warp, block"}},
       {"all bases empty",
        "#ttg.linear<{register = [], lane = [], warp = [], block = []}>",
        {"there is no basis", "no out dims"}},
       {"no keys", "#ttg.linear<{}>", {"in dim 'register' is missing"}},
       {"ragged bases",
        "#ttg.linear<{register = [[0, 1]], lane = [[1, 0], [2]], warp = [], block = []}>",
        {"basis 1 of in dim 'lane' has 1 values but the first basis has 2"}}});
}

TEST(Mlir, WriterRefusesOtherInDimNames) {
  LayoutValue renamed = figure1A();
  renamed.in_dims[1].name = "thread";
  expectContains(writeErrorMessage([&] { return writeMlirAttr(renamed); }),
                 "#ttg.linear needs exactly the in dims register, lane, warp, block");
  LayoutValue reordered = figure1A();
  std::swap(reordered.in_dims[0], reordered.in_dims[1]);
  expectContains(writeErrorMessage([&] { return writeMlirAttr(reordered); }), "in that order");
  LayoutValue missing = figure1A();
  missing.in_dims.pop_back();
  expectContains(writeErrorMessage([&] { return writeMlirAttr(missing); }),
                 "needs exactly the in dims register, lane, warp, block");
}

TEST(Mlir, WriterRefusesSizesOrNamesItCannotInfer) {
  LayoutValue larger = figure1A();
  larger.out_dims[0].size = 32;  // the values of dim0 only need 16
  std::string message = writeErrorMessage([&] { return writeMlirAttr(larger); });
  expectContains(message, "#ttg.linear carries no out-dim sizes");
  expectContains(message, "must be dim0..dim1 sized by their largest basis value");
  expectContains(message, "write this layout as JSON instead");

  LayoutValue renamed = figure1A();
  renamed.out_dims[1].name = "col";
  expectContains(writeErrorMessage([&] { return writeMlirAttr(renamed); }),
                 "carries no out-dim sizes");

  LayoutValue noBases{{{"register", {}}, {"lane", {}}, {"warp", {}}, {"block", {}}}, {{"dim0", 1}}};
  expectContains(writeErrorMessage([&] { return writeMlirAttr(noBases); }),
                 "a layout without bases has no rank in #ttg.linear");
}

// #ttg.linear with n register bases and m lane bases, all [0].
std::string mlirWithBases(int n, int m) {
  auto bases = [](int count) {
    std::string s = "[";
    for (int i = 0; i < count; ++i) s += i ? ", [0]" : "[0]";
    return s + "]";
  };
  return "#ttg.linear<{register = " + bases(n) + ", lane = " + bases(m) +
         ", warp = [], block = []}>";
}

TEST(MlirErrors, BadInputsNameTheLineAndTheProblem) {
  const std::string& b = kMlirBase;
  expectAllRejected(
      readMlirAttr,
      {{"truncated",
        b.substr(0, 30),
        {"MLIR attribute: line 1, column 31", "expected ',' or ']', found end of input"}},
       {"empty input", "", {"line 1, column 1", "expected '#ttg.linear<{', found end of input"}},
       {"wrong attribute",
        replaced(b, "#ttg.linear", "#ttg.blocked"),
        {"line 1, column 1", "expected '#ttg.linear<{', found '#ttg.blocked'"}},
       {"wrong token",
        replaced(b, "lane = []", "lane : []"),
        {"line 2, column 7", "expected '=', found ': []"}},
       {"missing closing", replaced(b, "}>", "}"), {"line 2", "expected ',' or '}>'"}},
       {"negative number",
        replaced(b, "[1, 0]", "[-1, 0]"),
        {"line 1, column 35", "expected a basis value (a non-negative integer)"}},
       {"float",
        replaced(b, "[1, 0]", "[1.0, 0]"),
        {"line 1, column 36", "expected ',' or ']', found '.0, 0]]"}},
       {"number >= 2^64",
        replaced(b, "[1, 0]", "[18446744073709551616, 0]"),
        {"line 1", "a basis value does not fit in 64 bits"}},
       {"value needs a 2^64 dim",
        replaced(b, "[1, 0]", "[9223372036854775808, 0]"),
        {"basis value 9223372036854775808 of out dim 'dim0' needs an out dim of 2^64 or more"}},
       {"non-identifier key",
        replaced(b, "lane =", "9lane ="),
        {"line 2, column 2", "expected an in dim name (an identifier)"}},
       {"text after the attribute",
        b + " x",
        {"line 2, column 37", "unexpected text after the attribute"}},
       {"basis not a list",
        replaced(b, "[1, 0]]", "1]"),
        {"line 1, column 34", "expected '[' (a basis)"}},
       {"more than 64 out bits",
        replaced(b, "[1, 0]", "[1099511627776, 1073741824]"),
        {"MLIR attribute: the out dims have 72 bits in total; the limit is 64"}},
       {"more than 64 in bits in total",
        mlirWithBases(33, 32),
        {"MLIR attribute: the in dims have more than 64 bits in total"}},
       {"more than 63 bits in one dim",
        mlirWithBases(64, 0),
        {"MLIR attribute: in dim 'register' has 64 bases; one dim has at most 63 bits"}},
       {"more than 64 bases in one dim",
        mlirWithBases(65, 0),
        {"line 1, column 349", "in dim 'register' has more than 64 bases"}}});
}

}  // namespace
}  // namespace f2lay
