// libFuzzer target: the layout readers (JSON, Triton text, MLIR attribute,
// CuTe's text; TTGIR modules are ttgir_fuzzer.cpp's). The first byte picks
// the reader (or format detection; '4' is CuTe's text, formats/cute_text.h,
// whose byte 52 was JSON's before), the rest is the text. Bad input must end in
// f2lay::Error; anything else escaping is a crash. A layout that reads must,
// in every format that can hold it, write and read back to itself; read as
// JSON, its text has exactly the format's keys.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>

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

// The JSON format's keys (README.md, Formats), looked up in the text by
// nlohmann's own parser, not f2lay's reader: a layout that reads has exactly
// these, {"in_dims": [{"name", "bases"}...], "out_dims": [{"name", "size"}...]}.
bool hasTheFormatsKeys(std::string_view text) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  auto keysAre = [](const nlohmann::json& o, std::set<std::string> want) {
    if (!o.is_object()) return false;
    std::set<std::string> got;
    for (const auto& item : o.items()) got.insert(item.key());
    return got == want;
  };
  if (!keysAre(j, {"in_dims", "out_dims"})) return false;
  for (const auto& d : j["in_dims"])
    if (!keysAre(d, {"name", "bases"})) return false;
  for (const auto& d : j["out_dims"])
    if (!keysAre(d, {"name", "size"})) return false;
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
  if (pick == 0 && !hasTheFormatsKeys(text))
    f2lay::fuzz::fail("readers", "JSON that reads has other keys than the format's, or none");
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
