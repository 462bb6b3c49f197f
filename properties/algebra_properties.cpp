// Properties of the algebra (Defs 4.1-4.5) and of the two families (Defs
// 4.10, 4.14), each one law of laws_algebra.cpp on generated layouts.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "properties/case.h"
#include "properties/generators.h"

namespace f2lay::properties {
namespace {

// a, then b over a's out dims, then c over b's; small (brute force) or
// over the whole 64-bit range.
rc::Gen<Case> genComposableChain(int length, bool wide = false) {
  return rc::gen::exec([length, wide] {
    Case c;
    c.layouts.push_back(wide ? *genWideLayout() : *genLayout());
    while (static_cast<int>(c.layouts.size()) < length) {
      auto ins = dimsOf(c.layouts.back()).outs;
      c.layouts.push_back(wide ? *genWideLayoutFrom(ins) : *genLayoutFrom(ins));
    }
    return c;
  });
}

Case one(const LayoutValue& l) { return Case{{l}}; }

RC_GTEST_PROP(Algebra, ComposeIsAssociative, ()) {
  RC_ASSERT(holds("compose_is_associative", *genComposableChain(3)));
}

RC_GTEST_PROP(Algebra, ComposeHasIdentities, ()) {
  RC_ASSERT(holds("compose_has_identities", one(*genLayout())));
}

RC_GTEST_PROP(Algebra, ApplyOfComposeIsApplyAfterApply, ()) {
  RC_ASSERT(holds("apply_of_compose", *genComposableChain(2)));
}

RC_GTEST_PROP(Algebra, ApplyIsLinear, ()) {
  RC_ASSERT(holds("apply_is_linear", one(*genLayout())));
}

RC_GTEST_PROP(Algebra, ProductAndDivideLeftRoundTrip, ()) {
  RC_ASSERT(holds("product_divide_left_round_trip", Case{{*genLayout(), *genLayout()}}));
}

RC_GTEST_PROP(Algebra, InverseComposesToIdentity, ()) {
  RC_ASSERT(holds("inverse_composes_to_identity", one(*genLayout(RankKind::kInvertible))));
}

RC_GTEST_PROP(Algebra, PseudoinverseIsRightInverse, ()) {
  RC_ASSERT(holds("pseudoinverse_is_right_inverse", one(*genLayout(RankKind::kSurjective))));
}

RC_GTEST_PROP(Algebra, ReshapeAndTransposeRoundTrip, ()) {
  RC_ASSERT(holds("reshape_and_transpose_round_trip", one(*genLayout())));
}

RC_GTEST_PROP(Algebra, RankIsBruteForce, ()) {
  RC_ASSERT(holds("rank_is_brute_force", one(*genLayout())));
}

// A layout of `kind` built with its rank (columnsOfRank), small or wide,
// with that rank as params.rank.
Case builtRank(RankKind kind) {
  int bits = *rc::gen::element(12, 64);
  LayoutValue l = *genWideLayout(kind, bits, bits);
  int rank = kind == RankKind::kSurjective ? totalOutBits(l) : totalInBits(l);
  return Case{{l}, {{"rank", rank}}};
}

RC_GTEST_PROP(Algebra, InjectiveLayoutsAreInjective, ()) {
  RC_ASSERT(holds("rank_is_independent", builtRank(RankKind::kInjective)));
}

RC_GTEST_PROP(Algebra, SurjectiveLayoutsAreSurjective, ()) {
  RC_ASSERT(holds("rank_is_independent", builtRank(RankKind::kSurjective)));
}

// One column the XOR of others: rank one short of the input bits, so never
// injective (the edge a rank off by one would miss).
RC_GTEST_PROP(Algebra, ADependentColumnIsNotInjective, ()) {
  Case c = builtRank(RankKind::kInjective);
  RC_PRE(totalInBits(c.layouts[0]) > 0);
  c.layouts[0] = *genWithDependentColumn(c.layouts[0]);
  c.params["rank"] = totalInBits(c.layouts[0]) - 1;
  RC_ASSERT(holds("rank_is_independent", c));
}

RC_GTEST_PROP(Algebra, ProductIsBlockDiagonal, ()) {
  RC_ASSERT(holds("product_is_block_diagonal", Case{{*genLayout(), *genLayout()}}));
}

// The laws again over the whole range (README: 64 bits a side), where they
// check by sampled inputs (testkit/inputs.h).
// Shows how often the boundaries come (RapidCheck prints the tags' shares).
void tagWide(const LayoutValue& l) {
  Dims d = dimsOf(l);
  auto widest = [](const auto& side) {
    int most = 0;
    for (const auto& dim : side) most = std::max(most, dim.second);
    return most;
  };
  RC_CLASSIFY(d.inBits() > 50, "more than 50 in bits");
  RC_CLASSIFY(d.inBits() == 64, "64 in bits");
  RC_CLASSIFY(d.outBits() == 64, "64 out bits");
  RC_CLASSIFY(d.inBits() <= 1, "0 or 1 in bits");
  RC_CLASSIFY(d.ins.size() == 1 && d.inBits() == 63, "one in dim of 63 bits");
  RC_CLASSIFY(widest(d.ins) >= 32, "an in dim of 32 bits or more");
  RC_CLASSIFY(widest(d.outs) >= 32, "an out dim of 2^32 or more");
}

RC_GTEST_PROP(Wide, ApplyIsLinear, ()) {
  LayoutValue l = *genWideLayout();
  tagWide(l);
  RC_ASSERT(holds("apply_is_linear", one(l)));
}

RC_GTEST_PROP(Wide, ComposeIsAssociative, ()) {
  RC_ASSERT(holds("compose_is_associative", *genComposableChain(3, true)));
}

RC_GTEST_PROP(Wide, ApplyOfComposeIsApplyAfterApply, ()) {
  RC_ASSERT(holds("apply_of_compose", *genComposableChain(2, true)));
}

RC_GTEST_PROP(Wide, InverseComposesToIdentity, ()) {
  RC_ASSERT(holds("inverse_composes_to_identity", one(*genWideLayout(RankKind::kInvertible))));
}

RC_GTEST_PROP(Wide, PseudoinverseIsRightInverse, ()) {
  RC_ASSERT(holds("pseudoinverse_is_right_inverse", one(*genWideLayout(RankKind::kSurjective))));
}

// outer is surjective onto a's out dims, so it reaches a's image.
RC_GTEST_PROP(Wide, InvertAndComposeSolves, ()) {
  LayoutValue a = *genWideLayout();
  RC_ASSERT(holds("invert_and_compose_solves", Case{{a, *genWideSurjectionOnto(dimsOf(a).outs)}}));
}

// No dim of the two sides that both have grows past 63 bits.
bool dimsFit(const std::vector<std::pair<std::string, int>>& a,
             const std::vector<std::pair<std::string, int>>& b) {
  for (const auto& [name, bits] : a)
    for (const auto& [other, more] : b)
      if (name == other && bits + more > 63) return false;
  return true;
}

// Factors whose bits add up to at most 64 a side and 63 in each dim.
rc::Gen<Case> genWideFactors() {
  auto pairs = rc::gen::mapcat(genWideLayout(), [](const LayoutValue& a) {
    return rc::gen::map(genWideLayout(RankKind::kAny, 64 - totalInBits(a), 64 - totalOutBits(a)),
                        [a](const LayoutValue& b) {
                          return Case{{a, b}};
                        });
  });
  return rc::gen::suchThat(pairs, [](const Case& c) {
    Dims a = dimsOf(c.layouts[0]), b = dimsOf(c.layouts[1]);
    return dimsFit(a.ins, b.ins) && dimsFit(a.outs, b.outs);
  });
}

RC_GTEST_PROP(Wide, ProductIsBlockDiagonal, ()) {
  RC_ASSERT(holds("product_is_block_diagonal", *genWideFactors()));
}

RC_GTEST_PROP(Wide, ProductAndDivideLeftRoundTrip, ()) {
  RC_ASSERT(holds("product_divide_left_round_trip", *genWideFactors()));
}

RC_GTEST_PROP(Wide, RankIsIndependent, ()) {
  RC_ASSERT(holds("rank_is_independent", one(*genWideLayout())));
}

// At most 63 bits a side: flattening 64 is refused (one dim of 63 at most).
RC_GTEST_PROP(Wide, ReshapeAndTransposeRoundTrip, ()) {
  RC_ASSERT(holds("reshape_and_transpose_round_trip", one(*genWideLayout(RankKind::kAny, 63, 63))));
}

RC_GTEST_PROP(Families, MemoryLayoutsAreInvertible, ()) {
  RC_ASSERT(holds("memory_is_invertible", one(*genMemory())));
}

RC_GTEST_PROP(Families, CatalogSharedLayoutsAreMemoryLayouts, ()) {
  RC_ASSERT(holds("memory_is_invertible", one(*genCatalogMemory())));
}

RC_GTEST_PROP(Families, CatalogDistributedLayoutsAreDef410, ()) {
  RC_ASSERT(holds("distributed_is_def_4_10", one(*genCatalogDistributed())));
}

// Tensor memory layouts (generators.h: genTensorMemory): the laws over any
// layout, and Def 4.10's shape (surjective, single-bit columns, none
// repeated); not the memory laws (no offset in dim, not invertible).
RC_GTEST_PROP(TensorMemory, ApplyIsLinear, ()) {
  RC_ASSERT(holds("apply_is_linear", one(*genTensorMemory())));
}

RC_GTEST_PROP(TensorMemory, ComposeHasIdentities, ()) {
  RC_ASSERT(holds("compose_has_identities", one(*genTensorMemory())));
}

RC_GTEST_PROP(TensorMemory, RankIsBruteForce, ()) {
  RC_ASSERT(holds("rank_is_brute_force", one(*genTensorMemory())));
}

RC_GTEST_PROP(TensorMemory, ReshapeAndTransposeRoundTrip, ()) {
  RC_ASSERT(holds("reshape_and_transpose_round_trip", one(*genTensorMemory())));
}

RC_GTEST_PROP(TensorMemory, PseudoinverseIsRightInverse, ()) {
  RC_ASSERT(holds("pseudoinverse_is_right_inverse", one(*genTensorMemory())));
}

RC_GTEST_PROP(TensorMemory, ApplyOfCompose, ()) {
  LayoutValue l = *genTensorMemory();
  RC_ASSERT(holds("apply_of_compose", Case{{l, *genLayoutFrom(dimsOf(l).outs)}}));
}

RC_GTEST_PROP(TensorMemory, ProductAndDivideLeftRoundTrip, ()) {
  RC_ASSERT(holds("product_divide_left_round_trip", Case{{*genTensorMemory(), *genLayout()}}));
}

RC_GTEST_PROP(TensorMemory, HasDef410Shape, ()) {
  RC_ASSERT(holds("distributed_is_def_4_10", one(*genTensorMemory())));
}

RC_GTEST_PROP(TensorMemory, RefEqualsOpt, ()) {
  LayoutValue l = *genTensorMemory();
  RC_ASSERT(holds("ref_equals_opt", Case{{l, *genLayoutFrom(dimsOf(l).outs)}}));
}

RC_GTEST_PROP(Implementations, RefEqualsOptOnArbitraryLayouts, ()) {
  RC_ASSERT(holds("ref_equals_opt", *genComposableChain(2)));
}

}  // namespace
}  // namespace f2lay::properties
