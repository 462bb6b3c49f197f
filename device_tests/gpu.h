// What every device test needs: whether a GPU is there (else the test skips,
// saying why), and CUDA calls that fail the test with CUDA's message.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <string>

#include "device_tests/gpu_present.h"

namespace f2lay::device {

// In a test body: skip when there is no GPU.
#define F2LAY_REQUIRE_GPU()                                        \
  do {                                                             \
    std::string why = ::f2lay::device::noGpu();                    \
    if (!why.empty()) GTEST_SKIP() << "no GPU to run on: " << why; \
  } while (0)

// A CUDA call that must succeed.
#define F2LAY_CUDA(call)                                                     \
  do {                                                                       \
    cudaError_t err = (call);                                                \
    ASSERT_EQ(err, cudaSuccess) << #call << ": " << cudaGetErrorString(err); \
  } while (0)

}  // namespace f2lay::device
