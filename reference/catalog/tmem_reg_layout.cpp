#include "reference/catalog/tmem_reg_layout.h"

#include <algorithm>

#include "reference/catalog/shared.h"

namespace f2lay::ref::catalog {

namespace {

const std::string kOp = "tmem_reg_layout";

enum class Atom { k32x32b, k16x64b, k16x128b, k16x256b };

// One CTA's tensor memory layout: row and col bases -> {dim0, dim1}, and the
// per-CTA tensor it holds.
struct Tmem {
  std::vector<Basis> rows, cols;
  uint64_t size0 = 1, size1 = 1;
};

// register, lane, warp bases of a distributed layout ({dim0, dim1} each).
struct Regs {
  std::vector<Basis> reg, lane, warp;
};

// The PTX data-movement tile of one warp: register and lane bits -> {TMEM
// lane, 32-bit column} (the formulas of tmem_reg_layout.h), and its columns.
struct Tile {
  std::vector<Basis> reg, lane;
  uint64_t cols;
};

Tile tileOf(Atom atom) {
  switch (atom) {
    case Atom::k32x32b:  // thread l: lane l
      return {{}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}}, 1};
    case Atom::k16x64b:  // thread l: lane l/4 + 8 (l%2), column (l/2)%2
      return {{}, {{8, 0}, {0, 1}, {1, 0}, {2, 0}, {4, 0}}, 2};
    case Atom::k16x128b:  // lane l/4 + 8r, column l%4
      return {{{8, 0}}, {{0, 1}, {0, 2}, {1, 0}, {2, 0}, {4, 0}}, 4};
    case Atom::k16x256b:  // lane l/4 + 8 (r/2), column 2 (l%4) + r%2
      return {{{0, 1}, {8, 0}}, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, 8};
  }
  throw Error(kOp + ": unknown data movement shape");
}

[[noreturn]] void unsupported(const std::string& variant, const std::string& why) {
  throw Error(kOp + ": instr_variant \"" + variant +
              "\" cannot read this tensor memory layout (Gluon 3.9.0 answers None): " + why);
}

// The {dim0, dim1} of TMEM cell {row, col}: the XOR of the bases of its bits.
Basis at(const Tmem& t, const Basis& rowCol) {
  Basis out = {0, 0};
  for (int side = 0; side < 2; ++side) {
    const std::vector<Basis>& bases = side == 0 ? t.rows : t.cols;
    for (size_t i = 0; i < bases.size(); ++i)
      if (rowCol[side] >> i & 1) {
        out[0] ^= bases[i][0];
        out[1] ^= bases[i][1];
      }
  }
  return out;
}

// Rank over F2 of {dim0, dim1} vectors (dim1 above dim0's bits).
size_t rankOf(const std::vector<Basis>& vectors, uint64_t size0) {
  int shift = log2Exact(size0);
  std::vector<uint64_t> rows;
  for (const Basis& b : vectors) {
    uint64_t v = b[0] | b[1] << shift;
    for (uint64_t r : rows) v = std::min(v, v ^ r);
    if (v != 0) rows.push_back(v);
    std::sort(rows.rbegin(), rows.rend());
  }
  return rows.size();
}

// The quotient of `t` by a first factor on its low column bits (Triton's
// divideLeft by a col -> dim1 layout): its first column bases must be `lead`,
// every other basis's dim1 a multiple of 2^shift, which is divided out.
std::optional<Tmem> divideColumns(const Tmem& t, const std::vector<Basis>& lead, int shift) {
  if (t.cols.size() < lead.size() || (t.size1 >> shift) == 0) return std::nullopt;
  if (!std::equal(lead.begin(), lead.end(), t.cols.begin())) return std::nullopt;
  uint64_t mask = (uint64_t{1} << shift) - 1;
  Tmem q{{}, {}, t.size0, t.size1 >> shift};
  auto take = [&](const Basis& b, std::vector<Basis>& into) {
    if (b[1] & mask) return false;
    into.push_back({b[0], b[1] >> shift});
    return true;
  };
  for (const Basis& b : t.rows)
    if (!take(b, q.rows)) return std::nullopt;
  for (size_t i = lead.size(); i < t.cols.size(); ++i)
    if (!take(t.cols[i], q.cols)) return std::nullopt;
  return q;
}

// `shift` registers first, each one dim1 step (elements side by side in one
// 32-bit cell), the rest of the layout's dim1 scaled up to make room.
Regs withPackedRegisters(Regs r, int shift) {
  for (std::vector<Basis>* bases : {&r.reg, &r.lane, &r.warp})
    for (Basis& b : *bases) b[1] <<= shift;
  std::vector<Basis> first;
  for (int i = 0; i < shift; ++i) first.push_back({0, uint64_t{1} << i});
  r.reg.insert(r.reg.begin(), first.begin(), first.end());
  return r;
}

// 32-bit cells: the tile on the layout, extended over the columns and warps.
Regs cells32(const Tmem& t, Atom atom, const std::string& variant, uint64_t numWarps) {
  Tile tile = tileOf(atom);
  uint64_t columns = uint64_t{1} << t.cols.size();
  if (columns < tile.cols)
    unsupported(variant, "the layout has " + std::to_string(columns) +
                             " 32-bit columns, fewer than the shape's " +
                             std::to_string(tile.cols));
  uint64_t missing = columns / tile.cols;
  bool rows32 = atom == Atom::k32x32b;
  bool rows16 = t.rows[4] == Basis{0, 0};  // TMEM lanes 16-31 unused

  // The tile must read distinct elements (32x32b: its lanes 16-31 may read
  // copies, Triton then uses 16x32bx2 for them).
  std::vector<Basis> images;
  for (const Basis& b : tile.reg) images.push_back(at(t, b));
  for (size_t i = 0; i < tile.lane.size() - (rows32 ? 1 : 0); ++i)
    images.push_back(at(t, tile.lane[i]));
  if (rankOf(images, t.size0) < images.size())
    unsupported(variant, "its tile reads the same tensor element twice, or an unused cell");

  // A 16-lane shape leaves TMEM lanes 16-31 of each warp to a register (4
  // warps) or to warp bit 2 (more warps), when the layout uses them.
  enum class Row16 { kNone, kRegister, kWarp } row16 = Row16::kNone;
  if (!rows32 && !rows16) row16 = numWarps > 4 ? Row16::kWarp : Row16::kRegister;
  // Warps past those that cover the 128 lanes split the columns, as many as
  // there are column steps left; the rest hold copies.
  uint64_t warpsToTile = numWarps / (row16 == Row16::kWarp ? 8 : 4);
  uint64_t copies = warpsToTile / std::min(missing, warpsToTile);
  warpsToTile /= copies;
  missing /= warpsToTile;

  Regs r{tile.reg, tile.lane, {}};
  uint64_t width = tile.cols;
  if (missing > 1) {
    if (rows32 && rows16) {
      // Lanes 16-31 would read copies: they take the upper half of the
      // columns instead (16x32bx2), the registers the lower half.
      r.lane = {{1, 0}, {2, 0}, {4, 0}, {8, 0}};
      for (uint64_t c = 1; c < missing / 2; c *= 2) r.reg.push_back({0, c});
      r.lane.push_back({0, missing / 2});
    } else {
      for (uint64_t c = width; c < width * missing; c *= 2) r.reg.push_back({0, c});
    }
    width *= missing;
  }
  r.warp = {{32, 0}, {64, 0}};  // warp w % 4 reaches TMEM lanes 32 (w % 4)..
  if (row16 == Row16::kRegister) r.reg.push_back({16, 0});
  if (row16 == Row16::kWarp) r.warp.push_back({16, 0});
  for (uint64_t c = width; c < width * warpsToTile; c *= 2) r.warp.push_back({0, c});
  for (uint64_t c = 1; c < copies; c *= 2) r.warp.push_back({0, 0});

  // Through the tensor memory layout: {row, col} -> {dim0, dim1}.
  for (std::vector<Basis>* bases : {&r.reg, &r.lane, &r.warp})
    for (Basis& b : *bases) b = at(t, b);
  return r;
}

// Elements of `bits` bits, first put into 32-bit cells (Triton's
// getDistributedLayoutForTmemLdSt, in the same order of attempts).
Regs cells(const Tmem& t, uint64_t bits, Atom atom, const std::string& variant, uint64_t numWarps) {
  if (bits == 32) return cells32(t, atom, variant, numWarps);
  // Packed: as many contiguous columns as fill a cell.
  int packed = 0;
  std::optional<Tmem> quotient;
  std::vector<Basis> lead;
  for (int k = 1; (bits << k) <= 32; ++k) {
    lead.push_back({0, uint64_t{1} << (k - 1)});
    auto q = divideColumns(t, lead, k);
    if (!q) break;
    quotient = q;
    packed = k;
  }
  if (packed > 0)
    return withPackedRegisters(cells(*quotient, bits << packed, atom, variant, numWarps), packed);
  // Unpacked 16-bit elements (col_stride 2): one per cell, two cells per
  // register pair.
  if (bits == 16)
    if (auto q = divideColumns(t, {{0, 0}, {0, 1}}, 1))
      return withPackedRegisters(cells(*q, 32, atom, variant, numWarps), 1);
  // Padded: one element per cell, the rest of the cell unused: the first
  // log2(32 / bits) column bits hold nothing, or every column bit there is
  // (Gluon 3.9.0 answers int8 [128, 1] with col_stride 2: one padding bit
  // where 32 / 8 would take two).
  size_t padding = std::min<size_t>(log2Exact(32 / bits), t.cols.size());
  if (auto q = divideColumns(t, std::vector<Basis>(padding, Basis{0, 0}), 0))
    return cells(*q, 32, atom, variant, numWarps);
  unsupported(variant, "its " + std::to_string(bits) +
                           "-bit elements are neither packed, unpacked nor padded in 32-bit "
                           "columns");
}

size_t nonZeros(const Basis& b) {
  return std::count_if(b.begin(), b.end(), [](uint64_t v) { return v != 0; });
}

void checkParams(const TmemRegParams& p) {
  if (p.elementBitwidth != 8 && p.elementBitwidth != 16 && p.elementBitwidth != 32)
    throw Error(kOp + ": element_bitwidth = " + std::to_string(p.elementBitwidth) +
                " must be 8, 16 or 32");
  if (p.shape.size() != 2)
    throw Error(kOp + ": shape must have 2 dims, got " + std::to_string(p.shape.size()));
  checkPowersOfTwo(kOp + ": shape", p.shape, 2);
  if (p.allocShape.size() < 2)
    throw Error(kOp + ": alloc_shape must have at least 2 dims, got " +
                std::to_string(p.allocShape.size()));
  checkPowersOfTwo(kOp + ": alloc_shape", p.allocShape, p.allocShape.size());
  for (int d = 0; d < 2; ++d)
    if (p.allocShape[p.allocShape.size() - 2 + d] < p.shape[d])
      throw Error(kOp + ": alloc_shape's last two dims must be at least shape's (dim" +
                  std::to_string(d) + ")");
  if (p.numWarps < 4 || !isPowerOfTwo(p.numWarps))
    throw Error(kOp + ": num_warps = " + std::to_string(p.numWarps) +
                " must be a power of two and at least 4");
  if (p.numWarps > (uint64_t{1} << 20))
    throw Error(kOp + ": num_warps = " + std::to_string(p.numWarps) +
                " is too large (2^20 at most)");
  if (p.elementBitwidth * p.layout.colStride > 32)
    throw Error(kOp + ": element_bitwidth * col_stride must be at most 32, got " +
                std::to_string(p.elementBitwidth) + " * " + std::to_string(p.layout.colStride));
}

Atom atomOf(const std::string& variant) {
  if (variant == "32x32b" || variant == "32x32b_splitn") return Atom::k32x32b;
  if (variant == "16x64b") return Atom::k16x64b;
  if (variant == "16x128b") return Atom::k16x128b;
  if (variant == "16x256b") return Atom::k16x256b;
  if (variant == "16x32bx2")
    throw Error(kOp +
                ": instr_variant \"16x32bx2\" is chosen by Triton itself for a 32x32b "
                "read, never requested (Gluon refuses it)");
  throw Error(kOp + ": instr_variant = \"" + variant +
              "\" must be 32x32b, 16x64b, 16x128b, 16x256b or 32x32b_splitn");
}

// Gluon's 32x32b_splitn (_semantic.py): the column half N/2 moves to the last
// register, taken from a lane or from a warp past the first 4.
void splitColumns(Regs& r, const TmemRegParams& p) {
  Basis half = {0, p.shape[1] / 2};
  if (r.reg.empty()) {
    if (r.lane.back() != half)
      throw Error(kOp + ": 32x32b_splitn with no register needs the last lane on column N/2");
    r.reg.push_back(half);
    r.lane.back() = {0, 0};
    return;
  }
  if (r.reg.back() == half) return;
  if ((uint64_t{1} << r.reg.size()) <= 32 / p.elementBitwidth)
    throw Error(kOp + ": 32x32b_splitn needs more than " + std::to_string(32 / p.elementBitwidth) +
                " registers of " + std::to_string(p.elementBitwidth) +
                " bits (the 32x32b.x1 shape read twice)");
  for (std::vector<Basis>* bases : {&r.lane, &r.warp})
    for (size_t i = (bases == &r.warp ? 2 : 0); i < bases->size(); ++i)
      if ((*bases)[i] == half) {
        std::swap(r.reg.back(), (*bases)[i]);
        return;
      }
  throw Error(kOp + ": 32x32b_splitn needs a lane or a warp past the first 4 on column N/2");
}

}  // namespace

LinearLayout tmemRegLayout(const TmemRegParams& p) {
  checkParams(p);
  Atom atom = atomOf(p.instrVariant);
  // The tensor is a view of its allocation: the tensor memory layout is the
  // allocation's (its last two dims), each basis value past the tensor's
  // extent a cell outside the view (0), and the columns past the view's last
  // one dropped (Gluon 3.9.0's answers: with alloc_shape [256, 128] a
  // [128, 128] view keeps a zero column bit inside, a [128, 64] view of
  // [128, 128] has 64 columns).
  tensorMemory(p.layout, p.shape);  // the view itself must be a legal layout
  // Triton's tensor memory descriptor check (Gluon 3.9.0: "the tensor shape
  // must be at least AxB"): every CTA holds at least a block's rows, and at
  // least a block's columns once the CGA splits the columns.
  std::vector<uint64_t> split = {1, 1};
  if (p.layout.cgaLayout)
    for (int d = 0; d < 2; ++d)
      split[d] = p.layout.cgaLayout->getOutDimSize("dim" + std::to_string(d));
  uint64_t minRows = split[0] * p.layout.block[0],
           minCols = split[1] * std::min(p.layout.block[1], p.shape[1]);
  if (p.shape[0] < minRows || p.shape[1] < minCols)
    throw Error(kOp + ": the tensor shape must be at least " + std::to_string(minRows) + "x" +
                std::to_string(minCols) + " (block " + std::to_string(p.layout.block[0]) + "x" +
                std::to_string(p.layout.block[1]) + " in each of the CGA's " +
                std::to_string(split[0]) + "x" + std::to_string(split[1]) + " CTAs), got " +
                std::to_string(p.shape[0]) + "x" + std::to_string(p.shape[1]));
  Shape alloc(p.allocShape.end() - 2, p.allocShape.end());
  LayoutValue m = tensorMemory(p.layout, alloc).value();
  std::vector<bool> cut;
  for (InDim& dim : m.in_dims)
    for (Basis& b : dim.bases) {
      bool outside = false;
      for (int d = 0; d < 2; ++d)
        if (b[d] >= p.shape[d]) {
          b[d] = 0;
          outside = true;
        }
      if (dim.name == "col") cut.push_back(outside && b == Basis{0, 0});
    }
  std::vector<Basis>& cols = m.in_dims[1].bases;
  while (!cols.empty() && cut[cols.size() - 1]) cols.pop_back();
  Tmem t{m.in_dims[0].bases, cols, p.shape[0], p.shape[1]};
  Regs r = cells(t, p.elementBitwidth, atom, p.instrVariant, p.numWarps);
  std::vector<Basis> block = m.in_dims[2].bases;

  // Every bit moves along one dim, and without its copies the layout is a
  // permutation of the tensor (Triton's closing checks).
  std::vector<Basis> nonZero;
  for (const std::vector<Basis>* bases : {&r.reg, &r.lane, &r.warp, &block})
    for (const Basis& b : *bases) {
      if (nonZeros(b) > 1) unsupported(p.instrVariant, "a bit would move along both dims");
      if (nonZeros(b) == 1) nonZero.push_back(b);
    }
  size_t bits = log2Exact(p.shape[0]) + log2Exact(p.shape[1]);
  if (nonZero.size() != bits || rankOf(nonZero, p.shape[0]) != bits)
    unsupported(p.instrVariant, "the threads would not hold every tensor element exactly once");
  if (p.instrVariant == "32x32b_splitn") splitColumns(r, p);
  return LinearLayout(
      LayoutValue{{{"register", r.reg}, {"lane", r.lane}, {"warp", r.warp}, {"block", block}},
                  {{"dim0", p.shape[0]}, {"dim1", p.shape[1]}}});
}

}  // namespace f2lay::ref::catalog
