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

// x << s and x >> s for s in 0..64: a dim of 0 bits after 64 bits of other
// dims sits at offset 64, where C++'s shift is undefined (found by the
// differential fuzzer under UBSan); every bit shifted that far is 0.
F2LAY_HD inline uint64_t shiftUp(uint64_t x, int s) { return s >= 64 ? 0 : x << s; }
F2LAY_HD inline uint64_t shiftDown(uint64_t x, int s) { return s >= 64 ? 0 : x >> s; }

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
F2LAY_HD inline void compose(const uint64_t* outer, int outerIn, const uint64_t* inner, int innerIn,
                             uint64_t* result) {
  uint64_t table[16][16];
  const int nibbles = (outerIn + 3) / 4;
  for (int g = 0; g < nibbles; ++g) {
    // Every entry from the four columns held in registers: a table entry is
    // never read back while the table is built (that stalls on store
    // forwarding).
    uint64_t c[4];
    for (int bit = 0; bit < 4; ++bit) c[bit] = 4 * g + bit < outerIn ? outer[4 * g + bit] : 0;
    const uint64_t low[8] = {0,    c[0],        c[1],        c[0] ^ c[1],
                             c[2], c[2] ^ c[0], c[2] ^ c[1], c[2] ^ c[0] ^ c[1]};
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
// vector has a pivot p, its lowest set bit, and no other basis vector has
// bit p. Then x's coordinates can be read off x itself: x is in the span
// exactly when it equals the XOR of the basis vectors whose pivots are set
// in x, and that XOR's combination is x's. Each pivot's term is independent
// of the others, so reducing has no chain of dependent steps. Columns are
// inserted left to right, so the independent ones are the leftmost maximal
// independent set (the pivot columns of Triton's and the reference's row
// echelon form), and a vector of the span is one combination of them.
//
// The basis is stored densely, in insertion order, with slot[p] naming the
// vector of pivot p: keeping a new pivot out of the others is then one
// branch-free pass over contiguous words, which the compiler vectorizes.
// Keeps pivot p out of n basis vectors: each with bit p gets x (its
// combination c) added. Plain pointers, not members, so that the loop
// vectorizes.
F2LAY_HD __attribute__((noinline)) inline void clearPivot(uint64_t* vec, uint64_t* comb, int n,
                                                          int p, uint64_t x, uint64_t c) {
  for (int i = 0; i < n; ++i) {
    uint64_t hit = uint64_t{0} - ((vec[i] >> p) & 1);
    vec[i] ^= x & hit;
    comb[i] ^= c & hit;
  }
}

struct Echelon {
  uint64_t vec[64];   // the basis vectors, [0, rank)
  uint64_t comb[64];  // which inserted columns XOR to vec[i] (bit j = column j)
  int8_t slot[64];    // slot[p]: the i with pivot p, for the p in `pivots`
  int rank = 0;
  uint64_t pivots = 0;       // the pivot bits of the basis
  uint64_t independent = 0;  // bit j: column j was independent when inserted

  // Returns 0 when x is in the span (then *combination holds the columns
  // whose XOR is x), else the part of x outside it (no pivot bit set).
  F2LAY_HD uint64_t reduce(uint64_t x, uint64_t* combination) const {
    uint64_t rest = x, c = 0;
    for (uint64_t m = x & pivots; m; m &= m - 1) {
      int i = slot[lowestBit(m)];
      rest ^= vec[i];
      c ^= comb[i];
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
    clearPivot(vec, comb, rank, p, x, c);
    vec[rank] = x;
    comb[rank] = c;
    slot[p] = static_cast<int8_t>(rank);
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

// The combinations as a map over output bits: map[p] = the combination of
// the basis vector with pivot p (0 off the pivots), so that reduce's
// combination for x in the span is apply(map, x). Solving many columns is
// then one compose, table lookups instead of a walk per column.
F2LAY_HD inline void combinations(const Echelon& e, int outBits, uint64_t* map) {
  for (int p = 0; p < outBits; ++p) map[p] = (e.pivots >> p & 1) ? e.comb[e.slot[p]] : 0;
}

// The rank alone, without the combinations Echelon keeps: basis vectors
// indexed by their lowest bit; a column is reduced by the vector of its
// lowest bit (which clears that bit and sets only higher ones) until it is 0
// (dependent) or its lowest bit is new. A layout's bases have few
// bits each (most are one bit), so a column takes a step or two: a fraction
// of echelon()'s time, which the is_* predicates and from_bases'
// surjectivity check pay per layout.
F2LAY_HD inline int rank(const uint64_t* cols, int n) {
  uint64_t byLowest[64] = {};
  int r = 0;
  for (int j = 0; j < n; ++j)
    for (uint64_t x = cols[j]; x != 0;) {
      int low = lowestBit(x);
      if (byLowest[low] == 0) {
        byLowest[low] = x;
        ++r;
        break;
      }
      x ^= byLowest[low];
    }
  return r;
}

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
