// libFuzzer target: layout conversions (§5.2, §5.3). The input's bytes
// choose a conversion pair (A, B) and an element width through the
// properties' generator; then the conversion is classified and planned, and
// each plan is executed on a simulator that shares no code with it: the
// warp-shuffle plan on a virtual warp, the shared-memory round trip through
// the optimal swizzle. Every element must arrive where B wants it, and the
// classification must agree with its plan and never be cheaper than brute
// force says. ref and opt must classify and plan alike.
#include "fuzz/fuzz_support.h"
#include "properties/generators.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace f2lay;
  FuzzedDataProvider in(data, size);
  fuzz::FuzzChoices choices(in);
  properties::Case c = properties::makeConversionPair(choices);
  fuzz::checkLaws(
      "conversion",
      {"classification_matches_plan", "shuffle_plan_delivers", "shared_round_trip_delivers"}, c);
  Json a = layoutToJson(c.layouts[0]), b = layoutToJson(c.layouts[1]);
  uint64_t w = c.params["element_bytes"];
  fuzz::checkRefEqualsOpt("conversion", {{"op", "classify_conversion"}, {"self", a}, {"other", b}});
  fuzz::checkRefEqualsOpt(
      "conversion", {{"op", "shuffle_plan"}, {"self", a}, {"other", b}, {"element_bytes", w}});
  return 0;
}
