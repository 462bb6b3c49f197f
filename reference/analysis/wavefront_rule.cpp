#include "reference/analysis/wavefront_rule.h"

#include <algorithm>
#include <string>

#include "formats/error.h"

namespace f2lay::ref::analysis {

namespace {

constexpr uint64_t kBanks = 32, kBankBytes = 4;

// One access of a phase: `bytes` from `address`.
struct Span {
  uint64_t address, bytes;
};

// device_tests/HARDWARE.md#banks: a phase costs the largest number of
// distinct 4-byte words in one bank; equal words are one (broadcast). An
// access narrower than a word touches one word; a wider one touches bytes/4
// consecutive words.
uint64_t phaseCost(const std::vector<Span>& phase) {
  std::vector<uint64_t> words;  // distinct, at most 32 lanes x 4 words
  for (const Span& s : phase) {
    uint64_t first = s.address / kBankBytes;
    // Accesses are aligned to their width, so a narrow one stays in its word.
    uint64_t last = (s.address + s.bytes - 1) / kBankBytes;
    for (uint64_t w = first; w <= last; ++w)
      if (std::find(words.begin(), words.end(), w) == words.end()) words.push_back(w);
  }
  uint64_t perBank[kBanks] = {};
  uint64_t worst = 0;
  for (uint64_t w : words) worst = std::max(worst, ++perBank[w % kBanks]);
  return worst;
}

// Adds the cost of `accesses` cut into phases of `size` in order.
void addPhases(const std::vector<Span>& accesses, size_t size, WavefrontCount& count) {
  for (size_t start = 0; start < accesses.size(); start += size) {
    size_t end = std::min(accesses.size(), start + size);
    std::vector<Span> phase(accesses.begin() + static_cast<long>(start),
                            accesses.begin() + static_cast<long>(end));
    count.wavefronts += phaseCost(phase);
    ++count.phases;
  }
}

// Loads of 8 and 16 bytes: a lane is served with an earlier lane of its quad
// that reads the same address, but only with its quad neighbours l^1 and l^2,
// never with l^3 (the lent machine's notes said "lanes of one quad ... are
// served once"; the H100 does not merge lanes 4q+1 and 4q+2 or 4q and 4q+3:
// finding W1, device_tests/HARDWARE.md#quad-merge). Lanes [begin, end), in
// lane order, those not merged kept.
std::vector<Span> quadDeduplicated(const std::vector<LaneAccess>& lanes, size_t begin, size_t end,
                                   uint64_t bytes) {
  std::vector<Span> out;
  for (size_t l = begin; l < end && l < lanes.size(); ++l) {
    if (!lanes[l].active) continue;
    bool merged = false;
    for (size_t k : {l ^ 1, l ^ 2})
      merged = merged || (k < l && lanes[k].active && lanes[k].address == lanes[l].address);
    if (!merged) out.push_back({lanes[l].address, bytes});
  }
  return out;
}

// The active lanes of [begin, end) as accesses.
std::vector<Span> activeSpans(const std::vector<LaneAccess>& lanes, size_t begin, size_t end,
                              uint64_t bytes) {
  std::vector<Span> out;
  for (size_t l = begin; l < end && l < lanes.size(); ++l)
    if (lanes[l].active) out.push_back({lanes[l].address, bytes});
  return out;
}

}  // namespace

WavefrontCount vectorWavefronts(AccessKind kind, uint64_t bytes,
                                const std::vector<LaneAccess>& lanes) {
  if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8 && bytes != 16)
    throw Error("wavefront rule: an access of " + std::to_string(bytes) +
                " bytes per lane; ld/st.shared moves 1, 2, 4, 8 or 16");
  if (lanes.size() > 32)
    throw Error("wavefront rule: " + std::to_string(lanes.size()) + " lanes; a warp has 32");
  for (size_t l = 0; l < lanes.size(); ++l)
    if (lanes[l].active && lanes[l].address % bytes != 0)
      throw Error("wavefront rule: lane " + std::to_string(l) + " accesses address " +
                  std::to_string(lanes[l].address) + ", not aligned to " + std::to_string(bytes) +
                  " bytes");
  WavefrontCount count;
  if (bytes <= 4) {  // one phase for the whole warp
    addPhases(activeSpans(lanes, 0, 32, bytes), 32, count);
  } else if (kind == AccessKind::kStore) {  // fixed phases of 16 / 8 lanes
    size_t phaseLanes = 128 / bytes;
    for (size_t begin = 0; begin < 32; begin += phaseLanes)
      addPhases(activeSpans(lanes, begin, begin + phaseLanes, bytes), phaseLanes, count);
  } else if (bytes == 8) {  // the warp, quads merged, in phases of 16
    addPhases(quadDeduplicated(lanes, 0, 32, bytes), 16, count);
  } else {  // 16 bytes: each half-warp, quads merged, in phases of 8
    for (size_t begin = 0; begin < 32; begin += 16)
      addPhases(quadDeduplicated(lanes, begin, begin + 16, bytes), 8, count);
  }
  return count;
}

WavefrontCount matrixWavefronts(const std::vector<MatrixRows>& matrices) {
  if (matrices.empty() || matrices.size() > 4)
    throw Error("wavefront rule: ldmatrix/stmatrix moves 1, 2 or 4 matrices, not " +
                std::to_string(matrices.size()));
  WavefrontCount count;
  for (size_t i = 0; i < matrices.size(); ++i) {
    std::vector<Span> rows;
    for (size_t r = 0; r < 8; ++r) {
      if (matrices[i][r] % 16 != 0)
        throw Error("wavefront rule: row " + std::to_string(r) + " of matrix " + std::to_string(i) +
                    " starts at address " + std::to_string(matrices[i][r]) +
                    ", not aligned to 16 bytes");
      rows.push_back({matrices[i][r], 16});
    }
    addPhases(rows, 8, count);  // one phase per matrix
  }
  return count;
}

}  // namespace f2lay::ref::analysis
