// The colors of f2lay's pictures, as rules a reader can check against the
// legend each picture draws.
//
// Holders (a distributed layout's cells): the hue is the warp's (with blocks,
// block-major: warp w of block b is warp number b * warps + w), warps spread
// by the golden angle (137.5 degrees) so that neighbours differ and any number
// of warps gets distinct hues; the shade is the lane's, from light (lane 0) to
// dark (the last lane). Registers do not change the color: the cell's label
// "T<lane> R<register>" (CuTe's print_latex convention) says which register.
//
// Banks (memory layouts, the bank scope): the hue is bank / 2 (16 hues), and
// odd banks are darker: banks 2k and 2k + 1 share a hue and differ in shade.
#pragma once

#include <cstdint>

#include "tools/pictures/svg.h"

namespace f2lay::tools::pictures {

// Warp number `warp` (block-major) and `lane` of `lanes` (a power of two).
Rgb holderColor(uint64_t warp, uint64_t lane, uint64_t lanes);
// Bank 0..31.
Rgb bankColor(uint64_t bank);
// Black or white, whichever reads better on `background`.
Rgb textColorOn(Rgb background);

// Cells held by nobody, and untouched memory.
inline constexpr Rgb kEmpty{255, 255, 255};
inline constexpr Rgb kUntouched{238, 238, 238};

}  // namespace f2lay::tools::pictures
