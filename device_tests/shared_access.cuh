// One lane's part of an ld.shared / st.shared of 1, 2, 4, 8 or 16 bytes, as
// inline PTX so that the access width is exactly the one f2lay's simulator
// costs, and no access is merged or dropped by the compiler (HARDWARE.md:
// ptxas merges identical loads; a volatile asm with a memory clobber is kept
// and ordered). A vector is four 32-bit words, little-endian: the element k
// of width w sits at bytes [k w, (k + 1) w).
#pragma once

#include <cstdint>

namespace f2lay::device {

struct Vector16 {
  uint32_t word[4];
};

// `address` is a shared-window address (__cvta_generic_to_shared).
__device__ inline void storeShared(uint32_t address, const Vector16& v, uint32_t bytes) {
  switch (bytes) {
    case 1: asm volatile("st.shared.u8 [%0], %1;" ::"r"(address), "r"(v.word[0]) : "memory"); break;
    case 2: asm volatile("st.shared.u16 [%0], %1;" ::"r"(address), "r"(v.word[0]) : "memory"); break;
    case 4: asm volatile("st.shared.u32 [%0], %1;" ::"r"(address), "r"(v.word[0]) : "memory"); break;
    case 8:
      asm volatile("st.shared.v2.u32 [%0], {%1, %2};" ::"r"(address), "r"(v.word[0]), "r"(v.word[1])
                   : "memory");
      break;
    default:
      asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(address), "r"(v.word[0]),
                   "r"(v.word[1]), "r"(v.word[2]), "r"(v.word[3])
                   : "memory");
  }
}

__device__ inline Vector16 loadShared(uint32_t address, uint32_t bytes) {
  Vector16 v{{0, 0, 0, 0}};
  switch (bytes) {
    case 1: asm volatile("ld.shared.u8 %0, [%1];" : "=r"(v.word[0]) : "r"(address) : "memory"); break;
    case 2: asm volatile("ld.shared.u16 %0, [%1];" : "=r"(v.word[0]) : "r"(address) : "memory"); break;
    case 4: asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v.word[0]) : "r"(address) : "memory"); break;
    case 8:
      asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(v.word[0]), "=r"(v.word[1]) : "r"(address)
                   : "memory");
      break;
    default:
      asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(v.word[0]), "=r"(v.word[1]), "=r"(v.word[2]), "=r"(v.word[3])
                   : "r"(address)
                   : "memory");
  }
  return v;
}

// Element k (of `bytes` bytes, at most 8) of a vector, and its setter.
__device__ inline uint64_t elementOf(const Vector16& v, uint32_t k, uint32_t bytes) {
  uint32_t first = k * bytes;
  if (bytes == 8) return v.word[first / 4] | uint64_t{v.word[first / 4 + 1]} << 32;
  uint32_t mask = bytes == 4 ? ~0u : (1u << 8 * bytes) - 1;
  return (v.word[first / 4] >> 8 * (first % 4)) & mask;
}

__device__ inline void setElement(Vector16& v, uint32_t k, uint32_t bytes, uint64_t value) {
  uint32_t first = k * bytes;
  if (bytes == 8) {
    v.word[first / 4] = uint32_t(value);
    v.word[first / 4 + 1] = uint32_t(value >> 32);
    return;
  }
  uint32_t shift = 8 * (first % 4);
  uint32_t mask = bytes == 4 ? ~0u : (1u << 8 * bytes) - 1;
  v.word[first / 4] = (v.word[first / 4] & ~(mask << shift)) | (uint32_t(value) & mask) << shift;
}

}  // namespace f2lay::device
