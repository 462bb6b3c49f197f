// Properties of the §5 analyses on generated conversions (laws_analyses.cpp)
// and of the shape operations (laws_shape.cpp).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "case.h"
#include "generators.h"
#include "laws.h"

namespace f2lay::properties {
namespace {

RC_GTEST_PROP(Conversions, ShufflePlanDeliversEveryElement, ()) {
  Case c = *genConversionPair();
  RC_TAG(conversionTag(c));
  RC_ASSERT(holds("shuffle_plan_delivers", c));
}

RC_GTEST_PROP(Conversions, SharedMemoryRoundTripDeliversEveryElement, ()) {
  RC_ASSERT(holds("shared_round_trip_delivers", *genConversionPair()));
}

RC_GTEST_PROP(Conversions, ClassificationAgreesWithPlanAndBruteForce, ()) {
  RC_ASSERT(holds("classification_matches_plan", *genConversionPair()));
}

RC_GTEST_PROP(Swizzle, ConflictFreeAsLemma95Bounds, ()) {
  Case c = *genConversionPair();
  RC_TAG(conversionTag(c));
  RC_ASSERT(holds("swizzle_meets_the_bound", c));
}

RC_GTEST_PROP(Swizzle, NoAlternativeDoesBetter, ()) {
  Case c = *genConversionPair();
  c.params["seed"] = *rc::gen::arbitrary<uint64_t>();
  RC_ASSERT(holds("swizzle_is_optimal", c));
}

RC_GTEST_PROP(Swizzle, VectorizationIsMaximal, ()) {
  RC_ASSERT(holds("vectorization_is_maximal", *genConversionPair()));
}

RC_GTEST_PROP(Implementations, RefEqualsOptOnConversions, ()) {
  Case c = *genConversionPair();
  std::vector<int> tensorBits;  // a memory layout over the same tensor
  for (const OutDim& d : c.layouts[0].out_dims) tensorBits.push_back(log2Exact(d.size));
  c.layouts.push_back(*genMemory(tensorBits));
  RC_ASSERT(holds("ref_equals_opt", c));
}

RC_GTEST_PROP(ShapeOps, DistributedLayoutsAreClosedAndTheOpIsANoOp, ()) {
  RC_ASSERT(holds("shape_ops_closed_and_no_op", *genShapeOpSequence()));
}

RC_GTEST_PROP(ShapeOps, EveryDef410LayoutIsBlockedThenShapeOps, ()) {
  DistributedShape shape = *genDistributedShape(false);
  shape.blockBits = 0;
  RC_ASSERT(holds("def_4_10_is_blocked_trans_reshape", Case{{*genDistributed(shape)}}));
}

}  // namespace
}  // namespace f2lay::properties
