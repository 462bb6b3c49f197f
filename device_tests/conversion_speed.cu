// Speed of the catalog conversions (issue 8, §4), not a test. Each catalog
// pair (tools/analysis/catalog_pairs.h) is converted four ways, each kernel
// repeating the conversion of a 64x64 tile `kIterations` times in every CTA
// of a full grid:
//   optimal swizzle, classic XOR swizzle, unswizzled: the shared-memory path
//     (store per A, barrier, load per B, barrier), with exactly the warp
//     instructions the tests check and the bank probe measures
//     (bank_probes.h's catalogConversions); addresses held in registers;
//   shuffle plan: the plan's rounds (where the classification and the
//     construction allow one), registers picked by the plan's tables.
// The ceiling is measured in the same run: conflict-free 16-byte accesses at
// full occupancy (sharedCeiling). Prints a Markdown table: time, bytes
// through shared memory per second, and wavefronts per second (f2lay's
// predicted wavefronts per tile times the tiles converted), each against the
// ceiling; the shuffle plan's time against the optimal swizzle's, with its
// rounds alone. Medians of kTimed runs. Exit 2 without a GPU.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "device_tests/bank_probes.h"
#include "device_tests/conversion_batch.h"
#include "device_tests/shared_access.cuh"
#include "formats/error.h"

namespace f2lay::device {
namespace {

constexpr uint32_t kIterations = 64;
constexpr int kTimed = 7;
// Per thread and side: a 64x64 tile of <= 8-byte elements over 128 threads is
// at most 256 bytes a thread.
constexpr int kMaxInstructions = 32;
__host__ __device__ constexpr int maxInstructions(int bytes) {
  return bytes >= 16 ? 16 : kMaxInstructions;
}
constexpr int kMaxRounds = 32;

template <int StoreBytes, int LoadBytes>
__global__ void sharedRoundTrips(const uint32_t* storeAddresses, const uint32_t* loadAddresses,
                                 uint32_t stores, uint32_t loads, uint32_t* sink) {
  extern __shared__ __align__(16) uint8_t shared[];
  const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(shared));
  const uint32_t warp = threadIdx.x / kLanes, lane = threadIdx.x % kLanes;
  constexpr int kStores = maxInstructions(StoreBytes), kLoads = maxInstructions(LoadBytes);
  uint32_t storeAt[kStores], loadAt[kLoads];
#pragma unroll
  for (int i = 0; i < kStores; ++i)
    storeAt[i] = i < stores ? base + storeAddresses[(warp * stores + i) * kLanes + lane] : base;
#pragma unroll
  for (int i = 0; i < kLoads; ++i)
    loadAt[i] = i < loads ? base + loadAddresses[(warp * loads + i) * kLanes + lane] : base;
  uint32_t acc = 0;
  for (uint32_t it = 0; it < kIterations; ++it) {
#pragma unroll
    for (int i = 0; i < kStores; ++i)
      if (i < stores) storeShared(storeAt[i], Vector16{{lane + i, it, acc, lane ^ i}}, StoreBytes);
    __syncthreads();
#pragma unroll
    for (int i = 0; i < kLoads; ++i)
      if (i < loads) {
        Vector16 v = loadShared(loadAt[i], LoadBytes);
        acc ^= v.word[0] ^ v.word[1] ^ v.word[2] ^ v.word[3];
      }
    __syncthreads();
  }
  sink[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// The shuffle plan's rounds on registers: each lane's tables (send
// register, source lane, receive register per round) are kept in shared
// memory (each lane reads its own, stride 3 words: no conflict); the
// registers they name are picked by compare-and-select, as a backend does for
// lane-dependent registers. T holds one element (32 bits up to 4 bytes).
template <typename T>
__global__ void shuffleRounds(const uint32_t* steps, const uint32_t* offsets, uint32_t rounds,
                              uint32_t vectorElements, uint32_t elementBytes, uint32_t* sink) {
  __shared__ uint32_t table[kMaxRounds * kLanes * 3];
  const uint32_t lane = threadIdx.x % kLanes;
  for (uint32_t i = threadIdx.x; i < rounds * kLanes * 3; i += blockDim.x) table[i] = steps[i];
  __syncthreads();
  uint32_t sendOffset[4], recvOffset[4];
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    sendOffset[k] = k < vectorElements ? offsets[k] : 0;
    recvOffset[k] = k < vectorElements ? offsets[vectorElements + k] : 0;
  }
  const uint32_t bits = 8 * elementBytes;
  const uint64_t mask = elementBytes == 8 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  T a[kMaxInstructions], b[kMaxInstructions];
#pragma unroll
  for (int r = 0; r < kMaxInstructions; ++r)
    a[r] = T((lane * kMaxInstructions + r) & mask), b[r] = 0;
  for (uint32_t it = 0; it < kIterations; ++it) {
    for (uint32_t i = 0; i < rounds; ++i) {
      const uint32_t* step = &table[(i * kLanes + lane) * 3];
      const uint32_t send = step[0], src = step[1], recv = step[2];
      uint64_t payload = 0;
#pragma unroll
      for (int k = 0; k < 4; ++k)
        if (k < vectorElements) {
          T x = 0;
#pragma unroll
          for (int r = 0; r < kMaxInstructions; ++r) x = r == (send ^ sendOffset[k]) ? a[r] : x;
          payload |= uint64_t{x} << bits * k;
        }
      uint64_t got = elementBytes * vectorElements > 4
                         ? __shfl_sync(0xffffffffu, static_cast<unsigned long long>(payload), src)
                         : __shfl_sync(0xffffffffu, static_cast<uint32_t>(payload), src);
#pragma unroll
      for (int k = 0; k < 4; ++k)
        if (k < vectorElements) {
#pragma unroll
          for (int r = 0; r < kMaxInstructions; ++r)
            b[r] = r == (recv ^ recvOffset[k]) ? T(got >> bits * k & mask) : b[r];
        }
    }
#pragma unroll
    for (int r = 0; r < kMaxInstructions; ++r)
      a[r] ^= b[r] & 1;  // the next conversion depends on this one
  }
  uint64_t acc = 0;
#pragma unroll
  for (int r = 0; r < kMaxInstructions; ++r) acc ^= b[r];
  sink[blockIdx.x * blockDim.x + threadIdx.x] = uint32_t(acc ^ acc >> 32);
}

// The plan's rounds with the register choice resolved at compile time (round
// i sends register i and fills register i): the cost of its shuffles alone,
// the bound a backend that emits the plan with static registers approaches.
// It moves data but not to B's places; the tests check the real plan.
template <typename T>
__global__ void shuffleRoundsOnly(const uint32_t* steps, uint32_t rounds, uint32_t* sink) {
  const uint32_t lane = threadIdx.x % kLanes;
  uint32_t src[kMaxRounds];
#pragma unroll
  for (int i = 0; i < kMaxRounds; ++i)
    src[i] = i < rounds ? steps[(i * kLanes + lane) * 3 + 1] : lane;
  T a[kMaxRounds];
#pragma unroll
  for (int r = 0; r < kMaxRounds; ++r) a[r] = T(lane * kMaxRounds + r);
  for (uint32_t it = 0; it < kIterations; ++it) {
#pragma unroll
    for (int i = 0; i < kMaxRounds; ++i)
      if (i < rounds) a[i] = __shfl_sync(0xffffffffu, a[i], src[i]) + T(1);
  }
  T acc = 0;
#pragma unroll
  for (int r = 0; r < kMaxRounds; ++r) acc ^= a[r];
  sink[blockIdx.x * blockDim.x + threadIdx.x] = uint32_t(acc);
}

// The ceiling: conflict-free 16-byte accesses (each warp instruction 512
// contiguous bytes, 4 wavefronts) at full occupancy, loads only or stores
// only. Every access of an iteration has its own address, and the loop over
// iterations is not unrolled, so that no load repeats an address in
// straight-line code (ptxas merges repeated loads:
// device_tests/HARDWARE.md#compiler-merging).
constexpr uint32_t kCeilingThreads = 256, kCeilingAccesses = 8;
constexpr uint32_t kCeilingBytes = kCeilingThreads * kCeilingAccesses * 16;
constexpr uint32_t kCeilingIterations = 1024;
template <bool kStore>
__global__ void sharedCeiling(uint32_t* sink) {
  extern __shared__ __align__(16) uint8_t shared[];
  const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(shared));
  uint32_t acc = 0;
#pragma unroll 1
  for (uint32_t it = 0; it < kCeilingIterations; ++it) {
#pragma unroll
    for (uint32_t j = 0; j < kCeilingAccesses; ++j) {
      uint32_t row = (j + it) % kCeilingAccesses;
      uint32_t address = base + (row * kCeilingThreads + threadIdx.x) * 16;
      if (kStore) {
        storeShared(address, Vector16{{threadIdx.x, it, j, acc}}, 16);
      } else {
        Vector16 v = loadShared(address, 16);
        acc ^= v.word[0] ^ v.word[1] ^ v.word[2] ^ v.word[3];
      }
    }
  }
  sink[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

using RoundTripKernel = void (*)(const uint32_t*, const uint32_t*, uint32_t, uint32_t, uint32_t*);

template <int S>
RoundTripKernel pickLoad(uint32_t loadBytes) {
  switch (loadBytes) {
    case 1:
      return sharedRoundTrips<S, 1>;
    case 2:
      return sharedRoundTrips<S, 2>;
    case 4:
      return sharedRoundTrips<S, 4>;
    case 8:
      return sharedRoundTrips<S, 8>;
    default:
      return sharedRoundTrips<S, 16>;
  }
}

RoundTripKernel pick(uint32_t storeBytes, uint32_t loadBytes) {
  switch (storeBytes) {
    case 1:
      return pickLoad<1>(loadBytes);
    case 2:
      return pickLoad<2>(loadBytes);
    case 4:
      return pickLoad<4>(loadBytes);
    case 8:
      return pickLoad<8>(loadBytes);
    default:
      return pickLoad<16>(loadBytes);
  }
}

// Median milliseconds of kTimed launches (after one warm-up); launch()
// enqueues one.
template <typename Launch>
float medianMs(Launch launch) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  launch();
  std::vector<float> ms;
  for (int i = 0; i < kTimed; ++i) {
    cudaEventRecord(start);
    launch();
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float t = 0;
    cudaEventElapsedTime(&t, start, stop);
    ms.push_back(t);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(ms.begin(), ms.end());
  return ms[kTimed / 2];
}

struct Timing {
  float ms = 0;
  double bytes = 0;  // through shared memory, all CTAs, all iterations
};

class Bench {
 public:
  explicit Bench(int ctas) : ctas_(ctas) {
    check(cudaMalloc(&storeAddresses_, 1 << 20));
    check(cudaMalloc(&loadAddresses_, 1 << 20));
    check(cudaMalloc(&sink_, size_t(ctas) * kMaxWarps * kLanes * 4));
  }

  Timing sharedPath(const SharedSide& store, const SharedSide& load, uint32_t sharedBytes) {
    uint32_t warps =
        static_cast<uint32_t>(store.addresses.size() / (uint64_t{store.instructions} * kLanes));
    if (store.instructions > uint32_t(maxInstructions(store.vectorBytes)) ||
        load.instructions > uint32_t(maxInstructions(load.vectorBytes)))
      throw Error(std::to_string(store.instructions) + " stores and " +
                  std::to_string(load.instructions) +
                  " loads a thread, more than the kernel holds (" +
                  std::to_string(kMaxInstructions) + ", 16 of 16 bytes)");
    check(cudaMemcpy(storeAddresses_, store.addresses.data(), store.addresses.size() * 4,
                     cudaMemcpyHostToDevice));
    check(cudaMemcpy(loadAddresses_, load.addresses.data(), load.addresses.size() * 4,
                     cudaMemcpyHostToDevice));
    RoundTripKernel kernel = pick(store.vectorBytes, load.vectorBytes);
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 << 10));
    Timing t;
    t.ms = medianMs([&] {
      kernel<<<ctas_, warps * kLanes, sharedBytes>>>(storeAddresses_, loadAddresses_,
                                                     store.instructions, load.instructions, sink_);
    });
    check(cudaGetLastError());
    t.bytes = double(ctas_) * kIterations * warps * kLanes *
              (double(store.instructions) * store.vectorBytes +
               double(load.instructions) * load.vectorBytes);
    return t;
  }

  // Bytes per second of sharedCeiling, the better of loads and stores.
  double ceilingBytesPerSecond() {
    double best = 0;
    for (auto kernel : {sharedCeiling<false>, sharedCeiling<true>}) {
      const int ctas = ctas_ / 2;
      float ms = medianMs([&] { kernel<<<ctas, kCeilingThreads, kCeilingBytes>>>(sink_); });
      check(cudaGetLastError());
      double rate =
          double(ctas) * kCeilingThreads * kCeilingIterations * kCeilingAccesses * 16 / (ms * 1e-3);
      std::printf("Ceiling, %s only: %.0f GB/s.\n",
                  kernel == sharedCeiling<true> ? "stores" : "loads", rate / 1e9);
      best = std::max(best, rate);
    }
    return best;
  }

  // The plan's kernel, and its rounds alone (shuffleRoundsOnly).
  std::pair<float, float> shufflePath(const Batch& batch, size_t i) {
    const DeviceCase& c = batch.device[i];
    if (c.rounds > kMaxRounds || c.aRegisters > kMaxInstructions ||
        c.bRegisters > kMaxInstructions || c.vectorElements > 4 || c.shuffleCopyCount > 0)
      throw Error("outside the shuffle kernel's limits (rounds, registers, copies)");
    std::vector<uint32_t> steps(batch.pool.begin() + c.steps,
                                batch.pool.begin() + c.steps + uint64_t{c.rounds} * kLanes * 3);
    steps.resize(std::max<size_t>(steps.size(), 3));
    std::vector<uint32_t> offsets(batch.pool.begin() + c.sendOffsets,
                                  batch.pool.begin() + c.sendOffsets + c.vectorElements);
    offsets.insert(offsets.end(), batch.pool.begin() + c.recvOffsets,
                   batch.pool.begin() + c.recvOffsets + c.vectorElements);
    check(cudaMemcpy(storeAddresses_, steps.data(), steps.size() * 4, cudaMemcpyHostToDevice));
    check(cudaMemcpy(loadAddresses_, offsets.data(), offsets.size() * 4, cudaMemcpyHostToDevice));
    auto kernel = c.elementBytes == 8 ? shuffleRounds<uint64_t> : shuffleRounds<uint32_t>;
    float ms = medianMs([&] {
      kernel<<<ctas_, c.warps * kLanes>>>(storeAddresses_, loadAddresses_, c.rounds,
                                          c.vectorElements, c.elementBytes, sink_);
    });
    check(cudaGetLastError());
    bool wide = c.elementBytes * c.vectorElements > 4;
    auto only = wide ? shuffleRoundsOnly<unsigned long long> : shuffleRoundsOnly<uint32_t>;
    float onlyMs =
        medianMs([&] { only<<<ctas_, c.warps * kLanes>>>(storeAddresses_, c.rounds, sink_); });
    check(cudaGetLastError());
    return {ms, onlyMs};
  }

 private:
  static void check(cudaError_t err) {
    if (err) throw Error(std::string("CUDA: ") + cudaGetErrorString(err));
  }
  int ctas_;
  uint32_t *storeAddresses_ = nullptr, *loadAddresses_ = nullptr, *sink_ = nullptr;
};

int run() {
  int sms = 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess || sms == 0) {
    std::fprintf(stderr, "f2lay_device_speed: no GPU\n");
    return 2;
  }
  const int ctas = sms * 16;
  Bench bench(ctas);
  const double ceiling = bench.ceilingBytesPerSecond();
  // A wavefront serves at most 128 bytes (32 banks of 4 bytes).
  const double ceilingWavefronts = ceiling / 128;
  std::printf(
      "%d CTAs of up to 4 warps (%d SMs), %u conversions of the tile each, median of %d runs.\n\n",
      ctas, sms, kIterations, kTimed);
  std::printf(
      "Ceiling (conflict-free 16-byte ld/st.shared at full occupancy, the better of loads and "
      "stores): %.0f GB/s, %.1f G wavefronts/s.\n\n",
      ceiling / 1e9, ceilingWavefronts / 1e9);
  std::printf(
      "| pair | way | vector bytes (st/ld) | wavefronts per tile (st+ld) | ms | GB/s | of ceiling "
      "| G wavefronts/s | of ceiling |\n");
  std::printf("|---|---|---|---:|---:|---:|---:|---:|---:|\n");

  std::vector<CatalogConversion> conversions = catalogConversions(false);
  Batch batch;
  addCatalogPairs(batch);
  for (size_t p = 0; p < batch.cases.size(); ++p) {
    const ConversionCase& pair = batch.cases[p];
    const DeviceCase& d = batch.device[p];
    float optimalMs = 0;
    for (const CatalogConversion& c : conversions) {
      if (c.pair != pair.name) continue;
      try {
        Timing t = bench.sharedPath(c.store, c.load, d.sharedBytes);
        if (c.memory == "optimal swizzle") optimalMs = t.ms;
        double bytes = t.bytes / (t.ms * 1e-3);
        uint64_t wavefronts = c.store.predicted.wavefronts + c.load.predicted.wavefronts;
        double waves = double(wavefronts) * ctas * kIterations / (t.ms * 1e-3);
        std::printf("| %s | %s | %u/%u | %llu | %.3f | %.0f | %.2f | %.1f | %.2f |\n",
                    pair.name.c_str(), c.memory.c_str(), c.store.vectorBytes, c.load.vectorBytes,
                    static_cast<unsigned long long>(wavefronts), t.ms, bytes / 1e9, bytes / ceiling,
                    waves / 1e9, waves / ceilingWavefronts);
      } catch (const Error& e) {
        std::printf("| %s | %s | | | not run: %s | | | | |\n", pair.name.c_str(), c.memory.c_str(),
                    e.what());
      }
    }
    if (!d.hasShuffle) {
      std::printf("| %s | shuffle plan | | | none: %s | | | | |\n", pair.name.c_str(),
                  pair.noShuffle.c_str());
      continue;
    }
    try {
      auto [ms, onlyMs] = bench.shufflePath(batch, p);
      std::printf(
          "| %s | shuffle plan, %u rounds (%s) | | | %.3f (rounds alone: %.3f) | | %.2fx (%.2fx) "
          "the "
          "optimal swizzle's time | | |\n",
          pair.name.c_str(), d.rounds, pair.kind.c_str(), ms, onlyMs,
          optimalMs > 0 ? ms / optimalMs : 0.0, optimalMs > 0 ? onlyMs / optimalMs : 0.0);
    } catch (const Error& e) {
      std::printf("| %s | shuffle plan | | | not run: %s | | | | |\n", pair.name.c_str(), e.what());
    }
  }
  return 0;
}

}  // namespace
}  // namespace f2lay::device

int main(int argc, char**) {
  if (argc != 1) {
    std::fprintf(stderr, "usage: f2lay_device_speed (no arguments)\n");
    return 2;
  }
  try {
    return f2lay::device::run();
  } catch (const f2lay::Error& e) {
    std::fprintf(stderr, "f2lay_device_speed: %s\n", e.what());
    return 1;
  }
}
