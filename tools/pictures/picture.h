// `f2lay show --svg` and f2lay.show: one SVG picture of a layout or of a
// request, chosen by what is given:
//   a layout (JSON; with "padding" a padded memory layout)   its picture
//     (layout_pictures.h: distributed or memory, by its in dims)
//   {"op": "bank_conflicts", ...}                             the bank scope
//     of one instruction (analysis_pictures.h)
//   {"op": "optimal_swizzle", ...}                            the optimum,
//     §5.4's construction and unswizzled, with their wavefronts
//   {"op": "classify_conversion" | "shuffle_plan" | "gather_plan", "self",
//    "other", ...}                                            A and B
//   any other request whose answer is a layout (a catalog op)  that layout
// Throws f2lay::Error naming what is wrong (the op's own errors included).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "formats/json_format.h"

namespace f2lay::tools::pictures {

struct PictureOptions {
  // A memory layout's element size; when absent, the request's
  // "element_bitwidth" / 8 or "element_bytes", else 4.
  std::optional<uint64_t> elementBytes;
  uint64_t warp = 0;         // the bank scope's warp
  uint64_t instruction = 0;  // and its instruction
};

std::string svgPicture(const Json& input, const PictureOptions& options = {});

}  // namespace f2lay::tools::pictures
