// Properties of the §5 analyses on generated conversions (laws_analyses.cpp)
// and of the shape operations (laws_shape.cpp).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <set>

#include "properties/case.h"
#include "properties/generators.h"
#include "properties/law_support.h"
#include "properties/laws.h"

namespace f2lay::properties {
namespace {

// Only pairs with a plan: the others (across warps, or refused) would pass
// without checking anything.
RC_GTEST_PROP(Conversions, ShufflePlanDeliversEveryElement, ()) {
  Case c = *rc::gen::suchThat(genConversionPair(), shufflePlanApplies);
  RC_TAG(shuffleTag(c));
  RC_ASSERT(holds("shuffle_plan_delivers", c));
}

RC_GTEST_PROP(Conversions, SharedMemoryRoundTripDeliversEveryElement, ()) {
  Case c = *genConversionPair();
  RC_TAG(conversionTag(c));
  RC_ASSERT(holds("shared_round_trip_delivers", c));
}

RC_GTEST_PROP(Conversions, ClassificationAgreesWithPlanAndBruteForce, ()) {
  Case c = *genConversionPair();
  RC_TAG(classificationTag(c));
  RC_ASSERT(holds("classification_matches_plan", c));
}

RC_GTEST_PROP(Conversions, PaddedMemoryDeliversAndModelsAgree, ()) {
  Case c = *genPaddedConversion();
  RC_TAG(c.params.at("padding_amount").get<uint64_t>() >= 4 ? "padding >= 4" : "padding < 4");
  RC_ASSERT(holds("padded_memory_delivers", c));
}

RC_GTEST_PROP(Swizzle, ConflictFreeAsLemma95Bounds, ()) {
  Case c = *genConversionPair();
  RC_TAG(conversionTag(c));
  RC_ASSERT(holds("swizzle_meets_the_bound", c));
}

RC_GTEST_PROP(Swizzle, NoAlternativeDoesBetter, ()) {
  Case c = *genConversionPair();
  c.params["seed"] = *rc::gen::arbitrary<uint64_t>();
  RC_TAG(conversionTag(c));
  RC_ASSERT(holds("swizzle_is_optimal", c));
}

RC_GTEST_PROP(Swizzle, OptimumCostsWhatItPredictsAndNoMoreThanThePaper, ()) {
  Case c = *genConversionPair();
  // Every element width, 16 bytes too (the pair generator stops at 8).
  c.params["element_bytes"] = *rc::gen::element<uint64_t>(1, 2, 4, 8, 16);
  RC_TAG(conversionTag(c));
  RC_ASSERT(holds("optimum_is_predicted_and_bounded", c));
}

RC_GTEST_PROP(Swizzle, VectorizationIsMaximal, ()) {
  Case c = *genConversionPair();
  RC_TAG(conversionTag(c));
  RC_ASSERT(holds("vectorization_is_maximal", c));
}

RC_GTEST_PROP(Implementations, RefEqualsOptOnConversions, ()) {
  Case c = *genConversionPair();
  std::vector<int> tensorBits;  // a memory layout over the same tensor
  for (const OutDim& d : c.layouts[0].out_dims) tensorBits.push_back(log2Exact(d.size));
  c.layouts.push_back(*genMemory(tensorBits));
  RC_TAG(conversionTag(c));
  RC_ASSERT(holds("ref_equals_opt", c));
}

// Tagged with the ops a sequence applies (each once), so the mix shows
// how often each op's data movement is checked.
RC_GTEST_PROP(ShapeOps, DistributedLayoutsAreClosedAndTheOpIsANoOp, ()) {
  Case c = *genShapeOpSequence();
  std::set<std::string> ops;
  for (const Json& op : c.params["ops"]) ops.insert(op["op"].get<std::string>());
  for (const std::string& op : ops) RC_TAG(op);
  if (ops.empty()) RC_TAG("no op");
  RC_ASSERT(holds("shape_ops_closed_and_no_op", c));
}

RC_GTEST_PROP(ShapeOps, EveryDef410LayoutIsBlockedThenShapeOps, ()) {
  DistributedShape shape = *genDistributedShape(false);
  shape.blockBits = 0;
  Case c{{*genDistributed(shape)}};
  bool broadcasts = false;  // a zero column: a size-1 dim of the blocked layout
  for (uint64_t col : columnsOf(c.layouts[0])) broadcasts |= col == 0;
  RC_TAG(broadcasts ? "broadcasts" : "no broadcast", str(shape.warpBits) + " warp bits");
  RC_ASSERT(holds("def_4_10_is_blocked_trans_reshape", c));
}

}  // namespace
}  // namespace f2lay::properties
