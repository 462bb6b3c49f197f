#include <cuda_runtime.h>

#include "device_tests/gpu_present.h"

namespace f2lay::device {

std::string noGpu() {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) return cudaGetErrorString(err);
  if (count == 0) return "CUDA sees no device";
  return "";
}

}  // namespace f2lay::device
