// The catalog fuzzer's input decoding (fuzz/catalog_fuzzer.cpp says what the
// target checks): parameters one byte a value, mostly small powers of two,
// one value in 16 off that range (kWild), with what the constructor must do
// with them.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "formats/layout_value.h"

namespace f2lay::fuzz::catalog_fuzz {

constexpr int kMaxInputBits = 12;

template <class T>
inline std::string list(const std::vector<T>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

inline bool isPermutation(std::vector<unsigned> order, size_t rank) {
  std::sort(order.begin(), order.end());
  for (size_t i = 0; i < order.size(); ++i)
    if (order[i] != i) return false;
  return order.size() == rank;
}

// Values off the small range, one in 16 draws: zero, not powers of two,
// powers of two too large for any layout (64 input bits at most).
constexpr uint64_t kWild[16] = {0,
                                3,
                                5,
                                6,
                                12,
                                24,
                                48,
                                1000,
                                uint64_t{1} << 20,
                                uint64_t{1} << 31,
                                uint64_t{1} << 32,
                                uint64_t{1} << 40,
                                uint64_t{1} << 62,
                                (uint64_t{1} << 62) + 1,
                                uint64_t{1} << 63,
                                ~uint64_t{0}};

// Decodes parameters, one byte a value, and keeps what the constructor must
// do with them: `broken` names the first value that breaks a stated rule (it
// must be refused); `wild` says some value was off the small range (it may
// be refused). Rules between values (one entry per dim, orders that are
// permutations) are checked by each family on the values decoded, since two
// changes can cancel out. `budget` is the log2 left for the sizes that
// become inputs.
class Decoder {
 public:
  explicit Decoder(FuzzedDataProvider& in) : in_(in) {}

  std::string broken;
  bool wild = false;
  int budget = kMaxInputBits;

  void require(bool rule, const std::string& what) {
    if (!rule && broken.empty()) broken = what;
  }
  int pick(int lo, int hi) { return in_.ConsumeIntegralInRange(lo, hi); }
  bool flag() { return in_.ConsumeBool(); }
  bool oneIn16() { return in_.ConsumeIntegral<uint8_t>() >= 240; }

  // 2^0..2^maxLog2 within the budget, or one in 16 a value of kWild, which
  // breaks the rule when it is not a power of two.
  uint64_t size(const std::string& name, int maxLog2) {
    uint8_t b = in_.ConsumeIntegral<uint8_t>();
    if (b >= 240) {
      wild = true;
      uint64_t v = kWild[b - 240];
      require(isPowerOfTwo(v), name + " = " + std::to_string(v) + " is not a power of two");
      return v;
    }
    int k = std::max(0, std::min(b % (maxLog2 + 1), budget));
    budget -= k;
    return uint64_t{1} << k;
  }
  // `rank` sizes, or one in 16 a list one entry too long or too short.
  std::vector<uint64_t> sizes(const std::string& name, size_t rank, int maxLog2) {
    size_t n = length(rank);
    std::vector<uint64_t> v;
    for (size_t i = 0; i < n; ++i) v.push_back(size(name + "[" + std::to_string(i) + "]", maxLog2));
    return v;
  }
  // sizes() outside the budget: a distributed layout's shape costs inputs
  // only where it exceeds the tile (a larger layout is not compared).
  std::vector<uint64_t> shape(size_t rank, int maxLog2) {
    int saved = budget;
    budget = 64;
    std::vector<uint64_t> v = sizes("shape", rank, maxLog2);
    budget = saved;
    return v;
  }
  // A permutation of 0..rank-1, or one in 16 a list with one entry changed,
  // added or removed.
  std::vector<unsigned> order(size_t rank) {
    std::vector<unsigned> o(rank);
    std::iota(o.begin(), o.end(), 0u);
    for (size_t i = rank; i > 1; --i) std::swap(o[i - 1], o[pick(0, static_cast<int>(i) - 1)]);
    if (oneIn16()) {
      wild = true;
      int how = pick(0, 2);
      if (how == 0 && rank > 0)
        o[pick(0, static_cast<int>(rank) - 1)] = pick(0, static_cast<int>(rank));
      if (how == 1) o.push_back(static_cast<unsigned>(rank));
      if (how == 2 && rank > 0) o.pop_back();
    }
    return o;
  }
  // One entry per dim, every family's rule.
  template <class T>
  void requireLength(const std::string& name, const std::vector<T>& v, size_t rank) {
    require(v.size() == rank, name + " = " + list(v) + " for rank " + std::to_string(rank));
  }
  void requirePermutation(const std::string& name, const std::vector<unsigned>& order,
                          size_t rank) {
    require(
        isPermutation(order, rank),
        name + " = " + list(order) + " is not a permutation of 0.." + std::to_string(rank) + "-1");
  }
  // lo..hi, or one in 16 one past either end.
  size_t rank(size_t lo, size_t hi) {
    uint8_t b = in_.ConsumeIntegral<uint8_t>();
    if (b >= 240) {
      wild = true;
      return b % 2 ? hi + 1 : lo - 1;
    }
    return lo + b % (hi - lo + 1);
  }

 private:
  size_t length(size_t rank) {
    if (!oneIn16()) return rank;
    wild = true;
    return flag() || rank == 0 ? rank + 1 : rank - 1;
  }

  FuzzedDataProvider& in_;
};

}  // namespace f2lay::fuzz::catalog_fuzz
