// The cases of the bank-conflict probe (bank_probe.cu; bank conflicts on
// hardware in device_tests/README.md): each a distributed layout's stores or
// loads on a memory layout, as the warp instructions the simulator
// enumerates, with f2lay's prediction. Cases: the 16x32 fp32 one-warp
// transpose (HARDWARE.md#seed-transpose) on its three maps, random conversion
// pairs from the properties' generator on their optimal swizzle and on a
// random memory layout (Def 4.14, properties' genMemory), and the catalog
// pairs on the optimal, the classic XOR and the unswizzled layout; and every
// `bank_conflicts` golden case of oracle/cases (the measured cases of
// device_tests/HARDWARE.md), with the wavefronts the file states; and random
// padded memory layouts (Gluon 3.9's PaddedSharedLayout) at their padded byte
// addresses.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "device_tests/conversion_batch.h"
#include "testkit/random_tensor_layouts.h"

namespace f2lay::device {

struct Probe {
  std::string name;
  analysis::AccessKind kind;
  uint64_t elementBytes;
  SharedSide side;
  // For a golden case (oracle/cases/*.jsonl): the wavefronts the file states.
  std::optional<uint64_t> golden;
};

// Cases a construction refuses are left out, named on stderr. paddedCases
// random padded layouts (padded_shared), each stored and loaded.
std::vector<Probe> bankProbes(int randomPairs, int paddedCases = 120);

// A catalog pair's conversion through shared memory on one memory layout:
// "optimum" (f2lay's swizzle optimum, swizzle_optimum.h, each side at its
// width), "paper construction" (§5.4, at Vec's width), "classic XOR swizzle"
// (16-byte chunks of a row xored with the row index mod 8, as CUTLASS's
// Swizzle<3,4,3>; Def 4.11 with vec = 16 bytes, rows of at least 128 bytes)
// or "unswizzled" (row-major), the last two at the widest vector the layouts
// allow there. With `matrices`, each side uses the pair's ldmatrix /
// stmatrix where it names one (and vectors where the memory layout cannot
// take it); without, vectors only.
struct CatalogConversion {
  std::string pair, memory;
  uint64_t elementBytes;
  SharedSide store, load;
};
std::vector<CatalogConversion> catalogConversions(bool matrices);

// One pair through each memory layout above (the classic XOR and unswizzled
// ones where given, not null); `error` says why a choice could not be built.
struct SwizzleChoice {
  std::string memory;
  SharedSide store, load;
  std::string error;
};
std::vector<SwizzleChoice> swizzleChoices(const ref::LinearLayout& a, const ref::LinearLayout& b,
                                          uint64_t elementBytes, analysis::Instruction write,
                                          analysis::Instruction read,
                                          const ref::LinearLayout* classicXor,
                                          const ref::LinearLayout* unswizzled);

// Random pairs of one element width (testkit/random_tensor_layouts.h): 6 to
// 10 tensor bits, 1 to 4 warps, some broadcast lanes and registers.
struct WidthPair {
  std::string name;
  LayoutValue a, b;
  uint64_t elementBytes;
  testkit::TensorShape shape;
};
std::vector<WidthPair> randomWidthPairs(uint64_t elementBytes, int count, uint64_t seed);

// randomWidthPairs through the optimum, the paper's construction and, where
// the pair's shape takes one (rows of at least 16 bytes, the row index mod 8
// in at most 8 rows of 128 bytes), the classic XOR swizzle; vectors only.
std::vector<CatalogConversion> randomWidthConversions(uint64_t elementBytes, int count,
                                                      uint64_t seed);

// The optimum's certificate on the GPU: `pairsPerWidth` random
// pairs of each element width (1, 2, 4, 8, 16 bytes), each stored and loaded
// on the optimum (each side at its width) and on §5.4's construction; with
// onlyWidth, that element width alone (the same pairs).
std::vector<Probe> optimumProbes(int pairsPerWidth, uint64_t onlyWidth = 0);

// Given pairs, stored and loaded on the optimum and on §5.4's construction
// (as optimumProbes); and pairs read from JSON Lines, one
// {"name", "a", "b", "element_bytes"} a line (layouts in f2lay's JSON).
// Throws f2lay::Error naming the line that is wrong.
std::vector<Probe> pairProbes(const std::vector<WidthPair>& pairs);
std::vector<WidthPair> readPairs(const std::string& jsonLines);

}  // namespace f2lay::device
