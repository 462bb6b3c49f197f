#include "testkit/random_layout.h"

namespace f2lay::testkit {

LayoutValue randomLayout(std::mt19937_64& rng, const std::vector<std::string>& inNames,
                         const std::vector<std::string>& outNames, int maxBits) {
  LayoutValue l;
  for (const std::string& n : outNames)
    l.out_dims.push_back({n, uint64_t{1} << (rng() % (maxBits + 1))});
  for (const std::string& n : inNames) {
    int bits = static_cast<int>(rng() % (maxBits + 1));
    l.in_dims.push_back({n, drawBases(bits, l.out_dims, [&](uint64_t size) {
                           return rng() % 4 == 0 ? 0 : rng() % size;
                         })});
  }
  return l;
}

}  // namespace f2lay::testkit
