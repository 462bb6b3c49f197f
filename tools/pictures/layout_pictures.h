// Pictures of one layout (`f2lay show --svg`, f2lay.show):
//
// - a distributed layout (in dims among register, lane, warp, block): the
//   tensor as a grid, each element's cell colored by the warp and lane that
//   hold it (palette.h) and labelled "T<lane> R<register>"; a legend of the
//   colors; the elements held more than once (broadcast) listed with all
//   their holders, and those held by nobody counted.
// - a memory layout (in dims offset and optionally block, as the catalog's
//   shared layouts give them; padded ones at their padded addresses): each
//   element's cell labelled with its offset and colored by the bank of its
//   first byte (32 banks of 4 bytes; `elementBytes` per element), with a
//   legend of the banks.
//
// Each draws at (x, y) into an Svg and returns the bottom edge. Throws
// f2lay::Error for a layout of other in dims, one of more than
// kMostElements elements, or one with more than 2^22 inputs.
#pragma once

#include <string>

#include "analysis/padding.h"
#include "reference/linear_layout.h"
#include "tools/pictures/svg.h"

namespace f2lay::tools::pictures {

enum class LayoutKind { kDistributed, kMemory };

// Distributed or memory, from the in dims; throws f2lay::Error naming them
// when they are neither.
LayoutKind layoutKind(const ref::LinearLayout& layout);

double drawDistributed(Svg& svg, double x, double y, const ref::LinearLayout& layout,
                       const std::string& title, const std::string& idPrefix = "");

double drawMemory(Svg& svg, double x, double y, const ref::LinearLayout& layout,
                  const analysis::Padding& padding, uint64_t elementBytes, const std::string& title,
                  const std::string& idPrefix = "");

}  // namespace f2lay::tools::pictures
