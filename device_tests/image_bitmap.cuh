// The exhaustive check of injectivity and surjectivity (apply on the GPU,
// device_tests/README.md): every input of a layout of at most 32 input and 32
// output bits is applied on the GPU and its image marked in a bitmap of
// 2^outBits bits. An input whose image is already marked is a repeat: the
// layout is injective when there is none, and surjective when the distinct
// images, 2^inBits - repeats, are 2^outBits. The walk's basis is found with
// f2lay::opt's elimination, but each basis vector's image is recomputed by
// apply and checked, and the answer is counted over the images, not taken
// from a rank.
#pragma once

#include <cstdint>

#include "optimized/f2_core.h"

namespace f2lay::device {

// The order in which the kernel walks the inputs: a basis of the input
// space whose first vectors map to output bits 0, 1, 2, ... for as long as
// those are in the image, then unit inputs that complete it. A thread takes
// the 2^lowBits inputs that differ in the first lowBits (at most 6) basis
// vectors: by linearity their images are one value with its lowBits low bits
// running through every pattern, so they fill a run of bits of one 64-bit
// bitmap word, marked by a single atomicOr (64-bit words: half the atomics
// of 32-bit ones, and the atomics are what bound the kernel). Neighbouring threads take
// neighbouring combinations of the next vectors, which map to output bits 6, 7, ...: neighbouring
// words. Every input is still visited exactly once (a change of basis is a bijection), so the check
// stays exhaustive.
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

// Calls mark(y) with the image y of every combination of the n bases (n <=
// 32), each exactly once. Thread i of the grid (a power of two, 2^m threads)
// takes the combinations whose low m bits are i: it applies i once (unrolled
// selects), then walks the high bits in Gray-code order,
// so that each further combination costs one XOR with one basis, the same
// for the whole warp. (opt::core::apply per combination loads one basis per
// set bit, a load the next one waits for: that bounded the kernels.) At each
// step the grid marks 2^m neighbouring combinations, whose images are
// neighbouring words in the walk order.
template <typename Mark>
__device__ void forEachCombination(const uint64_t* bases, int n, Mark mark) {
  const uint64_t threads = uint64_t{gridDim.x} * blockDim.x;
  const int threadBits = __ffsll(threads) - 1;
  const uint64_t i = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x;
  const int low = n < threadBits ? n : threadBits;
  if (i >> low) return;
  uint64_t y = 0;
#pragma unroll
  for (int j = 0; j < 32; ++j) y ^= j < low && (i >> j & 1) ? bases[j] : 0;
  mark(y);
  for (uint64_t k = 1; k < uint64_t{1} << (n - low); ++k) {
    y ^= bases[low + __ffsll(k) - 1];
    mark(y);
  }
}

// Thread t marks the images of its cosets: base = a combination of basis
// vectors lowBits, lowBits + 1, ...; the coset's images are base ^ (every
// pattern of the low bits), a run of 2^lowBits bits of one word.
__global__ void markImage(const uint64_t* images, int lowBits, int inBits,
                          unsigned long long* bitmap, unsigned long long* repeats) {
  unsigned long long run = lowBits == 6 ? ~0ull : (1ull << (1u << lowBits)) - 1;
  unsigned long long found = 0;
  forEachCombination(images + lowBits, inBits - lowBits, [&](uint64_t y) {
    unsigned long long mask = run << (y & 63 & ~((1u << lowBits) - 1));
    found += __popcll(atomicOr(&bitmap[y >> 6], mask) & mask);
  });
  if (found) atomicAdd(repeats, found);
}

// When a thread's coset fills a whole word (lowBits == 6), marking needs no
// atomics: every coset writes all ones to its word with a plain store, and
// two cosets that meet write the same value, so the bitmap ends up exactly
// the image. The repeats are then 2^inBits - (marked bits), counted by a
// second pass over the bitmap. Both passes run at memory bandwidth.
__global__ void markWholeWords(const uint64_t* images, int inBits, unsigned long long* bitmap) {
  forEachCombination(images + 6, inBits - 6, [&](uint64_t y) { bitmap[y >> 6] = ~0ull; });
}

__global__ void countMarked(const unsigned long long* bitmap, uint64_t words,
                            unsigned long long* marked) {
  unsigned long long count = 0;
  for (uint64_t i = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; i < words;
       i += uint64_t{gridDim.x} * blockDim.x)
    count += __popcll(bitmap[i]);
  for (int offset = 16; offset > 0; offset /= 2)
    count += __shfl_down_sync(0xffffffffu, count, offset);
  if (threadIdx.x % 32 == 0 && count) atomicAdd(marked, count);
}

struct ImageCount {
  bool ok = false;  // false: a CUDA call failed
  uint64_t repeats = 0;
  bool wholeWords = false;  // marked by plain stores and counted (markWholeWords)
  float ms = 0;             // the kernels alone
};

// Applies the layout with `cols` (inBits <= 32, outBits <= 32) to every input.
inline ImageCount countImage(const uint64_t* cols, int inBits, int outBits) {
  ImageCount r;
  Walk walk = walkOrder(cols, inBits, outBits);
  uint64_t* dCols = nullptr;
  unsigned long long* bitmap = nullptr;
  unsigned long long* dRepeats = nullptr;
  size_t words = outBits <= 6 ? 1 : size_t{1} << (outBits - 6);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  if (cudaMalloc(&dCols, 64 * 8) == cudaSuccess && cudaMalloc(&bitmap, words * 8) == cudaSuccess &&
      cudaMalloc(&dRepeats, 8) == cudaSuccess &&
      cudaMemcpy(dCols, walk.images, 64 * 8, cudaMemcpyHostToDevice) == cudaSuccess &&
      cudaMemset(bitmap, 0, words * 8) == cudaSuccess &&
      cudaMemset(dRepeats, 0, 8) == cudaSuccess) {
    r.wholeWords = walk.lowBits == 6;
    cudaEventRecord(start);
    // 2^20 threads: forEachCombination needs a power of two.
    if (r.wholeWords) {
      markWholeWords<<<4096, 256>>>(dCols, inBits, bitmap);
      countMarked<<<4096, 256>>>(bitmap, words, dRepeats);  // the marked bits, here
    } else {
      markImage<<<4096, 256>>>(dCols, walk.lowBits, inBits, bitmap, dRepeats);
    }
    cudaEventRecord(stop);
    unsigned long long count = 0;
    r.ok = cudaEventSynchronize(stop) == cudaSuccess && cudaGetLastError() == cudaSuccess &&
           cudaMemcpy(&count, dRepeats, 8, cudaMemcpyDeviceToHost) == cudaSuccess;
    r.repeats = r.wholeWords ? (uint64_t{1} << inBits) - count : count;
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
