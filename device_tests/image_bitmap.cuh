// The exhaustive check of injectivity and surjectivity (issue 8, §1): every
// input of a layout of at most 32 input and 32 output bits is applied on the
// GPU and its image marked in a bitmap of 2^outBits bits. An input whose
// image is already marked is a repeat: the layout is injective when there is
// none, and surjective when the distinct images, 2^inBits - repeats, are
// 2^outBits. Brute force, so independent of the rank arithmetic that
// f2lay::opt uses for isInjective and isSurjective.
#pragma once

#include <cstdint>

#include "f2_core.h"

namespace f2lay::device {

// Each thread walks 2^kChunkBits consecutive inputs in Gray-code order: one
// XOR of a column a step instead of a full apply.
inline constexpr int kChunkBits = 8;

__global__ void markImage(const uint64_t* cols, int inBits, uint32_t* bitmap,
                          unsigned long long* repeats) {
  int steps = inBits < kChunkBits ? inBits : kChunkBits;
  uint64_t base = (blockIdx.x * uint64_t{blockDim.x} + threadIdx.x) << steps;
  if (base >> inBits) return;
  uint64_t y = opt::core::apply(cols, inBits, base);
  unsigned long long found = 0;
  for (uint64_t i = 0; i < (uint64_t{1} << steps); ++i) {
    if (i) y ^= cols[opt::core::lowestBit(i)];  // gray(i) = gray(i-1) ^ (i & -i)
    uint32_t bit = 1u << (y & 31);
    if (atomicOr(&bitmap[y >> 5], bit) & bit) ++found;
  }
  if (found) atomicAdd(repeats, found);
}

struct ImageCount {
  bool ok = false;  // false: a CUDA call failed
  uint64_t repeats = 0;
  float ms = 0;  // the kernel alone
};

// Applies the layout with `cols` (inBits <= 32, outBits <= 32) to every input.
inline ImageCount countImage(const uint64_t* cols, int inBits, int outBits) {
  ImageCount r;
  uint64_t *dCols = nullptr;
  uint32_t* bitmap = nullptr;
  unsigned long long* dRepeats = nullptr;
  size_t words = outBits <= 5 ? 1 : size_t{1} << (outBits - 5);
  uint64_t threads = uint64_t{1} << (inBits > kChunkBits ? inBits - kChunkBits : 0);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  if (cudaMalloc(&dCols, 64 * 8) == cudaSuccess && cudaMalloc(&bitmap, words * 4) == cudaSuccess &&
      cudaMalloc(&dRepeats, 8) == cudaSuccess &&
      cudaMemcpy(dCols, cols, inBits * 8, cudaMemcpyHostToDevice) == cudaSuccess &&
      cudaMemset(bitmap, 0, words * 4) == cudaSuccess && cudaMemset(dRepeats, 0, 8) == cudaSuccess) {
    cudaEventRecord(start);
    markImage<<<(threads + 255) / 256, 256>>>(dCols, inBits, bitmap, dRepeats);
    cudaEventRecord(stop);
    unsigned long long repeats = 0;
    r.ok = cudaEventSynchronize(stop) == cudaSuccess && cudaGetLastError() == cudaSuccess &&
           cudaMemcpy(&repeats, dRepeats, 8, cudaMemcpyDeviceToHost) == cudaSuccess;
    r.repeats = repeats;
    cudaEventElapsedTime(&r.ms, start, stop);
  }
  cudaFree(dCols);
  cudaFree(bitmap);
  cudaFree(dRepeats);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return r;
}

}  // namespace f2lay::device
