// Padded memory walked cell by cell, as Gluon's PaddedSharedLayout docstring
// describes it, not by the closed form of analysis/padding.h: after every
// `interval` elements stored, `padding` empty cells follow (each pair on its
// own). Shared by the catalog's and the bank model's padded tests.
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/padding.h"

namespace f2lay::ref::catalog {

// The cell of every linear offset 0..count-1.
inline std::vector<uint64_t> cellsByWalking(const analysis::Padding& pairs, uint64_t count) {
  std::vector<uint64_t> cell;
  uint64_t next = 0;
  for (uint64_t o = 0; o < count; ++o) {
    cell.push_back(next++);
    for (const auto& p : pairs)
      if ((o + 1) % p.interval == 0) next += p.padding;
  }
  return cell;
}

}  // namespace f2lay::ref::catalog
