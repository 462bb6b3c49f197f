#include <cuda_runtime.h>

#include "device_tests/conversion_kernels.h"
#include "device_tests/shared_access.cuh"

namespace f2lay::device {

namespace {

__device__ uint64_t readElement(const uint8_t* p, uint32_t bytes) {
  switch (bytes) {
    case 1:
      return *p;
    case 2:
      return *reinterpret_cast<const uint16_t*>(p);
    case 4:
      return *reinterpret_cast<const uint32_t*>(p);
    default:
      return *reinterpret_cast<const uint64_t*>(p);
  }
}

__device__ void writeElement(uint8_t* p, uint32_t bytes, uint64_t v) {
  switch (bytes) {
    case 1:
      *p = uint8_t(v);
      break;
    case 2:
      *reinterpret_cast<uint16_t*>(p) = uint16_t(v);
      break;
    case 4:
      *reinterpret_cast<uint32_t*>(p) = uint32_t(v);
      break;
    default:
      *reinterpret_cast<uint64_t*>(p) = v;
  }
}

// A's element in register r of this thread, read from the tensor: the
// register file per A is the tensor itself, indexed by the layout.
__device__ uint64_t aRegister(const DeviceCase& c, const uint32_t* pool, const uint8_t* input,
                              uint32_t warp, uint32_t lane, uint32_t r) {
  uint32_t element = pool[c.aElements + (uint64_t{warp} * kLanes + lane) * c.aRegisters + r];
  return readElement(input + c.input + uint64_t{element} * c.elementBytes, c.elementBytes);
}

__device__ uint8_t* bRegister(const DeviceCase& c, uint8_t* output, uint32_t warp, uint32_t lane,
                              uint32_t r) {
  return output + c.output + ((uint64_t{warp} * kLanes + lane) * c.bRegisters + r) * c.elementBytes;
}

// Store per A, then load per B, through shared memory laid out by the swizzle.
__global__ void convertThroughShared(const DeviceCase* cases, const uint32_t* pool,
                                     const uint8_t* input, uint8_t* output) {
  extern __shared__ __align__(16) uint8_t shared[];
  const DeviceCase& c = cases[blockIdx.x];
  const uint32_t warp = threadIdx.x / kLanes, lane = threadIdx.x % kLanes;
  const uint32_t eb = c.elementBytes;
  const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(shared));
  for (uint32_t i = threadIdx.x; i < c.sharedBytes; i += blockDim.x) shared[i] = kPoison;
  __syncthreads();
  const bool active = warp < c.warps;
  if (active)
    for (uint32_t i = 0; i < c.storeInstructions; ++i) {
      uint32_t n = c.storeVector / eb;
      Vector16 v{{0, 0, 0, 0}};
      for (uint32_t k = 0; k < n; ++k)
        setElement(v, k, eb,
                   aRegister(c, pool, input, warp, lane, pool[c.storeRegisters + i * n + k]));
      storeAccess(
          c.storeKind,
          base +
              pool[c.storeAddresses + (uint64_t{warp} * c.storeInstructions + i) * kLanes + lane],
          v, c.storeVector);
    }
  __syncthreads();
  if (!active) return;
  for (uint32_t i = 0; i < c.loadInstructions; ++i) {
    uint32_t n = c.loadVector / eb;
    Vector16 v = loadAccess(
        c.loadKind,
        base + pool[c.loadAddresses + (uint64_t{warp} * c.loadInstructions + i) * kLanes + lane],
        c.loadVector);
    for (uint32_t k = 0; k < n; ++k)
      writeElement(bRegister(c, output, warp, lane, pool[c.loadRegisters + i * n + k]), eb,
                   elementOf(v, k, eb));
  }
  for (uint32_t k = 0; k < c.sharedCopyCount; ++k)
    writeElement(
        bRegister(c, output, warp, lane, pool[c.sharedCopies + 2 * k]), eb,
        readElement(bRegister(c, output, warp, lane, pool[c.sharedCopies + 2 * k + 1]), eb));
}

// The shuffle plan's rounds: each lane offers its vector of A registers and
// reads the one its source lane offers (__shfl_sync: 32 bits, or 64 for
// 8-byte payloads, device_tests/HARDWARE.md#warp-shuffle), into its B registers.
__global__ void convertByShuffles(const DeviceCase* cases, const uint32_t* pool,
                                  const uint8_t* input, uint8_t* output) {
  const DeviceCase& c = cases[blockIdx.x];
  const uint32_t warp = threadIdx.x / kLanes, lane = threadIdx.x % kLanes;
  if (!c.hasShuffle || warp >= c.warps) return;
  const uint32_t eb = c.elementBytes;
  uint64_t a[kMaxRegisters], b[kMaxRegisters];
  uint64_t poison = 0;
  for (uint32_t k = 0; k < eb; ++k) poison |= uint64_t{kPoison} << 8 * k;
  for (uint32_t r = 0; r < c.aRegisters; ++r) a[r] = aRegister(c, pool, input, warp, lane, r);
  for (uint32_t r = 0; r < c.bRegisters; ++r) b[r] = poison;
  for (uint32_t i = 0; i < c.rounds; ++i) {
    const uint32_t* step = &pool[c.steps + (uint64_t{i} * kLanes + lane) * 3];
    uint64_t payload = 0;
    for (uint32_t k = 0; k < c.vectorElements; ++k)
      payload |= a[step[0] ^ pool[c.sendOffsets + k]] << 8 * eb * k;
    uint64_t got = eb * c.vectorElements > 4
                       ? __shfl_sync(0xffffffffu, static_cast<unsigned long long>(payload), step[1])
                       : __shfl_sync(0xffffffffu, static_cast<uint32_t>(payload), step[1]);
    uint64_t mask = eb == 8 ? ~uint64_t{0} : (uint64_t{1} << 8 * eb) - 1;
    for (uint32_t k = 0; k < c.vectorElements; ++k)
      b[step[2] ^ pool[c.recvOffsets + k]] = got >> 8 * eb * k & mask;
  }
  for (uint32_t k = 0; k < c.shuffleCopyCount; ++k)
    b[pool[c.shuffleCopies + 2 * k]] = b[pool[c.shuffleCopies + 2 * k + 1]];
  for (uint32_t r = 0; r < c.bRegisters; ++r)
    writeElement(bRegister(c, output, warp, lane, r), eb, b[r]);
}

template <typename T>
cudaError_t upload(T** device, const std::vector<T>& host) {
  cudaError_t err = cudaMalloc(device, host.size() * sizeof(T) + 16);
  return err ? err
             : cudaMemcpy(*device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
}

}  // namespace

std::vector<uint8_t> runOnGpu(const Batch& batch, Path path, std::string& error) {
  DeviceCase* cases = nullptr;
  uint32_t* pool = nullptr;
  uint8_t *input = nullptr, *output = nullptr;
  std::vector<uint8_t> out(batch.outputBytes);
  cudaError_t err = upload(&cases, batch.device);
  if (!err) err = upload(&pool, batch.pool);
  if (!err) err = upload(&input, batch.input);
  if (!err) err = cudaMalloc(&output, batch.outputBytes + 16);
  if (!err) err = cudaMemset(output, kPoison, batch.outputBytes);
  if (!err && !batch.device.empty()) {
    dim3 grid(static_cast<unsigned>(batch.device.size())), block(kMaxWarps * kLanes);
    if (path == Path::kShared) {
      err = cudaFuncSetAttribute(convertThroughShared, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>(batch.maxSharedBytes));
      if (!err)
        convertThroughShared<<<grid, block, batch.maxSharedBytes>>>(cases, pool, input, output);
    } else {
      convertByShuffles<<<grid, block>>>(cases, pool, input, output);
    }
    if (!err) err = cudaGetLastError();
    if (!err) err = cudaDeviceSynchronize();
  }
  if (!err) err = cudaMemcpy(out.data(), output, batch.outputBytes, cudaMemcpyDeviceToHost);
  for (void* p : {static_cast<void*>(cases), static_cast<void*>(pool), static_cast<void*>(input),
                  static_cast<void*>(output)})
    cudaFree(p);
  if (err) {
    error = cudaGetErrorString(err);
    return {};
  }
  return out;
}

}  // namespace f2lay::device
