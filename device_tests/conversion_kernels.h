// The conversions of conversion_batch.h on the GPU: one launch runs every
// case of a batch, one CTA a case (kMaxWarps warps; a case's other warps
// idle). The outputs are poisoned first; shared memory is poisoned by each
// CTA before its stores.
#pragma once

#include <string>
#include <vector>

#include "device_tests/conversion_batch.h"

namespace f2lay::device {

// Every case's outputs, as replayOnHost lays them out; empty with `error`
// set when a CUDA call fails.
std::vector<uint8_t> runOnGpu(const Batch& batch, Path path, std::string& error);

}  // namespace f2lay::device
