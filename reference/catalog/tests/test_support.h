// Helpers of the catalog tests: the comparison of a constructor's layout with
// an element-wise definition, and a substring check for error messages.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "reference/catalog/tests/elementwise_compare.h"
#include "reference/linear_layout.h"

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
// coordinate for each (register, lane, warp, block); `model` as for
// elementwise_compare.h's distributedMismatch (registers(), lanes(), warps(),
// blocks() and at(reg, lane, warp, block) -> one value per out dim of `layout`).
template <typename Model>
void expectMatchesElementwise(const LinearLayout& layout, const Model& model) {
  EXPECT_EQ(distributedMismatch(layout, model), "") << layout;
}

}  // namespace f2lay::ref::catalog
