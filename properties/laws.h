// The laws the properties check, by name. Each takes a Case (case.h) and
// answers "" when the law holds, else one sentence saying how it fails. The
// same functions serve the RapidCheck properties (*_props.cpp), the fuzz
// targets of fuzz/ and the replay of properties/regressions/, so a kept
// counterexample is checked by exactly the code that found it.
#pragma once

#include <functional>
#include <map>
#include <string>

#include "properties/case.h"

namespace f2lay::properties {

using Law = std::function<std::string(const Case&)>;

// Every law, by name (the regression files name them).
const std::map<std::string, Law>& laws();

// What a conversion case exercises, for RC_TAG: its classification and
// whether the optimal swizzle's vectors cover a bank (where Lemma 9.4 is
// exact and the swizzle laws apply), e.g. "warp_shuffle, vec >= 4 bytes".
std::string conversionTag(const Case& c);
// The kind f2lay answers and, where the broadcast rule of properties/README.md
// raises it, the kind the data needs, e.g. "warp_shuffle (data:
// register_permutation)".
std::string classificationTag(const Case& c);
// Whether the shuffle laws have a plan to check: the data stays in a warp and
// the plan does not refuse a broadcast of one side (UnpairedBroadcast); and
// the plan's shape for RC_TAG, e.g. "warp_shuffle, 2 rounds of 4-byte
// vectors".
bool shufflePlanApplies(const Case& c);
std::string shuffleTag(const Case& c);

}  // namespace f2lay::properties
