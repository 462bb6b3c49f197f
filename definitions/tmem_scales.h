// Element-wise definition of the TMEM layout of MMA scale factors (Gluon's
// TensorMemoryScalesLayout, Triton's TensorMemoryScalesEncodingAttr), from
// the PTX ISA's "tcgen05 Matrix fragments" scale factor layout as Triton
// writes it: the scales of 32 rows sit in 32 TMEM lanes, every warp's quarter
// of the lanes holding the same 32 (each warp of the warpgroup reads the
// scales of its rows from its own lanes), 4 scale columns (K blocks) in 4
// TMEM columns, and a second group of 32 rows in the next 4 columns. Written
// as index arithmetic, not from reference/catalog/tensor_memory.cpp.
#pragma once

#include <cstdint>
#include <vector>

#include "definitions/tmem_fragments.h"

namespace f2lay::ref::catalog::tmem {

// A tensor [m, n] of scale factors, each CTA holding its share (cga):
//   lane `row`: dim0 row % 32 (lanes 32-127 repeat lanes 0-31);
//   column `col`: dim1 col % 4, dim0 + 32 ((col / 4) % 2) (a 64 x 4 tile in
//   8 columns); then the tiles: along dim0 by 64 first, then dim1 by 4.
//   Coordinates past a share smaller than the tile wrap around (the cells
//   repeat elements: the tile is cut to the share).
struct Scales {
  uint64_t m, n;
  Cga cga;

  uint64_t cm() const { return m / cga.split(0); }
  uint64_t cn() const { return n / cga.split(1); }
  uint64_t tilesM() const { return cm() > 64 ? cm() / 64 : 1; }
  uint64_t tilesN() const { return cn() > 4 ? cn() / 4 : 1; }
  uint64_t columns() const { return 8 * tilesM() * tilesN(); }
  uint64_t blocks() const { return cga.blocks(); }

  std::vector<uint64_t> at(uint64_t row, uint64_t col, uint64_t block = 0) const {
    uint64_t tile = col / 8, tm = tile % tilesM(), tn = tile / tilesM();
    uint64_t d0 = (row % 32 + 32 * (col / 4 % 2) + 64 * tm) % cm();
    uint64_t d1 = (col % 4 + 4 * tn) % cn();
    std::vector<uint64_t> o = cga.origin(block, cm(), cn());
    return {o[0] + d0, o[1] + d1};
  }
};

}  // namespace f2lay::ref::catalog::tmem
