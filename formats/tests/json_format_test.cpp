// Tests of the JSON format (formats/json_format.h): its errors, each naming
// the JSON path and the problem, and its limits.
#include "formats/json_format.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "formats/error.h"
#include "formats/layout_value.h"
#include "formats/tests/format_test_support.h"

namespace f2lay {
namespace {

using namespace format_tests;

// JSON of one in dim "r" with `n` bases [0] into out dim x of size 1, and a
// second in dim "s" with `m` such bases.
std::string jsonWithBases(int n, int m) {
  auto bases = [](int count) {
    std::string s = "[";
    for (int i = 0; i < count; ++i) s += i ? ",[0]" : "[0]";
    return s + "]";
  };
  return R"({"in_dims": [{"name": "r", "bases": )" + bases(n) + R"(}, {"name": "s", "bases": )" +
         bases(m) + R"(}], "out_dims": [{"name": "x", "size": 1}]})";
}

TEST(JsonErrors, BadInputsNameThePathAndTheProblem) {
  const std::string& b = kJsonBase;
  expectAllRejected(
      readJsonLayout,
      // nlohmann counts the end of input as a character: column 35 for 34.
      {{"truncated", b.substr(0, 34), {"JSON: ", "line 1, column 35", "unexpected end of input"}},
       {"wrong token",
        replaced(b, R"("in_dims": [)", R"("in_dims"= [)"),
        {"JSON: ", "line 1, column 11", "syntax error"}},
       {"text after the document", b + " x", {"JSON: ", "syntax error"}},
       // nlohmann's parser alone would stop at the NUL and take the layout.
       {"a NUL byte, then text",
        b + std::string(1, '\0') + " x",
        {"JSON: a NUL byte at offset " + std::to_string(b.size()) + " (JSON text holds none)"}},
       {"nesting deeper than 64 levels",
        std::string(65, '[') + std::string(65, ']'),
        {"JSON: arrays and objects nested deeper than 64 levels"}},
       {"a key repeated in one object (no silent last-wins)",
        replaced(b, R"("name": "register")", R"("name": "register", "name": "lane")"),
        {"JSON: key \"name\" appears twice in one object"}},
       {"a key repeated in the top-level object",
        replaced(b, R"("in_dims": [)", R"("in_dims": [], "in_dims": [)"),
        {"JSON: key \"in_dims\" appears twice in one object"}},
       {"64 levels, not an object",
        std::string(64, '[') + std::string(64, ']'),
        {"layout: expected a JSON object"}},
       {"number overflowing a double",
        replaced(b, "[[0, 1], [1, 0]]", "[[0, 1e400], [1, 0]]"),
        {"JSON: ", "number overflow parsing '1e400'"}},
       {"negative number",
        replaced(b, "[[0, 1], [1, 0]]", "[[0, 1], [-1, 0]]"),
        {"layout.in_dims[0].bases[1][0]: -1 is negative"}},
       {"float",
        replaced(b, "[[0, 1], [1, 0]]", "[[0, 1.5], [1, 0]]"),
        {"layout.in_dims[0].bases[0][1]: expected a non-negative integer below 2^64, found 1.5"}},
       {"integral float",
        replaced(b, R"("dim1", "size": 2)", R"("dim1", "size": 2.0)"),
        {"layout.out_dims[1].size: expected a non-negative integer"}},
       {"number >= 2^64",
        replaced(b, "[[0, 1], [1, 0]]", "[[0, 1], [18446744073709551616, 0]]"),
        {"layout.in_dims[0].bases[1][0]: expected a non-negative integer below 2^64"}},
       {"value not below its size",
        replaced(b, "[[0, 1], [1, 0]]", "[[0, 1], [2, 0]]"),
        {"layout: basis 1 of in dim 'register' has value 2 for out dim 'dim0', which is "
         "not below its size 2"}},
       {"size not a power of two",
        replaced(b, R"("dim1", "size": 2)", R"("dim1", "size": 6)"),
        {"layout: out dim 'dim1' has size 6, which is not a power of two"}},
       {"size zero",
        replaced(b, R"("dim0", "size": 2)", R"("dim0", "size": 0)"),
        {"out dim 'dim0' has size 0, which is not a power of two"}},
       {"duplicate in dim",
        replaced(b, R"("lane")", R"("register")"),
        {"layout: in dim 'register' appears twice"}},
       {"duplicate out dim",
        replaced(b, R"("dim1")", R"("dim0")"),
        {"layout: out dim 'dim0' appears twice"}},
       {"non-identifier in dim",
        replaced(b, R"("lane")", R"("2lane")"),
        {"layout.in_dims[1].name: \"2lane\" is not an identifier"}},
       {"non-identifier out dim",
        replaced(b, R"("dim1")", R"("dim-1")"),
        {"layout.out_dims[1].name: \"dim-1\" is not an identifier"}},
       {"name not a string",
        replaced(b, R"("lane")", "7"),
        {"layout.in_dims[1].name: expected a string"}},
       {"ragged basis",
        replaced(b, "[[0, 1], [1, 0]]", "[[0, 1], [1]]"),
        {"layout: basis 1 of in dim 'register' has 1 values but there are 2 out dims"}},
       {"basis not an array",
        replaced(b, "[[0, 1], [1, 0]]", "[[0, 1], 3]"),
        {"layout.in_dims[0].bases[1]: expected a JSON array"}},
       {"in_dims not an array",
        R"({"in_dims": {}, "out_dims": []})",
        {"layout.in_dims: expected a JSON array"}},
       {"not an object", "[1, 2]", {"layout: expected a JSON object"}},
       {"unknown top-level key",
        replaced(b, R"("out_dims")", R"("layout": 1, "out_dims")"),
        {"layout: unknown key \"layout\""}},
       {"unknown in-dim key",
        replaced(b, R"("name": "lane")", R"("name": "lane", "size": 1)"),
        {"layout.in_dims[1]: unknown key \"size\""}},
       {"missing top-level key", R"({"in_dims": []})", {"layout: missing key \"out_dims\""}},
       {"missing size",
        replaced(b, R"("name": "dim1", "size": 2)", R"("name": "dim1")"),
        {"layout.out_dims[1]: missing key \"size\""}},
       {"more than 64 in bits in total",
        jsonWithBases(33, 32),
        {"layout: the in dims have more than 64 bits in total"}},
       {"more than 63 bits in one dim",
        jsonWithBases(64, 0),
        {"layout: in dim 'r' has 64 bases; one dim has at most 63 bits"}},
       {"more than 64 bases in one dim",
        jsonWithBases(65, 0),
        {"layout.in_dims[0]: more than 64 bases"}},
       {"more than 64 out bits",
        replaced(replaced(b, R"("dim1", "size": 2)", R"("dim1", "size": 1073741824)"),
                 R"("dim0", "size": 2)", R"("dim0", "size": 1099511627776)"),
        {"layout: the out dims have 70 bits in total; the limit is 64"}}});
}

TEST(JsonErrors, LimitsAreInclusive) {
  // Exactly 63 bases in one dim, 64 in all, and 64 out bits are allowed.
  EXPECT_EQ(totalInBits(readJsonLayout(jsonWithBases(63, 1))), 64);
  EXPECT_EQ(totalOutBits(readJsonLayout(
                R"({"in_dims": [], "out_dims": [{"name": "a", "size": 9223372036854775808},)"
                R"( {"name": "b", "size": 2}]})")),
            64);
}

}  // namespace
}  // namespace f2lay
