// Random layouts for the analysis tests: Def 4.10 distributed layouts (each
// in bit a distinct tensor bit or zero) over a 2-D tensor, and random
// invertible memory layouts. Deterministic for a given engine.
#pragma once

#include <algorithm>
#include <random>
#include <vector>

#include "reference/linear_layout.h"

namespace f2lay::ref::analysis::testing {

struct TensorShape {
  int rowBits, colBits;  // out dims dim0 (2^rowBits), dim1 (2^colBits)
  int bits() const { return rowBits + colBits; }
};

// Unit vector k of the tensor as a basis [dim0, dim1] (dim0 in the low bits).
inline Basis unit(const TensorShape& t, int k) {
  return k < t.rowBits ? Basis{uint64_t{1} << k, 0} : Basis{0, uint64_t{1} << (k - t.rowBits)};
}

// register, lane (32), warp (2^warpBits) -> the tensor, every tensor bit used
// once, with `zeroLanes` lanes and `zeroRegisters` registers broadcasting.
// Needs bits() >= 5 - zeroLanes + warpBits.
inline LinearLayout randomDistributed(std::mt19937_64& rng, const TensorShape& t, int warpBits,
                                      int zeroLanes = 0, int zeroRegisters = 0) {
  std::vector<int> perm(t.bits());
  for (int i = 0; i < t.bits(); ++i) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), rng);
  size_t next = 0;
  auto take = [&](int count, int zeros) {
    std::vector<Basis> bases;
    for (int i = 0; i < count; ++i) bases.push_back(unit(t, perm[next++]));
    for (int i = 0; i < zeros; ++i)
      bases.insert(bases.begin() + static_cast<long>(rng() % (bases.size() + 1)), Basis{0, 0});
    return bases;
  };
  std::vector<Basis> lane = take(5 - zeroLanes, zeroLanes);
  std::vector<Basis> warp = take(warpBits, 0);
  std::vector<Basis> reg = take(t.bits() - static_cast<int>(next), zeroRegisters);
  return LinearLayout(
      LayoutValue{{{"register", reg}, {"lane", lane}, {"warp", warp}},
                  {{"dim0", uint64_t{1} << t.rowBits}, {"dim1", uint64_t{1} << t.colBits}}});
}

// offset -> the tensor: a random invertible map whose columns are unit
// vectors, some xored with one lower-offset column's target (a swizzle).
inline LinearLayout randomMemory(std::mt19937_64& rng, const TensorShape& t) {
  std::vector<int> perm(t.bits());
  for (int i = 0; i < t.bits(); ++i) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), rng);
  std::vector<Basis> offset;
  for (int i = 0; i < t.bits(); ++i) {
    Basis b = unit(t, perm[i]);
    if (i > 0 && rng() % 2) {
      Basis lower = unit(t, perm[rng() % i]);
      b = {b[0] ^ lower[0], b[1] ^ lower[1]};
    }
    offset.push_back(b);
  }
  return LinearLayout(
      LayoutValue{{{"offset", offset}},
                  {{"dim0", uint64_t{1} << t.rowBits}, {"dim1", uint64_t{1} << t.colBits}}});
}

}  // namespace f2lay::ref::analysis::testing
