// The warp-shuffle plan of §5.4 ("Intra-warp Data Exchange") on packed
// layouts: the construction, results and messages of
// reference/analysis/conversion.h's shufflePlan, which explains the sets and
// the rounds.
#pragma once

#include <cstdint>
#include <vector>

#include "optimized/analysis/conversion.h"
#include "optimized/analysis/subspace.h"

namespace f2lay::opt::analysis {

struct ShuffleStep {
  uint32_t lane;
  uint64_t sendRegister;
  uint32_t srcLane;
  uint64_t recvRegister;
};
struct RegisterCopy {
  uint64_t dstRegister;
  uint64_t srcRegister;
};
struct ShufflePlan {
  ConversionKind kind;
  Vecs V, I, E, F, G, R;
  uint64_t vectorElements;
  std::vector<uint64_t> sendOffsets, recvOffsets;
  std::vector<std::vector<ShuffleStep>> rounds;
  std::vector<RegisterCopy> copies;
};

ShufflePlan shufflePlan(const LinearLayout& a, const LinearLayout& b, uint64_t elementBytes);

}  // namespace f2lay::opt::analysis
