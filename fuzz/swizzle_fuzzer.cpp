// libFuzzer target: the optimal swizzle (§5.4, Lemma 9.5). The input's
// bytes choose a conversion pair (A, B) and an element width through the
// properties' generator; then the swizzle's laws are checked against the
// bank-conflict simulator, which shares no code with the construction: both
// accesses meet the bound where Lemma 9.4 is exact, no other Idx subspace
// needs fewer wavefronts, Vec is the widest both sides allow. ref and opt
// must give the same swizzle and the same wavefront counts.
#include "fuzz/fuzz_support.h"
#include "properties/generators.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace f2lay;
  FuzzedDataProvider in(data, size);
  fuzz::FuzzChoices choices(in);
  properties::Case c = properties::makeConversionPair(choices);
  c.params["seed"] = in.ConsumeIntegral<uint32_t>();  // which Idx subspaces to try
  fuzz::checkLaws("swizzle",
                  {"swizzle_meets_the_bound", "swizzle_is_optimal", "vectorization_is_maximal"}, c);
  Json a = layoutToJson(c.layouts[0]), b = layoutToJson(c.layouts[1]);
  uint64_t w = c.params["element_bytes"];
  fuzz::checkRefEqualsOpt(
      "swizzle", {{"op", "optimal_swizzle"}, {"self", a}, {"other", b}, {"element_bytes", w}});
  return 0;
}
