// Speed of the catalog conversions (device_tests/README.md, "Speed"), not a
// test. Each catalog pair (oracle/analysis_ops/catalog_pairs.h) is converted
// five ways, each kernel repeating the conversion of a 64x64 tile
// `kIterations` times in every CTA of a full grid:
//   optimum, paper construction, classic XOR swizzle, unswizzled: the
//     shared-memory path
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
#include <functional>
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

// Every instantiation at most 128 registers a thread (4 CTAs of 4 warps, 16
// of one warp a SM: the grid's 16 a SM in one wave), and each CTA reserves
// shared memory for no more CTAs a SM than that (occupancyBytes), so that
// occupancy does not depend on the widths: unbounded, the 8-byte stores'
// kernels took 158 registers and the others 96 to 129, and the 8-byte ones
// ran 4-10 % slower for it (device_tests/RESULTS.md, 2026-11-27).
template <int StoreBytes, int LoadBytes>
__global__ void __launch_bounds__(kMaxWarps* kLanes, 4)
    sharedRoundTrips(const uint32_t* storeAddresses, const uint32_t* loadAddresses, uint32_t stores,
                     uint32_t loads, uint32_t* sink) {
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
      // The stored words do not depend on the loads: a 16-byte store that
      // carried `acc` would wait for the last iteration's loads, which no
      // narrower store does (and a conversion's data comes from elsewhere).
      if (i < stores)
        storeShared(storeAt[i], Vector16{{lane + i, it, lane ^ it, lane ^ i}}, StoreBytes);
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

// Median milliseconds of each of `launches`, timed in turn (A, B, C, A, B,
// C, ...) kTimed times after one warm-up round, so that a drift of the clock
// or of the machine falls on all of them alike.
template <typename Launch>
std::vector<float> interleavedMedianMs(const std::vector<Launch>& launches) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  for (const Launch& l : launches) l();
  std::vector<std::vector<float>> ms(launches.size());
  for (int i = 0; i < kTimed; ++i)
    for (size_t k = 0; k < launches.size(); ++k) {
      cudaEventRecord(start);
      launches[k]();
      cudaEventRecord(stop);
      cudaEventSynchronize(stop);
      float t = 0;
      cudaEventElapsedTime(&t, start, stop);
      ms[k].push_back(t);
    }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::vector<float> medians;
  for (std::vector<float>& m : ms) {
    std::sort(m.begin(), m.end());
    medians.push_back(m[kTimed / 2]);
  }
  return medians;
}

// The dynamic shared memory a CTA of `warps` warps reserves so that at most
// 16 / warps CTAs fit a SM (228 KB, 1 KB of it reserved a CTA), the number
// that 128 registers a thread allow: every width's kernel then runs the same
// CTAs a SM, whatever registers it uses below that.
uint32_t occupancyBytes(uint32_t warps, uint32_t needed) {
  const uint32_t perSm = 228 << 10, reserved = 1 << 10, ctas = 16 / warps;
  return std::max(needed, perSm / ctas - reserved);
}

// Median milliseconds of kTimed launches (after one warm-up); launch()
// enqueues one.
template <typename Launch>
float medianMs(Launch launch) {
  return interleavedMedianMs(std::vector<Launch>{launch}).front();
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

  // One conversion, timed alone (sharedPaths).
  Timing sharedPath(const CatalogConversion& c, uint32_t sharedBytes) {
    Timing t;
    t.ms = sharedPaths({&c}, sharedBytes).front();
    uint32_t warps =
        static_cast<uint32_t>(c.store.addresses.size() / (uint64_t{c.store.instructions} * kLanes));
    t.bytes = double(ctas_) * kIterations * warps * kLanes *
              (double(c.store.instructions) * c.store.vectorBytes +
               double(c.load.instructions) * c.load.vectorBytes);
    return t;
  }

  // Several conversions of one pair (each a store and a load side), timed
  // interleaved: their median milliseconds, in order.
  std::vector<float> sharedPaths(const std::vector<const CatalogConversion*>& ways,
                                 uint32_t sharedBytes) {
    std::vector<uint32_t*> tables;
    std::vector<std::function<void()>> launches;
    for (const CatalogConversion* c : ways) {
      const SharedSide &store = c->store, &load = c->load;
      uint32_t warps =
          static_cast<uint32_t>(store.addresses.size() / (uint64_t{store.instructions} * kLanes));
      if (store.instructions > uint32_t(maxInstructions(store.vectorBytes)) ||
          load.instructions > uint32_t(maxInstructions(load.vectorBytes)))
        throw Error(std::to_string(store.instructions) + " stores and " +
                    std::to_string(load.instructions) +
                    " loads a thread, more than the kernel holds (" +
                    std::to_string(kMaxInstructions) + ", 16 of 16 bytes)");
      uint32_t *st = nullptr, *ld = nullptr;
      check(cudaMalloc(&st, store.addresses.size() * 4));
      check(cudaMalloc(&ld, load.addresses.size() * 4));
      tables.insert(tables.end(), {st, ld});
      check(cudaMemcpy(st, store.addresses.data(), store.addresses.size() * 4,
                       cudaMemcpyHostToDevice));
      check(
          cudaMemcpy(ld, load.addresses.data(), load.addresses.size() * 4, cudaMemcpyHostToDevice));
      RoundTripKernel kernel = pick(store.vectorBytes, load.vectorBytes);
      prepare(kernel);
      const uint32_t bytes = occupancyBytes(warps, sharedBytes);
      launches.push_back([=, this] {
        kernel<<<ctas_, warps * kLanes, bytes>>>(st, ld, store.instructions, load.instructions,
                                                 sink_);
      });
    }
    std::vector<float> ms = interleavedMedianMs(launches);
    check(cudaGetLastError());
    for (uint32_t* t : tables) cudaFree(t);
    return ms;
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
  // Up to 64 KB of dynamic shared memory, and all of the SM's 228 KB for it.
  static void prepare(RoundTripKernel kernel) {
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 << 10));
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, 100));
  }
  static void check(cudaError_t err) {
    if (err) throw Error(std::string("CUDA: ") + cudaGetErrorString(err));
  }
  int ctas_;
  uint32_t *storeAddresses_ = nullptr, *loadAddresses_ = nullptr, *sink_ = nullptr;
};

// The random pairs' timing: kRandomPairs random pairs of each element width
// (bank_probes.h's randomWidthConversions, the pairs the --optimum probe
// measures first), each converted through the optimum, the paper's
// construction and the classic XOR swizzle where the shape takes one, the
// three timed interleaved. Per width: the median time ratio, and how many
// pairs the optimum converts measurably (more than 3 %) slower or faster; then
// every pair where it is slower, with its widths and wavefronts, to see what
// the time goes to.
constexpr int kRandomPairs = 100;

void randomPairSpeeds(Bench& bench) {
  std::printf(
      "\n### Random pairs per element width: the optimum against the paper's construction and "
      "the classic XOR swizzle (median of %d interleaved runs each)\n\n",
      kTimed);
  std::printf(
      "| element bytes | pairs | wavefronts: optimum / construction | time: optimum / "
      "construction (median) | optimum slower > 3 %% / faster > 3 %% | pairs with XOR | time: "
      "optimum / XOR (median) | optimum slower > 3 %% / faster > 3 %% |\n");
  std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  std::vector<std::string> slower;
  for (uint64_t w : {1, 2, 4, 8, 16}) {
    std::vector<CatalogConversion> all = randomWidthConversions(w, kRandomPairs, 32);
    std::vector<double> vsPaper, vsXor;
    uint64_t optWaves = 0, paperWaves = 0;
    int paperSlow = 0, paperFast = 0, xorSlow = 0, xorFast = 0;
    for (size_t i = 0; i < all.size();) {
      size_t j = i;
      std::vector<const CatalogConversion*> ways;
      while (j < all.size() && all[j].pair == all[i].pair) ways.push_back(&all[j++]);
      i = j;
      if (ways.size() < 2 || ways[0]->memory != "optimum" ||
          ways[1]->memory != "paper construction")
        continue;
      uint32_t bytes = 0;
      for (const CatalogConversion* c : ways)
        for (const SharedSide* s : {&c->store, &c->load})
          for (uint32_t a : s->addresses) bytes = std::max(bytes, a + 16);
      std::vector<float> ms;
      try {
        ms = bench.sharedPaths(ways, bytes);
      } catch (const Error& e) {
        std::fprintf(stderr, "%s: %s (not timed)\n", ways[0]->pair.c_str(), e.what());
        continue;
      }
      auto waves = [](const CatalogConversion* c) {
        return c->store.predicted.wavefronts + c->load.predicted.wavefronts;
      };
      optWaves += waves(ways[0]);
      paperWaves += waves(ways[1]);
      auto judge = [&](double ratio, int& slow, int& fast, const CatalogConversion* other) {
        if (ratio > 1.03) {
          ++slow;
          char line[512];
          std::snprintf(
              line, sizeof line,
              "%s: optimum %u/%u bytes, %llu+%llu wavefronts, %u+%u instructions, "
              "%.4f ms; %s %u/%u bytes, %llu+%llu wavefronts, %u+%u instructions, "
              "%.4f ms",
              ways[0]->pair.c_str(), ways[0]->store.vectorBytes, ways[0]->load.vectorBytes,
              (unsigned long long)ways[0]->store.predicted.wavefronts,
              (unsigned long long)ways[0]->load.predicted.wavefronts, ways[0]->store.instructions,
              ways[0]->load.instructions, ms[0], other->memory.c_str(), other->store.vectorBytes,
              other->load.vectorBytes, (unsigned long long)other->store.predicted.wavefronts,
              (unsigned long long)other->load.predicted.wavefronts, other->store.instructions,
              other->load.instructions, ms[other == ways[1] ? 1 : 2]);
          slower.push_back(line);
        }
        if (ratio < 1 / 1.03) ++fast;
      };
      vsPaper.push_back(ms[0] / ms[1]);
      judge(vsPaper.back(), paperSlow, paperFast, ways[1]);
      if (ways.size() > 2) {
        vsXor.push_back(ms[0] / ms[2]);
        judge(vsXor.back(), xorSlow, xorFast, ways[2]);
      }
    }
    auto median = [](std::vector<double> v) {
      if (v.empty()) return 0.0;
      std::sort(v.begin(), v.end());
      return v[v.size() / 2];
    };
    std::printf("| %llu | %zu | %llu / %llu | %.3f | %d / %d | %zu | %.3f | %d / %d |\n",
                (unsigned long long)w, vsPaper.size(), (unsigned long long)optWaves,
                (unsigned long long)paperWaves, median(vsPaper), paperSlow, paperFast, vsXor.size(),
                median(vsXor), xorSlow, xorFast);
  }
  std::printf("\nPairs where the optimum converts more than 3 %% slower:\n\n");
  for (const std::string& line : slower) std::printf("- %s\n", line.c_str());
}

int run(bool catalogOnly) {
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
        Timing t = bench.sharedPath(c, d.sharedBytes);
        if (c.memory == "optimum") optimalMs = t.ms;
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
          "optimum's time | | |\n",
          pair.name.c_str(), d.rounds, pair.kind.c_str(), ms, onlyMs,
          optimalMs > 0 ? ms / optimalMs : 0.0, optimalMs > 0 ? onlyMs / optimalMs : 0.0);
    } catch (const Error& e) {
      std::printf("| %s | shuffle plan | | | not run: %s | | | | |\n", pair.name.c_str(), e.what());
    }
  }
  if (!catalogOnly) randomPairSpeeds(bench);
  return 0;
}

}  // namespace
}  // namespace f2lay::device

int main(int argc, char** argv) {
  // --catalog: the catalog pairs alone (a run short enough to profile under ncu).
  bool catalogOnly = argc == 2 && std::string(argv[1]) == "--catalog";
  if (argc > 2 || (argc == 2 && !catalogOnly)) {
    std::fprintf(stderr, "usage: f2lay_device_speed [--catalog]\n");
    return 2;
  }
  try {
    return f2lay::device::run(catalogOnly);
  } catch (const f2lay::Error& e) {
    std::fprintf(stderr, "f2lay_device_speed: %s\n", e.what());
    return 1;
  }
}
