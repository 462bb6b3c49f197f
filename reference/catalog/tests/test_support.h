// Helpers of the catalog tests: the comparison of a constructor's layout with
// an element-wise definition, and a substring check for error messages.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "linear_layout.h"

namespace f2lay::ref::catalog {

// The message of the f2lay::Error that `f` throws, or "(no error)".
inline std::string errorMessage(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

// For EXPECT_PRED2(contains, error, part): prints both when it fails.
inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The same number of registers, lanes, warps and blocks, and the same tensor
// coordinate for each (register, lane, warp, block). `model` has registers(), lanes(), warps(), blocks() and at(reg, lane, warp,
// block) -> coordinate, one value per out dim of `layout`.
template <typename Model>
void expectMatchesElementwise(const LinearLayout& layout, const Model& model) {
  ASSERT_EQ(uint64_t{1} << layout.getInDimSizeLog2("register"), model.registers()) << layout;
  ASSERT_EQ(uint64_t{1} << layout.getInDimSizeLog2("lane"), model.lanes()) << layout;
  ASSERT_EQ(uint64_t{1} << layout.getInDimSizeLog2("warp"), model.warps()) << layout;
  ASSERT_EQ(uint64_t{1} << layout.getInDimSizeLog2("block"), model.blocks()) << layout;
  int mismatches = 0;
  for (uint64_t b = 0; b < model.blocks(); ++b)
    for (uint64_t w = 0; w < model.warps(); ++w)
      for (uint64_t l = 0; l < model.lanes(); ++l)
        for (uint64_t r = 0; r < model.registers(); ++r) {
          DimValues out = layout.apply({{"register", r}, {"lane", l}, {"warp", w}, {"block", b}});
          std::vector<uint64_t> got;
          for (const auto& [name, value] : out) got.push_back(value);
          std::vector<uint64_t> want = model.at(r, l, w, b);
          if (got != want && ++mismatches <= 5)
            ADD_FAILURE() << "register " << r << " lane " << l << " warp " << w << " block " << b
                          << ": layout gives (" << ::testing::PrintToString(got)
                          << "), the definition (" << ::testing::PrintToString(want) << ")";
        }
  EXPECT_EQ(mismatches, 0) << layout;
}

}  // namespace f2lay::ref::catalog
