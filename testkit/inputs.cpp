#include "testkit/inputs.h"

#include <random>

#include "testkit/columns.h"

namespace f2lay::testkit {

std::vector<uint64_t> inputsToCheck(int bits, uint64_t seed) {
  std::vector<uint64_t> xs;
  if (bits <= 12) {
    for (uint64_t x = 0; x <= lowBits(bits); ++x) xs.push_back(x);
    return xs;
  }
  xs.push_back(0);
  for (int j = 0; j < bits; ++j) xs.push_back(uint64_t{1} << j);
  xs.push_back(lowBits(bits));
  for (int top = 1; top <= 8; ++top) xs.push_back(lowBits(bits) & ~lowBits(bits - top));
  std::mt19937_64 rng(seed ^ static_cast<uint64_t>(bits));
  for (int k = 0; k < 16; ++k) xs.push_back(rng() & lowBits(bits));
  return xs;
}

}  // namespace f2lay::testkit
