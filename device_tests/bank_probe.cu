// Bank conflicts on hardware (issue 8, §3): for each case, one kernel that
// does only the shared-memory stores of a distributed layout on a memory
// layout, or only its loads, exactly the warp instructions the simulator
// enumerates (conversion_batch.h's SharedSide), one CTA. ncu measures each
// launch (device_tests/run); this program writes what f2lay predicts for
// each launch, in launch order, as CSV to the file named by its argument:
//
//   launch,repeat,case,access,instruction,element_bytes,vector_bytes,warps,instructions,wavefronts,
//   ideal,lemma94,golden
//
// (instruction: vector, matrix or matrix_trans; golden: the wavefronts a
// golden case of tools/cases states, else empty)
//
// Each case is launched REPEATS times, so that a count that varies from run
// to run shows as such.
//
// compare_banks.py joins the two. The cases are bank_probes.h's, among them
// 120 random padded layouts (padded_shared), stored and loaded at their padded
// byte addresses.
#include <cuda_runtime.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "device_tests/bank_probes.h"
#include "device_tests/shared_access.cuh"
#include "formats/error.h"

namespace f2lay::device {
namespace {

__global__ void bankProbeStore(SharedInstruction kind, const uint32_t* addresses,
                               uint32_t instructions, uint32_t bytes) {
  extern __shared__ __align__(16) uint8_t shared[];
  const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(shared));
  const uint32_t warp = threadIdx.x / kLanes, lane = threadIdx.x % kLanes;
  Vector16 v{{lane, warp, 1, 2}};
  for (uint32_t i = 0; i < instructions; ++i)
    storeAccess(kind, base + addresses[(warp * instructions + i) * kLanes + lane], v, bytes);
}

__global__ void bankProbeLoad(SharedInstruction kind, const uint32_t* addresses,
                              uint32_t instructions, uint32_t bytes, uint32_t* sink) {
  extern __shared__ __align__(16) uint8_t shared[];
  const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(shared));
  const uint32_t warp = threadIdx.x / kLanes, lane = threadIdx.x % kLanes;
  uint32_t acc = 0;
  for (uint32_t i = 0; i < instructions; ++i) {
    Vector16 v =
        loadAccess(kind, base + addresses[(warp * instructions + i) * kLanes + lane], bytes);
    acc ^= v.word[0] ^ v.word[1] ^ v.word[2] ^ v.word[3];
  }
  sink[threadIdx.x] = acc;
}

}  // namespace

int run(const char* predictionsPath, int randomPairs, int repeats) {
  std::vector<Probe> list = bankProbes(randomPairs);
  FILE* csv = std::fopen(predictionsPath, "w");
  if (!csv) {
    std::fprintf(stderr, "bank_probe: cannot write %s\n", predictionsPath);
    return 2;
  }
  std::fprintf(csv,
               "launch,repeat,case,access,instruction,element_bytes,vector_bytes,warps,"
               "instructions,wavefronts,ideal,"
               "lemma94,golden\n");
  uint32_t *addresses = nullptr, *sink = nullptr;
  if (cudaMalloc(&addresses, 1 << 20) || cudaMalloc(&sink, 4096) ||
      cudaFuncSetAttribute(bankProbeStore, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 << 10) ||
      cudaFuncSetAttribute(bankProbeLoad, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 << 10)) {
    std::fprintf(stderr, "bank_probe: CUDA setup failed: %s\n",
                 cudaGetErrorString(cudaGetLastError()));
    return 2;
  }
  size_t launched = 0;
  for (const Probe& p : list) {
    const SharedSide& s = p.side;
    uint32_t warps =
        static_cast<uint32_t>(s.addresses.size() / (uint64_t{s.instructions} * kLanes));
    uint32_t top = 0;
    for (uint32_t a : s.addresses) top = std::max(top, a + 16);
    if (s.addresses.size() * 4 > (1 << 20) || top > (64 << 10)) {
      std::fprintf(stderr, "bank_probe: %s: too large for the probe (left out)\n", p.name.c_str());
      continue;
    }
    if (cudaError_t err = cudaMemcpy(addresses, s.addresses.data(), s.addresses.size() * 4,
                                     cudaMemcpyHostToDevice)) {
      std::fprintf(stderr, "bank_probe: %s: %s\n", p.name.c_str(), cudaGetErrorString(err));
      return 2;
    }
    std::string name = p.name;
    for (char& ch : name)
      if (ch == ',') ch = ';';
    for (int r = 0; r < repeats; ++r) {
      if (p.kind == analysis::AccessKind::kStore)
        bankProbeStore<<<1, warps * kLanes, top>>>(s.instruction, addresses, s.instructions,
                                                   s.vectorBytes);
      else
        bankProbeLoad<<<1, warps * kLanes, top>>>(s.instruction, addresses, s.instructions,
                                                  s.vectorBytes, sink);
      if (cudaError_t err = cudaDeviceSynchronize()) {
        std::fprintf(stderr, "bank_probe: %s: %s\n", p.name.c_str(), cudaGetErrorString(err));
        return 2;
      }
      const char* instruction = s.instruction == SharedInstruction::kVector   ? "vector"
                                : s.instruction == SharedInstruction::kMatrix ? "matrix"
                                                                              : "matrix_trans";
      std::string golden = p.golden ? std::to_string(*p.golden) : "";
      std::fprintf(csv, "%zu,%d,%s,%s,%s,%llu,%u,%u,%llu,%llu,%llu,%s,%s\n", launched++, r,
                   name.c_str(), p.kind == analysis::AccessKind::kStore ? "store" : "load",
                   instruction, static_cast<unsigned long long>(p.elementBytes), s.vectorBytes,
                   warps, static_cast<unsigned long long>(s.predicted.instructions),
                   static_cast<unsigned long long>(s.predicted.wavefronts),
                   static_cast<unsigned long long>(s.predicted.idealWavefronts),
                   s.lemma94Exact ? "exact" : "enumerated", golden.c_str());
    }
  }
  std::fclose(csv);
  return 0;
}

}  // namespace f2lay::device

int main(int argc, char** argv) {
  const char* usage =
      "usage: f2lay_device_banks PREDICTIONS.csv [RANDOM_PAIRS (100) [REPEATS (5)]]\n";
  if (argc < 2 || argc > 4) {
    std::fprintf(stderr, "%s", usage);
    return 2;
  }
  // Whole numbers in range, or exit 2 naming the argument.
  auto count = [&](int i, int fallback, int most, const char* what) {
    if (argc <= i) return fallback;
    char* end = nullptr;
    long v = std::strtol(argv[i], &end, 10);
    if (*argv[i] == 0 || *end != 0 || v < 0 || v > most) {
      std::fprintf(stderr, "f2lay_device_banks: %s must be a whole number in 0..%d, not '%s'\n%s",
                   what, most, argv[i], usage);
      std::exit(2);
    }
    return static_cast<int>(v);
  };
  int pairs = count(2, 100, 10000, "RANDOM_PAIRS");
  int repeats = count(3, 5, 100, "REPEATS");
  try {
    return f2lay::device::run(argv[1], pairs, repeats);
  } catch (const f2lay::Error& e) {
    std::fprintf(stderr, "f2lay_device_banks: %s\n", e.what());
    return 2;
  }
}
