// The requests `f2lay vectors` draws for each family from fixed seeds, with
// properties/' generators (the layouts compilers see) and the catalog's
// conversion pairs. Their answers come from the oracle (vectors.cpp).
#pragma once

#include <string>
#include <vector>

#include "json_format.h"

namespace f2lay::tools {

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
