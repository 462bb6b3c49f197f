// Tests of CuTe's text (formats/cute_text.h): golden strings printed by
// pycute (nvidia-cutlass 4.2.0.0, python/pycute: str of a Layout, a Swizzle
// and a ComposedLayout; each quoted below) and CuTe's C++ printer's form (the
// nested-mode example Sw<3,4,3> o _0 o ((8,2),64):((64,4096),1)); errors
// naming the line, the column and what was expected; mutated texts that must
// end in f2lay::Error or read back.
#include "formats/cute_text.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "formats/error.h"
#include "formats/tests/format_test_support.h"

namespace f2lay {
namespace {

using namespace format_tests;

// Sw<3,4,3> o _0 o ((8,2),64):((64,4096),1).
CuteText example() { return {{3, 4, 3}, 0, {{{8, 2}, 64}, {{64, 4096}, 1}}}; }

std::string cuteError(std::string_view text) {
  return errorMessage(
      [](std::string_view t) {
        readCuteText(t);
        return LayoutValue{};
      },
      text);
}

TEST(CuteTextGolden, CppPrinterComposed) {
  // CuTe's print(ComposedLayout): layout_a " o " offset " o " layout_b
  // (include/cute/layout_composed.hpp), Swizzle printed "Sw<B,M,S>"
  // (swizzle.hpp); the nested-mode example.
  const std::string text = "Sw<3,4,3> o _0 o ((8,2),64):((64,4096),1)";
  EXPECT_EQ(readCuteText(text), example());
  EXPECT_EQ(writeCuteText(example(), CuteStyle::Cpp), text);
  // CuTe's static integers print with '_'.
  EXPECT_EQ(readCuteText("Sw<3,4,3> o _0 o ((_8,_2),_64):((_64,_4096),_1)"), example());
}

TEST(CuteTextGolden, PycuteStr) {
  // pycute: str(ComposedLayout(Swizzle(3,4,3), 0, Layout(((8,2),64),((64,4096),1)))).
  const std::string text = "SW_3_4_3 o 0 o ((8, 2), 64):((64, 4096), 1)";
  EXPECT_EQ(readCuteText(text), example());
  EXPECT_EQ(writeCuteText(example(), CuteStyle::Pycute), text);
  // pycute: str(Layout(((8,2),64),((64,4096),1))).
  CuteText plain{{}, 0, example().layout};
  EXPECT_EQ(readCuteText("((8, 2), 64):((64, 4096), 1)"), plain);
  EXPECT_EQ(writeCuteText(plain, CuteStyle::Pycute), "((8, 2), 64):((64, 4096), 1)");
  EXPECT_EQ(writeCuteText(plain, CuteStyle::Cpp), "((8,2),64):((64,4096),1)");
  // pycute: str(Swizzle(3,4,-3)) is "SW_3_4_-3".
  EXPECT_EQ(readCuteText("SW_3_4_-3 o 0 o 8:1").swizzle, (CuteSwizzle{3, 4, -3}));
}

TEST(CuteTextGolden, OneMode) {
  // pycute: str(Layout(8,1)) is "8:1", str(Layout((8,),(1,))) "(8,):(1,)":
  // both one mode.
  CuteText eight{{}, 0, {{8}, {1}}};
  EXPECT_EQ(readCuteText("8:1"), eight);
  EXPECT_EQ(readCuteText("(8,):(1,)"), eight);
  EXPECT_EQ(readCuteText("(8):(1)"), eight);
  EXPECT_EQ(writeCuteText(eight, CuteStyle::Pycute), "8:1");
  EXPECT_EQ(writeCuteText(eight, CuteStyle::Cpp), "8:1");
  // One nested mode keeps its outer parentheses.
  CuteText nested{{}, 0, {{{8, 2}}, {{1, 8}}}};
  EXPECT_EQ(writeCuteText(nested, CuteStyle::Cpp), "((8,2)):((1,8))");
  EXPECT_EQ(writeCuteText(nested, CuteStyle::Pycute), "((8, 2),):((1, 8),)");
  EXPECT_EQ(readCuteText("((8, 2),):((1, 8),)"), nested);
  EXPECT_EQ(readCuteText("((8,2)):((1,8))"), nested);
}

TEST(CuteText, BlanksNegativesAndNonzeroOffsets) {
  CuteText t =
      readCuteText("\n  Sw< 1 , 0 , -1 > o _5 o ( _4 , ( 2 , 2 ) ) : ( _-1 , ( 0 , 9 ) )\n");
  EXPECT_EQ(t.swizzle, (CuteSwizzle{1, 0, -1}));
  EXPECT_EQ(t.offset, 5);  // read; the catalog refuses it (cute.h)
  EXPECT_EQ(t.layout, (CuteLayout{{4, {2, 2}}, {-1, {0, 9}}}));
  EXPECT_EQ(writeCuteText(t, CuteStyle::Cpp), "Sw<1,0,-1> o _5 o (4,(2,2)):(-1,(0,9))");
  EXPECT_EQ(readCuteText(writeCuteText(t, CuteStyle::Pycute)), t);
  EXPECT_EQ(readCuteText("-9223372036854775808:9223372036854775807").layout.shape[0].value,
            INT64_MIN);
}

TEST(CuteText, ErrorsNameThePositionAndWhatWasExpected) {
  EXPECT_EQ(cuteError("((8,2),64):((64,4096),1"),
            "CuTe text: line 1, column 24: expected ',' or ')' in the stride, found end of input");
  EXPECT_EQ(cuteError("((8,2),64)"),
            "CuTe text: line 1, column 11: expected ':' between the shape and the stride, found "
            "end of input");
  EXPECT_EQ(cuteError("Sw<3,4> o _0 o 8:1"),
            "CuTe text: line 1, column 7: expected ',' after M in Sw<B,M,S>, found '> o _0 o 8:1'");
  EXPECT_EQ(cuteError("Sw<3,4,3> _0 o 8:1"),
            "CuTe text: line 1, column 11: expected 'o' after the swizzle (Swizzle o offset o "
            "layout), found '_0 o 8:1'");
  EXPECT_EQ(cuteError("8:1 x"),
            "CuTe text: line 1, column 5: expected the end of the layout, found 'x'");
  EXPECT_EQ(cuteError("(8,x):(1,2)"),
            "CuTe text: line 1, column 4: expected shape: an integer or '(' (an integer), found "
            "'x):(1,2)'");
  EXPECT_EQ(cuteError("():()"),
            "CuTe text: line 1, column 2: shape: an empty tuple () has no size");
  EXPECT_EQ(cuteError("99999999999999999999:1"),
            "CuTe text: line 1, column 1: shape: an integer or '(': the integer does not fit in 64 "
            "bits (signed)");
  EXPECT_EQ(cuteError("Sw<99,0,99> o _0 o 8:1"),
            "CuTe text: line 1, column 6: B of Sw<B,M,S> = 99 is beyond 62 bits");
  EXPECT_EQ(cuteError(""),
            "CuTe text: line 1, column 1: expected shape: an integer or '(' (an integer), found "
            "end of input");
  EXPECT_NE(cuteError(std::string(40, '(') + "8" + std::string(40, ')') + ":1")
                .find("shape: tuples nested deeper than 32"),
            std::string::npos);
}

TEST(CuteText, Detection) {
  EXPECT_TRUE(looksLikeCuteText(" Sw<3,4,3> o _0 o 8:1"));
  EXPECT_TRUE(looksLikeCuteText("SW_3_4_3 o 0 o 8:1"));
  EXPECT_TRUE(looksLikeCuteText("((8,2),64):((64,4096),1)"));
  EXPECT_TRUE(looksLikeCuteText("8:1"));
  EXPECT_TRUE(looksLikeCuteText("_8:_1"));
  EXPECT_FALSE(looksLikeCuteText("\n - register=1 -> (0, 1)"));
  EXPECT_FALSE(looksLikeCuteText("(empty layout)"));
  EXPECT_FALSE(looksLikeCuteText("{\"in_dims\": []}"));
  EXPECT_FALSE(looksLikeCuteText("#ttg.linear<{}>"));
}

// Mutations of valid texts end in f2lay::Error or in a value that writes and
// reads back unchanged, in both styles.
TEST(CuteText, MutatedTextsNeverCrash) {
  std::mt19937 rng(22);
  const std::string seeds[] = {"Sw<3,4,3> o _0 o ((8,2),64):((64,4096),1)",
                               "SW_3_4_3 o 0 o ((8, 2), 64):((64, 4096), 1)", "(8,):(1,)",
                               "(_4,(2,_2)):(_-1,(0,9))"};
  const std::string syntax = " ()<>,:_-oSWw0123456789";
  int read = 0;
  for (int round = 0; round < 4000; ++round) {
    std::string text = seeds[round % 4];
    for (int e = randomInt(rng, 1, 3); e > 0 && !text.empty(); --e) {
      size_t at = static_cast<size_t>(randomInt(rng, 0, static_cast<int>(text.size()) - 1));
      char c =
          round % 7 == 0
              ? static_cast<char>(randomInt(rng, 0, 255))
              : syntax[static_cast<size_t>(randomInt(rng, 0, static_cast<int>(syntax.size()) - 1))];
      switch (randomInt(rng, 0, 2)) {
        case 0:
          text[at] = c;
          break;
        case 1:
          text.insert(at, 1, c);
          break;
        default:
          text.erase(at, 1);
      }
    }
    CuteText t;
    try {
      t = readCuteText(text);
    } catch (const Error&) {
      continue;
    }
    ++read;
    for (CuteStyle style : {CuteStyle::Cpp, CuteStyle::Pycute})
      EXPECT_EQ(readCuteText(writeCuteText(t, style)), t) << printable(text);
  }
  EXPECT_GT(read, 200);
}

}  // namespace
}  // namespace f2lay
