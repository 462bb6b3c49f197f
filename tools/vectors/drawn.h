// The requests `f2lay vectors` draws for each family from fixed seeds, with
// properties/' generators (the layouts compilers see) and the catalog's
// conversion pairs. Their answers come from the oracle (vectors.cpp).
#pragma once

#include <rapidcheck.h>

#include <string>
#include <vector>

#include "formats/json_format.h"

namespace f2lay::tools {

// The value of a RapidCheck generator at draw `i` of a family seeded `seed`:
// rc::Random(seed + i) at a fixed size (below the 100 where Debian's
// RapidCheck misgenerates integers), which is deterministic.
template <class T>
T draw(const rc::Gen<T>& gen, uint64_t seed, int i) {
  constexpr int kSize = 60;
  return gen(rc::Random(seed + static_cast<uint64_t>(i)), kSize).value();
}

struct DrawnRequest {
  std::string name;
  Json request;
};

// The families, in file order: algebra, catalog, shape_operations,
// conversions, swizzles, bank_conflicts.
const std::vector<std::string>& vectorFamilies();
std::vector<DrawnRequest> drawnRequests(const std::string& family);
// The catalog family's (catalog_draws.cpp).
std::vector<DrawnRequest> catalogRequests();

}  // namespace f2lay::tools
