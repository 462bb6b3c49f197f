// Tests of the three layout formats (formats/*.h): JSON, Triton's
// LinearLayout::toString text and the MLIR attribute #ttg.linear<{...}>.
//
// Golden strings are pasted from Triton 3.6 itself (see the comment on each);
// everything else states its expected value literally. Errors must be
// f2lay::Error naming the position or path and the problem, and no input,
// however broken, may make a reader throw anything else.

#include "formats/formats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <exception>
#include <functional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "formats/error.h"
#include "formats/json_format.h"
#include "formats/layout_value.h"
#include "formats/mlir_attr.h"
#include "formats/triton_text.h"

namespace f2lay {
namespace {

using Reader = std::function<LayoutValue(std::string_view)>;

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

// The paper's Figure 1 layout A: a 16x16 blocked layout with 2x2 registers per
// thread, 4x8 threads per warp and 2 warps.
LayoutValue figure1A() {
  return {{{"register", {{0, 1}, {1, 0}}},
           {"lane", {{0, 2}, {0, 4}, {0, 8}, {2, 0}, {4, 0}}},
           {"warp", {{8, 0}}},
           {"block", {}}},
          {{"dim0", 16}, {"dim1", 16}}};
}

// Shows control and non-ASCII bytes of a fuzzed input as \xNN.
std::string printable(std::string_view text) {
  static const char* hex = "0123456789abcdef";
  std::string s;
  for (unsigned char c : text) {
    if (c >= 0x20 && c < 0x7f) {
      s += static_cast<char>(c);
    } else {
      s += "\\x";
      s += hex[c >> 4];
      s += hex[c & 15];
    }
  }
  return s;
}

// `text` with its only occurrence of `from` replaced by `to`.
std::string replaced(std::string text, std::string_view from, std::string_view to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "'" << from << "' not in: " << text;
  EXPECT_EQ(text.find(from, at + 1), std::string::npos) << "'" << from << "' twice";
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// Runs `read` on `text` and returns the f2lay::Error message; fails the test
// if the reader accepts the text or throws anything else.
std::string errorMessage(const Reader& read, std::string_view text) {
  try {
    read(text);
  } catch (const Error& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw a non-f2lay exception (" << e.what() << ") on: " << printable(text);
    return {};
  }
  ADD_FAILURE() << "accepted bad input: " << printable(text);
  return {};
}

// The same for a writer.
std::string writeErrorMessage(const std::function<std::string()>& write) {
  try {
    std::string text = write();
    ADD_FAILURE() << "wrote a layout it should refuse: " << text;
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

void expectContains(const std::string& message, const std::string& part) {
  EXPECT_NE(message.find(part), std::string::npos) << "message: " << message << "\nlacks: " << part;
}

// One bad input and the parts its error message must contain: where (line
// and column, or JSON path) and what (the broken rule).
struct BadInput {
  std::string what;
  std::string text;
  std::vector<std::string> messageParts;
};

void expectAllRejected(const Reader& read, const std::vector<BadInput>& cases) {
  for (const BadInput& c : cases) {
    SCOPED_TRACE(c.what);
    std::string message = errorMessage(read, c.text);
    for (const std::string& part : c.messageParts) expectContains(message, part);
  }
}

int randomInt(std::mt19937& rng, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}

uint64_t random64(std::mt19937& rng) {
  uint64_t high = rng();
  return (high << 32) | rng();
}

// A random value below `size` (a power of two): zero, a single bit or random
// bits, so that both sparse and dense bases occur.
uint64_t randomValueBelow(std::mt19937& rng, uint64_t size) {
  switch (randomInt(rng, 0, 2)) {
    case 0:
      return 0;
    case 1:
      return size == 1 ? 0 : uint64_t{1} << randomInt(rng, 0, log2Exact(size) - 1);
    default:
      return random64(rng) & (size - 1);
  }
}

// A random valid layout: 0-4 out dims and 0-4 in dims with names from a pool
// (dotted ones included); now and then a 63-bit dim, so that the 63-bit and
// 64-bit limits are reached.
LayoutValue randomLayout(std::mt19937& rng) {
  std::vector<std::string> outNames = {"dim0", "dim1", "dim2", "dim3", "x", "y.z", "_k9"};
  std::vector<std::string> inNames = {"register", "lane", "warp", "block",
                                      "offset",   "iter", "a.b",  "Q_1"};
  std::shuffle(outNames.begin(), outNames.end(), rng);
  std::shuffle(inNames.begin(), inNames.end(), rng);
  LayoutValue layout;
  int outBitsLeft = kMaxOutBits;
  int numOut = randomInt(rng, 0, 4);
  for (int k = 0; k < numOut; ++k) {
    int bits = randomInt(rng, 0, 9) == 0 ? 63 : randomInt(rng, 0, 20);
    bits = std::min(bits, outBitsLeft);
    outBitsLeft -= bits;
    layout.out_dims.push_back({outNames[k], uint64_t{1} << bits});
  }
  int inBitsLeft = kMaxInBits;
  int numIn = randomInt(rng, 0, 4);
  for (int d = 0; d < numIn; ++d) {
    int n = randomInt(rng, 0, 19) == 0 ? 63 : randomInt(rng, 0, 8);
    n = std::min(n, inBitsLeft);
    inBitsLeft -= n;
    InDim dim{inNames[d], {}};
    for (int i = 0; i < n; ++i) {
      Basis basis;
      for (const OutDim& out : layout.out_dims) basis.push_back(randomValueBelow(rng, out.size));
      dim.bases.push_back(basis);
    }
    layout.in_dims.push_back(dim);
  }
  validate(layout);  // the generator must only make valid layouts
  return layout;
}

// A random layout that #ttg.linear carries exactly: in dims register, lane,
// warp, block; rank 1-3; at least one basis; out dims dim0.. sized by the
// smallest power of two above their largest value.
LayoutValue randomMlirLayout(std::mt19937& rng) {
  size_t rank = static_cast<size_t>(randomInt(rng, 1, 3));
  LayoutValue layout;
  for (const char* name : {"register", "lane", "warp", "block"}) {
    InDim dim{name, {}};
    int n = randomInt(rng, 0, 5);
    for (int i = 0; i < n; ++i) {
      Basis basis;
      for (size_t k = 0; k < rank; ++k)
        basis.push_back(randomValueBelow(rng, uint64_t{1} << randomInt(rng, 0, 12)));
      dim.bases.push_back(basis);
    }
    layout.in_dims.push_back(dim);
  }
  if (totalInBits(layout) == 0) layout.in_dims[0].bases.push_back(Basis(rank, 1));
  for (size_t k = 0; k < rank; ++k) {
    uint64_t size = 1;
    for (const InDim& d : layout.in_dims)
      for (const Basis& b : d.bases)
        while (size <= b[k]) size *= 2;
    layout.out_dims.push_back({"dim" + std::to_string(k), size});
  }
  validate(layout);
  return layout;
}

// Applies 1-3 random edits (byte changes, syntax characters, deletions,
// duplications, truncation) to a valid text.
std::string mutate(std::mt19937& rng, std::string text) {
  static const std::string syntax = " \n\t-=>()[]{},:\"#<>0123456789ax.e";
  int edits = randomInt(rng, 1, 3);
  for (int e = 0; e < edits; ++e) {
    if (text.empty()) text = "x";
    size_t at = static_cast<size_t>(randomInt(rng, 0, static_cast<int>(text.size()) - 1));
    size_t len = std::min(text.size() - at, static_cast<size_t>(randomInt(rng, 1, 8)));
    char syntaxChar =
        syntax[static_cast<size_t>(randomInt(rng, 0, static_cast<int>(syntax.size()) - 1))];
    switch (randomInt(rng, 0, 5)) {
      case 0:
        text[at] = static_cast<char>(randomInt(rng, 0, 255));
        break;
      case 1:
        text[at] = syntaxChar;
        break;
      case 2:
        text.insert(at, 1, syntaxChar);
        break;
      case 3:
        text.erase(at, len);
        break;
      case 4:
        text.insert(at, text.substr(at, len));
        break;
      default:
        text.resize(at);
        break;
    }
  }
  return text;
}

std::string randomBytes(std::mt19937& rng) {
  std::string s(static_cast<size_t>(randomInt(rng, 0, 40)), '\0');
  for (char& c : s) c = static_cast<char>(randomInt(rng, 0, 255));
  return s;
}

// Feeds `text` to `read`: it must either throw f2lay::Error or return a valid
// layout that `write` writes and `read` reads back unchanged.
void expectRejectedOrValid(const Reader& read,
                           const std::function<std::string(const LayoutValue&)>& write,
                           const std::string& text) {
  LayoutValue layout;
  try {
    layout = read(text);
  } catch (const Error&) {
    return;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw a non-f2lay exception (" << e.what() << ") on: " << printable(text);
    return;
  }
  EXPECT_NO_THROW(validate(layout)) << "accepted an invalid layout: " << printable(text);
  EXPECT_EQ(read(write(layout)), layout) << "accepted: " << printable(text);
}

// ---------------------------------------------------------------------------
// 1. Triton text golden strings
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// 2. Round trips
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// 3. MLIR attribute specifics
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// 4. Errors
// ---------------------------------------------------------------------------

// A valid two-dim layout in each format; the bad inputs below edit it.
const std::string kJsonBase =
    R"({"in_dims": [{"name": "register", "bases": [[0, 1], [1, 0]]}, )"
    R"({"name": "lane", "bases": []}], )"
    R"("out_dims": [{"name": "dim0", "size": 2}, {"name": "dim1", "size": 2}]})";
const std::string kTritonBase =
    "\n - register=1 -> (0, 1)\n   register=2 -> (1, 0)\n - lane is a size 1 dimension\n"
    "where out dims are: [dim0 (size 2), dim1 (size 2)]";
const std::string kMlirBase =
    "#ttg.linear<{register = [[0, 1], [1, 0]],\n lane = [], warp = [], block = []}>";

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

// ---------------------------------------------------------------------------
// 4b. No input may crash a reader
// ---------------------------------------------------------------------------

struct FuzzTarget {
  const char* name;
  Reader read;
  std::function<std::string(const LayoutValue&)> write;
  std::vector<std::string> seeds;  // valid texts to mutate
};

std::vector<FuzzTarget> fuzzTargets() {
  std::mt19937 rng(99);
  std::vector<std::string> jsonSeeds = {kJsonBase, writeJsonLayout(figure1A())};
  std::vector<std::string> tritonSeeds = {kTritonBase, writeTritonText(figure1A()),
                                          "\n(empty layout with out-dims [dim0 (size 4)])"};
  for (int i = 0; i < 4; ++i) {
    LayoutValue layout = randomLayout(rng);
    jsonSeeds.push_back(writeJsonLayout(layout));
    tritonSeeds.push_back(writeTritonText(layout));
  }
  std::vector<std::string> mlirSeeds = {kMlirBase, writeMlirAttr(figure1A()),
                                        writeMlirAttr(randomMlirLayout(rng))};
  return {{"JSON", readJsonLayout, writeJsonLayout, jsonSeeds},
          {"Triton text", readTritonText, writeTritonText, tritonSeeds},
          {"MLIR", readMlirAttr, writeMlirAttr, mlirSeeds}};
}

TEST(Fuzz, RandomBytesOnlyRaiseF2layErrors) {
  std::mt19937 rng(1);
  for (const FuzzTarget& target : fuzzTargets()) {
    SCOPED_TRACE(target.name);
    for (int i = 0; i < 400; ++i)
      expectRejectedOrValid(target.read, target.write, randomBytes(rng));
  }
}

TEST(Fuzz, MutatedValidTextsOnlyRaiseF2layErrors) {
  std::mt19937 rng(2);
  for (const FuzzTarget& target : fuzzTargets()) {
    SCOPED_TRACE(target.name);
    for (int i = 0; i < 1500; ++i) {
      const std::string& seed = target.seeds[static_cast<size_t>(i) % target.seeds.size()];
      expectRejectedOrValid(target.read, target.write, mutate(rng, seed));
    }
  }
}

TEST(Fuzz, DeepNestingAndHugeNumbersOnlyRaiseF2layErrors) {
  std::string deep = std::string(100000, '[') + std::string(100000, ']');
  for (const FuzzTarget& target : fuzzTargets()) {
    SCOPED_TRACE(target.name);
    for (const std::string& text :
         {deep, "{\"in_dims\": " + deep + ", \"out_dims\": []}",
          "#ttg.linear<{register = " + deep + "}>", std::string(100000, '9'),
          "\n - r=1 -> (" + std::string(5000, '1') + ")\nwhere out dims are: []",
          std::string("\0\0\0", 3)})
      expectRejectedOrValid(target.read, target.write, text);
  }
}

// ---------------------------------------------------------------------------
// 5. Format detection and names
// ---------------------------------------------------------------------------

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
