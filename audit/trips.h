// How often each loop of a compiled kernel runs: each scf.for's bounds
// evaluated from the module's integer constants, the kernel's integer
// arguments where the caller gives them ("K" = 256: a launch's values), and the
// integer arith ops between them. A bound that rests on anything else (a
// program id, a loaded value, an argument not given) leaves the loop's count
// unknown, never guessed.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "formats/ttgir.h"

namespace f2lay::audit {

// The trip count of each scf.for (by its index in module.ops), or nullopt.
//   Requires: arguments named as the kernel's (without '%').
//   Throws: f2lay::Error naming an argument the kernel does not have.
std::map<size_t, std::optional<int64_t>> loopTrips(const TtgirModule& module,
                                                   const std::map<std::string, int64_t>& arguments);

}  // namespace f2lay::audit
