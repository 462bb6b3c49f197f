#include "testing/random_tensor_layouts.h"

#include <algorithm>
#include <vector>

namespace f2lay::testing {

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

}  // namespace f2lay::testing
