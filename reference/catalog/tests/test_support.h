// Helpers of the catalog tests: the comparison of a constructor's layout with
// an element-wise definition, and a substring check for error messages.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "definitions/elementwise_compare.h"
#include "reference/linear_layout.h"
#include "testkit/outcome.h"

namespace f2lay::ref::catalog {

// The message of the f2lay::Error that `f` throws, or "(no error)"; and
// contains, for EXPECT_PRED2(contains, error, part), which prints both when it
// fails (testkit/outcome.h, for every test).
using f2lay::testkit::contains;
using f2lay::testkit::errorMessage;

// The same number of registers, lanes, warps and blocks, and the same tensor
// coordinate for each (register, lane, warp, block); `model` as for
// elementwise_compare.h's distributedMismatch (registers(), lanes(), warps(),
// blocks() and at(reg, lane, warp, block) -> one value per out dim of `layout`).
template <typename Model>
void expectMatchesElementwise(const LinearLayout& layout, const Model& model) {
  EXPECT_EQ(distributedMismatch(layout, model), "") << layout;
}

}  // namespace f2lay::ref::catalog
