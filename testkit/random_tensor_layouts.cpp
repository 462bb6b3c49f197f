#include "testkit/random_tensor_layouts.h"

#include <algorithm>
#include <vector>

#include "testkit/columns.h"
#include "testkit/dims.h"

namespace f2lay::testkit {

std::vector<OutDim> TensorShape::outDims() const {
  return {{"dim0", uint64_t{1} << rowBits}, {"dim1", uint64_t{1} << colBits}};
}

Basis unit(const TensorShape& t, int k) {
  return k < t.rowBits ? Basis{uint64_t{1} << k, 0} : Basis{0, uint64_t{1} << (k - t.rowBits)};
}

std::vector<int> shuffledBits(std::mt19937_64& rng, const TensorShape& t) {
  std::vector<int> perm(t.bits());
  for (int i = 0; i < t.bits(); ++i) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), rng);
  return perm;
}

void insertZeros(std::mt19937_64& rng, std::vector<Basis>& bases, int zeros) {
  for (int i = 0; i < zeros; ++i)
    bases.insert(bases.begin() + static_cast<long>(rng() % (bases.size() + 1)), Basis{0, 0});
}

LayoutValue randomDistributed(std::mt19937_64& rng, const TensorShape& t, int warpBits,
                              int zeroLanes, int zeroRegisters) {
  std::vector<int> perm = shuffledBits(rng, t);
  size_t next = 0;
  auto take = [&](int count, int zeros) {
    std::vector<Basis> bases;
    for (int i = 0; i < count; ++i) bases.push_back(unit(t, perm[next++]));
    insertZeros(rng, bases, zeros);
    return bases;
  };
  std::vector<Basis> lane = take(5 - zeroLanes, zeroLanes);
  std::vector<Basis> warp = take(warpBits, 0);
  std::vector<Basis> reg = take(t.bits() - static_cast<int>(next), zeroRegisters);
  return {{{"register", reg}, {"lane", lane}, {"warp", warp}}, t.outDims()};
}

LayoutValue randomMemory(std::mt19937_64& rng, const TensorShape& t) {
  std::vector<int> perm = shuffledBits(rng, t);
  std::vector<Basis> offset;
  for (int i = 0; i < t.bits(); ++i) {
    Basis b = unit(t, perm[i]);
    if (i > 0 && rng() % 2) {
      Basis lower = unit(t, perm[rng() % i]);
      b = {b[0] ^ lower[0], b[1] ^ lower[1]};
    }
    offset.push_back(b);
  }
  return {{{"offset", offset}}, t.outDims()};
}

std::pair<LayoutValue, LayoutValue> randomDistributedPair(std::mt19937_64& rng, int minBits,
                                                          int bitSpan, int warpSpan) {
  int bits = minBits + static_cast<int>(rng() % bitSpan);
  TensorShape t{static_cast<int>(rng() % (bits + 1)), 0};
  t.colBits = bits - t.rowBits;
  int warpBits = static_cast<int>(rng() % warpSpan);
  auto side = [&] {
    int zeroLanes = rng() % 4 == 0 ? 1 : 0;
    return randomDistributed(rng, t, warpBits, zeroLanes, static_cast<int>(rng() % 2));
  };
  LayoutValue a = side();
  return {a, side()};
}

std::pair<LayoutValue, LayoutValue> throughBasisChange(std::mt19937_64& rng, const LayoutValue& a,
                                                       const LayoutValue& b) {
  const int d = totalBits(outDimBits(a));
  std::vector<uint64_t> t(d);  // T's columns: the identity, then column operations
  for (int i = 0; i < d; ++i) t[i] = uint64_t{1} << i;
  for (int step = 0; step < 4 * d; ++step) {
    int i = static_cast<int>(rng() % d), j = static_cast<int>(rng() % d);
    if (i != j) t[i] ^= t[j];
  }
  auto through = [&](const LayoutValue& l) {
    std::vector<uint64_t> cols = columnsOf(l);
    for (uint64_t& c : cols) {
      uint64_t image = 0;
      for (int i = 0; i < d; ++i)
        if (c >> i & 1) image ^= t[i];
      c = image;
    }
    return layoutOf(inDimBits(l), outDimBits(l), cols);
  };
  return {through(a), through(b)};
}

}  // namespace f2lay::testkit
