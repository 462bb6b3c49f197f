// How often each loop of a compiled kernel runs: each scf.for's bounds
// evaluated from the module's integer constants, the kernel's integer
// arguments where the caller gives them ("K" = 256: a launch's values), and the
// integer arith ops between them, and the launch's grid and program id where
// given. A bound that rests on anything else (a loaded value, an argument or
// a program id not given) leaves the loop's count unknown, never guessed.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "formats/ttgir.h"

namespace f2lay::audit {

// The trip count of each scf.for (by its index in module.ops), or nullopt.
//   Requires: arguments named as the kernel's (without '%'); grid and
//     program empty or 1 to 3 values (x, y, z; the rest 1 and 0), each
//     program id below the grid's size where both are given.
//   Throws: f2lay::Error naming an argument the kernel does not have, or what
//     is wrong with the grid or the program id.
std::map<size_t, std::optional<int64_t>> loopTrips(const TtgirModule& module,
                                                   const std::map<std::string, int64_t>& arguments,
                                                   const std::vector<int64_t>& grid = {},
                                                   const std::vector<int64_t>& program = {});

}  // namespace f2lay::audit
