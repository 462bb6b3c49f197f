// The hot core of f2lay::opt: linear maps over F2 with at most 64 input and
// 64 output bits, stored as packed columns. cols[j] is the image of input bit
// j, one uint64 over the flattened output space (output bit r = bit r), which
// is Triton's basis of input bit j written as one number.
//
// Header-only and free of the standard library's containers, so that nvcc
// compiles it as device code too (the CUDA device tests run these very
// functions). Every function is plain loops over words: no allocation, no
// exceptions; callers check the limits (n <= 64).
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define F2LAY_HD __host__ __device__
#else
#define F2LAY_HD
#endif

namespace f2lay::opt::core {

F2LAY_HD inline int lowestBit(uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __ffsll(static_cast<long long>(x)) - 1;
#else
  return __builtin_ctzll(x);
#endif
}

F2LAY_HD inline uint64_t lowMask(int bits) {
  return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

// L(x): the XOR of the columns of the set bits of x (Def 4.1).
F2LAY_HD inline uint64_t apply(const uint64_t* cols, int n, uint64_t x) {
  uint64_t y = 0;
  for (int j = 0; j < n; ++j) y ^= cols[j] & (uint64_t{0} - ((x >> j) & 1));
  return y;
}

// result = outer o inner (Def 4.2): result[j] = outer(inner[j]). inner's
// output bits must already be numbered as outer's input bits. result may
// alias inner.
F2LAY_HD inline void compose(const uint64_t* outer, int outerIn, const uint64_t* inner,
                             int innerIn, uint64_t* result) {
  for (int j = 0; j < innerIn; ++j) result[j] = apply(outer, outerIn, inner[j]);
}

// Gaussian elimination on packed columns, kept fully reduced: every basis
// vector has a pivot (its lowest set bit) that no other basis vector has.
// Columns are inserted left to right, so the independent ones found are the
// leftmost maximal independent set (the pivot columns of Triton's and the
// reference's row echelon form), and each vector of the span has one
// combination of them.
struct Echelon {
  uint64_t vec[64];   // reduced basis vectors
  uint64_t comb[64];  // which inserted columns XOR to vec[i] (bit j = column j)
  int rank = 0;
  uint64_t pivots = 0;       // the pivot bits of the basis vectors
  uint64_t independent = 0;  // bit j: column j was independent when inserted

  // Reduces x against the basis; returns what is left (0 when x is in the
  // span) and, in *combination, the columns whose XOR is x minus that rest.
  F2LAY_HD uint64_t reduce(uint64_t x, uint64_t* combination) const {
    uint64_t c = 0;
    for (int i = 0; i < rank; ++i) {
      uint64_t hit = uint64_t{0} - ((x >> lowestBit(vec[i])) & 1);
      x ^= vec[i] & hit;
      c ^= comb[i] & hit;
    }
    *combination = c;
    return x;
  }

  // Inserts column j (its value x); returns whether it was independent.
  F2LAY_HD bool insert(uint64_t x, int j) {
    uint64_t c;
    x = reduce(x, &c);
    if (x == 0) return false;
    c ^= uint64_t{1} << j;
    int p = lowestBit(x);
    for (int i = 0; i < rank; ++i) {  // clear the new pivot elsewhere
      uint64_t hit = uint64_t{0} - ((vec[i] >> p) & 1);
      vec[i] ^= x & hit;
      comb[i] ^= c & hit;
    }
    vec[rank] = x;
    comb[rank] = c;
    ++rank;
    pivots |= uint64_t{1} << p;
    independent |= uint64_t{1} << j;
    return true;
  }
};

F2LAY_HD inline Echelon echelon(const uint64_t* cols, int n) {
  Echelon e;
  for (int j = 0; j < n; ++j) e.insert(cols[j], j);
  return e;
}

F2LAY_HD inline int rank(const uint64_t* cols, int n) { return echelon(cols, n).rank; }

// X with A(X(y)) = B(y) for every y: x[j] = the combination of A's
// independent columns (the leftmost maximal set) that gives b[j], every other
// input bit of A zero (Triton's lstsq). Returns false, with *bad the first
// column of B outside A's image, when there is none.
F2LAY_HD inline bool solve(const uint64_t* a, int aIn, const uint64_t* b, int bIn, uint64_t* x,
                           int* bad) {
  Echelon e = echelon(a, aIn);
  for (int j = 0; j < bIn; ++j) {
    uint64_t c;
    if (e.reduce(b[j], &c) != 0) {
      *bad = j;
      return false;
    }
    x[j] = c;
  }
  return true;
}

}  // namespace f2lay::opt::core
