// BatchApply (batch_apply.h): byte tables, and the AVX2 nibble-shuffle path.
#include "optimized/batch_apply.h"

#include <algorithm>
#include <array>
#include <bit>
#include <string>
#include <utility>

#include "formats/error.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define F2LAY_HAVE_X86 1
#define F2LAY_AVX2 __attribute__((target("avx2")))
#else
#define F2LAY_HAVE_X86 0
#endif

namespace f2lay::opt {

namespace {

// ---------------------------------------------------------------- portable

// G byte tables, unrolled: one lookup per input byte.
template <int G>
void applyBytes(const uint64_t* t, const uint64_t* in, uint64_t* out, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    uint64_t x = in[i], y = 0;
    for (int g = 0; g < G; ++g) y ^= t[256 * g + ((x >> (8 * g)) & 255)];
    out[i] = y;
  }
}

void applyPortable(const uint64_t* t, int groups, const uint64_t* in, uint64_t* out, size_t n) {
  switch (groups) {
    case 0:
      return applyBytes<0>(t, in, out, n);
    case 1:
      return applyBytes<1>(t, in, out, n);
    case 2:
      return applyBytes<2>(t, in, out, n);
    case 3:
      return applyBytes<3>(t, in, out, n);
    case 4:
      return applyBytes<4>(t, in, out, n);
    case 5:
      return applyBytes<5>(t, in, out, n);
    case 6:
      return applyBytes<6>(t, in, out, n);
    case 7:
      return applyBytes<7>(t, in, out, n);
    default:
      return applyBytes<8>(t, in, out, n);
  }
}

// The value of the input bits above the low byte: x's high part is hi.
uint64_t highValue(const uint64_t* t, int groups, uint64_t hi) {
  uint64_t h = 0;
  for (int g = 1; g < groups; ++g) h ^= t[256 * g + ((hi >> (8 * (g - 1))) & 255)];
  return h;
}

// --------------------------------------------------------------------- avx2
#if F2LAY_HAVE_X86

// Transposes 8 registers of bytes, per 128-bit lane, as 4 rounds of unpacks
// (bytes, words, dwords, qwords) on register pairs. Loaded with 4 inputs per
// register (r[j] = inputs 4j..4j+3), byte p of input 4j + 2L + q ends in
// lane L at byte 8q + j of register swapBits12(p). Run on registers where
// register b holds byte b of those same positions, it puts them back: input
// 4 * swapBits12(j) + 2L + q in r[j]. (Each round moves the top byte-index bit
// of the lane into a register-index bit and that bit into the element bit.)
F2LAY_AVX2 inline void transpose(__m256i* r) {
  for (int i = 0; i < 8; i += 2) {
    __m256i a = r[i], b = r[i + 1];
    r[i] = _mm256_unpacklo_epi8(a, b);
    r[i + 1] = _mm256_unpackhi_epi8(a, b);
  }
  for (int i : {0, 1, 4, 5}) {
    __m256i a = r[i], b = r[i + 2];
    r[i] = _mm256_unpacklo_epi16(a, b);
    r[i + 2] = _mm256_unpackhi_epi16(a, b);
  }
  for (int i : {0, 1, 2, 3}) {
    __m256i a = r[i], b = r[i + 4];
    r[i] = _mm256_unpacklo_epi32(a, b);
    r[i + 4] = _mm256_unpackhi_epi32(a, b);
  }
  for (int i = 0; i < 8; i += 2) {
    __m256i a = r[i], b = r[i + 1];
    r[i] = _mm256_unpacklo_epi64(a, b);
    r[i + 1] = _mm256_unpackhi_epi64(a, b);
  }
}

constexpr int swapBits12(int p) { return (p & 1) | ((p & 2) << 1) | ((p & 4) >> 1); }

// 32 inputs per round; OutBytes output byte planes are computed, the others
// are zero. The rest (n % 32) goes through the byte tables.
template <int InBytes, int OutBytes>
F2LAY_AVX2 void applyAvx2(const uint8_t* nib, const uint64_t* bytes, const uint64_t* in,
                          uint64_t* out, size_t n) {
  const __m256i low4 = _mm256_set1_epi8(0x0f);
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    __m256i r[8];
    for (int j = 0; j < 8; ++j)
      r[j] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i + 4 * j));
    transpose(r);
    __m256i acc[8];
    for (int b = 0; b < 8; ++b) acc[b] = _mm256_setzero_si256();
    for (int p = 0; p < InBytes; ++p) {
      __m256i plane = r[swapBits12(p)];
      __m256i lo = _mm256_and_si256(plane, low4);
      __m256i hi = _mm256_and_si256(_mm256_srli_epi16(plane, 4), low4);
      const uint8_t* tlo = nib + (8 * (2 * p)) * 32;
      const uint8_t* thi = nib + (8 * (2 * p + 1)) * 32;
      for (int b = 0; b < OutBytes; ++b) {
        __m256i vlo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(tlo + 32 * b));
        __m256i vhi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(thi + 32 * b));
        acc[b] = _mm256_xor_si256(
            acc[b], _mm256_xor_si256(_mm256_shuffle_epi8(vlo, lo), _mm256_shuffle_epi8(vhi, hi)));
      }
    }
    transpose(acc);
    for (int j = 0; j < 8; ++j)
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i + 4 * swapBits12(j)), acc[j]);
  }
  applyPortable(bytes, InBytes, in + i, out + i, n - i);
}

using Avx2Kernel = void (*)(const uint8_t*, const uint64_t*, const uint64_t*, uint64_t*, size_t);

// kAvx2Kernels[inBytes][outBytes]: every loop bound known at compile time.
template <int InBytes, int... OutBytes>
constexpr std::array<Avx2Kernel, 9> kernelRow(std::integer_sequence<int, OutBytes...>) {
  return {applyAvx2<InBytes, OutBytes>...};
}
template <int... InBytes>
constexpr std::array<std::array<Avx2Kernel, 9>, 9> kernelTable(
    std::integer_sequence<int, InBytes...>) {
  return {kernelRow<InBytes>(std::make_integer_sequence<int, 9>())...};
}
constexpr auto kAvx2Kernels = kernelTable(std::make_integer_sequence<int, 9>());

// applyAll's inner loop: 256 outputs T0[i] ^ h, four per store. Outputs too
// large for the caches go around them (non-temporal stores, which need 32-byte
// alignment: the few outputs before the first aligned one are stored plainly).
F2LAY_AVX2 void applyAllAvx2(const uint64_t* t, int groups, uint64_t highCount, uint64_t* out) {
  constexpr uint64_t kStreamAbove = uint64_t{1} << 19;  // outputs (4 MiB)
  bool stream = highCount * 256 > kStreamAbove && reinterpret_cast<uintptr_t>(out) % 8 == 0;
  // Every block of 256 outputs starts at the same offset from 32 bytes.
  int head = stream ? static_cast<int>((32 - reinterpret_cast<uintptr_t>(out) % 32) % 32 / 8) : 0;
  for (uint64_t hi = 0; hi < highCount; ++hi) {
    uint64_t hs = highValue(t, groups, hi);
    __m256i h = _mm256_set1_epi64x(static_cast<long long>(hs));
    uint64_t* o = out + 256 * hi;
    if (stream) {
      int i = 0;
      for (; i < head; ++i) o[i] = t[i] ^ hs;
      for (; i + 4 <= 256; i += 4) {
        __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t + i));
        _mm256_stream_si256(reinterpret_cast<__m256i*>(o + i), _mm256_xor_si256(v, h));
      }
      for (; i < 256; ++i) o[i] = t[i] ^ hs;
    } else {
      for (int i = 0; i < 256; i += 4) {
        __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t + i));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + i), _mm256_xor_si256(v, h));
      }
    }
  }
  if (stream) _mm_sfence();
}

#endif  // F2LAY_HAVE_X86

}  // namespace

bool BatchApply::avx2Supported() {
#if F2LAY_HAVE_X86
  return __builtin_cpu_supports("avx2");
#else
  return false;
#endif
}

BatchApply::BatchApply(const LinearLayout& layout, Path path)
    : BatchApply(layout.columns(), layout.getTotalInDimSizeLog2(), path) {}

BatchApply::BatchApply(const uint64_t* cols, int inBits, Path path) {
  if (inBits < 0 || inBits > 64)
    throw Error("BatchApply: " + std::to_string(inBits) + " input bits; a layout has 0 to 64");
  if (path == Path::Auto) path = avx2Supported() ? Path::Avx2 : Path::Portable;
  if (path == Path::Avx2 && !avx2Supported())
    throw Error("BatchApply: the avx2 path needs a CPU with AVX2");
  path_ = path;
  inBits_ = inBits;
  inBytes_ = (inBits + 7) / 8;
  auto col = [&](int j) { return j < inBits ? cols[j] : uint64_t{0}; };
  uint64_t any = 0;
  for (int j = 0; j < inBits; ++j) any |= cols[j];
  outBytes_ = (std::bit_width(any) + 7) / 8;

  bytes_.assign(static_cast<size_t>(256) * inBytes_, 0);
  for (int g = 0; g < inBytes_; ++g) {
    uint64_t* t = bytes_.data() + 256 * g;
    for (int v = 1; v < 256; ++v)
      t[v] = t[v & (v - 1)] ^ col(8 * g + std::countr_zero(unsigned(v)));
  }
  if (path_ == Path::Avx2) {
    nibbles_.assign(static_cast<size_t>(2 * inBytes_) * 8 * 32, 0);
    for (int k = 0; k < 2 * inBytes_; ++k)
      for (int v = 0; v < 16; ++v) {
        uint64_t y = 0;
        for (int i = 0; i < 4; ++i)
          if ((v >> i) & 1) y ^= col(4 * k + i);
        for (int b = 0; b < 8; ++b) {
          uint8_t* t = nibbles_.data() + (8 * k + b) * 32;
          t[v] = t[16 + v] = static_cast<uint8_t>(y >> (8 * b));
        }
      }
  }
}

const char* BatchApply::path() const { return path_ == Path::Avx2 ? "avx2" : "portable"; }

uint64_t BatchApply::operator()(uint64_t x) const {
  uint64_t y = 0;
  for (int g = 0; g < inBytes_; ++g) y ^= bytes_[256 * g + ((x >> (8 * g)) & 255)];
  return y;
}

void BatchApply::apply(const uint64_t* in, uint64_t* out, size_t n) const {
#if F2LAY_HAVE_X86
  if (path_ == Path::Avx2) {
    kAvx2Kernels[inBytes_][outBytes_](nibbles_.data(), bytes_.data(), in, out, n);
    return;
  }
#endif
  applyPortable(bytes_.data(), inBytes_, in, out, n);
}

void BatchApply::applyAll(uint64_t* out) const {
  if (inBits_ > 32)
    throw Error("BatchApply::applyAll: the layout has " + std::to_string(inBits_) +
                " input bits; applyAll writes 2^inBits values and takes at most 32");
  if (inBits_ <= 8) {
    uint64_t count = uint64_t{1} << inBits_;
    if (inBits_ == 0)
      out[0] = 0;
    else
      std::copy(bytes_.begin(), bytes_.begin() + static_cast<ptrdiff_t>(count), out);
    return;
  }
  uint64_t highCount = uint64_t{1} << (inBits_ - 8);
  const uint64_t* t = bytes_.data();
#if F2LAY_HAVE_X86
  if (path_ == Path::Avx2) {
    applyAllAvx2(t, inBytes_, highCount, out);
    return;
  }
#endif
  for (uint64_t hi = 0; hi < highCount; ++hi) {
    uint64_t h = highValue(t, inBytes_, hi);
    uint64_t* o = out + 256 * hi;
    for (int i = 0; i < 256; ++i) o[i] = t[i] ^ h;
  }
}

}  // namespace f2lay::opt
