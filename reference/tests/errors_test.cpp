// Every precondition of the reference API is checked and reported as
// f2lay::Error with a message naming the operation and the rule; nothing
// aborts. (The oracle-level messages are golden cases in oracle/cases/errors.jsonl.)
#include <gtest/gtest.h>

#include "reference/linear_layout.h"
#include "testkit/outcome.h"

namespace f2lay::ref {
namespace {

LinearLayout make(std::vector<InDim> ins, std::vector<OutDim> outs) {
  return LinearLayout(LayoutValue{std::move(ins), std::move(outs)});
}

void expectError(const std::function<void()>& f, const std::string& part) {
  EXPECT_PRED2(f2lay::testkit::contains, f2lay::testkit::errorMessage(f), part);
}

TEST(Errors, ConstructionValidatesTheValue) {
  expectError([] { make({{"in", {{5}}}}, {{"out", 4}}); }, "not below its size 4");
  expectError(
      [] {
        make({{"in", {{1, 1}}}}, {{"out", 4}});
      },
      "has 2 values but there are 1 out dims");
  expectError([] { make({{"in", {}}, {"in", {}}}, {}); }, "in dim 'in' appears twice");
  expectError([] { make({}, {{"o", 3}}); }, "not a power of two");
  expectError([] { make({}, {{"a b", 2}}); }, "not an identifier");
  expectError([] { make({{"in", std::vector<Basis>(64, Basis{})}}, {}); }, "at most 63 bits");
  expectError(
      [] {
        make({{"a", std::vector<Basis>(40, Basis{})}, {"b", std::vector<Basis>(30, Basis{})}}, {});
      },
      "more than 64 bits");
  expectError(
      [] {
        make({}, {{"a", uint64_t{1} << 40}, {"b", uint64_t{1} << 30}});
      },
      "70 bits in total");
}

TEST(Errors, ConstructorsCheckTheirSizes) {
  expectError([] { (void)LinearLayout::identity1D(12, "i", "o"); }, "identity1D: size 12");
  expectError([] { (void)LinearLayout::zeros1D(3, "i", "o"); }, "zeros1D: size 3");
  expectError([] { (void)LinearLayout::zeros1D(4, "i", "o", 6); }, "not a power of two");
  expectError([] { (void)LinearLayout::strided1D(4, 3, "i", "o"); }, "must both be powers of two");
  expectError([] { (void)LinearLayout::strided1D(uint64_t{1} << 40, uint64_t{1} << 30, "i", "o"); },
              "exceeds 2^63");
}

TEST(Errors, OperationsNameTheirPreconditions) {
  LinearLayout id = LinearLayout::identity1D(4, "in", "out");
  LinearLayout zeros = LinearLayout::zeros1D(4, "in", "out", 4);
  expectError([&] { (void)id.compose(LinearLayout::identity1D(4, "x", "y")); }, "compose:");
  expectError([&] { (void)zeros.pseudoinvert(); }, "pseudoinvert: the layout is not surjective");
  expectError([&] { (void)zeros.invert(); }, "invert: the layout is not invertible");
  expectError([&] { (void)id.invertAndCompose(zeros); }, "is not inside the image of other");
  expectError([&] { (void)id.invertAndCompose(LinearLayout::identity1D(2, "in", "out")); },
              "larger than in other");
  expectError([&] { (void)id.transposeIns({}); }, "transpose_ins:");
  expectError([&] { (void)id.reshapeOuts({{"a", 2}}); }, "reshape_outs:");
  expectError([&] { (void)id.reshapeIns({{"a", 2}, {"a", 2}}); }, "named twice");
  expectError([&] { (void)id.sublayout({}, {"nope"}); }, "'nope' is not an out dim");
  expectError([&] { (void)id.concatOuts(id); }, "out dim 'out' is in both layouts");
  expectError([&] { (void)id.apply({{"in", 1}, {"in", 1}}); }, "given twice");
  // Triton's apply asserts each input below its dim's size: 4 is one past "in"'s 2 bits.
  expectError(
      [&] {
        (void)id.apply({{"in", 4}});
      },
      "value 4 of in dim 'in' is not below its size 2^2");
  expectError([&] { (void)id.apply({}); }, "in dim 'in' is missing");
  expectError([&] { (void)id.getInDimSizeLog2("zz"); }, "in dim 'zz' is not in the layout");
  expectError(
      [&] {
        (void)(make({{"a", std::vector<Basis>(40, Basis{0})}}, {{"o", 1}}) *
               make({{"a", std::vector<Basis>(30, Basis{0})}}, {{"o", 1}}));
      },
      "product:");
  expectError(
      [&] {
        (void)(make({}, {{"o", uint64_t{1} << 40}}) * make({}, {{"o", uint64_t{1} << 30}}));
      },
      "product: out dim 'o' would have 70 bits");
}

TEST(Errors, DivideLeftSaysNotDivisibleInsteadOfAWrongAnswer) {
  LinearLayout a = LinearLayout::identity1D(8, "in", "out");
  EXPECT_FALSE(divideLeft(a, LinearLayout::zeros1D(2, "in", "out")).has_value());
  EXPECT_FALSE(divideLeft(a, LinearLayout::identity1D(16, "in", "out")).has_value());
  EXPECT_FALSE(divideLeft(a, LinearLayout::identity1D(2, "other", "out")).has_value());
  // The right lower bits but the quotient's bits would not sit above them.
  LinearLayout swizzled = make({{"in", {{1}, {3}}}}, {{"out", 4}});
  EXPECT_FALSE(divideLeft(swizzled, LinearLayout::identity1D(2, "in", "out")).has_value());
}

}  // namespace
}  // namespace f2lay::ref
