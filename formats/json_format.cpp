#include "formats/json_format.h"

#include <algorithm>
#include <string>
#include <vector>

#include "formats/error.h"

namespace f2lay {

namespace {

void requireObjectWithKeys(const Json& json, const std::string& where,
                           std::initializer_list<const char*> keys) {
  if (!json.is_object()) throw Error(where + ": expected a JSON object");
  for (const char* key : keys)
    if (!json.contains(key)) throw Error(where + ": missing key \"" + std::string(key) + "\"");
  for (const auto& [key, value] : json.items()) {
    bool known = false;
    for (const char* k : keys) known = known || key == k;
    if (!known) throw Error(where + ": unknown key \"" + key + "\"");
  }
}

const Json& arrayAt(const Json& json, const char* key, const std::string& where) {
  const Json& a = json.at(key);
  if (!a.is_array()) throw Error(where + "." + key + ": expected a JSON array");
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
  if (json.is_number_integer()) throw Error(where + ": " + json.dump() + " is negative");
  throw Error(where + ": expected a non-negative integer below 2^64, found " + describeJson(json));
}

std::string nameFromJson(const Json& json, const std::string& where) {
  if (!json.is_string()) throw Error(where + ": expected a string");
  std::string name = json.get<std::string>();
  if (!isIdentifier(name))
    throw Error(where + ": \"" + name + "\" is not an identifier ([A-Za-z_][A-Za-z0-9_.]*)");
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
    dim.bases.reserve(std::min(bases.size(), static_cast<size_t>(kMaxInBits) + 1));
    for (size_t i = 0; i < bases.size(); ++i) {
      // The path of a basis and of its values, built only for an error
      // message: a string per value was a sixth of an oracle request's time.
      auto bat = [&] { return at + ".bases[" + std::to_string(i) + "]"; };
      if (!bases[i].is_array()) throw Error(bat() + ": expected a JSON array");
      Basis basis;
      basis.reserve(bases[i].size());
      for (size_t k = 0; k < bases[i].size(); ++k) {
        const Json& value = bases[i][k];
        basis.push_back(value.is_number_unsigned()
                            ? value.get<uint64_t>()
                            : unsignedFromJson(value, bat() + "[" + std::to_string(k) + "]"));
      }
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
  // Every key first, then the values filled in place: an ordered_json object
  // copies its values when it grows (see StrictDomBuilder::grow below).
  Json json = {{"in_dims", Json::array()}, {"out_dims", Json::array()}};
  Json& ins = json["in_dims"];
  for (const InDim& d : layout.in_dims) {
    ins.push_back(Json{{"name", d.name}, {"bases", Json::array()}});
    Json& bases = ins.back()["bases"];
    for (const Basis& b : d.bases) bases.push_back(b);
  }
  Json& outs = json["out_dims"];
  for (const OutDim& d : layout.out_dims) outs.push_back(Json{{"name", d.name}, {"size", d.size}});
  return json;
}

namespace {

// nlohmann's SAX events built into a DOM, as its own parser builds one, with
// parseJson's two rules checked on the way. (A parse callback can check them
// too, but nlohmann's callback parser makes a Json of each value and key to
// show it, and a set of the keys per object allocated a node per key.)
class StrictDomBuilder {
 public:
  explicit StrictDomBuilder(Json& root) : root_(root) {}

  bool null() { return add(nullptr); }
  bool boolean(bool v) { return add(v); }
  bool number_integer(Json::number_integer_t v) { return add(v); }
  bool number_unsigned(Json::number_unsigned_t v) { return add(v); }
  bool number_float(Json::number_float_t v, const Json::string_t&) { return add(v); }
  bool string(Json::string_t& v) { return add(std::move(v)); }
  bool binary(Json::binary_t& v) { return add(Json::binary(std::move(v))); }  // not in JSON text
  bool start_object(size_t) { return open(Json::object()); }
  bool start_array(size_t) { return open(Json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(Json::string_t& k) {
    Json::object_t& members = open_.back()->get_ref<Json::object_t&>();
    // A scan, as ordered_json's own insert does: a long object costs what
    // nlohmann's parser already spends on it.
    for (const auto& member : members)
      if (member.first == k) throw Error("key \"" + k + "\" appears twice in one object");
    if (members.size() == members.capacity()) grow(members);
    members.emplace_back(k, nullptr);
    member_ = &members.back().second;
    return true;
  }
  template <class Exception>
  bool parse_error(size_t, const std::string&, const Exception& e) {
    throw e;
  }

 private:
  // Places a value: the root, the next element of the innermost open array,
  // or the value of the key just read.
  Json* place(Json value) {
    if (open_.empty()) return &(root_ = std::move(value));
    Json& parent = *open_.back();
    if (!parent.is_array()) return &(*member_ = std::move(value));
    parent.push_back(std::move(value));
    return &parent.back();
  }
  bool add(Json value) {
    place(std::move(value));
    return true;
  }
  // Arrays and objects open here are the ones nlohmann's parser is inside of:
  // only the innermost grows, so the pointers to the others stay valid.
  bool open(Json container) {
    if (open_.size() >= static_cast<size_t>(kMaxJsonDepth))
      throw Error("arrays and objects nested deeper than " + std::to_string(kMaxJsonDepth) +
                  " levels");
    open_.push_back(place(std::move(container)));
    return true;
  }
  bool close() {
    open_.pop_back();
    return true;
  }
  // ordered_json keeps an object's members in a vector of pairs with a const
  // key, which the vector cannot move without a possible throw: growing it
  // copies every value, and a value parsed so far may be a whole layout (the
  // request's "self" when "other" arrives: an eighth of a 32-bit compose
  // request's time). Grown here by moving the values, only keys are copied.
  static void grow(Json::object_t& members) {
    Json::object_t grown;
    grown.reserve(std::max<size_t>(4, 2 * members.size()));
    for (auto& [key, value] : members) grown.emplace_back(key, std::move(value));
    members.swap(grown);
  }

  Json& root_;
  std::vector<Json*> open_;
  Json* member_ = nullptr;
};

}  // namespace

Json parseJson(std::string_view text) {
  // nlohmann's lexer takes a NUL byte for the end of input and ignores what
  // follows (nlohmann/json#1095, #5530); JSON text holds none (RFC 8259
  // escapes control characters inside strings), so it is refused here.
  if (size_t nul = text.find('\0'); nul != std::string_view::npos)
    throw Error("a NUL byte at offset " + std::to_string(nul) + " (JSON text holds none)");
  Json json;
  StrictDomBuilder builder(json);
  try {
    Json::sax_parse(text, &builder);
  } catch (const Json::exception& e) {
    // parse_error, and out_of_range for a number like 1e400 that overflows.
    throw Error(e.what());
  }
  return json;
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
