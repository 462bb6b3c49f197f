// The swizzle certificate's leaves on the GPU (swizzle_certificate.cu): a
// testkit::LeafSolver that tries every leaf of a problem in a kernel. A header
// without CUDA or Eigen, so that the host program (swizzle_certificate.cpp)
// is plain C++.
#pragma once

#include <cstdint>
#include <optional>

#include "testkit/swizzle_search.h"

namespace f2lay::device {

class GpuLeaves {
 public:
  // Throws std::runtime_error with CUDA's message when the device cannot be used.
  GpuLeaves();
  ~GpuLeaves();
  GpuLeaves(const GpuLeaves&) = delete;
  GpuLeaves& operator=(const GpuLeaves&) = delete;
  // The least (total, index) over the problem's leaves; nullopt (declined)
  // beyond 2^36 leaves (about a minute on an H100) or totals of 2^26 or more.
  std::optional<testkit::LeafBest> operator()(const testkit::LeafProblem& p);
  uint64_t leaves = 0;  // tried so far

 private:
  testkit::LeafProblem* problem_ = nullptr;
  unsigned long long* best_ = nullptr;
};

}  // namespace f2lay::device
