// The exhaustive check of injectivity and surjectivity (issue 8, §1): every
// input of a layout of at most 32 input and 32 output bits is applied on the
// GPU and its image marked in a bitmap of 2^outBits bits. An input whose
// image is already marked is a repeat: the layout is injective when there is
// none, and surjective when the distinct images, 2^inBits - repeats, are
// 2^outBits. The walk's basis is found with f2lay::opt's elimination, but
// each basis vector's image is recomputed by apply and checked, and the
// answer is counted over the images, not taken from a rank.
#pragma once

#include <cstdint>

#include "f2_core.h"

namespace f2lay::device {

// The order in which the kernel walks the inputs: a basis of the input
// space whose first vectors map to output bits 0, 1, 2, ... for as long as
// those are in the image, then unit inputs that complete it. A thread takes
// the 2^lowBits inputs that differ in the first lowBits (at most 6) basis
// vectors: by linearity their images are one value with its lowBits low bits
// running through every pattern, so they fill a run of bits of one 64-bit
// bitmap word, marked by a single atomicOr (64-bit words: half the atomics
// of 32-bit ones, and the atomics are what bound the kernel). Neighbouring threads take neighbouring
// combinations of the next vectors, which map to output bits 6, 7, ...:
// neighbouring words. Every input is still visited exactly once (a change
// of basis is a bijection), so the check stays exhaustive.
struct Walk {
  int lowBits = 0;
  uint64_t images[64] = {};  // L of each basis vector, in walk order
};

inline Walk walkOrder(const uint64_t* cols, int inBits, int outBits) {
  Walk w;
  opt::core::Echelon image = opt::core::echelon(cols, inBits), chosen;
  int count = 0;
  bool consecutive = true;
  for (int i = 0; i < outBits; ++i) {
    uint64_t input;
    bool inImage = image.reduce(uint64_t{1} << i, &input) == 0;
    consecutive &= inImage;
    if (!inImage) continue;
    // Recomputed, not assumed: only an image that is exactly bit i may
    // stand for the low bits a thread fills.
    uint64_t y = opt::core::apply(cols, inBits, input);
    bool added = chosen.insert(input, count);
    consecutive &= added && y == uint64_t{1} << i;
    if (!added) continue;
    w.images[count++] = y;
    if (consecutive && w.lowBits < 6) ++w.lowBits;
  }
  for (int j = 0; j < inBits && count < inBits; ++j)
    if (chosen.insert(uint64_t{1} << j, count)) w.images[count++] = cols[j];
  return w;
}

// Thread t marks the images of its coset: base(t) = the combination of basis
// vectors lowBits, lowBits + 1, ... given by the bits of t.
__global__ void markImage(const uint64_t* images, int lowBits, int inBits, unsigned long long* bitmap,
                          unsigned long long* repeats) {
  uint64_t cosets = uint64_t{1} << (inBits - lowBits);
  unsigned long long run = lowBits == 6 ? ~0ull : (1ull << (1u << lowBits)) - 1;
  unsigned long long found = 0;
  for (uint64_t t = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; t < cosets;
       t += uint64_t{gridDim.x} * blockDim.x) {
    uint64_t y = opt::core::apply(images + lowBits, inBits - lowBits, t);
    unsigned long long mask = run << (y & 63 & ~((1u << lowBits) - 1));
    found += __popcll(atomicOr(&bitmap[y >> 6], mask) & mask);
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
  Walk walk = walkOrder(cols, inBits, outBits);
  uint64_t *dCols = nullptr;
  unsigned long long* bitmap = nullptr;
  unsigned long long* dRepeats = nullptr;
  size_t words = outBits <= 6 ? 1 : size_t{1} << (outBits - 6);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  if (cudaMalloc(&dCols, 64 * 8) == cudaSuccess && cudaMalloc(&bitmap, words * 8) == cudaSuccess &&
      cudaMalloc(&dRepeats, 8) == cudaSuccess &&
      cudaMemcpy(dCols, walk.images, 64 * 8, cudaMemcpyHostToDevice) == cudaSuccess &&
      cudaMemset(bitmap, 0, words * 8) == cudaSuccess && cudaMemset(dRepeats, 0, 8) == cudaSuccess) {
    cudaEventRecord(start);
    markImage<<<4096, 256>>>(dCols, walk.lowBits, inBits, bitmap, dRepeats);
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
