// The innermost level of the exhaustive swizzle search (swizzle_search.cpp, 3.), every leaf in
// turn and none cut: once the prefix P and the complement C_K are fixed, a memory layout matters
// only through U' (the in-word vectors past P) and R (the row vectors). Each pair (U', R) is one
// index of a flat range, so that a GPU (device_tests/swizzle_certificate.cu) or the host can
// exhaust the range in any order, with no bound of swizzle_search.cpp's 4.
//
// Header-only, and callable on the device: fixed-size arrays, 32-bit tensor vectors (at most 24
// tensor bits), no library calls.
#pragma once

#include <cstdint>

#ifdef __CUDACC__
#define F2LAY_LEAF_FN __host__ __device__
#else
#define F2LAY_LEAF_FN
#endif

namespace f2lay::testkit {

constexpr int kLeafBits = 24;                           // swizzle_search.h's tensor bits
constexpr int kLeafPhaseVectors = 16;                   // generators of one phase's Q
constexpr uint64_t kLeafSaturated = uint64_t{1} << 62;  // counts stop growing here

// One side of a leaf problem: its phase space Q and its phases (each costs 2^c wavefronts), and
// its access (the vector bytes; 0 for ldmatrix/stmatrix), for checks that cost a leaf anew.
struct LeafSide {
  int count = 0;
  uint32_t phase[kLeafPhaseVectors] = {};
  uint64_t phases = 0, vectorBytes = 0;
};

// The leaves of one (P, C_K): U' ranges over the inWord-dimensional subspaces of C_K, and R over
// the rows-dimensional subspaces of C_K / U', each represented by the one subspace of the span of
// the C_K basis vectors at the non-pivot coordinates of U' (in reduced echelon form).
struct LeafProblem {
  int k = 0;  // P: offset bits 0..k-1
  uint32_t prefix[kLeafBits] = {};
  int m = 0;  // dim C_K
  uint32_t basis[kLeafBits] = {};
  int u0Count = 0;  // the in-word vectors of P
  uint32_t u0[kLeafBits] = {};
  int inWord = 0, rows = 0;  // dim U', dim R
  int sides = 0;
  LeafSide side[2];
  // gauss[n][k]: the number of k-dimensional subspaces of F2^n (the Gaussian binomial), in the
  // recursion that unrankSubspace follows, saturated at kLeafSaturated. setGauss fills it.
  uint64_t gauss[kLeafBits + 1][kLeafBits + 1] = {};
};

F2LAY_LEAF_FN inline uint64_t saturatedProduct(uint64_t a, uint64_t b) {
  if (a == 0 || b == 0) return 0;
  return a > kLeafSaturated / b ? kLeafSaturated : a * b;
}

// A subspace of F2^k has a reduced echelon basis whose rows' lowest set bits (pivots) differ and
// are clear in every other row. Column 0 is either a pivot, whose row is free at the n - k
// non-pivot columns above it, or in no row: [n, k] = 2^(n-k) [n-1, k-1] + [n-1, k].
inline void setGauss(LeafProblem& p) {
  for (int n = 0; n <= kLeafBits; ++n)
    for (int k = 0; k <= kLeafBits; ++k) {
      if (k == 0) {
        p.gauss[n][k] = 1;
      } else if (k > n) {
        p.gauss[n][k] = 0;
      } else {
        uint64_t sum =
            saturatedProduct(uint64_t{1} << (n - k), p.gauss[n - 1][k - 1]) + p.gauss[n - 1][k];
        p.gauss[n][k] = sum > kLeafSaturated ? kLeafSaturated : sum;
      }
    }
}

// The subspace of index `index` (below gauss[n][k]) among the k-dimensional subspaces of F2^n:
// its reduced echelon rows, as masks over the n columns, lowest pivot first.
F2LAY_LEAF_FN inline void unrankSubspace(const LeafProblem& p, int n, int k, uint64_t index,
                                         uint32_t* rows) {
  bool pivot[kLeafBits] = {};
  uint32_t freeBits[kLeafBits] = {};
  int decided = 0;
  for (int nn = n, kk = k; kk > 0; ++decided, --nn) {
    int f = nn - kk;
    uint64_t withPivot = saturatedProduct(uint64_t{1} << f, p.gauss[nn - 1][kk - 1]);
    if (index < withPivot) {
      pivot[decided] = true;
      freeBits[decided] = static_cast<uint32_t>(index & ((uint64_t{1} << f) - 1));
      index >>= f;
      --kk;
    } else {
      index -= withPivot;
    }
  }
  // Top down: a pivot's free bits go, lowest first, to the non-pivot columns above it.
  uint32_t nonPivotsAbove = ((1u << n) - 1) & ~((1u << decided) - 1);
  int r = k;
  for (int col = decided - 1; col >= 0; --col) {
    if (!pivot[col]) {
      nonPivotsAbove |= 1u << col;
      continue;
    }
    uint32_t row = 1u << col;
    int bit = 0;
    for (uint32_t cols = nonPivotsAbove; cols != 0; cols &= cols - 1, ++bit)
      if (freeBits[col] >> bit & 1) row |= cols & (~cols + 1);
    rows[--r] = row;
  }
}

// An echelon form, one vector per top bit.
struct LeafSpan {
  uint32_t byTop[kLeafBits] = {};
  F2LAY_LEAF_FN bool insert(uint32_t x) {
    for (int top = kLeafBits - 1; top >= 0; --top) {
      if ((x >> top & 1) == 0) continue;
      if (byTop[top] == 0) {
        byTop[top] = x;
        return true;
      }
      x ^= byTop[top];
    }
    return false;
  }
};

F2LAY_LEAF_FN inline uint64_t leafCount(const LeafProblem& p) {
  return saturatedProduct(p.gauss[p.m][p.inWord], p.gauss[p.m - p.inWord][p.rows]);
}

// Leaf t's U' and R as tensor vectors (inWord and rows of them).
F2LAY_LEAF_FN inline void leafVectors(const LeafProblem& p, uint64_t t, uint32_t* inWord,
                                      uint32_t* rows) {
  uint64_t perU = p.gauss[p.m - p.inWord][p.rows];
  uint32_t coords[kLeafBits];
  auto vectorOf = [&](uint32_t c) {
    uint32_t v = 0;
    for (int i = 0; i < p.m; ++i)
      if (c >> i & 1) v ^= p.basis[i];
    return v;
  };
  unrankSubspace(p, p.m, p.inWord, t / perU, coords);
  uint32_t pivots = 0;
  for (int i = 0; i < p.inWord; ++i) {
    pivots |= coords[i] & (~coords[i] + 1);
    inWord[i] = vectorOf(coords[i]);
  }
  int complement[kLeafBits], n = 0;
  for (int i = 0; i < p.m; ++i)
    if ((pivots >> i & 1) == 0) complement[n++] = i;
  unrankSubspace(p, n, p.rows, t % perU, coords);
  for (int i = 0; i < p.rows; ++i) {
    uint32_t c = 0;
    for (int b = 0; b < n; ++b)
      if (coords[i] >> b & 1) c |= 1u << complement[b];
    rows[i] = vectorOf(c);
  }
}

// Leaf t's wavefronts: per side phases * 2^c, c = dim(Q & V) - dim(Q & U) with U = span(P's
// in-word vectors, U'), V = U + R. As R is independent of U, c = rows - (how many of R's vectors
// raise the rank of Q + U). `c` (if given) receives each side's c.
F2LAY_LEAF_FN inline uint64_t leafTotal(const LeafProblem& p, uint64_t t, int* c = nullptr) {
  uint32_t inWord[kLeafBits], rows[kLeafBits];
  leafVectors(p, t, inWord, rows);
  uint64_t total = 0;
  for (int x = 0; x < p.sides; ++x) {
    LeafSpan qu;
    for (int i = 0; i < p.side[x].count; ++i) qu.insert(p.side[x].phase[i]);
    for (int i = 0; i < p.u0Count; ++i) qu.insert(p.u0[i]);
    for (int i = 0; i < p.inWord; ++i) qu.insert(inWord[i]);
    int cx = p.rows;
    for (int i = 0; i < p.rows; ++i) cx -= qu.insert(rows[i]) ? 1 : 0;
    if (c != nullptr) c[x] = cx;
    total += p.side[x].phases << cx;
  }
  return total;
}

}  // namespace f2lay::testkit
