// One entry point for the three layout formats: JSON (json_format.h), Triton's
// toString text (triton_text.h) and the MLIR attribute (mlir_attr.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "formats/layout_value.h"

namespace f2lay {

enum class Format { Json, TritonText, Mlir };

// "json", "triton" or "mlir"; nullopt for anything else.
std::optional<Format> formatFromName(std::string_view name);
// By the first non-blank character: '{' is JSON, '#' is MLIR, else Triton text.
Format detectFormat(std::string_view text);

LayoutValue readLayout(std::string_view text, Format format);
LayoutValue readLayout(std::string_view text);  // detects the format
std::string writeLayout(const LayoutValue& layout, Format format);

}  // namespace f2lay
