// What the targets built on properties/ share: choices read from the
// fuzzer's bytes for its generators (choices.h), its laws, and ref against
// opt, each failure aborting with a message (fail.h).
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <initializer_list>
#include <string>

#include "formats/error.h"
#include "fuzz/fail.h"
#include "optimized/tests/both.h"
#include "properties/case.h"
#include "properties/choices.h"
#include "properties/laws.h"
#include "testkit/outcome.h"

namespace f2lay::fuzz {

// The generators' choices, read from the input (a choice past its end is
// the low end of its range, as FuzzedDataProvider answers).
class FuzzChoices : public properties::Choices {
 public:
  explicit FuzzChoices(FuzzedDataProvider& in) : in_(in) {}
  int inRange(int lo, int hi) override { return in_.ConsumeIntegralInRange(lo, hi - 1); }

 private:
  FuzzedDataProvider& in_;
};

// Each law of properties/laws.h, on c; the first that fails aborts, with
// the case as JSON (properties/regressions/ format) to replay it.
inline void checkLaws(const char* target, std::initializer_list<const char*> names,
                      const properties::Case& c) {
  for (const char* name : names) {
    std::string why = testkit::outcome([&] { return properties::laws().at(name)(c); });
    if (!why.empty())
      fail(target,
           std::string(name) + ": " + why + "\n  case: " + properties::caseToJson(c).dump());
  }
}

// op.template operator()<L>() on ref, then on opt (optimized/tests/both.h): the
// answers (or the errors' words) must be equal. Called directly, not through
// the oracle's JSON, which cost the slow targets a tenth of each input.
template <class Op>
void checkBoth(const char* target, const char* what, const properties::Case& c, const Op& op) {
  if (!testkit::onBoth(op).same())
    fail(target, std::string("ref and opt differ on ") + what +
                     "\n  case: " + properties::caseToJson(c).dump());
}

}  // namespace f2lay::fuzz
