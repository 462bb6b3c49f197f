// classifyConversion (paper §5.4) on packed layouts: the same contract,
// results and messages as reference/analysis/conversion.h, which says what
// each part means. Written against f2lay::opt only: per-bit verdicts read off
// packed columns, spans by core::Echelon.
#pragma once

#include <string>

#include "optimized/opt_linear_layout.h"

namespace f2lay::opt::analysis {

enum class ConversionKind { kNoOp, kRegisterPermutation, kWarpShuffle, kSharedMemory };
std::string toString(ConversionKind kind);

struct Classification {
  ConversionKind kind;
  LinearLayout bInvA;  // A.invertAndCompose(B), the paper's B^-1 A
  LinearLayout pull;   // B.invertAndCompose(A)
  std::string reason;
  ConversionKind minimalKind;
};

Classification classifyConversion(const LinearLayout& a, const LinearLayout& b);

}  // namespace f2lay::opt::analysis
