// One lane's part of an ld.shared / st.shared of 1, 2, 4, 8 or 16 bytes (or
// of an ldmatrix / stmatrix), as inline PTX so that the access width is exactly the one f2lay's
// simulator costs, and no access is merged or dropped by the compiler (ptxas merges identical
// loads, even from asm volatile: device_tests/HARDWARE.md#compiler-merging; each asm here is
// volatile with a memory clobber, and the probe's addresses come from a table: every probe launch
// executes exactly the predicted instructions). A vector is four 32-bit words, little-endian: the
// element k of width w sits at bytes [k w, (k + 1) w).
#pragma once

#include <cstdint>

#include "device_tests/conversion_batch.h"

namespace f2lay::device {

struct Vector16 {
  uint32_t word[4];
};

// `address` is a shared-window address (__cvta_generic_to_shared).
__device__ inline void storeShared(uint32_t address, const Vector16& v, uint32_t bytes) {
  switch (bytes) {
    case 1:
      asm volatile("st.shared.u8 [%0], %1;" ::"r"(address), "r"(v.word[0]) : "memory");
      break;
    case 2:
      asm volatile("st.shared.u16 [%0], %1;" ::"r"(address), "r"(v.word[0]) : "memory");
      break;
    case 4:
      asm volatile("st.shared.u32 [%0], %1;" ::"r"(address), "r"(v.word[0]) : "memory");
      break;
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
    case 1:
      asm volatile("ld.shared.u8 %0, [%1];" : "=r"(v.word[0]) : "r"(address) : "memory");
      break;
    case 2:
      asm volatile("ld.shared.u16 %0, [%1];" : "=r"(v.word[0]) : "r"(address) : "memory");
      break;
    case 4:
      asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v.word[0]) : "r"(address) : "memory");
      break;
    case 8:
      asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];"
                   : "=r"(v.word[0]), "=r"(v.word[1])
                   : "r"(address)
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

// stmatrix / ldmatrix (m8n8, b16, sm_90) of `count` (1, 2, 4) matrices: the
// lane's registers are the vector's words 0 .. count - 1; `address` is the
// row this lane gives (lane 8i + r: row r of matrix i). Warp-wide: every lane
// of the warp executes it.
#define F2LAY_STMATRIX(shape, ...) \
  asm volatile("stmatrix.sync.aligned.m8n8." shape ".shared.b16 [%0], " __VA_ARGS__ : "memory")
#define F2LAY_LDMATRIX(shape, regs, ...)                                                  \
  asm volatile("ldmatrix.sync.aligned.m8n8." shape ".shared.b16 " regs ", [%" __VA_ARGS__ \
               : "memory")

__device__ inline void storeMatrix(uint32_t address, const Vector16& v, uint32_t count,
                                   bool trans) {
  const uint32_t* w = v.word;
  if (!trans && count == 1) F2LAY_STMATRIX("x1", "{%1};" ::"r"(address), "r"(w[0]));
  if (!trans && count == 2) F2LAY_STMATRIX("x2", "{%1, %2};" ::"r"(address), "r"(w[0]), "r"(w[1]));
  if (!trans && count == 4)
    F2LAY_STMATRIX("x4", "{%1, %2, %3, %4};" ::"r"(address), "r"(w[0]), "r"(w[1]), "r"(w[2]),
                   "r"(w[3]));
  if (trans && count == 1) F2LAY_STMATRIX("x1.trans", "{%1};" ::"r"(address), "r"(w[0]));
  if (trans && count == 2)
    F2LAY_STMATRIX("x2.trans", "{%1, %2};" ::"r"(address), "r"(w[0]), "r"(w[1]));
  if (trans && count == 4)
    F2LAY_STMATRIX("x4.trans", "{%1, %2, %3, %4};" ::"r"(address), "r"(w[0]), "r"(w[1]), "r"(w[2]),
                   "r"(w[3]));
}

__device__ inline Vector16 loadMatrix(uint32_t address, uint32_t count, bool trans) {
  Vector16 v{{0, 0, 0, 0}};
  uint32_t* w = v.word;
  if (!trans && count == 1) F2LAY_LDMATRIX("x1", "{%0}", "1];" : "=r"(w[0]) : "r"(address));
  if (!trans && count == 2)
    F2LAY_LDMATRIX("x2", "{%0, %1}", "2];" : "=r"(w[0]), "=r"(w[1]) : "r"(address));
  if (!trans && count == 4)
    F2LAY_LDMATRIX("x4", "{%0, %1, %2, %3}", "4];"
                   : "=r"(w[0]), "=r"(w[1]), "=r"(w[2]), "=r"(w[3])
                   : "r"(address));
  if (trans && count == 1) F2LAY_LDMATRIX("x1.trans", "{%0}", "1];" : "=r"(w[0]) : "r"(address));
  if (trans && count == 2)
    F2LAY_LDMATRIX("x2.trans", "{%0, %1}", "2];" : "=r"(w[0]), "=r"(w[1]) : "r"(address));
  if (trans && count == 4)
    F2LAY_LDMATRIX("x4.trans", "{%0, %1, %2, %3}", "4];"
                   : "=r"(w[0]), "=r"(w[1]), "=r"(w[2]), "=r"(w[3])
                   : "r"(address));
  return v;
}

#undef F2LAY_STMATRIX
#undef F2LAY_LDMATRIX

// One side's instruction: ld/st.shared of `bytes`, or ldmatrix/stmatrix of
// bytes / 4 matrices.
__device__ inline void storeAccess(SharedInstruction kind, uint32_t address, const Vector16& v,
                                   uint32_t bytes) {
  if (kind == SharedInstruction::kVector)
    storeShared(address, v, bytes);
  else
    storeMatrix(address, v, bytes / 4, kind == SharedInstruction::kMatrixTrans);
}

__device__ inline Vector16 loadAccess(SharedInstruction kind, uint32_t address, uint32_t bytes) {
  if (kind == SharedInstruction::kVector) return loadShared(address, bytes);
  return loadMatrix(address, bytes / 4, kind == SharedInstruction::kMatrixTrans);
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
