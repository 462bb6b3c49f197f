// What a property checks, as data: a Case is the layouts and parameters a
// law is evaluated on. Generators build Cases; a law (laws.h) is a function
// of one; holds() evaluates a law and, when it fails, keeps the Case as JSON
// under properties/regressions/ so that a deterministic test
// (regressions_test.cpp) replays it for good.
//
// RapidCheck shrinks a failure by re-running the property on smaller inputs
// and keeping each one that still fails; holds() rewrites its file on every
// failure, so the file ends up holding the minimal counterexample.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "formats/json_format.h"
#include "formats/layout_value.h"

namespace f2lay::properties {

struct Case {
  std::vector<LayoutValue> layouts;
  Json params = Json::object();  // the law's other inputs (widths, op lists, ...)
};

Json caseToJson(const Case& c);
// Throws f2lay::Error naming what is wrong.
Case caseFromJson(const Json& json);

// Evaluates the law named `law` (laws.h) on c: "" when it holds, else why
// not. When it fails and `keep` is set, it writes {"law", "case", "reason"}
// to properties/regressions/<law>-<hash>.json (one file per law and run,
// rewritten while RapidCheck shrinks). An f2lay::Error thrown by the code
// under test is a failure too; an unknown law throws.
std::string check(const std::string& law, const Case& c, bool keep);

// check() inside a property: also logs the reason with RC_LOG, so that it is
// printed with the counterexample. Use as RC_ASSERT(holds(law, c)).
bool holds(const std::string& law, const Case& c);

// The folder holding the regression files (F2LAY_REGRESSIONS_DIR at build
// time, or the environment variable of the same name).
std::string regressionsDir();

}  // namespace f2lay::properties

namespace f2lay {
// How RapidCheck prints generated values in a counterexample.
void showValue(const LayoutValue& v, std::ostream& os);
}  // namespace f2lay
