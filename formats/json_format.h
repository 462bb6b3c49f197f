// The JSON format of a layout, used by files, the oracle and golden vectors:
//
//   {"in_dims":  [{"name": "register", "bases": [[0, 1], [1, 0]]}, ...],
//    "out_dims": [{"name": "dim0", "size": 16}, {"name": "dim1", "size": 16}]}
//
// in_dims and out_dims are ordered; each basis lists one integer per out dim,
// in out_dims order. Both keys are required, no other key is allowed, and
// every number is a non-negative integer. The reader validates the result
// (layout_value.h) and names the JSON path of any problem.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "formats/layout_value.h"

namespace f2lay {

using Json = nlohmann::ordered_json;

// `where` prefixes error messages, e.g. "self" gives "self.in_dims[0]...".
LayoutValue layoutFromJson(const Json& json, const std::string& where = "layout");
Json layoutToJson(const LayoutValue& layout);

// Parses a JSON text strictly: a key repeated in one object is an error (no
// silent last-wins), and so is nesting deeper than kMaxJsonDepth levels (a
// layout needs 5; copying or printing a deeper value recurses once per level
// and could overflow the stack). Every problem throws f2lay::Error.
inline constexpr int kMaxJsonDepth = 64;
Json parseJson(std::string_view text);

// A whole document holding one layout.
LayoutValue readJsonLayout(std::string_view text);
std::string writeJsonLayout(const LayoutValue& layout);

// Reads a JSON number that must be an integer in [0, 2^64).
uint64_t unsignedFromJson(const Json& json, const std::string& where);
// A short description of a JSON value for error messages: "an array", "-3".
std::string describeJson(const Json& json);
// Reads a JSON string that must be an identifier.
std::string nameFromJson(const Json& json, const std::string& where);

}  // namespace f2lay
