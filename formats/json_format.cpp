#include "json_format.h"

#include <set>
#include <vector>

#include "error.h"

namespace f2lay {

namespace {

void requireObjectWithKeys(const Json& json, const std::string& where,
                           std::initializer_list<const char*> keys) {
  if (!json.is_object()) throw Error(where + ": expected a JSON object");
  for (const char* key : keys)
    if (!json.contains(key))
      throw Error(where + ": missing key \"" + std::string(key) + "\"");
  for (const auto& [key, value] : json.items()) {
    bool known = false;
    for (const char* k : keys) known = known || key == k;
    if (!known) throw Error(where + ": unknown key \"" + key + "\"");
  }
}

const Json& arrayAt(const Json& json, const char* key, const std::string& where) {
  const Json& a = json.at(key);
  if (!a.is_array())
    throw Error(where + "." + key + ": expected a JSON array");
  return a;
}

}  // namespace

std::string describeJson(const Json& json) {
  // Containers are named, not printed: they may be huge or deeply nested.
  if (json.is_object()) return "an object";
  if (json.is_array()) return "an array";
  if (json.is_string()) return "a string";
  return json.dump(-1, ' ', false, Json::error_handler_t::replace);
}

uint64_t unsignedFromJson(const Json& json, const std::string& where) {
  if (json.is_number_unsigned()) return json.get<uint64_t>();
  // A signed integer that is not negative (e.g. built in C++, or -0).
  if (json.is_number_integer() && json.get<int64_t>() >= 0) return json.get<uint64_t>();
  if (json.is_number_integer())
    throw Error(where + ": " + json.dump() + " is negative");
  throw Error(where + ": expected a non-negative integer below 2^64, found " +
              describeJson(json));
}

std::string nameFromJson(const Json& json, const std::string& where) {
  if (!json.is_string()) throw Error(where + ": expected a string");
  std::string name = json.get<std::string>();
  if (!isIdentifier(name))
    throw Error(where + ": \"" + name +
                "\" is not an identifier ([A-Za-z_][A-Za-z0-9_.]*)");
  return name;
}

LayoutValue layoutFromJson(const Json& json, const std::string& where) {
  requireObjectWithKeys(json, where, {"in_dims", "out_dims"});
  LayoutValue layout;
  const Json& outs = arrayAt(json, "out_dims", where);
  for (size_t k = 0; k < outs.size(); ++k) {
    std::string at = where + ".out_dims[" + std::to_string(k) + "]";
    requireObjectWithKeys(outs[k], at, {"name", "size"});
    layout.out_dims.push_back({nameFromJson(outs[k]["name"], at + ".name"),
                               unsignedFromJson(outs[k]["size"], at + ".size")});
  }
  const Json& ins = arrayAt(json, "in_dims", where);
  for (size_t d = 0; d < ins.size(); ++d) {
    std::string at = where + ".in_dims[" + std::to_string(d) + "]";
    requireObjectWithKeys(ins[d], at, {"name", "bases"});
    InDim dim{nameFromJson(ins[d]["name"], at + ".name"), {}};
    const Json& bases = arrayAt(ins[d], "bases", at);
    for (size_t i = 0; i < bases.size(); ++i) {
      std::string bat = at + ".bases[" + std::to_string(i) + "]";
      if (!bases[i].is_array()) throw Error(bat + ": expected a JSON array");
      Basis basis;
      for (size_t k = 0; k < bases[i].size(); ++k)
        basis.push_back(
            unsignedFromJson(bases[i][k], bat + "[" + std::to_string(k) + "]"));
      dim.bases.push_back(std::move(basis));
      if (dim.bases.size() > static_cast<size_t>(kMaxInBits))
        throw Error(at + ": more than " + std::to_string(kMaxInBits) + " bases");
    }
    layout.in_dims.push_back(std::move(dim));
  }
  try {
    validate(layout);
  } catch (const Error& e) {
    throw Error(where + ": " + e.what());
  }
  return layout;
}

Json layoutToJson(const LayoutValue& layout) {
  Json ins = Json::array();
  for (const InDim& d : layout.in_dims) {
    Json bases = Json::array();
    for (const Basis& b : d.bases) bases.push_back(b);
    ins.push_back(Json{{"name", d.name}, {"bases", bases}});
  }
  Json outs = Json::array();
  for (const OutDim& d : layout.out_dims)
    outs.push_back(Json{{"name", d.name}, {"size", d.size}});
  return Json{{"in_dims", ins}, {"out_dims", outs}};
}

Json parseJson(std::string_view text) {
  // Objects open at each level of nesting, with the keys seen so far.
  std::vector<std::set<std::string>> openObjects;
  auto check = [&openObjects](int depth, Json::parse_event_t event, Json& parsed) {
    using E = Json::parse_event_t;
    if ((event == E::array_start || event == E::object_start) && depth >= kMaxJsonDepth)
      throw Error("arrays and objects nested deeper than " +
                  std::to_string(kMaxJsonDepth) + " levels");
    if (event == E::object_start) openObjects.emplace_back();
    if (event == E::object_end) openObjects.pop_back();
    if (event == E::key && !openObjects.back().insert(parsed.get<std::string>()).second)
      throw Error("key \"" + parsed.get<std::string>() + "\" appears twice in one object");
    return true;
  };
  try {
    return Json::parse(text, check);
  } catch (const Json::exception& e) {
    // parse_error, and out_of_range for a number like 1e400 that overflows.
    throw Error(e.what());
  }
}

LayoutValue readJsonLayout(std::string_view text) {
  Json json;
  try {
    json = parseJson(text);
  } catch (const Error& e) {
    throw Error(std::string("JSON: ") + e.what());
  }
  return layoutFromJson(json, "layout");
}

std::string writeJsonLayout(const LayoutValue& layout) {
  return layoutToJson(layout).dump() + "\n";
}

}  // namespace f2lay
