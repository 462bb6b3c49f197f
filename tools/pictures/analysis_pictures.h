// Pictures of analyses (`f2lay show --svg` given a request, f2lay.show):
//
// - the bank scope of one warp instruction of a bank_conflicts request:
//   shared memory as rows of 128 bytes (the byte address / 128) by the 32
//   banks, each word the instruction touches colored by its bank and labelled
//   with the lanes (or ldmatrix rows) that touch it, so that a conflict shows
//   as several words stacked in one bank's column; under it, per bank, a bar
//   as tall as the distinct words touched there; the instruction's wavefronts
//   (the H100 rule) in the heading.
// - an optimal_swizzle request: the optimum (swizzle_optimum.h), §5.4's
//   construction and the unswizzled layout (order: the last dim fastest) side
//   by side, each with the wavefronts of A's stores and B's loads at the
//   vector widths it uses (bank_conflicts).
// - a conversion (classify_conversion, shuffle_plan, gather_plan: "self" and
//   "other"): A and B side by side, under the kind of the conversion.
#pragma once

#include <cstdint>

#include "formats/json_format.h"
#include "tools/pictures/svg.h"

namespace f2lay::tools::pictures {

double drawBankScope(Svg& svg, double x, double y, const Json& request, uint64_t warp,
                     uint64_t instruction);

double drawOptimalSwizzle(Svg& svg, double x, double y, const Json& request);

double drawConversion(Svg& svg, double x, double y, const Json& request);

}  // namespace f2lay::tools::pictures
