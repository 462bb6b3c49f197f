// f2_core.h compiled as device code: one kernel calls every core function,
// so that nvcc proves the core is __host__ __device__ clean (the CUDA device
// tests of device_tests/ reuse it). Compiled, not run: there is no GPU in CI.
#include "optimized/f2_core.h"

namespace core = f2lay::opt::core;

__global__ void useTheCore(const uint64_t* cols, int n, const uint64_t* xs, uint64_t* out) {
  int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  uint64_t composed[64];
  core::compose(cols, n, cols, n, composed);
  uint64_t x[64];
  int bad = 0;
  bool solved = core::solve(cols, n, composed, n, x, &bad);
  out[i] = core::apply(composed, n, xs[i]) ^ static_cast<uint64_t>(core::rank(cols, n)) ^
           (solved ? x[0] : static_cast<uint64_t>(bad)) ^ core::lowMask(n) ^
           static_cast<uint64_t>(core::lowestBit(xs[i] | 1));
}
