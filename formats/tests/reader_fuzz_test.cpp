// No input may crash a reader: random bytes, mutated valid texts, deep
// nesting and huge numbers make each format's reader throw f2lay::Error or
// return a valid layout that its writer and reader keep unchanged.
#include <gtest/gtest.h>

#include <exception>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "formats/error.h"
#include "formats/json_format.h"
#include "formats/layout_value.h"
#include "formats/mlir_attr.h"
#include "formats/tests/format_test_support.h"
#include "formats/triton_text.h"

namespace f2lay {
namespace {

using namespace format_tests;

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

}  // namespace
}  // namespace f2lay
