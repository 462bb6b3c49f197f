// Golden tests of the reference API for the cases the oracle's JSON Lines
// files (oracle/cases) cannot state on one line: chains of operations and
// Triton's supremum. Every expected value is copied from its source, named in
// the test: Triton's unittest/Tools/LinearLayoutTest.cpp ("Triton <Case>"), or
// the paper.
#include <gtest/gtest.h>

#include "reference/linear_layout.h"

namespace f2lay::ref {
namespace {

using Bases = std::vector<std::pair<std::string, std::vector<Basis>>>;

// Triton's LinearLayout(bases, outDimNames) constructor: out-dim sizes are
// the smallest powers of two above the largest value of each dim.
LinearLayout inferred(const Bases& bases, const std::vector<std::string>& outs) {
  LayoutValue v;
  for (size_t k = 0; k < outs.size(); ++k) {
    uint64_t size = 1;
    for (const auto& [name, bs] : bases)
      for (const Basis& b : bs)
        while (size <= b[k]) size *= 2;
    v.out_dims.push_back({outs[k], size});
  }
  for (const auto& [name, bs] : bases) v.in_dims.push_back({name, bs});
  return LinearLayout(v);
}

LinearLayout sized(const Bases& bases, const std::vector<OutDim>& outs) {
  LayoutValue v{{}, outs};
  for (const auto& [name, bs] : bases) v.in_dims.push_back({name, bs});
  return LinearLayout(v);
}

TEST(TritonGolden, InvertAndComposeSimpleRoundTrips) {
  LinearLayout l1 = inferred({{"in1", {{2}, {1}, {4}}}}, {"out"});
  LinearLayout l2 = inferred({{"in2", {{4}, {1}, {2}}}}, {"out"});
  LinearLayout c = l1.invertAndCompose(l2);
  EXPECT_EQ(c, inferred({{"in1", {{4}, {2}, {1}}}}, {"in2"}));
  EXPECT_EQ(c.compose(l2), l1);  // Triton InvertAndCompose_Simple
}

TEST(TritonGolden, InvertAndComposeNonInjectiveRoundTrips) {
  LinearLayout l1 = inferred({{"in1", {{2}, {1}, {4}}}}, {"out"});
  LinearLayout l2 = inferred({{"in2", {{0}, {2}, {1}, {4}}}}, {"out"});
  LinearLayout c = l1.invertAndCompose(l2);
  EXPECT_EQ(c, sized({{"in1", {{2}, {4}, {8}}}}, {{"in2", 16}}));
  EXPECT_FALSE(c.isSurjective());
  EXPECT_EQ(c.compose(l2), l1);  // Triton InvertAndCompose_NonInjective
}

TEST(TritonGolden, InvertAndComposeMultidim) {
  LinearLayout l1 =
      inferred({{"in1", {{1, 0}, {0, 1}, {2, 0}, {3, 2}}}, {"in2", {{2, 2}}}}, {"out1", "out2"});
  LinearLayout l2 = inferred({{"in3", {{0, 1}, {1, 0}, {0, 0}, {0, 2}, {2, 1}}}}, {"out2", "out1"});
  EXPECT_EQ(l1.invertAndCompose(l2).compose(l2), l1.transposeOuts(l2.getOutDimNames()));
  EXPECT_EQ(l2.invertAndCompose(l1).compose(l1), l2.transposeOuts(l1.getOutDimNames()));
}

TEST(TritonGolden, InvertAndComposeBroadcastedDimsRoundTrip) {
  LinearLayout l1 = inferred({{"in1", {{1}, {2}, {4}}}, {"in2", {{0}}}}, {"out"});
  LinearLayout l2 = inferred({{"in3", {{1}, {2}, {4}}}, {"in4", {{0}}}}, {"out"});
  EXPECT_EQ(l1.invertAndCompose(l2).compose(l2), l1);  // Triton InvertAndCompose_BroadcastedDims
  LinearLayout a = inferred({{"in1", {{1}, {2}}}, {"in2", {{0}}}}, {"out"});
  LinearLayout b = inferred({{"in3", {{2}, {1}}}, {"in4", {{0}}}}, {"out"});
  EXPECT_EQ(a.invertAndCompose(b).compose(b), a);  // Triton InvertAndCompose_BroadcastedDims2
}

TEST(TritonGolden, InvertAndComposeIdentityInDim) {
  std::vector<std::string> outs;
  for (int i = 0; i < 9; ++i) outs.push_back("dim" + std::to_string(i));
  auto unit = [](int k) {
    Basis b(9, 0);
    b[k] = 1;
    return b;
  };
  LinearLayout src = inferred({{"register", {unit(8), unit(7)}},
                               {"lane", {unit(6), unit(5), unit(4), unit(3), unit(2)}},
                               {"warp", {unit(1), unit(0)}},
                               {"block", {}}},
                              outs);
  LinearLayout dst = inferred({{"register", {unit(8), unit(7)}},
                               {"lane", {unit(0), unit(1), unit(2), unit(3), unit(4)}},
                               {"warp", {unit(5), unit(6)}},
                               {"block", {}}},
                              outs);
  LinearLayout cvt = dst.invertAndCompose(src);
  DimValues k = {{"register", 3}, {"lane", 0}, {"warp", 2}, {"block", 0}};
  EXPECT_EQ(dst.apply(k), src.apply(cvt.apply(k)));  // Triton InvertAndCompose_IdentityInDim
}

TEST(TritonGolden, InvertAndComposeLargerAEqualsComposeWithInverse) {
  LinearLayout reg = inferred({{"register", {{0, 1}, {0, 2}, {0, 4}, {0, 32}, {32, 0}}},
                               {"lane", {{0, 8}, {0, 16}, {1, 0}, {2, 0}, {4, 0}}},
                               {"warp", {{8, 0}, {16, 0}}},
                               {"block", {}}},
                              {"dim0", "dim1"});
  LinearLayout shared = inferred({{"offset",
                                   {{0, 1},
                                    {0, 2},
                                    {0, 4},
                                    {0, 8},
                                    {0, 16},
                                    {0, 32},
                                    {0, 64},
                                    {1, 8},
                                    {2, 16},
                                    {4, 32},
                                    {8, 0},
                                    {16, 0},
                                    {32, 0},
                                    {64, 0},
                                    {128, 0}}},
                                  {"block", {}}},
                                 {"dim0", "dim1"});
  LinearLayout expected = sized({{"register", {{1, 0}, {2, 0}, {4, 0}, {32, 0}, {4096, 0}}},
                                 {"lane", {{8, 0}, {16, 0}, {136, 0}, {272, 0}, {544, 0}}},
                                 {"warp", {{1024, 0}, {2048, 0}}},
                                 {"block", {}}},
                                {{"offset", 32768}, {"block", 1}});
  EXPECT_EQ(reg.invertAndCompose(shared), expected);  // Triton InvertAndComposeLargerA
  EXPECT_EQ(reg.compose(shared.invert()), expected);
}

TEST(TritonGolden, DivideLeft2DIsTheInverseOfProduct) {
  LinearLayout l1 = inferred({{"in1", {{1, 1}, {2, 2}, {0, 8}, {0, 4}}}, {"in2", {{0, 2}, {0, 1}}}},
                             {"out1", "out2"});
  LinearLayout l2 =
      inferred({{"in1", {{1, 1}, {2, 2}}}, {"in2", {{0, 2}, {0, 1}}}}, {"out1", "out2"});
  LinearLayout l3 = inferred({{"in1", {{0, 2}, {0, 1}}}, {"in2", {}}}, {"out1", "out2"});
  EXPECT_EQ(l2 * l3, l1);  // Triton DivideLeft_2D
  EXPECT_EQ(divideLeft(l1, l2).value(), l3);
}

TEST(TritonGolden, EqualsChecksOutDimSizes) {
  LinearLayout a = LinearLayout::identity1D(4, "in", "out");
  LinearLayout b = sized({{"in", {{1}, {2}}}}, {{"out", 8}});
  EXPECT_FALSE(a == b);  // Triton EqualsChecksOutDimSizes
  EXPECT_TRUE(a != b);
}

TEST(TritonGolden, EmptyToString) {
  EXPECT_EQ(LinearLayout::empty().toString(), "\n(empty layout)");  // Triton EmptyToString
}

TEST(TritonGolden, TimesEquals) {
  LinearLayout prod = LinearLayout::empty() * LinearLayout::identity1D(32, "in", "out");
  EXPECT_EQ(prod, LinearLayout::identity1D(32, "in", "out"));  // Triton TimesEquals
}

// Def 4.3: the product of two identities is the identity on the product
// space (Triton builds its layouts so: identity1D(a) * identity1D(b) ==
// identity1D(a * b)), also when both factors are one object. Found by the
// differential fuzzer: L * L shifted the inner factor too.
TEST(PaperGolden, ProductOfALayoutWithItself) {
  LinearLayout l = LinearLayout::identity1D(4, "in", "out");
  EXPECT_EQ(l * l, LinearLayout::identity1D(16, "in", "out"));
  LinearLayout twisted = sized({{"in", {{2}, {3}}}}, {{"out", 4}});
  EXPECT_EQ(twisted * twisted, sized({{"in", {{2}, {3}, {8}, {12}}}}, {{"out", 16}}));
}

// Triton SupremumTest.*
TEST(TritonGolden, SupremumIdenticalLists) {
  EXPECT_EQ(supremum({"a", "b", "c"}, {"a", "b", "c"}), (std::vector<std::string>{"a", "b", "c"}));
}
TEST(TritonGolden, SupremumNonUniqueFirstListPriority) {
  EXPECT_EQ(supremum({"a", "b"}, {"a", "c"}), (std::vector<std::string>{"a", "b", "c"}));
}
TEST(TritonGolden, SupremumNonUniqueAlternate) {
  EXPECT_EQ(supremum({"a", "b"}, {"b", "c"}), (std::vector<std::string>{"a", "b", "c"}));
}
TEST(TritonGolden, SupremumDifferentLengths) {
  EXPECT_EQ(supremum({"a", "b", "c"}, {"a", "d"}), (std::vector<std::string>{"a", "b", "c", "d"}));
}
TEST(TritonGolden, SupremumEmptyLists) { EXPECT_TRUE(supremum({}, {}).empty()); }
TEST(TritonGolden, SupremumOneEmptyList) {
  EXPECT_EQ(supremum({"a", "b"}, {}), (std::vector<std::string>{"a", "b"}));
}
TEST(TritonGolden, SupremumErrorOnInconsistentOrder) {
  EXPECT_THROW((void)supremum({"a", "b"}, {"b", "a"}), Error);
}
// Measured with Triton 3.6's Python binding: (a, b) * (c, b) has in dims
// [a, c, b], a shared dim waiting for the other list's dims before it.
TEST(TritonGolden, SupremumSharedDimComesAfterTheOtherListsEarlierDims) {
  EXPECT_EQ(supremum({"a", "b"}, {"c", "b"}), (std::vector<std::string>{"a", "c", "b"}));
}

// Paper §4.1: layout A of Figure 1 is the product of its register, thread
// and warp parts (Def 4.3), and the blocked layout it belongs to.
TEST(PaperGolden, LayoutAIsTheProductOfItsParts) {
  LinearLayout reg = sized({{"register", {{0, 1}, {1, 0}}}}, {{"dim0", 2}, {"dim1", 2}});
  LinearLayout thr =
      sized({{"lane", {{0, 1}, {0, 2}, {0, 4}, {1, 0}, {2, 0}}}}, {{"dim0", 4}, {"dim1", 8}});
  LinearLayout wrp = sized({{"warp", {{1, 0}}}}, {{"dim0", 2}, {"dim1", 1}});
  LinearLayout a = sized({{"register", {{0, 1}, {1, 0}}},
                          {"lane", {{0, 2}, {0, 4}, {0, 8}, {2, 0}, {4, 0}}},
                          {"warp", {{8, 0}}}},
                         {{"dim0", 16}, {"dim1", 16}});
  EXPECT_EQ(reg * thr * wrp, a);
  // The quotient keeps every in dim of A (Triton's divideLeft), register empty.
  EXPECT_EQ(divideLeft(a, reg).value(), sized({{"register", {}},
                                               {"lane", {{0, 1}, {0, 2}, {0, 4}, {1, 0}, {2, 0}}},
                                               {"warp", {{4, 0}}}},
                                              {{"dim0", 8}, {"dim1", 8}}));
}

}  // namespace
}  // namespace f2lay::ref
