// Conversions between distributed layouts (paper §5.4): which hardware level
// the data must cross, and the warp-shuffle plan when it stays in a warp. For
// either implementation's layouts L (instantiated by reference/, optimized/).
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

#include "analysis/layout_api.h"
#include "analysis/space.h"
#include "formats/error.h"

namespace f2lay::analysis {

enum class ConversionKind {
  kNoOp,                 // every location of B reads the same location of A
  kRegisterPermutation,  // every location reads from its own lane and warp
  kWarpShuffle,          // every location reads from its own warp
  kSharedMemory,         // data crosses warps (or CTAs)
};
// "no_op", "register_permutation", "warp_shuffle", "shared_memory" (the
// oracle's spelling). Never throws.
[[nodiscard]] inline std::string toString(ConversionKind kind) {
  switch (kind) {
    case ConversionKind::kNoOp:
      return "no_op";
    case ConversionKind::kRegisterPermutation:
      return "register_permutation";
    case ConversionKind::kWarpShuffle:
      return "warp_shuffle";
    case ConversionKind::kSharedMemory:
      return "shared_memory";
  }
  return "unknown";
}

template <LayoutApi L>
struct Classification {
  ConversionKind kind;  // read from pull, as Triton's minimalCvtLayout does
  L bInvA;
  L pull;
  std::string reason;  // one sentence: which bit moves data across which level
  // The least movement any choice of sources allows: for each location of B,
  // the element is looked for in its own lane (then its own warp) among all
  // of A's locations, not only where pull reads it. pull's minimum-norm
  // choice sets free bits to zero, so where A broadcasts (a zero lane basis
  // that B uses for distinct data) pull reads lane t ^ 1 from lane t although
  // lane t ^ 1 holds the element too: then minimalKind < kind. It is never
  // more (pull's source is one of the choices).
  ConversionKind minimalKind;
};

// Classifies the conversion from A to B (§5.4; Triton's minimalCvtLayout).
//   Requires: a's and b's in dims are among register, lane, warp and block;
//     they have the same out dims (names, sizes, order) and the same numbers
//     of lanes, warps and blocks; both are surjective.
//   Throws f2lay::Error otherwise, naming the side and the rule:
//     "conversion: A has in dim 'x'; a distributed layout maps register,
//     lane, warp and block only", "conversion: A's out dims [...] differ from
//     B's [...]; ...", "conversion: A has n lanes and B m; a conversion keeps
//     the threads, warps and CTAs", "conversion: A is not surjective: ...".
//   Ensures: bInvA == a.invertAndCompose(b), pull == b.invertAndCompose(a)
//     (so a(pull(y)) == b(y) for every location y of B); kind is the
//     farthest level any bit of pull crosses and reason names the first bit
//     that crosses it; minimalKind <= kind.
template <LayoutApi L>
[[nodiscard]] Classification<L> classifyConversion(const L& a, const L& b);

// The warp-shuffle plan of §5.4 ("Intra-warp Data Exchange"), for element
// width elementBytes (1, 2, 4 or 8). Sets are flattened tensor vectors
// (space.h), inside the warp space span(A_Reg ∪ A_Thr):
//   V: A register vectors that are also B register vectors (one register bit
//      in each, so a vector of registers packs in the same order on both
//      sides), cut to 2^|V| * elementBytes <= 4 bytes; 8-byte elements give
//      V = {} and one 64-bit shuffle (device_tests/HARDWARE.md#warp-shuffle:
//      4- or 8-byte payloads);
//   I = a basis of span(A_Thr) ∩ span(B_Thr); E, F: the A_Thr (B_Thr) vectors
//      extending I, in lane order; G = {e_i ^ f_i};
//   R: extendBasis(V ∪ I ∪ G, A_Reg then B_Reg), so the choice is fixed.
// Round i covers the coset R(i) ^ span(V ∪ I ∪ G): in it each lane sends its
// one vector of A's registers there and receives its one vector of B's
// registers there. The plan is the same for every warp (and CTA): warp and
// block bases must be equal in A and B.
struct ShuffleStep {
  uint32_t lane;
  uint64_t sendRegister;  // A register (first of the vector) the lane offers
  uint32_t srcLane;       // the lane it reads from
  uint64_t recvRegister;  // B register (first of the vector) it fills
};
// After the rounds, B's duplicated registers (zero register bases) are filled
// from the register with those bits clear, in every lane.
struct RegisterCopy {
  uint64_t dstRegister;
  uint64_t srcRegister;
};
struct ShufflePlan {
  ConversionKind kind;  // of the classification the plan was made for
  Vecs V, I, E, F, G, R;
  uint64_t vectorElements;  // 2^|V|
  // Element k of a vector sits in register first ^ sendOffsets[k] in A and
  // first ^ recvOffsets[k] in B (k < vectorElements).
  std::vector<uint64_t> sendOffsets, recvOffsets;
  std::vector<std::vector<ShuffleStep>> rounds;  // rounds[i][lane]
  std::vector<RegisterCopy> copies;
};

// shufflePlan's refusal of a lane bit that one side broadcasts (a zero
// basis) and the other uses for distinct data: then |E| != |F| and the §5.4
// construction cannot pair them. Typed, so that a caller tells it from the
// other refusals without reading the message.
struct UnpairedBroadcast : Error {
  int laneBit;
  UnpairedBroadcast(int bit, const std::string& message) : Error(message), laneBit(bit) {}
};

// The plan for a conversion whose kind is no-op, register permutation or
// warp shuffle: for the first two, the same construction gives rounds in
// which every lane reads from itself (a backend emits register moves, or
// nothing), so one simulator checks all three.
//   Requires: classifyConversion's preconditions; elementBytes 1, 2, 4 or 8;
//     a kind other than shared memory; equal warp and block bases in A and
//     B; no nonzero basis that is a combination of others (only zero bases
//     broadcast); A and B broadcasting the same number of lane bits; at most
//     2^22 (register, lane) locations per warp and 2^16 rounds.
//   Throws f2lay::Error with the reason otherwise: classifyConversion's
//     errors; "shuffle plan: element_bytes n must be 1, 2, 4 or 8 ...";
//     "shuffle plan: the conversion needs shared memory, not shuffles:
//     <reason>"; "shuffle plan: warp bit i holds other data in A than in
//     B; ..."; "shuffle plan: <dim> bit i of A is a combination of other
//     bases without being zero; ..."; UnpairedBroadcast (above) for a lane
//     bit one side broadcasts; the limits' "... at most 2^22" / "... at most
//     2^16 are planned"; and a broken invariant of the construction, named.
//   Ensures: plan.kind is the classification's; vectorElements ==
//     2^|V| and each of sendOffsets, recvOffsets has that many entries;
//     2^|R| rounds of one step per lane (rounds[i][t].lane == t). Running the
//     rounds, then the copies, leaves every B register of every lane holding
//     the element B puts there (reference/analysis/warp_simulator.h checks
//     it).
template <LayoutApi L>
[[nodiscard]] ShufflePlan shufflePlan(const L& a, const L& b, uint64_t elementBytes);
// The same for c = classifyConversion(a, b), made already: a caller that
// has the classification (the properties' laws) does not classify twice.
//   Requires: c is classifyConversion(a, b) (not checked: another c gives a
//     wrong plan or a refusal); otherwise as above.
template <LayoutApi L>
[[nodiscard]] ShufflePlan shufflePlan(const L& a, const L& b, const Classification<L>& c,
                                      uint64_t elementBytes);

}  // namespace f2lay::analysis
