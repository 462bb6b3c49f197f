// Conversions between distributed layouts (paper §5.4): which hardware level
// the data must cross, and the warp-shuffle plan when it stays in a warp.
//
// Layouts map register, lane, warp (and optionally block) to the same tensor;
// both must be surjective (they hold the whole tensor).
//
// Two maps are reported:
//   * bInvA = A.invertAndCompose(B), the paper's B^-1 A: for each location of
//     A, a location of B that holds the same element, chosen under the
//     paper's two conditions (dims that A and B map alike map to themselves;
//     otherwise the minimum-norm solution, free bits zero).
//   * pull = B.invertAndCompose(A): for each location of B, the location of A
//     its element is read from. Every location of B has one, also where B
//     holds duplicates (zero bases), so the classification and the plans are
//     computed from it (as Triton's minimalCvtLayout does).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "f2_space.h"
#include "linear_layout.h"

namespace f2lay::ref::analysis {

enum class ConversionKind {
  kNoOp,                // every location of B reads the same location of A
  kRegisterPermutation, // every location reads from its own lane and warp
  kWarpShuffle,         // every location reads from its own warp
  kSharedMemory,        // data crosses warps (or CTAs)
};
std::string toString(ConversionKind kind);  // "no_op", "register_permutation", ...

struct Classification {
  ConversionKind kind;
  LinearLayout bInvA;
  LinearLayout pull;
  std::string reason;  // one sentence: which bit moves data across which level
};

// Throws f2lay::Error when the layouts are not over the same tensor, have
// other in dims, or are not surjective.
Classification classifyConversion(const LinearLayout& a, const LinearLayout& b);

// The warp-shuffle plan of §5.4 ("Intra-warp Data Exchange"), for element
// width elementBytes. Sets are flattened tensor vectors (f2_space.h):
//   V: a basis of A_Reg ∩ B_Reg, cut to at most 32 bits per shuffle;
//   I = A_Thr ∩ B_Thr; E = A_Thr \ I; F = B_Thr \ I; G = {e_i ^ f_i};
//   R: a basis completing V ∪ I ∪ G to the warp's space.
// Round i covers the coset R(i) ^ span(V ∪ I ∪ G): in it each lane sends one
// vector of A's registers and receives one vector of B's registers.
struct ShuffleStep {
  uint32_t lane;
  uint64_t sendRegister;  // A register (first of the vector) the lane offers
  uint32_t srcLane;       // the lane it reads from
  uint64_t recvRegister;  // B register (first of the vector) it fills
};
struct ShufflePlan {
  Vecs V, I, E, F, G, R;
  uint64_t vectorElements;  // 2^|V|
  std::vector<std::vector<ShuffleStep>> rounds;  // rounds[i][lane]
};

// Throws f2lay::Error with the reason when the conversion is not an
// intra-warp shuffle or the plan does not apply (e.g. broadcasting that the
// paper's construction cannot pair up).
ShufflePlan shufflePlan(const LinearLayout& a, const LinearLayout& b, uint64_t elementBytes);

}  // namespace f2lay::ref::analysis
