// libFuzzer target: the layout readers (JSON, Triton text, MLIR attribute,
// CuTe's text; TTGIR modules are ttgir_fuzzer.cpp's). The first byte picks
// the reader (or format detection; '4' is CuTe's text, formats/cute_text.h,
// whose byte 52 was JSON's before), the rest is the text. Bad input must end in
// f2lay::Error; anything else escaping is a crash. A layout that reads must,
// in every format that can hold it, write and read back to itself, and with
// a word after it be refused; read as JSON, it is the layout nlohmann's own
// parser finds in the text (plainJson).
#include <cctype>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "formats/cute_text.h"
#include "formats/error.h"
#include "formats/formats.h"
#include "fuzz/fuzz_support.h"
#include "reference/catalog/cute.h"

namespace {

// CuTe's text: it reads, writes in both spellings and reads back to the
// same value; where the catalog makes it a layout (cute.h), the layout's own
// CuTe text reads back to the same layout.
void fuzzCuteText(std::string_view text) {
  f2lay::CuteText cute;
  try {
    cute = f2lay::readCuteText(text);
  } catch (const f2lay::Error&) {
    return;
  }
  for (f2lay::CuteStyle style : {f2lay::CuteStyle::Cpp, f2lay::CuteStyle::Pycute}) {
    std::string written = f2lay::writeCuteText(cute, style);
    f2lay::CuteText again;
    try {
      again = f2lay::readCuteText(written);
    } catch (const f2lay::Error&) {
      f2lay::fuzz::fail("readers", "CuTe text that was read does not read back from its writing");
    }
    if (!(again == cute)) f2lay::fuzz::fail("readers", "CuTe text changed on writing and reading");
  }
  f2lay::ref::LinearLayout layout;
  try {
    layout = f2lay::ref::catalog::cuteTextLayout(cute);
  } catch (const f2lay::Error&) {
    return;  // not linear over F2, or not CuTe's parameters: refused, with a message
  }
  f2lay::CuteText canonical;
  try {
    canonical = f2lay::ref::catalog::layoutCuteText(layout);
  } catch (const f2lay::Error&) {
    f2lay::fuzz::fail("readers", "a layout read from CuTe's text has no CuTe text");
  }
  if (!(f2lay::ref::catalog::cuteTextLayout(canonical) == layout))
    f2lay::fuzz::fail("readers", "CuTe's text of a layout read from CuTe's text is another layout");
}

// The layout a JSON text holds, read by nlohmann's own parser rather than
// f2lay's reader (README.md, Formats): {"in_dims": [{"name", "bases"}...],
// "out_dims": [{"name", "size"}...]}, those keys exactly, none twice in an
// object (told by the parser's key events: parse() keeps the last silently),
// every number a non-negative integer (-0 too). The reader may refuse more (sizes not
// powers of two, bases out of range), never less: nullopt where the text is
// not one.
std::optional<f2lay::LayoutValue> plainJson(std::string_view text) {
  bool repeated = false;
  std::vector<std::set<std::string>> open;
  auto events = [&](int, nlohmann::json::parse_event_t e, nlohmann::json& parsed) {
    using E = nlohmann::json::parse_event_t;
    if (e == E::object_start) open.emplace_back();
    if (e == E::object_end) open.pop_back();
    if (e == E::key && !open.back().insert(parsed.get<std::string>()).second) repeated = true;
    return true;
  };
  nlohmann::json j = nlohmann::json::parse(text, events, false);
  auto natural = [](const nlohmann::json& x) {
    return x.is_number_unsigned() || (x.is_number_integer() && x.get<int64_t>() == 0);
  };
  auto keysAre = [](const nlohmann::json& o, std::set<std::string> want) {
    if (!o.is_object()) return false;
    std::set<std::string> got;
    for (const auto& item : o.items()) got.insert(item.key());
    return got == want;
  };
  if (repeated || !keysAre(j, {"in_dims", "out_dims"}) || !j["in_dims"].is_array() ||
      !j["out_dims"].is_array())
    return std::nullopt;
  f2lay::LayoutValue l;
  for (const auto& d : j["out_dims"]) {
    if (!keysAre(d, {"name", "size"}) || !d["name"].is_string() || !natural(d["size"]))
      return std::nullopt;
    l.out_dims.push_back({d["name"].get<std::string>(), d["size"].get<uint64_t>()});
  }
  for (const auto& d : j["in_dims"]) {
    if (!keysAre(d, {"name", "bases"}) || !d["name"].is_string() || !d["bases"].is_array())
      return std::nullopt;
    f2lay::InDim in{d["name"].get<std::string>(), {}};
    for (const auto& b : d["bases"]) {
      if (!b.is_array()) return std::nullopt;
      f2lay::Basis basis;
      for (const auto& x : b) {
        if (!natural(x)) return std::nullopt;
        basis.push_back(x.get<uint64_t>());
      }
      in.bases.push_back(basis);
    }
    l.in_dims.push_back(in);
  }
  return l;
}

// The MLIR attribute as formats/mlir_attr.h defines it (Triton's
// LinearEncodingAttr): the four in dims, each a key of the text exactly once
// (a word followed by '='), read in the order register, lane, warp, block
// whatever the text's order.
bool mlirDimsAsDefined(std::string_view text, const f2lay::LayoutValue& l) {
  const std::string names[] = {"register", "lane", "warp", "block"};
  if (l.in_dims.size() != 4) return false;
  auto wordChar = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (int k = 0; k < 4; ++k) {
    if (l.in_dims[k].name != names[k]) return false;
    int keys = 0;
    for (size_t at = text.find(names[k]); at != std::string_view::npos;
         at = text.find(names[k], at + 1)) {
      size_t end = at + names[k].size();
      while (end < text.size() && std::isspace(static_cast<unsigned char>(text[end]))) ++end;
      keys += (at == 0 || !wordChar(text[at - 1])) && end < text.size() && text[end] == '=';
    }
    if (keys != 1) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  using f2lay::Format;
  const Format formats[] = {Format::Json, Format::TritonText, Format::Mlir};
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] == '4') {
    fuzzCuteText(text);
    return 0;
  }
  int pick = data[0] % 4;
  f2lay::LayoutValue layout;
  try {
    layout = pick == 3 ? f2lay::readLayout(text) : f2lay::readLayout(text, formats[pick]);
  } catch (const f2lay::Error&) {
    return 0;  // refused, with a message: what bad input must get
  }
  if (pick == 0 && plainJson(text) != layout)
    f2lay::fuzz::fail("readers", "JSON that reads is not the layout nlohmann's parser reads in it");
  bool mlir = pick == 2 || (pick == 3 && f2lay::detectFormat(text) == Format::Mlir);
  if (mlir && !mlirDimsAsDefined(text, layout))
    f2lay::fuzz::fail("readers",
                      "MLIR that reads does not name each in dim once, or came back in "
                      "another order than register, lane, warp, block");
  // A layout ends where its text does: another word after it is refused.
  try {
    std::string more = std::string(text) + " x";
    pick == 3 ? f2lay::readLayout(more) : f2lay::readLayout(more, formats[pick]);
    f2lay::fuzz::fail("readers", "a layout read with a word after it");
  } catch (const f2lay::Error&) {
  }
  for (Format f : formats) {
    std::string written;
    try {
      written = f2lay::writeLayout(layout, f);
    } catch (const f2lay::Error&) {
      continue;  // a format that cannot hold this layout says so
    }
    f2lay::LayoutValue again;
    try {
      again = f2lay::readLayout(written, f);
    } catch (const f2lay::Error&) {
      f2lay::fuzz::fail("readers",
                        "a layout that was read does not read back from its own writing");
    }
    if (!(again == layout))
      f2lay::fuzz::fail("readers", "writing and reading back changed the layout");
  }
  return 0;
}
