// Helpers shared by the tests of the three layout formats (formats/*.h):
// JSON, Triton's LinearLayout::toString text and the MLIR attribute
// #ttg.linear<{...}>.
//
// Golden strings are pasted from Triton 3.6 itself (see the comment on each);
// everything else states its expected value literally. Errors must be
// f2lay::Error naming the position or path and the problem, and no input,
// however broken, may make a reader throw anything else.
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "formats/layout_value.h"

namespace f2lay::format_tests {

using Reader = std::function<LayoutValue(std::string_view)>;

// The paper's Figure 1 layout A: a 16x16 blocked layout with 2x2 registers per
// thread, 4x8 threads per warp and 2 warps.
LayoutValue figure1A();

// Shows control and non-ASCII bytes of a fuzzed input as \xNN.
std::string printable(std::string_view text);

// `text` with its only occurrence of `from` replaced by `to`.
std::string replaced(std::string text, std::string_view from, std::string_view to);

// Runs `read` on `text` and returns the f2lay::Error message; fails the test
// if the reader accepts the text or throws anything else.
std::string errorMessage(const Reader& read, std::string_view text);

// The same for a writer.
std::string writeErrorMessage(const std::function<std::string()>& write);

void expectContains(const std::string& message, const std::string& part);

// One bad input and the parts its error message must contain: where (line
// and column, or JSON path) and what (the broken rule).
struct BadInput {
  std::string what;
  std::string text;
  std::vector<std::string> messageParts;
};

void expectAllRejected(const Reader& read, const std::vector<BadInput>& cases);

int randomInt(std::mt19937& rng, int lo, int hi);

// A random valid layout: 0-4 out dims and 0-4 in dims with names from a pool
// (dotted ones included); now and then a 63-bit dim, so that the 63-bit and
// 64-bit limits are reached.
LayoutValue randomLayout(std::mt19937& rng);

// A random layout that #ttg.linear carries exactly: in dims register, lane,
// warp, block; rank 1-3; at least one basis; out dims dim0.. sized by the
// smallest power of two above their largest value.
LayoutValue randomMlirLayout(std::mt19937& rng);

// A valid two-dim layout in each format; the bad inputs of the error tests
// edit it.
extern const std::string kJsonBase;
extern const std::string kTritonBase;
extern const std::string kMlirBase;

}  // namespace f2lay::format_tests
