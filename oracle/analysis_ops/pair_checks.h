// `f2lay verify` runs catalog layout pairs through every analysis and checks
// each answer against a simulator that shares no code with it (paper §5):
//   optimal_swizzle   the conversion through §5.4's construction is correct
//                     (store per A, load per B, every element where B says),
//                     and the simulated wavefronts are those the construction
//                     predicts (Lemma 9.4), on both sides; through the
//                     optimum, correct too, each side's simulated wavefronts
//                     are its prediction, and the total is at most the
//                     construction's;
//   bank_conflicts    the simulator and Lemma 9.4 agree wherever the lemma is
//                     exact, on the optimal and the unswizzled layout;
//   classify / shuffle  an intra-warp conversion's plan, run on a virtual
//                     warp, delivers every element, and it reads from other
//                     lanes exactly when the kind is warp_shuffle;
//   gather_plan       along every warp-local axis of either layout, the
//                     rounds run on a virtual warp give the gather's result;
//   vectorization     the vector found divides by its ld/st tile;
//   ref == opt        every algebra and analysis op asked of the pair gets
//                     the same answer from f2lay::ref and f2lay::opt.
// These are consistency checks between independent implementations, not
// golden values: the golden values are in oracle/cases.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "oracle/cases.h"
#include "reference/linear_layout.h"

namespace f2lay::oracle {

std::vector<CaseResult> runCatalogPairChecks();

// The gather_plan check above, which the conversion fuzzer makes too: along
// `axis`, where the gather stays in a warp (gatherLocality), gatherPlan's plan
// run by ref::analysis::simulateGather (seed axis + 1). Returns the first
// wrong location, or nullopt (right, or not warp-local). It sits here, not
// with the simulator, which links none of the constructions it judges.
//   Throws: gatherPlan's f2lay::Error (a planned table over 2^20 entries).
std::optional<std::string> gatherPlanFault(const ref::LinearLayout& l, size_t axis);

}  // namespace f2lay::oracle
