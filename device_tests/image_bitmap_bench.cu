// Speed of the exhaustive bitmap check (issue 8, §1), against a
// device-to-device copy measured in the same run. For a random invertible
// layout of 2^b inputs (b = 28, 30, 32) it prints the kernel's time, its
// inputs per second and its traffic (the bitmap's bytes read and written:
// for an invertible layout each word takes one atomicOr), and the copy's
// bytes read and written per second. Each row is checked: no repeats for the invertible
// layout, and 2^(b-1) for the same layout with a column repeated. Not a
// test (device_tests/README.md); exit 1 when a check fails.
#include <cstdio>
#include <random>
#include <vector>

#include "image_bitmap.cuh"

int main() {
  using namespace f2lay::device;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "image_bitmap_bench: no GPU\n");
    return 2;
  }
  std::mt19937_64 rng(1);
  std::printf("%6s %10s %12s %14s %12s %10s\n", "inputs", "kernel ms", "G inputs/s", "traffic GB/s",
              "copy GB/s", "ratio");
  for (int bits : {28, 30, 32}) {
    // Invertible: unit columns in a random order, each xored with a random
    // earlier one (a triangular change of basis).
    std::vector<uint64_t> cols;
    for (int j = 0; j < bits; ++j) cols.push_back(uint64_t{1} << j);
    for (int j = bits - 1; j > 0; --j) std::swap(cols[j], cols[rng() % (j + 1)]);
    for (int j = 1; j < bits; ++j) cols[j] ^= rng() % 2 ? cols[rng() % j] : 0;
    countImage(cols.data(), bits, bits);  // warm-up
    ImageCount c = countImage(cols.data(), bits, bits);
    std::vector<uint64_t> repeated = cols;
    repeated[bits - 1] = repeated[0];
    ImageCount half = countImage(repeated.data(), bits, bits);
    if (!c.ok || !half.ok || c.repeats != 0 || half.repeats != uint64_t{1} << (bits - 1)) {
      std::fprintf(stderr, "image_bitmap_bench: 2^%d: repeats %llu and %llu, expected 0 and 2^%d%s\n",
                   bits, static_cast<unsigned long long>(c.repeats),
                   static_cast<unsigned long long>(half.repeats), bits - 1,
                   c.ok && half.ok ? "" : " (a CUDA call failed)");
      return 1;
    }
    double bytes = double(uint64_t{1} << bits) / 8;
    // The copy: the bitmap's size, device to device.
    void *a, *b;
    cudaMalloc(&a, size_t(bytes));
    cudaMalloc(&b, size_t(bytes));
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaMemcpy(b, a, size_t(bytes), cudaMemcpyDeviceToDevice);
    cudaEventRecord(start);
    cudaMemcpy(b, a, size_t(bytes), cudaMemcpyDeviceToDevice);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float copyMs = 0;
    cudaEventElapsedTime(&copyMs, start, stop);
    cudaFree(a);
    cudaFree(b);
    double inputs = double(uint64_t{1} << bits);
    double kernelGbs = 2 * bytes / (c.ms * 1e6), copyGbs = 2 * bytes / (copyMs * 1e6);
    std::printf("2^%-4d %10.3f %12.1f %14.1f %12.1f %10.2f\n", bits, c.ms, inputs / (c.ms * 1e6),
                kernelGbs, copyGbs, kernelGbs / copyGbs);
  }
  return 0;
}
