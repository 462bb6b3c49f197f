// The catalog's conversion pairs: layout pairs (A, B) and an element width
// that compilers convert between, each built from the catalog by the
// oracle's requests (the families exist once, in reference/catalog). `f2lay
// verify` runs them through every analysis (pair_checks.h); device_tests/
// runs them on the GPU.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "oracle/op_table.h"
#include "reference/analysis/bank_conflicts.h"

namespace f2lay::oracle {

struct CatalogPair {
  std::string name;
  Layout a, b;
  uint64_t elementBytes;
  // How the pair's conversion stores (A) and loads (B) shared memory.
  analysis::Instruction write = analysis::Instruction::kVector;
  analysis::Instruction read = analysis::Instruction::kVector;
};

// Every pair, its layouts built. Throws f2lay::Error when a request fails.
std::vector<CatalogPair> catalogPairs();

}  // namespace f2lay::oracle
