// Format detection and format names (formats/formats.h): readLayout,
// writeLayout, detectFormat and formatFromName.
#include <gtest/gtest.h>

#include <optional>
#include <string_view>

#include "formats/formats.h"
#include "formats/json_format.h"
#include "formats/layout_value.h"
#include "formats/mlir_attr.h"
#include "formats/tests/format_test_support.h"
#include "formats/triton_text.h"

namespace f2lay {
namespace {

using namespace format_tests;

TEST(DetectFormat, ByFirstNonBlankCharacter) {
  EXPECT_EQ(detectFormat("{\"in_dims\": []}"), Format::Json);
  EXPECT_EQ(detectFormat(" \t\r\n {"), Format::Json);
  EXPECT_EQ(detectFormat("#ttg.linear<{}>"), Format::Mlir);
  EXPECT_EQ(detectFormat("\n\n  #"), Format::Mlir);
  EXPECT_EQ(detectFormat(kTritonBase), Format::TritonText);
  EXPECT_EQ(detectFormat("\n(empty layout)"), Format::TritonText);
  EXPECT_EQ(detectFormat(""), Format::TritonText);
  EXPECT_EQ(detectFormat("  \n "), Format::TritonText);
  EXPECT_EQ(detectFormat("[1]"), Format::TritonText);
}

TEST(DetectFormat, ReadLayoutDetectsEachFormat) {
  EXPECT_EQ(readLayout(writeJsonLayout(figure1A())), figure1A());
  EXPECT_EQ(readLayout(writeTritonText(figure1A())), figure1A());
  EXPECT_EQ(readLayout("  " + writeMlirAttr(figure1A())), figure1A());
  // A JSON text given as MLIR is read as MLIR and rejected as such.
  expectContains(
      errorMessage([](std::string_view t) { return readLayout(t, Format::Mlir); }, kJsonBase),
      "MLIR attribute: line 1, column 1");
}

TEST(DetectFormat, WriteLayoutEndsEveryFormatWithANewline) {
  EXPECT_EQ(writeLayout(figure1A(), Format::Mlir), writeMlirAttr(figure1A()) + "\n");
  EXPECT_EQ(writeLayout(figure1A(), Format::TritonText), writeTritonText(figure1A()) + "\n");
  EXPECT_EQ(writeLayout(figure1A(), Format::Json), writeJsonLayout(figure1A()));
  EXPECT_EQ(writeLayout({}, Format::TritonText), "\n(empty layout)\n");
}

TEST(FormatFromName, KnowsExactlyJsonTritonAndMlir) {
  EXPECT_EQ(formatFromName("json"), Format::Json);
  EXPECT_EQ(formatFromName("triton"), Format::TritonText);
  EXPECT_EQ(formatFromName("mlir"), Format::Mlir);
  for (std::string_view bad : {"", "JSON", "Triton", "text", "mlir ", "ttg", "jsonl"})
    EXPECT_EQ(formatFromName(bad), std::nullopt) << "'" << bad << "'";
}

}  // namespace
}  // namespace f2lay
