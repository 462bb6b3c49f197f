// The laws the properties check, by name. Each takes a Case (case.h) and
// answers "" when the law holds, else one sentence saying how it fails. The
// same functions serve the RapidCheck properties (*_props.cpp) and the replay
// of properties/regressions/, so a kept counterexample is checked by exactly
// the code that found it.
#pragma once

#include <functional>
#include <map>
#include <string>

#include "case.h"

namespace f2lay::properties {

using Law = std::function<std::string(const Case&)>;

// Every law, by name (the regression files name them).
const std::map<std::string, Law>& laws();

}  // namespace f2lay::properties
