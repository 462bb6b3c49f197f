// An independent judge of swizzle optimality: the fewest shared-memory wavefronts that any memory
// layout gives a layout conversion, found by an exhaustive branch-and-bound search over memory
// layouts. It links the formats only and shares no code with analysis/, reference/ or
// optimized/, so that it can check their optimal swizzle.
//
// The setting (device_tests/HARDWARE.md; the access is analysis/bank_access.h's contract). A
// distributed layout D maps register, lane (exactly 32), warp (and a block of size 1) to a tensor
// flattened into F2^d (columns.h). A memory layout S maps offset bit i to the tensor vector
// offsetBits[i] and is invertible; element x lives at byte address S^-1(x) * elementBytes. A
// side is (D, store or load, instruction); a conversion stores through side a and loads through
// side b on one S.
//
// Each side chooses its own access on S, as a compiler would: a vector side the vector width
// with the fewest wavefronts, ties to fewer instructions (any width the layout allows on S, from
// one element up to 16 bytes); a matrix side ldmatrix/stmatrix (.trans), which S must allow. The
// answer is the least total wavefronts over every S and, among the S that reach it, the fewest
// total instructions.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "formats/layout_value.h"
#include "testkit/swizzle_leaves.h"

namespace f2lay::testkit {

// ld/st.shared of a vector per lane; ldmatrix/stmatrix (b16 only); their .trans.
enum class SearchInstruction { kVector, kMatrix, kMatrixTrans };

struct SearchSide {
  const LayoutValue* layout;  // register, lane (5 bits), warp and optionally block (size 1)
  bool store;
  SearchInstruction instruction;
};

struct SearchAnswer {
  uint64_t total = 0;         // min over S of (side a's wavefronts + side b's)
  uint64_t instructions = 0;  // among the S that reach `total`: the fewest total instructions
  // Side a in the store fields and side b in the load fields (searchSideMinimum: its one side,
  // in the fields of its kind), on the witness. Vector bytes are 16 for a matrix side.
  uint64_t storeWavefronts = 0, loadWavefronts = 0, storeVectorBytes = 0, loadVectorBytes = 0;
  std::vector<uint64_t> offsetBits;  // a witness S: the flat tensor vector of offset bit i
  uint64_t visited = 0;              // search nodes (configurations and subspaces) examined
  uint64_t leaves = 0;               // leaves handed to a LeafSolver
};

// The minimum over every memory layout of the tensor, exhaustively; nullopt when the search
// would visit more than `budget` nodes (or, for layouts that leave much of the tensor uncovered,
// more than 2^40 complements of one prefix). Both layouts must map to the same out dims (at most 24
// tensor bits). Throws std::invalid_argument on a malformed input, and when no memory layout
// allows a matrix side's instruction. The witness is costed again by sideCost (brute force) before
// it is returned; a disagreement throws std::logic_error.
std::optional<SearchAnswer> searchSwizzleMinimum(const SearchSide& a, const SearchSide& b,
                                                 uint64_t elementBytes, uint64_t budget);

// One side alone: its minimum over every memory layout (the per-side lower bound).
std::optional<SearchAnswer> searchSideMinimum(const SearchSide& s, uint64_t elementBytes,
                                              uint64_t budget);

// The same searches with the innermost level (U' and R, once P and C_K are fixed) handed whole to
// a solver that tries every leaf (swizzle_leaves.h) instead of branching and cutting: only the
// cheap outer bounds (a mode pair's, a prefix's) still cut. The budget counts the outer nodes.
// A solver answers the least total of a problem's leaves and the least index reaching it, or
// nullopt when it declines the problem (too many leaves): the search then answers nullopt.
struct LeafBest {
  uint64_t total = 0, index = 0;
};
using LeafSolver = std::function<std::optional<LeafBest>(const LeafProblem&)>;
std::optional<SearchAnswer> searchSwizzleMinimum(const SearchSide& a, const SearchSide& b,
                                                 uint64_t elementBytes, uint64_t budget,
                                                 const LeafSolver& leaves);
std::optional<SearchAnswer> searchSideMinimum(const SearchSide& s, uint64_t elementBytes,
                                              uint64_t budget, const LeafSolver& leaves);

// Leaf t's memory layout (offset bit i -> the tensor vector), the witness the search records.
std::vector<uint64_t> leafMemoryLayout(const LeafProblem& p, uint64_t t);

// The host's solver: every leaf in turn, declining problems of more than maxLeaves leaves.
LeafSolver hostLeafSolver(uint64_t maxLeaves);

// The cost of one side on one memory layout with a given vector width in bytes (0: the widest the
// layout allows on S; ignored for matrix sides), by brute force over every lane's addresses and
// the phase rules: (wavefronts, instructions), nullopt if that width or instruction is not
// possible on S.
std::optional<std::pair<uint64_t, uint64_t>> sideCost(const SearchSide& s,
                                                      const std::vector<uint64_t>& offsetBits,
                                                      uint64_t elementBytes, uint64_t vectorBytes);

// A side's own choice on S, by sideCost: the width (or the matrix instruction) with the fewest
// wavefronts, ties to fewer instructions; nullopt if S allows no access (a matrix side only).
struct SideChoice {
  uint64_t wavefronts = 0, instructions = 0, vectorBytes = 0;
};
std::optional<SideChoice> sideChoice(const SearchSide& s, const std::vector<uint64_t>& offsetBits,
                                     uint64_t elementBytes);

// The closed form the search optimizes (the rank formula proved in swizzle_search.cpp), with
// sideCost's signature and answers, so that tests can hold it against the brute force.
std::optional<std::pair<uint64_t, uint64_t>> sideCostByRank(const SearchSide& s,
                                                            const std::vector<uint64_t>& offsetBits,
                                                            uint64_t elementBytes,
                                                            uint64_t vectorBytes);

}  // namespace f2lay::testkit
