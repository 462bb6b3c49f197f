// The inputs at which a check compares a layout with the test side's
// evaluator (evaluate.h): all of them while they are few, else the ones
// that decide a linear map, the edges, and a replayable sample.
#pragma once

#include <cstdint>
#include <vector>

namespace f2lay::testkit {

// The inputs of `bits` bits to check at: every one up to 2^12; above, 0,
// every unit vector (the columns themselves: two linear maps that agree
// there agree everywhere), all ones, the top bits alone, and random ones
// drawn from `seed` (so that a failing case replays).
std::vector<uint64_t> inputsToCheck(int bits, uint64_t seed = 0);

}  // namespace f2lay::testkit
