// Whether a GPU is there, for the device tests (gpu.h) and the device
// programs alike; a header without GoogleTest or CUDA.
#pragma once

#include <string>

namespace f2lay::device {

// "" when a CUDA device can run kernels, else why not (gpu.cu).
std::string noGpu();

}  // namespace f2lay::device
