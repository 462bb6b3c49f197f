// Properties of the algebra (Defs 4.1-4.5) and of the two families (Defs
// 4.10, 4.14), each one law of laws_algebra.cpp on generated layouts.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "case.h"
#include "generators.h"

namespace f2lay::properties {
namespace {

// a, then b over a's out dims, then c over b's.
rc::Gen<Case> genComposableChain(int length) {
  return rc::gen::exec([length] {
    Case c;
    c.layouts.push_back(*genLayout());
    while (static_cast<int>(c.layouts.size()) < length) {
      std::vector<std::pair<std::string, int>> ins;
      for (const OutDim& d : c.layouts.back().out_dims) ins.push_back({d.name, log2Exact(d.size)});
      c.layouts.push_back(*genLayoutFrom(ins));
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

RC_GTEST_PROP(Algebra, InjectiveLayoutsAreInjective, ()) {
  RC_ASSERT(holds("rank_is_brute_force", one(*genLayout(RankKind::kInjective))));
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

RC_GTEST_PROP(Implementations, RefEqualsOptOnArbitraryLayouts, ()) {
  RC_ASSERT(holds("ref_equals_opt", *genComposableChain(2)));
}

}  // namespace
}  // namespace f2lay::properties
