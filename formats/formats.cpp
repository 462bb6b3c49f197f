#include "formats/formats.h"

#include "formats/json_format.h"
#include "formats/mlir_attr.h"
#include "formats/triton_text.h"

namespace f2lay {

std::optional<Format> formatFromName(std::string_view name) {
  if (name == "json") return Format::Json;
  if (name == "triton") return Format::TritonText;
  if (name == "mlir") return Format::Mlir;
  return std::nullopt;
}

Format detectFormat(std::string_view text) {
  size_t i = text.find_first_not_of(" \t\r\n");
  if (i != std::string_view::npos && text[i] == '{') return Format::Json;
  if (i != std::string_view::npos && text[i] == '#') return Format::Mlir;
  return Format::TritonText;
}

LayoutValue readLayout(std::string_view text, Format format) {
  switch (format) {
    case Format::Json:
      return readJsonLayout(text);
    case Format::TritonText:
      return readTritonText(text);
    case Format::Mlir:
      return readMlirAttr(text);
  }
  return {};
}

LayoutValue readLayout(std::string_view text) { return readLayout(text, detectFormat(text)); }

std::string writeLayout(const LayoutValue& layout, Format format) {
  switch (format) {
    case Format::Json:
      return writeJsonLayout(layout);
    case Format::TritonText:
      return writeTritonText(layout) + "\n";
    case Format::Mlir:
      return writeMlirAttr(layout) + "\n";
  }
  return {};
}

}  // namespace f2lay
