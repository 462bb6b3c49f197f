// `f2lay show`: a layout printed for people.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "formats/json_format.h"
#include "reference/analysis/bank_conflicts.h"
#include "reference/linear_layout.h"

namespace f2lay::tools {

// The dims, the rank and its properties, the matrix with dim labels, and, for
// a layout over register/lane/warp/block with at most 2^12 elements and 2^20
// inputs, a grid of which (warp, thread, register) holds each tensor element.
void showLayout(const ref::LinearLayout& layout, std::ostream& out);

// `f2lay show --banks`: a bank_conflicts request (its "op" may be left out)
// drawn as a bank scope, for every instruction of warp `warp`: per lane the
// bank its access starts in and its 128-byte row of shared memory (word /
// 32), then per bank how many lanes touch it and how many distinct words they
// touch, and the instruction's wavefronts (the rule of
// device_tests/HARDWARE.md). For ldmatrix/stmatrix the "lanes" are the
// row-giving threads 8i + r. Throws f2lay::Error as the op does.
void showBanks(const Json& request, uint64_t warp, std::ostream& out);

// What showBanks draws, for the SVG bank scope too: the request's access
// ("load" or "store") and every instruction of warp `warp`.
struct BankScope {
  std::string access;
  analysis::Instruction instruction = analysis::Instruction::kVector;
  std::vector<ref::analysis::InstructionAccess> instructions;
};
BankScope bankScope(const Json& request, uint64_t warp);

// One lane's access (or one ldmatrix row's): where it starts and how many
// 4-byte words it covers.
struct BankHit {
  uint64_t address, words;
};
std::vector<BankHit> bankHits(const ref::analysis::InstructionAccess& in);

}  // namespace f2lay::tools
