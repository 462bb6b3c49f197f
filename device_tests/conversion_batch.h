// Layout conversions as the GPU runs them (conversions on the GPU in
// device_tests/README.md): for a pair (A, B) of distributed layouts and an
// element width, each warp holds a random tensor in registers per A and must
// end up holding it per B, two ways:
//   shared  store per A into shared memory laid out by f2lay's swizzle
//           optimum (swizzle_optimum.h: the fewest wavefronts by the H100's
//           rule, each side at its own vector width), then load per B; the
//           warp instructions (which
//           registers form a vector, each lane's byte address) are those the
//           bank-conflict simulator enumerates (ref::analysis::warpAccesses);
//   shuffle the warp-shuffle plan (§5.4, "Intra-warp Data Exchange"), where
//           the classification allows it and the construction applies.
// Both answers are tables; the kernels (conversion_kernels.h) only follow
// them, and the check knows nothing of them: every B register of every lane
// must hold the tensor element that B.apply names.
//
// Everything is flattened into one batch of plain arrays, so that one launch
// runs every case (one CTA a case) and a host replay of the same program
// (replayOnHost) checks the tables where there is no GPU.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/bank_access.h"
#include "formats/layout_value.h"
#include "optimized/analysis/bank_conflicts.h"

// CUDA sources include this header: no Eigen (the reference) here.
namespace f2lay::ref {
class LinearLayout;
}  // namespace f2lay::ref

namespace f2lay::device {

inline constexpr uint32_t kLanes = 32;
inline constexpr uint32_t kMaxWarps = 4;        // a CTA of 128 threads
inline constexpr uint32_t kMaxRegisters = 256;  // per thread, either side
inline constexpr uint8_t kPoison = 0xA5;        // every byte of an unwritten output

// One side of the shared path: a distributed layout's warp instructions on a
// memory layout, as the simulator enumerates them, and f2lay's prediction of
// their cost (the `bank_conflicts` op, f2lay::opt).
//
// ldmatrix / stmatrix (m8n8, b16; device_tests/HARDWARE.md#matrix-ownership):
// a lane moves `matrices` (1, 2, 4) 32-bit registers, element k
// of its "vector" being half k % 2 of register k / 2, and lane 8i + r gives
// the byte address of row r of matrix i (lanes past the matrices repeat
// matrix 0's rows; the hardware ignores them).
enum class SharedInstruction : uint32_t { kVector, kMatrix, kMatrixTrans };

struct SharedSide {
  SharedInstruction instruction = SharedInstruction::kVector;
  uint32_t vectorBytes = 0;         // bytes a lane moves: 4 * matrices for ldmatrix
  uint32_t instructions = 0;        // per warp
  std::vector<uint32_t> registers;  // [instruction][element of the vector]
  std::vector<uint32_t> addresses;  // [warp][instruction][lane], bytes
  analysis::WavefrontReport predicted;
  bool lemma94Exact = false;  // predicted came by the closed form
};

// The warp instructions of `access` (the reference's spelling of a
// bank_conflicts access). Throws f2lay::Error (from the simulator) when the
// access is not possible.
SharedSide sharedSide(const ref::LinearLayout& dist, const ref::LinearLayout& shared,
                      const analysis::AccessSpec& access);

// What one CTA runs. Offsets index Batch::pool (u32) or the byte arrays.
struct DeviceCase {
  uint32_t warps, elementBytes, aRegisters, bRegisters;
  uint64_t aElements, bElements;  // pool: [warp][lane][register] -> flat element
  uint64_t input, output;         // bytes: the tensor; [warp][lane][B register]
  uint32_t sharedBytes;
  // The shared path.
  uint32_t storeVector, storeInstructions, loadVector, loadInstructions;
  SharedInstruction storeKind, loadKind;
  uint64_t storeRegisters, storeAddresses, loadRegisters, loadAddresses;
  uint64_t sharedCopies;  // pool: (dst, src) B registers, after the loads
  uint32_t sharedCopyCount;
  // The shuffle path (rounds == 0 and no copies: none).
  uint32_t hasShuffle, rounds, vectorElements;
  uint64_t steps;  // pool: [round][lane] -> send register, src lane, recv register
  uint64_t sendOffsets, recvOffsets, shuffleCopies;
  uint32_t shuffleCopyCount;
};

struct ConversionCase {
  std::string name;
  LayoutValue a, b;
  uint64_t elementBytes;
  std::string kind;        // classify_conversion's
  std::string noShuffle;   // why there is no shuffle plan, or ""
  SharedSide store, load;  // on the swizzle optimum
};

struct Batch {
  std::vector<ConversionCase> cases;
  std::vector<DeviceCase> device;
  std::vector<uint32_t> pool;
  std::vector<uint8_t> input;  // random, no element equal to the poison
  uint64_t outputBytes = 0;
  uint32_t maxSharedBytes = 0;
  std::vector<std::string> skipped;  // cases that could not be built, and why
};

// Adds the conversion A -> B (layouts of register, lane, warp and an optional
// block of size 1, 32 lanes, at most kMaxWarps warps), storing and loading
// with the given instructions (the swizzle optimum is made for them). A case
// the limits or the analyses refuse goes to skipped with the reason.
void addCase(Batch& batch, const std::string& name, const LayoutValue& a, const LayoutValue& b,
             uint64_t elementBytes, uint64_t seed, analysis::Instruction write,
             analysis::Instruction read);

// `count` pairs from the properties' conversion-pair generator, drawn from
// a seeded generator of choices, and the catalog's pairs (oracle/analysis_ops).
void addRandomPairs(Batch& batch, int count, uint64_t seed);
void addCatalogPairs(Batch& batch);

enum class Path { kShared, kShuffle };

// The outputs of every case, [warp][lane][B register] per case, as the
// kernels compute them, computed on the CPU from the same tables.
std::vector<uint8_t> replayOnHost(const Batch& batch, Path path);

// Every B register of every case against B.apply; the first few
// mismatches described (empty: all correct). `checked` counts locations.
std::vector<std::string> checkOutputs(const Batch& batch, Path path,
                                      const std::vector<uint8_t>& output, uint64_t& checked);

}  // namespace f2lay::device
