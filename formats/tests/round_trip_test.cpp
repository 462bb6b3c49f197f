// Round trips through each layout format: Figure 1's layout A, golden texts
// of Triton's printers, and random layouts written and read back.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "formats/error.h"
#include "formats/formats.h"
#include "formats/json_format.h"
#include "formats/layout_value.h"
#include "formats/mlir_attr.h"
#include "formats/tests/format_test_support.h"
#include "formats/triton_text.h"

namespace f2lay {
namespace {

using namespace format_tests;

TEST(JsonRoundTrip, Figure1LayoutAReadsAndWritesCompactText) {
  const std::string spaced = R"({
    "in_dims": [
      {"name": "register", "bases": [[0, 1], [1, 0]]},
      {"name": "lane", "bases": [[0, 2], [0, 4], [0, 8], [2, 0], [4, 0]]},
      {"name": "warp", "bases": [[8, 0]]},
      {"name": "block", "bases": []}
    ],
    "out_dims": [{"name": "dim0", "size": 16}, {"name": "dim1", "size": 16}]
  })";
  const std::string compact = R"({"in_dims":[{"name":"register","bases":[[0,1],[1,0]]},)"
                              R"({"name":"lane","bases":[[0,2],[0,4],[0,8],[2,0],[4,0]]},)"
                              R"({"name":"warp","bases":[[8,0]]},{"name":"block","bases":[]}],)"
                              R"("out_dims":[{"name":"dim0","size":16},{"name":"dim1","size":16}]})"
                              "\n";
  EXPECT_EQ(readJsonLayout(spaced), figure1A());
  EXPECT_EQ(writeJsonLayout(readJsonLayout(spaced)), compact);
  EXPECT_EQ(readJsonLayout(compact), figure1A());
}

TEST(JsonRoundTrip, KeysInAnyOrderAndLimitValues) {
  // Keys of an object may come in any order; 2^63 - 1 and size 2^63 fit.
  const std::string text = R"({"out_dims": [{"size": 9223372036854775808, "name": "x"}],)"
                           R"( "in_dims": [{"bases": [[9223372036854775807], [0]], "name": "r"}]})";
  LayoutValue expected{{{"r", {{9223372036854775807u}, {0}}}}, {{"x", 9223372036854775808u}}};
  EXPECT_EQ(readJsonLayout(text), expected);
  EXPECT_EQ(writeJsonLayout(expected),
            R"({"in_dims":[{"name":"r","bases":[[9223372036854775807],[0]]}],)"
            R"("out_dims":[{"name":"x","size":9223372036854775808}]})"
            "\n");
}

TEST(JsonRoundTrip, EmptyLayout) {
  EXPECT_EQ(writeJsonLayout({}), "{\"in_dims\":[],\"out_dims\":[]}\n");
  EXPECT_EQ(readJsonLayout(R"({"in_dims": [], "out_dims": []})"), LayoutValue{});
}

TEST(JsonRoundTrip, LayoutFromJsonPrefixesErrorsWithWhere) {
  Json json = Json::parse(R"({"in_dims": [{"name": "r", "bases": [[-2]]}], "out_dims": []})");
  std::string message =
      errorMessage([&](std::string_view) { return layoutFromJson(json, "self"); }, "");
  EXPECT_EQ(message, "self.in_dims[0].bases[0][0]: -2 is negative");
}

TEST(TritonTextRoundTrip, Figure1LayoutA) {
  std::string text = writeTritonText(figure1A());
  EXPECT_EQ(readTritonText(text), figure1A());
  EXPECT_EQ(writeTritonText(readTritonText(text)), text);
}

TEST(MlirRoundTrip, Figure1LayoutAMatchesTritonPrinter) {
  // Triton 3.6 printed this attribute when parsing and printing a module whose
  // #ttg.linear listed the same bases with keys in the order lane, register,
  // block, warp (ir.parse_mlir_module, then str(module)).
  const std::string golden =
      "#ttg.linear<{register = [[0, 1], [1, 0]], lane = [[0, 2], [0, 4], [0, 8], "
      "[2, 0], [4, 0]], warp = [[8, 0]], block = []}>";
  EXPECT_EQ(writeMlirAttr(figure1A()), golden);
  EXPECT_EQ(readMlirAttr(golden), figure1A());
}

TEST(MlirRoundTrip, ThreeOutDimsMatchesTritonPrinter) {
  // Triton 3.6 printed this attribute (tensor<4x32x2xi32, #linear1>) when
  // parsing and printing a module holding it.
  const std::string golden =
      "#ttg.linear<{register = [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0], "
      "[0, 16, 0], [0, 0, 1]], lane = [[1, 0, 0], [2, 0, 0]], warp = [], block = []}>";
  LayoutValue expected{
      {{"register", {{0, 1, 0}, {0, 2, 0}, {0, 4, 0}, {0, 8, 0}, {0, 16, 0}, {0, 0, 1}}},
       {"lane", {{1, 0, 0}, {2, 0, 0}}},
       {"warp", {}},
       {"block", {}}},
      {{"dim0", 4}, {"dim1", 32}, {"dim2", 2}}};
  EXPECT_EQ(readMlirAttr(golden), expected);
  EXPECT_EQ(writeMlirAttr(expected), golden);
}

TEST(RandomRoundTrip, JsonAndTritonTextOfThreeHundredLayouts) {
  std::mt19937 rng(20240611);
  for (int i = 0; i < 300; ++i) {
    LayoutValue layout = randomLayout(rng);
    std::string json = writeJsonLayout(layout);
    std::string triton = writeTritonText(layout);
    SCOPED_TRACE("layout " + std::to_string(i) + ": " + json);
    EXPECT_EQ(readJsonLayout(json), layout);
    EXPECT_EQ(writeJsonLayout(readJsonLayout(json)), json);
    EXPECT_EQ(readTritonText(triton), layout);
    EXPECT_EQ(writeTritonText(readTritonText(triton)), triton);
    // Through the generic entry points, which detect the format.
    EXPECT_EQ(readLayout(writeLayout(layout, Format::Json)), layout);
    EXPECT_EQ(readLayout(writeLayout(layout, Format::TritonText)), layout);
  }
}

TEST(RandomRoundTrip, MlirOfThreeHundredLayouts) {
  std::mt19937 rng(7);
  for (int i = 0; i < 300; ++i) {
    LayoutValue layout = randomMlirLayout(rng);
    std::string mlir = writeMlirAttr(layout);
    SCOPED_TRACE("layout " + std::to_string(i) + ": " + mlir);
    EXPECT_EQ(readMlirAttr(mlir), layout);
    EXPECT_EQ(writeMlirAttr(readMlirAttr(mlir)), mlir);
    EXPECT_EQ(readLayout(writeLayout(layout, Format::Mlir)), layout);
  }
}

}  // namespace
}  // namespace f2lay
