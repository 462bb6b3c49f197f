// Batched evaluation of a layout on flattened inputs: L(x) for many x.
//
// A layout is linear, so L(x) splits over the bytes of x:
//   L(x) = T0[x & 255] ^ T1[(x >> 8) & 255] ^ ... ^ T7[x >> 56],
// where Tg[v] is the XOR of the columns of input bits 8g..8g+7 selected by v.
// BatchApply builds those byte tables once; apply() then costs one lookup per
// input byte instead of one masked XOR per input bit, and applyAll() writes
// every L(x) in order as T0[low byte] ^ (the value of the high bits), one XOR
// per output.
//
// Two code paths, picked once at construction:
//   "portable"  the byte tables above, plain C++ (any CPU);
//   "avx2"      32 inputs at a time: their bytes are transposed into byte
//               planes, each input nibble indexes 16-entry tables of output
//               bytes with vpshufb, and the output planes are transposed back.
//               Chosen when the CPU reports AVX2 (__builtin_cpu_supports).
// Both give the same results (batch_apply_test.cpp checks them against
// LinearLayout::applyFlat); path() says which one runs.
//
// Input bits at or above the layout's input bit count are ignored, as
// applyFlat ignores them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "optimized/opt_linear_layout.h"

namespace f2lay::opt {

class BatchApply {
 public:
  enum class Path { Auto, Portable, Avx2 };

  // Auto: AVX2 where the CPU has it, else portable. Asking for Avx2 on a CPU
  // without it throws f2lay::Error.
  explicit BatchApply(const LinearLayout& layout, Path path = Path::Auto);
  // cols[j] is the image of flattened input bit j, 0 <= inBits <= 64.
  BatchApply(const uint64_t* cols, int inBits, Path path = Path::Auto);

  // out[i] = L(in[i]) for i < n. out may be in itself (exactly), not
  // otherwise overlapping it.
  void apply(const uint64_t* in, uint64_t* out, size_t n) const;
  // out[x] = L(x) for every x in [0, 2^inBits): out holds 2^inBits values.
  // Throws f2lay::Error when inBits > 32.
  void applyAll(uint64_t* out) const;
  // One input, with the byte tables.
  uint64_t operator()(uint64_t x) const;

  // "portable" or "avx2".
  const char* path() const;
  int inBits() const { return inBits_; }
  // Whether this CPU can run the avx2 path.
  static bool avx2Supported();

 private:
  int inBits_ = 0;
  int inBytes_ = 0;   // byte groups of input bits: ceil(inBits / 8)
  int outBytes_ = 0;  // bytes of output that can be nonzero
  Path path_ = Path::Portable;
  // inBytes_ tables of 256 entries: bytes_[256 * g + v] is the XOR of the
  // columns of input bits 8g + i for the set bits i of v.
  std::vector<uint64_t> bytes_;
  // The avx2 path's tables, 32 bytes each (the 16 entries twice, one copy per
  // 128-bit lane): nibbles_[(8 * k + b) * 32 + v] is byte b of the XOR of the
  // columns of input bits 4k + i for the set bits i of v (v < 16).
  std::vector<uint8_t> nibbles_;
};

}  // namespace f2lay::opt
