// The wavefront rule (device_tests/HARDWARE.md#banks) on byte addresses: a
// phase costs the largest number of distinct 4-byte words in one bank
// (bank = word mod 32; equal words are one, a broadcast).
//
// Accesses of at least 4 bytes are aligned to their width here, so one of
// `bytes` covers bytes/4 consecutive words of one 128-byte row, at the slot
// (address / bytes) mod (128 / bytes): two accesses' words share banks
// exactly when their slots are equal, and are distinct words when their
// units (address / bytes) differ. So the cost is the largest number of
// distinct units in one slot.
//
// Narrower accesses, aligned to their width, touch the one word they are in.
#include <algorithm>

#include "optimized/analysis/bank_detail.h"

namespace f2lay::opt::analysis::bank_detail {

namespace {

uint64_t phaseCost(const uint64_t* addresses, size_t count, uint64_t bytes) {
  uint64_t keys[64];  // distinct units (wide) or words (narrow)
  uint64_t perBank[32] = {};
  size_t found = 0;
  uint64_t worst = 0;
  auto add = [&](uint64_t key, uint64_t bank) {
    if (std::find(keys, keys + found, key) != keys + found) return;
    keys[found++] = key;
    worst = std::max(worst, ++perBank[bank]);
  };
  if (bytes >= 4) {
    const uint64_t slots = 128 / bytes;
    for (size_t i = 0; i < count; ++i) {
      uint64_t unit = addresses[i] / bytes;
      add(unit, unit % slots);
    }
  } else {
    for (size_t i = 0; i < count; ++i) {
      uint64_t word = addresses[i] / 4;
      add(word, word % 32);
    }
  }
  return worst;
}

// Lanes [begin, end) in lane order, leaving out a load's merged lanes: those
// repeating the address of lane l^1 or l^2 below them (the quad neighbours the
// H100 merges; never l^3, finding W1); returns how many are kept.
size_t quadMerged(const uint64_t* lanes, size_t begin, size_t end, uint64_t* out) {
  size_t kept = 0;
  for (size_t l = begin; l < end; ++l) {
    bool pairMerge = (l & 1) && lanes[l - 1] == lanes[l];
    bool halfQuadMerge = (l & 2) && lanes[l - 2] == lanes[l];
    if (!pairMerge && !halfQuadMerge) out[kept++] = lanes[l];
  }
  return kept;
}

}  // namespace

// `count` accesses cut into phases of `size`, in order.
void addPhases(const uint64_t* addresses, size_t count, size_t size, uint64_t bytes, Cost& cost) {
  for (size_t start = 0; start < count; start += size) {
    cost.wavefronts += phaseCost(addresses + start, std::min(size, count - start), bytes);
    ++cost.phases;
  }
}

// One ld/st.shared of `bytes` per lane; lanes[l] is lane l's byte address.
Cost vectorCost(AccessKind kind, uint64_t bytes, const uint64_t (&lanes)[32]) {
  Cost cost;
  if (bytes <= 4) {  // the whole warp, one phase
    addPhases(lanes, 32, 32, bytes, cost);
  } else if (kind == AccessKind::kStore) {  // fixed phases of 16 / 8 lanes
    addPhases(lanes, 32, 128 / bytes, bytes, cost);
  } else if (bytes == 8) {  // the warp, quads merged, phases of 16
    uint64_t kept[32];
    addPhases(kept, quadMerged(lanes, 0, 32, kept), 16, bytes, cost);
  } else {  // 16 bytes: each half-warp, quads merged, phases of 8
    for (size_t half = 0; half < 32; half += 16) {
      uint64_t kept[16];
      addPhases(kept, quadMerged(lanes, half, half + 16, kept), 8, bytes, cost);
    }
  }
  return cost;
}

}  // namespace f2lay::opt::analysis::bank_detail
