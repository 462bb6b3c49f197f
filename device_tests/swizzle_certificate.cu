// The swizzle certificate's leaves on the GPU (gpu_leaves.h): each thread
// costs leaves t, t + stride, ... by testkit/swizzle_leaves.h (device code),
// and the least (total, index) is reduced by warp shuffles and atomicMin.
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <stdexcept>

#include "device_tests/gpu_leaves.h"
#include "testkit/swizzle_leaves.h"

namespace f2lay::device {
namespace {

using testkit::LeafBest;
using testkit::LeafProblem;

// A problem's leaves: at most 2^36; the key packs a total below 2^26 over the
// index.
constexpr uint64_t kMaxLeaves = uint64_t{1} << 36;
constexpr int kIndexBits = 37;

// Each thread takes leaves t, t + stride, ...; the block's least (total,
// index) goes to *best.
__global__ void bestLeaf(const LeafProblem* problem, uint64_t count, unsigned long long* best) {
  const LeafProblem& p = *problem;
  unsigned long long mine = ULLONG_MAX;
  const uint64_t stride = uint64_t{gridDim.x} * blockDim.x;
  for (uint64_t t = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; t < count; t += stride) {
    unsigned long long key = testkit::leafTotal(p, t) << kIndexBits | t;
    mine = key < mine ? key : mine;
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    unsigned long long other = __shfl_down_sync(0xffffffffu, mine, offset);
    mine = other < mine ? other : mine;
  }
  if (threadIdx.x % 32 == 0) atomicMin(best, mine);
}

void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(err));
}

}  // namespace

GpuLeaves::GpuLeaves() {
  check(cudaMalloc(&problem_, sizeof(LeafProblem)), "cudaMalloc");
  check(cudaMalloc(&best_, sizeof(unsigned long long)), "cudaMalloc");
}

GpuLeaves::~GpuLeaves() {
  cudaFree(problem_);
  cudaFree(best_);
}

std::optional<LeafBest> GpuLeaves::operator()(const LeafProblem& p) {
  const uint64_t count = testkit::leafCount(p);
  uint64_t largest = 0;  // the largest total any leaf could have
  for (int x = 0; x < p.sides; ++x) largest += p.side[x].phases << p.rows;
  if (count > kMaxLeaves || largest >> (63 - kIndexBits) != 0) return std::nullopt;
  unsigned long long none = ULLONG_MAX;
  check(cudaMemcpy(problem_, &p, sizeof p, cudaMemcpyHostToDevice), "cudaMemcpy");
  check(cudaMemcpy(best_, &none, sizeof none, cudaMemcpyHostToDevice), "cudaMemcpy");
  const uint64_t blocks = std::min<uint64_t>((count + 255) / 256, 132 * 16);
  bestLeaf<<<static_cast<unsigned>(blocks), 256>>>(problem_, count, best_);
  check(cudaGetLastError(), "bestLeaf");
  unsigned long long best = 0;
  check(cudaMemcpy(&best, best_, sizeof best, cudaMemcpyDeviceToHost), "cudaMemcpy");
  leaves += count;
  return LeafBest{best >> kIndexBits, best & ((uint64_t{1} << kIndexBits) - 1)};
}

}  // namespace f2lay::device
