// Bank conflicts on hardware (a part of device_tests/README.md): for each
// case, one kernel that does only the shared-memory stores of a distributed
// layout on a memory layout, or only its loads, exactly the warp instructions
// the simulator enumerates (conversion_batch.h's SharedSide), one CTA. ncu
// measures each launch (device_tests/run); this program writes what f2lay
// predicts for each launch, in launch order, as CSV to the file named by its
// argument:
//
//   launch,repeat,turns,probe,case,access,instruction,element_bytes,vector_bytes,warps,
//   instructions,wavefronts,ideal,lemma94,golden
//
// (turns: 1 when the warps took turns; probe: the case's place in
// bank_probes.h's list; instruction: vector,
// matrix or matrix_trans; golden: the wavefronts a golden case of oracle/cases
// states, else empty)
//
// Each case is launched REPEATS times, so that a count that varies from run
// to run shows as such. PROBES, a comma-separated list of probe numbers,
// launches only those, REPEATS times as usual and REPEATS times with the
// warps taking turns: device_tests/run launches the cases compare_banks.py
// leaves unsettled again so.
//
// compare_banks.py joins the two. The cases are bank_probes.h's, among them
// 120 random padded layouts (padded_shared), stored and loaded at their padded
// byte addresses.
#include <cuda_runtime.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "device_tests/bank_probes.h"
#include "device_tests/shared_access.cuh"
#include "formats/error.h"

namespace f2lay::device {
namespace {

// With `turns`, the warps take turns (warp w's accesses between the w-th and
// the (w+1)-th barrier), so that no two warps' accesses meet in the shared
// memory pipeline: finding F1's test (device_tests/README.md).
__device__ inline bool myTurn(bool turns, uint32_t turn, uint32_t warp) {
  return !turns || turn == warp;
}

__global__ void bankProbeStore(SharedInstruction kind, const uint32_t* addresses,
                               uint32_t instructions, uint32_t bytes, bool turns) {
  extern __shared__ __align__(16) uint8_t shared[];
  const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(shared));
  const uint32_t warp = threadIdx.x / kLanes, lane = threadIdx.x % kLanes;
  const uint32_t rounds = turns ? blockDim.x / kLanes : 1;
  Vector16 v{{lane, warp, 1, 2}};
  for (uint32_t turn = 0; turn < rounds; ++turn) {
    if (myTurn(turns, turn, warp))
      for (uint32_t i = 0; i < instructions; ++i)
        storeAccess(kind, base + addresses[(warp * instructions + i) * kLanes + lane], v, bytes);
    if (turns) __syncthreads();
  }
}

__global__ void bankProbeLoad(SharedInstruction kind, const uint32_t* addresses,
                              uint32_t instructions, uint32_t bytes, bool turns, uint32_t* sink) {
  extern __shared__ __align__(16) uint8_t shared[];
  const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(shared));
  const uint32_t warp = threadIdx.x / kLanes, lane = threadIdx.x % kLanes;
  const uint32_t rounds = turns ? blockDim.x / kLanes : 1;
  uint32_t acc = 0;
  for (uint32_t turn = 0; turn < rounds; ++turn) {
    if (myTurn(turns, turn, warp))
      for (uint32_t i = 0; i < instructions; ++i) {
        Vector16 v =
            loadAccess(kind, base + addresses[(warp * instructions + i) * kLanes + lane], bytes);
        acc ^= v.word[0] ^ v.word[1] ^ v.word[2] ^ v.word[3];
      }
    if (turns) __syncthreads();
  }
  sink[threadIdx.x] = acc;
}

}  // namespace

int run(const char* predictionsPath, const std::vector<Probe>& list, int repeats,
        const std::vector<bool>& only, bool turnsOnly = false) {
  if (only.size() > list.size()) {
    std::fprintf(stderr, "f2lay_device_banks: PROBES names probe %zu, but there are %zu (0..%zu)\n",
                 only.size() - 1, list.size(), list.size() - 1);
    return 2;
  }
  FILE* csv = std::fopen(predictionsPath, "w");
  if (!csv) {
    std::fprintf(stderr, "bank_probe: cannot write %s\n", predictionsPath);
    return 2;
  }
  std::fprintf(csv,
               "launch,repeat,turns,probe,case,access,instruction,element_bytes,vector_bytes,warps,"
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
  for (size_t probe = 0; probe < list.size(); ++probe) {
    if (!only.empty() && (probe >= only.size() || !only[probe])) continue;
    const Probe& p = list[probe];
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
    // A chosen probe also takes turns, REPEATS more launches.
    for (int r = turnsOnly ? repeats : 0; r < (only.empty() ? 1 : 2) * repeats; ++r) {
      const bool turns = r >= repeats;
      if (p.kind == analysis::AccessKind::kStore)
        bankProbeStore<<<1, warps * kLanes, top>>>(s.instruction, addresses, s.instructions,
                                                   s.vectorBytes, turns);
      else
        bankProbeLoad<<<1, warps * kLanes, top>>>(s.instruction, addresses, s.instructions,
                                                  s.vectorBytes, turns, sink);
      if (cudaError_t err = cudaDeviceSynchronize()) {
        std::fprintf(stderr, "bank_probe: %s: %s\n", p.name.c_str(), cudaGetErrorString(err));
        return 2;
      }
      const char* instruction = s.instruction == SharedInstruction::kVector   ? "vector"
                                : s.instruction == SharedInstruction::kMatrix ? "matrix"
                                                                              : "matrix_trans";
      std::string golden = p.golden ? std::to_string(*p.golden) : "";
      std::fprintf(csv, "%zu,%d,%d,%zu,%s,%s,%s,%llu,%u,%u,%llu,%llu,%llu,%s,%s\n", launched++,
                   r % repeats, turns ? 1 : 0, probe, name.c_str(),
                   p.kind == analysis::AccessKind::kStore ? "store" : "load", instruction,
                   static_cast<unsigned long long>(p.elementBytes), s.vectorBytes, warps,
                   static_cast<unsigned long long>(s.predicted.instructions),
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
      "usage: f2lay_device_banks PREDICTIONS.csv [RANDOM_PAIRS (100) [REPEATS (5) [PROBES]]]\n"
      "       f2lay_device_banks --optimum PAIRS_PER_WIDTH PREDICTIONS.csv [WIDTH]\n"
      "       f2lay_device_banks --pairs PAIRS.jsonl PREDICTIONS.csv\n"
      "  PROBES: probe numbers to launch, comma-separated (default: all), each also with its\n"
      "  warps taking turns. --optimum: random pairs of each element width on the swizzle\n"
      "  optimum and on the paper's construction (WIDTH alone where given), each launched\n"
      "  once with its warps taking turns (bank_probes.h); --pairs: the pairs of a file, one\n"
      "  {name, a, b, element_bytes} a line, likewise\n";
  if (argc == 4 && std::string(argv[1]) == "--pairs") {
    try {
      std::ifstream in(argv[2]);
      if (!in) throw f2lay::Error(std::string("cannot read ") + argv[2]);
      std::stringstream text;
      text << in.rdbuf();
      std::vector<f2lay::device::Probe> list =
          f2lay::device::pairProbes(f2lay::device::readPairs(text.str()));
      return f2lay::device::run(argv[3], list, 1, std::vector<bool>(list.size(), true), true);
    } catch (const f2lay::Error& e) {
      std::fprintf(stderr, "f2lay_device_banks: %s\n", e.what());
      return 2;
    }
  }
  if ((argc == 4 || argc == 5) && std::string(argv[1]) == "--optimum") {
    char* end = nullptr;
    long n = std::strtol(argv[2], &end, 10);
    if (*argv[2] == 0 || *end != 0 || n < 1 || n > 10000) {
      std::fprintf(stderr, "f2lay_device_banks: PAIRS_PER_WIDTH must be 1..10000, not '%s'\n%s",
                   argv[2], usage);
      return 2;
    }
    long width = argc == 5 ? std::strtol(argv[4], &end, 10) : 0;
    if (argc == 5 &&
        (*end != 0 || !(width == 1 || width == 2 || width == 4 || width == 8 || width == 16))) {
      std::fprintf(stderr, "f2lay_device_banks: WIDTH must be 1, 2, 4, 8 or 16, not '%s'\n%s",
                   argv[4], usage);
      return 2;
    }
    try {
      // Each probe once, its warps taking turns: finding F1 cannot add a
      // wavefront there, so the launch reads exactly what the rule gives.
      std::vector<f2lay::device::Probe> list =
          f2lay::device::optimumProbes(static_cast<int>(n), static_cast<uint64_t>(width));
      return f2lay::device::run(argv[3], list, 1, std::vector<bool>(list.size(), true), true);
    } catch (const f2lay::Error& e) {
      std::fprintf(stderr, "f2lay_device_banks: %s\n", e.what());
      return 2;
    }
  }
  if (argc < 2 || argc > 5) {
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
  // only[n]: probe n is listed; empty: every probe.
  std::vector<bool> only;
  if (argc > 4) {
    for (const char* at = argv[4];;) {
      char* end = nullptr;
      long n = std::strtol(at, &end, 10);
      if (end == at || n < 0 || n > 1000000 || (*end != ',' && *end != 0)) {
        std::fprintf(stderr,
                     "f2lay_device_banks: PROBES must be probe numbers separated by commas, not "
                     "'%s'\n%s",
                     argv[4], usage);
        return 2;
      }
      if (only.size() <= static_cast<size_t>(n)) only.resize(n + 1);
      only[n] = true;
      if (*end == 0) break;
      at = end + 1;
    }
  }
  try {
    return f2lay::device::run(argv[1], f2lay::device::bankProbes(pairs), repeats, only);
  } catch (const f2lay::Error& e) {
    std::fprintf(stderr, "f2lay_device_banks: %s\n", e.what());
    return 2;
  }
}
