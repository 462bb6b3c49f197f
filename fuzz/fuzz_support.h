// What the structure-aware targets share: choices read from the fuzzer's
// bytes for the generators of properties/ (choices.h), and checks that
// abort with a message, so that libFuzzer keeps the input as a crash.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>

#include "formats/error.h"
#include "formats/json_format.h"
#include "properties/case.h"
#include "properties/choices.h"
#include "properties/laws.h"
#include "testing/outcome.h"
#include "tools/oracle.h"

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

[[noreturn]] inline void fail(const char* target, const std::string& what) {
  std::fprintf(stderr, "%s_fuzzer: %s\n", target, what.c_str());
  std::abort();
}

// Each law of properties/laws.h, on c; the first that fails aborts, with
// the case as JSON (properties/regressions/ format) to replay it.
inline void checkLaws(const char* target, std::initializer_list<const char*> names,
                      const properties::Case& c) {
  for (const char* name : names) {
    std::string why = testing::outcome([&] { return properties::laws().at(name)(c); });
    if (!why.empty())
      fail(target,
           std::string(name) + ": " + why + "\n  case: " + properties::caseToJson(c).dump());
  }
}

// The oracle answers `request` with ref and opt (--check); a difference
// aborts.
inline void checkRefEqualsOpt(const char* target, const Json& request) {
  Json answer = tools::answer(request, tools::Impl::kCheck);
  if (answer.contains("check_failed"))
    fail(target, "ref and opt differ: " + answer.value("error", std::string()) +
                     "\n  request: " + request.dump());
}

}  // namespace f2lay::fuzz
