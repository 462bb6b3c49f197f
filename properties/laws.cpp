#include "properties/laws.h"

namespace f2lay::properties {

void addAlgebraLaws(std::map<std::string, Law>& laws);
void addAnalysisLaws(std::map<std::string, Law>& laws);
void addShapeLaws(std::map<std::string, Law>& laws);

const std::map<std::string, Law>& laws() {
  static const std::map<std::string, Law> all = [] {
    std::map<std::string, Law> m;
    addAlgebraLaws(m);
    addAnalysisLaws(m);
    addShapeLaws(m);
    return m;
  }();
  return all;
}

}  // namespace f2lay::properties
