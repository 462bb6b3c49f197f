// Speed of the exhaustive bitmap check (device_tests/README.md, "The bitmap
// check's speed"), against a device-to-device copy of the bitmap's size
// measured in the same run. Rows:
//   whole words  a random invertible layout of 2^b inputs (b = 28, 30, 32):
//                each thread fills a whole 64-bit word by a plain store, and a
//                second pass counts the marked bits;
//   atomics      the same layout with output bit 5 skipped (b + 1 output
//                bits, b = 28, 30): a thread fills half a word, marked by one
//                64-bit atomicOr.
// Each row prints the kernels' time, inputs per second and traffic (the
// bitmap's bytes written and read), and the copy's bytes read and written per
// second. Each row is checked: no repeats; and for the whole-word rows,
// 2^(b-1) with a column repeated. Not a test (device_tests/README.md); exit
// 1 when a check fails, 2 without a GPU.
#include <cstdio>
#include <random>
#include <vector>

#include "device_tests/image_bitmap.cuh"

namespace {

float copyMs(size_t bytes) {
  void *a = nullptr, *b = nullptr;
  cudaMalloc(&a, bytes);
  cudaMalloc(&b, bytes);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice);
  cudaEventRecord(start);
  cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  cudaFree(a);
  cudaFree(b);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms;
}

}  // namespace

int main() {
  using namespace f2lay::device;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "image_bitmap_bench: no GPU\n");
    return 2;
  }
  std::mt19937_64 rng(1);
  std::printf("%6s %12s %10s %12s %14s %12s %10s\n", "inputs", "marking", "kernel ms", "G inputs/s",
              "traffic GB/s", "copy GB/s", "ratio");
  for (int bits : {28, 30, 32}) {
    // Invertible: unit columns in a random order, each xored with a random
    // earlier one (a triangular change of basis).
    std::vector<uint64_t> cols;
    for (int j = 0; j < bits; ++j) cols.push_back(uint64_t{1} << j);
    for (int j = bits - 1; j > 0; --j) std::swap(cols[j], cols[rng() % (j + 1)]);
    for (int j = 1; j < bits; ++j) cols[j] ^= rng() % 2 ? cols[rng() % j] : 0;
    std::vector<uint64_t> repeated = cols;
    repeated[bits - 1] = repeated[0];
    // Output bit 5 skipped: bits 5.. move up by one.
    std::vector<uint64_t> skipped;
    for (uint64_t c : cols) skipped.push_back((c & 31) | (c >> 5) << 6);
    struct Row {
      const std::vector<uint64_t>* cols;
      int outBits;
      uint64_t repeats;
    };
    std::vector<Row> rows = {{&cols, bits, 0}, {&repeated, bits, uint64_t{1} << (bits - 1)}};
    if (bits < 32) rows.push_back({&skipped, bits + 1, 0});
    for (const Row& row : rows) {
      countImage(row.cols->data(), bits, row.outBits);  // warm-up
      ImageCount c = countImage(row.cols->data(), bits, row.outBits);
      if (!c.ok || c.repeats != row.repeats) {
        std::fprintf(stderr, "image_bitmap_bench: 2^%d -> 2^%d: %llu repeats, expected %llu%s\n",
                     bits, row.outBits, static_cast<unsigned long long>(c.repeats),
                     static_cast<unsigned long long>(row.repeats),
                     c.ok ? "" : " (a CUDA call failed)");
        return 1;
      }
      if (row.cols == &repeated) continue;  // a check, not a speed row
      double bytes = double(uint64_t{1} << row.outBits) / 8;
      double kernelGbs = 2 * bytes / (c.ms * 1e6),
             copyGbs = 2 * bytes / (copyMs(size_t(bytes)) * 1e6);
      std::printf("2^%-4d %12s %10.3f %12.1f %14.1f %12.1f %10.2f\n", bits,
                  c.wholeWords ? "whole words" : "atomics", c.ms,
                  double(uint64_t{1} << bits) / (c.ms * 1e6), kernelGbs, copyGbs,
                  kernelGbs / copyGbs);
    }
  }
  return 0;
}
