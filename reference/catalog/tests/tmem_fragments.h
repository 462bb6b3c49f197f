// Element-wise definitions of Blackwell tensor memory and of the register
// layouts of tcgen05.ld/st, written from the PTX ISA's description of tensor
// memory and its data-movement shapes ("Tensor Memory", "tcgen05 Matrix
// fragments": .32x32b, .16x64b, .16x128b, .16x256b) and from Triton's rules
// for which warp takes which rows and columns, as index arithmetic, not from
// the basis constructions (reference/catalog/tensor_memory.cpp,
// tmem_reg_layout.cpp). Scope: 32-bit elements, packed (col_stride 1), one
// CTA, no warp holding copies.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace f2lay::ref::catalog::tmem {

// A tensor [m, n] in TMEM with a block of [blockM, blockN] (Gluon's
// TensorMemoryLayout, col_stride 1): the element at TMEM lane `row` (0..127)
// and 32-bit column `col`.
//   blockM 128: lane r is row r of a 128-row tile.
//   blockM 64: a 64-row tile uses TMEM lanes 0-15 of each warp's 32: lane r
//     holds tile row (r % 16) + 16 (r / 32); lanes 16-31 of a warp hold the
//     next 64 rows (m > 64), else the next blockN columns (n > blockN), else
//     nothing (the same element as lane r - 16).
//   The tile is (rows) x min(blockN, n) columns; tiles follow in the columns,
//   along dim0 first.
struct Layout {
  uint64_t blockM, blockN, m, n;

  uint64_t width() const { return blockN < n ? blockN : n; }
  uint64_t tileRows() const { return blockM == 64 && m <= 64 ? 64 : 128; }
  uint64_t tileCols() const {
    return blockM == 64 && m <= 64 && n > width() ? 2 * width() : width();
  }
  // 32-bit columns the tensor takes.
  uint64_t columns() const { return m / tileRows() * (n / tileCols()) * width(); }

  std::vector<uint64_t> at(uint64_t row, uint64_t col) const {
    uint64_t w = width(), tile = col / w;
    uint64_t r = row, c = col % w;
    if (blockM == 64) {
      r = row % 16 + 16 * (row / 32);
      if (row / 16 % 2 == 1) {
        if (m > 64)
          r += 64;
        else if (n > w)
          c += w;
      }
    }
    uint64_t tilesM = m / tileRows();
    return {tileRows() * (tile % tilesM) + r, tileCols() * (tile / tilesM) + c};
  }
};

// The TMEM cell {lane, column} of register `i` of thread `lane` of warp
// `warp` when `numWarps` warps move the whole tensor with one shape:
//   - warp w reaches TMEM lanes 32 (w % 4) .. + 31 (PTX: a warp of a
//     warpgroup accesses its quarter of the lanes);
//   - a 16-lane shape covers lanes 0-15 of that quarter; lanes 16-31, where
//     the layout uses them, come from a second set of registers (the last
//     register bit) with 4 warps, from warp bit 2 with more;
//   - the remaining warps (w / 4, or w / 8) split the columns into equal
//     chunks, in order;
//   - within a chunk, the shape repeats along the columns (.xN), those
//     repeats counted by the registers after the shape's own;
//   - 32x32b on a layout whose lanes 16-31 are unused: threads 16-31 read the
//     upper half of the chunk instead (Triton's 16x32bx2).
// Per shape, thread l, register j of the shape (PTX fragment tables):
//   32x32b:  lane l, column 0 (one register)
//   16x64b:  lane l / 4 + 8 (l % 2), column (l / 2) % 2
//   16x128b: lane l / 4 + 8 j, column l % 4 (2 registers)
//   16x256b: lane l / 4 + 8 (j / 2), column 2 (l % 4) + j % 2 (4 registers)
struct RegLayout {
  Layout tmem;
  std::string shape;
  uint64_t numWarps;

  uint64_t shapeRegs() const { return shape == "16x128b" ? 2 : shape == "16x256b" ? 4 : 1; }
  uint64_t shapeCols() const {
    return shape == "32x32b" ? 1 : shape == "16x64b" ? 2 : shape == "16x128b" ? 4 : 8;
  }
  bool lanes16Unused() const { return tmem.blockM == 64 && tmem.m <= 64 && tmem.n <= tmem.width(); }
  // Where lanes 16-31 of a quarter come from: 0 the shape itself (32x32b),
  // 1 a register bit, 2 warp bit 2; 3: they are unused.
  int upper() const {
    if (lanes16Unused()) return 3;
    if (shape == "32x32b") return 0;
    return numWarps > 4 ? 2 : 1;
  }
  uint64_t groups() const { return numWarps / (upper() == 2 ? 8 : 4); }
  uint64_t chunk() const { return tmem.columns() / groups(); }
  uint64_t registers() const {
    if (shape == "32x32b") return upper() == 3 ? chunk() / 2 : chunk();
    return chunk() / shapeCols() * shapeRegs() * (upper() == 1 ? 2 : 1);
  }
  uint64_t lanes() const { return 32; }
  uint64_t warps() const { return numWarps; }
  uint64_t blocks() const { return 1; }

  std::vector<uint64_t> at(uint64_t i, uint64_t l, uint64_t w, uint64_t) const {
    uint64_t quarter = 32 * (w % 4);
    uint64_t group = upper() == 2 ? w / 8 : w / 4;
    uint64_t base = group * chunk();
    if (shape == "32x32b") {
      if (upper() == 3) return tmem.at(quarter + l % 16, base + i + l / 16 * (chunk() / 2));
      return tmem.at(quarter + l, base + i);
    }
    uint64_t j = i % shapeRegs(), rest = i / shapeRegs();
    uint64_t reps = chunk() / shapeCols();
    uint64_t rep = rest % reps;
    uint64_t half = upper() == 1 ? rest / reps : upper() == 2 ? w / 4 % 2 : 0;
    uint64_t row = 0, col = 0;
    if (shape == "16x64b") {
      row = l / 4 + 8 * (l % 2);
      col = l / 2 % 2;
    } else if (shape == "16x128b") {
      row = l / 4 + 8 * j;
      col = l % 4;
    } else if (shape == "16x256b") {
      row = l / 4 + 8 * (j / 2);
      col = 2 * (l % 4) + j % 2;
    } else {
      throw std::logic_error("tmem::RegLayout: no PTX table for " + shape);
    }
    return tmem.at(quarter + 16 * half + row, base + rep * shapeCols() + col);
  }
};

// 16-bit elements packed two to a 32-bit cell (col_stride 1, PTX's
// .pack::16b): register i holds half i % 2 of the cell that register i / 2
// of the 32-bit layout of the half-width tensor holds, i.e. element
// (row, 2 c + i % 2) where that layout gives (row, c).
struct Packed16 {
  RegLayout cells;  // of the tensor [m, n / 2] with blocks [blockM, blockN / 2]

  uint64_t registers() const { return 2 * cells.registers(); }
  uint64_t lanes() const { return 32; }
  uint64_t warps() const { return cells.numWarps; }
  uint64_t blocks() const { return 1; }
  std::vector<uint64_t> at(uint64_t i, uint64_t l, uint64_t w, uint64_t b) const {
    std::vector<uint64_t> rc = cells.at(i / 2, l, w, b);
    return {rc[0], 2 * rc[1] + i % 2};
  }
};

}  // namespace f2lay::ref::catalog::tmem
