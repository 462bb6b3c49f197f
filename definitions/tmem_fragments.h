// Element-wise definitions of Blackwell tensor memory and of the register
// layouts of tcgen05.ld/st, written from the PTX ISA's description of tensor
// memory and its data-movement shapes ("Tensor Memory", "tcgen05 Matrix
// fragments": .32x32b, .16x64b, .16x128b, .16x256b, .pack::16b) and from
// Triton's written rules for which warp takes which rows and columns, as
// index arithmetic, not from the basis constructions
// (reference/catalog/tensor_memory.cpp, tmem_reg_layout.cpp). Scales:
// tmem_scales.h.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace f2lay::ref::catalog::tmem {

// A CGA as Gluon's cga_layout bases (block bit k -> {dim0, dim1} in units of
// one CTA's share, each a power of two or 0): the CTAs along each dim, and
// the origin of block b's share (the XOR, here a sum of disjoint bits, of
// its set bits' bases times the share).
struct Cga {
  std::vector<std::array<uint64_t, 2>> bases;

  uint64_t blocks() const { return uint64_t{1} << bases.size(); }
  uint64_t split(int d) const {
    uint64_t s = 1;
    for (const auto& b : bases)
      if (b[d]) s *= 2;
    return s;
  }
  std::vector<uint64_t> origin(uint64_t block, uint64_t share0, uint64_t share1) const {
    uint64_t o0 = 0, o1 = 0;
    for (size_t k = 0; k < bases.size(); ++k)
      if (block >> k & 1) o0 ^= bases[k][0] * share0, o1 ^= bases[k][1] * share1;
    return {o0, o1};
  }
};

// A tensor [m, n] in TMEM with a block of [blockM, blockN] (Gluon's
// TensorMemoryLayout): the element at TMEM lane `row` (0..127), column slot
// `col` and CTA `block`. Each CTA holds its share [m / split0, n / split1].
//   Each logical column takes `pad()` slots, the first holding it, the rest
//   unused (the same element): col_stride (32-bit cells of an unpacked
//   element), twice that with fp4_padded (one byte per fp4 element).
//   blockM 128 (or two CTAs of 128): lane r is row r of a 128-row tile.
//   blockM 64, one CTA per MMA: a 64-row tile uses TMEM lanes 0-15 of each
//     warp's 32: lane r holds tile row (r % 16) + 16 (r / 32); lanes 16-31 of
//     a warp hold the next 64 rows (share > 64 rows), else the next blockN
//     columns (share wider than blockN), else nothing (the element of lane
//     r - 16).
//   blockM 64 with two_ctas: lanes 64-127 hold the upper half of the tile's
//     slots (the pair of CTAs' M = 128 MMA splits the tile's columns over the
//     two lane halves), lane r being tile row r % 64.
//   The tile is (rows) x min(blockN, share's columns); tiles follow in the
//   slots, along dim0 first.
struct Layout {
  uint64_t blockM, blockN, m, n;
  uint64_t colStride = 1;
  bool fp4Padded = false, twoCtas = false;
  Cga cga;

  uint64_t cm() const { return m / cga.split(0); }
  uint64_t cn() const { return n / cga.split(1); }
  uint64_t pad() const { return colStride * (fp4Padded ? 2 : 1); }
  uint64_t width() const { return blockN < cn() ? blockN : cn(); }
  bool sixteen() const { return blockM == 64 && !twoCtas; }  // lanes 0-15 of a quarter
  bool halves() const { return blockM == 64 && twoCtas; }    // lanes 64-127: more slots
  uint64_t tileRows() const { return sixteen() ? (cm() <= 64 ? 64 : 128) : blockM; }
  uint64_t tileCols() const {
    return sixteen() && cm() <= 64 && cn() > width() ? 2 * width() : width();
  }
  uint64_t tileSlots() const { return width() * pad() / (halves() ? 2 : 1); }
  // Slots one CTA takes, and whether lanes 16-31 of each warp hold nothing.
  uint64_t columns() const { return cm() / tileRows() * (cn() / tileCols()) * tileSlots(); }
  bool lanes16Unused() const { return sixteen() && cm() <= 64 && cn() <= width(); }
  uint64_t blocks() const { return cga.blocks(); }

  std::vector<uint64_t> at(uint64_t row, uint64_t col, uint64_t block = 0) const {
    uint64_t tile = col / tileSlots(), slot = col % tileSlots(), r = row;
    if (halves()) {
      slot += row / 64 * tileSlots();
      r = row % 64;
    }
    uint64_t c = slot / pad();
    if (sixteen()) {
      r = row % 16 + 16 * (row / 32);
      if (row / 16 % 2 == 1) {
        if (cm() > 64)
          r += 64;
        else if (cn() > width())
          c += width();
      }
    }
    uint64_t tilesM = cm() / tileRows();
    std::vector<uint64_t> o = cga.origin(block, cm(), cn());
    return {o[0] + tileRows() * (tile % tilesM) + r, o[1] + tileCols() * (tile / tilesM) + c};
  }
};

// Elements of `bits` bits in 32-bit registers and TMEM cells, by how the
// layout stores them (PTX tcgen05.ld .pack::16b / tcgen05.st .unpack::16b,
// and Triton's rules for narrower ones):
//   packed (col_stride 1): 32 / bits elements in consecutive column slots
//     share one 32-bit cell and one register, as its low to high parts;
//   partly packed (col_stride 1, the whole layout one tile of fewer slots
//     than a cell holds elements): all its slots share one cell and one
//     register, the rest of the cell unused;
//   16-bit unpacked (col_stride 2): one element per cell, its unused half one
//     slot; two cells adjacent in the columns are packed into one register;
//   8-bit padded (col_stride 4): one element per cell and per register.
// packBits: log2 elements per register; padBits: unused slots below each.
struct Narrow {
  int packBits = 0, padBits = 0;
  uint64_t bits = 32;
};

// The TMEM cell {lane, column} of register `i` of thread `lane` of warp
// `warp` of CTA `block` when `numWarps` warps move the whole tensor with one
// shape, and so the element it holds:
//   - the register's 32-bit part i >> packBits is a 32-bit register of the
//     shape; its part i % 2^packBits the element in that part;
//   - warp w reaches TMEM lanes 32 (w % 4) .. + 31 (PTX: a warp of a
//     warpgroup accesses its quarter of the lanes);
//   - a 16-lane shape covers lanes 0-15 of that quarter; lanes 16-31, where
//     the layout uses them, come from a second set of registers (the last
//     register bit) with 4 warps, from warp bit 2 with more;
//   - the remaining warps (w / 4, or w / 8) split the cells into equal
//     chunks, in order, as many as there are chunks of the shape's width;
//     the warps past those hold copies (group taken modulo their count);
//   - within a chunk, the shape repeats along the columns (.xN), those
//     repeats counted by the registers after the shape's own;
//   - 32x32b on a layout whose lanes 16-31 are unused: threads 16-31 read the
//     upper half of the chunk instead (Triton's 16x32bx2), or copies of
//     threads 0-15 when a chunk is one cell.
// Per shape, thread l, register j of the shape (PTX fragment tables):
//   32x32b:  lane l, column 0 (one register)
//   16x64b:  lane l / 4 + 8 (l % 2), column (l / 2) % 2
//   16x128b: lane l / 4 + 8 j, column l % 4 (2 registers)
//   16x256b: lane l / 4 + 8 (j / 2), column 2 (l % 4) + j % 2 (4 registers)
// A view (viewM x viewN, the tensor's shape, of an allocation of tmem.m x
// tmem.n): the cells are the allocation's; the tensor element of a cell is
// the allocation's element with its coordinates taken modulo the view's
// extents (Triton keeps only the coordinate bits inside the view: a cell
// past it holds a copy of the element its low bits name), and the columns
// moved are those up to the last one holding an element inside the view,
// rounded up to a power of two.
// 32x32b_splitn (Gluon's rule, so that tl.split takes the column halves of
// the registers): the 32x32b layout with its top register bit exchanged for
// the first lane bit, else warp bit past the first two, whose element is
// column N/2 (N the view's columns), nothing exchanged when the top register
// already holds it; with a single register, lane bit 4 (column N/2) becomes
// a second register and lanes 16-31 hold copies of lanes 0-15.
struct RegLayout {
  Layout tmem;
  std::string shape;
  uint64_t numWarps;
  Narrow narrow = {};
  uint64_t viewM = 0, viewN = 0;  // 0: the whole allocation
  // Computed once (at() asks for them at every input).
  mutable uint64_t columnsSeen = 0;
  mutable int upperSeen = -1, splitSeen = -3;

  uint64_t m() const { return viewM ? viewM : tmem.m; }
  uint64_t n() const { return viewN ? viewN : tmem.n; }
  bool splitn() const { return shape == "32x32b_splitn"; }
  std::string atom() const { return splitn() ? "32x32b" : shape; }
  uint64_t shapeRegs() const { return atom() == "16x128b" ? 2 : atom() == "16x256b" ? 4 : 1; }
  uint64_t shapeCols() const {
    return atom() == "32x32b" ? 1 : atom() == "16x64b" ? 2 : atom() == "16x128b" ? 4 : 8;
  }
  int lowBits() const { return narrow.packBits + narrow.padBits; }
  // The element of the view in TMEM cell {row, col} of CTA `block`.
  std::vector<uint64_t> element(uint64_t row, uint64_t col, uint64_t block) const {
    std::vector<uint64_t> e = tmem.at(row, col, block);
    return {e[0] % m(), e[1] % n()};
  }
  // Column slots the view moves (the allocation's, up to its last column
  // holding an element inside the view, lane 0 of CTA 0).
  uint64_t columns() const {
    if (columnsSeen == 0) {
      uint64_t last = 0;
      for (uint64_t c = 0; c < tmem.columns(); ++c) {
        std::vector<uint64_t> e = tmem.at(0, c, 0);
        if (e[0] < m() && e[1] < n()) last = c;
      }
      columnsSeen = 1;
      while (columnsSeen <= last) columnsSeen *= 2;
    }
    return columnsSeen;
  }
  // 32-bit cells a CTA holds.
  uint64_t cells() const { return columns() >> lowBits(); }
  // Where lanes 16-31 of a quarter come from: 0 the shape itself (32x32b),
  // 1 a register bit, 2 warp bit 2; 3: they are unused (TMEM lane 16 holds
  // lane 0's element).
  int upper() const {
    if (upperSeen < 0)
      upperSeen = element(16, 0, 0) == element(0, 0, 0) ? 3
                  : atom() == "32x32b"                  ? 0
                  : numWarps > 4                        ? 2
                                                        : 1;
    return upperSeen;
  }
  uint64_t groups() const { return numWarps / (upper() == 2 ? 8 : 4); }
  uint64_t used() const {
    uint64_t chunks = cells() / shapeCols();
    return groups() < chunks ? groups() : chunks;
  }
  uint64_t chunk() const { return cells() / used(); }
  bool split32() const { return atom() == "32x32b" && upper() == 3 && chunk() >= 2; }
  // Registers of the PTX shape's layout (before 32x32b_splitn).
  uint64_t shapeRegisters() const {
    uint64_t r = atom() == "32x32b" ? (split32() ? chunk() / 2 : chunk())
                                    : chunk() / shapeCols() * shapeRegs() * (upper() == 1 ? 2 : 1);
    return r << narrow.packBits;
  }
  uint64_t registers() const { return splitn() && shapeRegisters() == 1 ? 2 : shapeRegisters(); }
  uint64_t lanes() const { return 32; }
  uint64_t warps() const { return numWarps; }
  uint64_t blocks() const { return tmem.blocks(); }

  std::vector<uint64_t> half() const { return {0, n() / 2}; }
  // 32x32b_splitn's exchanged bit: -1 none (the top register holds column
  // N/2), 0-4 a lane bit, 5 + k warp bit k; -2 when there is none.
  int splitBit() const {
    if (splitSeen == -3) splitSeen = findSplitBit();
    return splitSeen;
  }
  int findSplitBit() const {
    uint64_t regs = shapeRegisters();
    if (regs == 1) return shapeAt(0, 16, 0, 0) == half() ? 4 : -2;
    if (shapeAt(regs / 2, 0, 0, 0) == half()) return -1;
    for (int i = 0; i < 5; ++i)
      if (shapeAt(0, uint64_t{1} << i, 0, 0) == half()) return i;
    for (int k = 2; (uint64_t{1} << k) < numWarps; ++k)
      if (shapeAt(0, 0, uint64_t{1} << k, 0) == half()) return 5 + k;
    return -2;
  }

  std::vector<uint64_t> at(uint64_t reg, uint64_t l, uint64_t w, uint64_t b) const {
    if (!splitn()) return shapeAt(reg, l, w, b);
    uint64_t regs = shapeRegisters();
    if (regs == 1) return shapeAt(0, (l & 15) | reg << 4, w, b);
    int bit = splitBit();
    if (bit < 0) return shapeAt(reg, l, w, b);
    uint64_t top = regs / 2, mask = bit < 5 ? uint64_t{1} << bit : uint64_t{1} << (bit - 5);
    uint64_t& other = bit < 5 ? l : w;
    bool fromReg = reg & top, fromOther = other & mask;
    reg = (reg & ~top) | (fromOther ? top : 0);
    other = (other & ~mask) | (fromReg ? mask : 0);
    return shapeAt(reg, l, w, b);
  }

  std::vector<uint64_t> shapeAt(uint64_t reg, uint64_t l, uint64_t w, uint64_t b) const {
    uint64_t part = reg % (uint64_t{1} << narrow.packBits), i = reg >> narrow.packBits;
    uint64_t quarter = 32 * (w % 4);
    uint64_t group = (upper() == 2 ? w / 8 : w / 4) % used();
    uint64_t base = group * chunk();
    uint64_t row = 0, col = 0;
    if (atom() == "32x32b") {
      row = quarter + (split32() ? l % 16 : l);
      col = base + i + (split32() ? l / 16 * (chunk() / 2) : 0);
    } else {
      uint64_t j = i % shapeRegs(), rest = i / shapeRegs();
      uint64_t reps = chunk() / shapeCols();
      uint64_t rep = rest % reps;
      uint64_t half = upper() == 1 ? rest / reps : upper() == 2 ? w / 4 % 2 : 0;
      uint64_t r = 0, c = 0;
      if (atom() == "16x64b") {
        r = l / 4 + 8 * (l % 2);
        c = l / 2 % 2;
      } else if (atom() == "16x128b") {
        r = l / 4 + 8 * j;
        c = l % 4;
      } else if (atom() == "16x256b") {
        r = l / 4 + 8 * (j / 2);
        c = 2 * (l % 4) + j % 2;
      } else {
        throw std::logic_error("tmem::RegLayout: no PTX table for " + shape);
      }
      row = quarter + 16 * half + r;
      col = base + rep * shapeCols() + c;
    }
    uint64_t slot = ((col << narrow.packBits) | part) << narrow.padBits;
    return element(row, slot, b);
  }
};

// How `bits`-bit elements sit in the layout's cells, for the storage
// tmem_reg_layout reads (Narrow's kinds, and 32-bit packed); false for any
// other (8-bit with col_stride 2, fp4_padded bytes): the definition does not
// cover them.
inline bool narrowOf(uint64_t bits, const Layout& t, Narrow& out) {
  uint64_t pad = t.pad();
  int log2Cols = 0;
  while ((uint64_t{1} << (log2Cols + 1)) <= t.columns()) ++log2Cols;
  if (bits < 32 && pad == 1 && t.columns() < 32 / bits && t.columns() == t.tileSlots())
    out = {log2Cols, 0, bits};
  else if (bits == 32 && pad == 1)
    out = {0, 0, bits};
  else if (bits == 16 && pad == 1)
    out = {1, 0, bits};
  else if (bits == 16 && pad == 2)
    out = {1, 1, bits};
  else if (bits == 8 && pad == 1)
    out = {2, 0, bits};
  else if (bits == 8 && pad == 4)
    out = {0, 2, bits};
  else
    return false;
  return true;
}

// The parameters the definition covers (where Gluon 3.9.0 answers a layout),
// for the allocation's layout and for the view's own:
// a tile at least a register wide (with two_ctas and 64 rows, twice that:
// its top column bit is on the lanes), at least one shape's width of cells,
// every CTA holding a block's rows (and columns, when the CGA splits them);
// the view's columns as many as a register's cell parts; one shape's
// registers and lanes (32x32b: lanes 0-15) reading distinct elements of the
// view. 32x32b_splitn: more registers than a cell holds elements, unless the
// top register (or, with one register, lane bit 4) already holds column N/2,
// and a lane or warp bit (past the first two) holding it.
// Left out (Gluon answers, not compared; the sweep counts them): narrow
// elements in a tile narrower than a register's elements whose next tiles
// continue its columns (blockN 2 with 8-bit packed, or with two_ctas and
// 16-bit unpacked elements: Triton packs across the tiles, a storage Narrow
// does not describe yet); a view with fewer columns than the allocation's
// register parts (Triton re-packs the view's own columns, the definition
// takes the allocation's storage).
inline bool covers(const RegLayout& d) {
  for (bool view : {false, true}) {
    Layout t = d.tmem;
    if (view) t.m = d.m(), t.n = d.n();
    uint64_t need = uint64_t{1} << (d.narrow.packBits + (t.halves() ? 1 : 0));
    if (t.width() < need || t.cm() < t.tileRows()) return false;
    if (t.cm() < t.blockM || (t.cga.split(1) > 1 && t.cn() < t.blockN)) return false;
  }
  if (d.columns() < (uint64_t{1} << d.lowBits()) || d.cells() < d.shapeCols()) return false;
  std::vector<std::vector<uint64_t>> seen;
  for (uint64_t j = 0; j < d.shapeRegs(); ++j)
    for (uint64_t l = 0; l < (d.atom() == "32x32b" ? 16 : 32); ++l) {
      std::vector<uint64_t> e = d.shapeAt(j << d.narrow.packBits, l, 0, 0);
      for (const std::vector<uint64_t>& s : seen)
        if (s == e) return false;
      seen.push_back(e);
    }
  if (!d.splitn()) return true;
  int bit = d.splitBit();
  if (bit == -2) return false;
  return bit == -1 || d.shapeRegisters() == 1 || d.shapeRegisters() > 32 / d.narrow.bits;
}

}  // namespace f2lay::ref::catalog::tmem
