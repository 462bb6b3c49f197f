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

// L(x): the XOR of the columns of the set bits of x (Def 4.1), one set bit
// at a time.
F2LAY_HD inline uint64_t apply(const uint64_t* cols, int n, uint64_t x) {
  x &= lowMask(n);
  uint64_t y = 0;
  for (; x; x &= x - 1) y ^= cols[lowestBit(x)];
  return y;
}

// result = outer o inner (Def 4.2): result[j] = outer(inner[j]). inner's
// output bits must already be numbered as outer's input bits. result may
// alias inner. Four Russians on nibbles: a 16-entry table per 4 input bits
// of outer (15 XORs each), then each column is one lookup per nibble.
F2LAY_HD inline void compose(const uint64_t* outer, int outerIn, const uint64_t* inner,
                             int innerIn, uint64_t* result) {
  uint64_t table[16][16];
  const int nibbles = (outerIn + 3) / 4;
  for (int g = 0; g < nibbles; ++g) {
    // Every entry from the four columns held in registers: a table entry is
    // never read back while the table is built (that stalls on store
    // forwarding).
    uint64_t c[4];
    for (int bit = 0; bit < 4; ++bit) c[bit] = 4 * g + bit < outerIn ? outer[4 * g + bit] : 0;
    const uint64_t low[8] = {0,        c[0],        c[1],        c[0] ^ c[1],
                             c[2],     c[2] ^ c[0], c[2] ^ c[1], c[2] ^ c[0] ^ c[1]};
    for (int m = 0; m < 8; ++m) {
      table[g][m] = low[m];
      table[g][m + 8] = low[m] ^ c[3];
    }
  }
  for (int j = 0; j < innerIn; ++j) {
    uint64_t x = inner[j], y = 0;
    for (int g = 0; g < nibbles; ++g) y ^= table[g][(x >> (4 * g)) & 15];
    result[j] = y;
  }
}

// Gaussian elimination on packed columns, kept fully reduced: each basis
// vector is stored at its pivot p, its lowest set bit, and no other basis
// vector has bit p. Then x's coordinates can be read off x itself: x is in
// the span exactly when it equals the XOR of vec[p] over the pivots p set in
// x, and that XOR's combination is x's. Each pivot's term is independent of
// the others, so reducing has no chain of dependent steps. Columns are
// inserted left to right, so the independent ones are the leftmost maximal
// independent set (the pivot columns of Triton's and the reference's row
// echelon form), and a vector of the span is one combination of them.
struct Echelon {
  uint64_t vec[64];   // vec[p]: the basis vector with lowest set bit p
  uint64_t comb[64];  // which inserted columns XOR to vec[p] (bit j = column j)
  int rank = 0;
  uint64_t pivots = 0;       // the p with vec[p] set
  uint64_t independent = 0;  // bit j: column j was independent when inserted

  // Returns 0 when x is in the span (then *combination holds the columns
  // whose XOR is x), else the part of x outside it (no pivot bit set).
  F2LAY_HD uint64_t reduce(uint64_t x, uint64_t* combination) const {
    uint64_t rest = x, c = 0;
    for (uint64_t m = x & pivots; m; m &= m - 1) {
      int p = lowestBit(m);
      rest ^= vec[p];
      c ^= comb[p];
    }
    *combination = c;
    return rest;
  }

  // Inserts column j (its value x); returns whether it was independent.
  F2LAY_HD bool insert(uint64_t x, int j) {
    uint64_t c;
    x = reduce(x, &c);
    if (x == 0) return false;
    c ^= uint64_t{1} << j;
    int p = lowestBit(x);
    for (uint64_t m = pivots; m; m &= m - 1) {  // clear bit p elsewhere
      int q = lowestBit(m);
      uint64_t hit = uint64_t{0} - ((vec[q] >> p) & 1);
      vec[q] ^= x & hit;
      comb[q] ^= c & hit;
    }
    vec[p] = x;
    comb[p] = c;
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
