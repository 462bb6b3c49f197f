#include "properties/case.h"

#include <rapidcheck.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "formats/error.h"
#include "properties/laws.h"
#include "testkit/outcome.h"

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

// The file a failure of `law` goes to in this run: a new one per law and
// process (named by the first failing case), overwritten while RapidCheck
// shrinks, so that earlier regression files are never replaced.
std::string regressionPath(const std::string& law, const Json& first) {
  static std::map<std::string, std::string> paths;
  auto [it, added] = paths.try_emplace(law);
  if (added) {
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016zx", std::hash<std::string>{}(first.dump()));
    it->second = regressionsDir() + "/" + law + "-" + hash + ".json";
  }
  return it->second;
}

std::string check(const std::string& law, const Case& c, bool keep) {
  auto it = laws().find(law);
  if (it == laws().end()) throw Error("no law named '" + law + "'");
  std::string reason = testkit::outcome([&] { return it->second(c); });
  if (!reason.empty() && keep) {
    Json json = caseToJson(c);
    std::filesystem::create_directories(regressionsDir());
    std::ofstream out(regressionPath(law, json));
    out << Json{{"law", law}, {"case", json}, {"reason", reason}}.dump(1) << "\n";
  }
  return reason;
}

bool holds(const std::string& law, const Case& c) {
  std::string reason = check(law, c, true);
  if (!reason.empty()) RC_LOG() << law << ": " << reason << "\n";
  return reason.empty();
}

}  // namespace f2lay::properties

namespace f2lay {
void showValue(const LayoutValue& v, std::ostream& os) { os << writeJsonLayout(v); }
}  // namespace f2lay
