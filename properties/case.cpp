#include "case.h"

#include <rapidcheck.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "error.h"
#include "laws.h"

namespace f2lay::properties {

Json caseToJson(const Case& c) {
  Json layouts = Json::array();
  for (const LayoutValue& l : c.layouts) layouts.push_back(layoutToJson(l));
  return {{"layouts", layouts}, {"params", c.params}};
}

Case caseFromJson(const Json& json) {
  if (!json.is_object() || !json.contains("layouts") || !json["layouts"].is_array())
    throw Error("case: expected an object with a \"layouts\" array, got " + describeJson(json));
  Case c;
  for (size_t i = 0; i < json["layouts"].size(); ++i)
    c.layouts.push_back(layoutFromJson(json["layouts"][i], "layouts[" + std::to_string(i) + "]"));
  if (json.contains("params")) {
    if (!json["params"].is_object())
      throw Error("case: \"params\" must be an object, got " + describeJson(json["params"]));
    c.params = json["params"];
  }
  return c;
}

std::string regressionsDir() {
  if (const char* dir = std::getenv("F2LAY_REGRESSIONS_DIR")) return dir;
  return F2LAY_REGRESSIONS_DIR;
}

std::string check(const std::string& law, const Case& c) {
  auto it = laws().find(law);
  if (it == laws().end()) throw Error("no law named '" + law + "'");
  std::string reason;
  try {
    reason = it->second(c);
  } catch (const Error& e) {
    reason = std::string("error: ") + e.what();
  }
  if (!reason.empty()) {
    std::filesystem::create_directories(regressionsDir());
    std::ofstream out(regressionsDir() + "/" + law + ".json");
    out << Json{{"law", law}, {"case", caseToJson(c)}, {"reason", reason}}.dump(1) << "\n";
  }
  return reason;
}

bool holds(const std::string& law, const Case& c) {
  std::string reason = check(law, c);
  if (!reason.empty()) RC_LOG() << law << ": " << reason << "\n";
  return reason.empty();
}

}  // namespace f2lay::properties

namespace f2lay {
void showValue(const LayoutValue& v, std::ostream& os) { os << writeJsonLayout(v); }
}  // namespace f2lay
