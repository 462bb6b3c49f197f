// The exhaustive search's name (testkit/swizzle_search.h) for an instruction
// the swizzle optimum is asked for: the certificate's tests and the GPU's
// certificate (device_tests/swizzle_certificate.cpp) state each side alike.
#pragma once

#include "analysis/bank_access.h"
#include "testkit/swizzle_search.h"

namespace f2lay::ref::analysis {

inline testkit::SearchInstruction searchInstruction(f2lay::analysis::Instruction i) {
  using f2lay::analysis::Instruction;
  return i == Instruction::kVector   ? testkit::SearchInstruction::kVector
         : i == Instruction::kMatrix ? testkit::SearchInstruction::kMatrix
                                     : testkit::SearchInstruction::kMatrixTrans;
}

}  // namespace f2lay::ref::analysis
