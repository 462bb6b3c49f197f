// The catalog fuzzer's distributed layouts: blocked, slice, nvidia_mma v2/v3,
// dot operands, ldmatrix, AMD mfma (with a CGA too) and wmma and their dot
// operands, each against its element-wise definition (elementwise.h,
// mma_fragments.h, amd_fragments.h, amd_operand_fragments.h, cga_tiling.h).
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "definitions/amd_fragments.h"
#include "definitions/amd_operand_fragments.h"
#include "definitions/cga_tiling.h"
#include "definitions/elementwise.h"
#include "definitions/elementwise_compare.h"
#include "definitions/layout_literals.h"
#include "definitions/mma_fragments.h"
#include "fuzz/catalog_decoder.h"
#include "fuzz/catalog_families.h"
#include "reference/catalog/amd_dot_operand.h"
#include "reference/catalog/amd_mfma.h"
#include "reference/catalog/amd_wmma.h"
#include "reference/catalog/blocked.h"
#include "reference/catalog/dot_operand.h"
#include "reference/catalog/ldmatrix.h"
#include "reference/catalog/nvidia_mma.h"
#include "reference/catalog/slice.h"

namespace f2lay::fuzz::catalog_fuzz {

namespace {

// Blocked with the legacy CTA parameters, as elementwise.h defines it.
elementwise::Blocked decodeBlocked(Decoder& in, size_t rank, const Shape& shape) {
  elementwise::Blocked p;
  p.shape = shape;
  in.budget = 9;  // for the hardware: size_per_thread .. CTAsPerCGA
  p.sizePerThread = in.sizes("size_per_thread", rank, 2);
  p.threadsPerWarp = in.sizes("threads_per_warp", rank, 3);
  p.warpsPerCta = in.sizes("warps_per_cta", rank, 2);
  p.order = in.order(rank);
  p.ctasPerCga = in.sizes("CTAsPerCGA", rank, 2);
  for (size_t d = 0; d < p.ctasPerCga.size(); ++d) {
    // Mostly a power of two up to CTAsPerCGA; one in 16 twice that.
    uint64_t ctas = p.ctasPerCga[d];
    uint64_t split = in.oneIn16() ? 2 * ctas : std::max<uint64_t>(1, ctas >> in.pick(0, 2));
    in.require(isPowerOfTwo(split) && split <= ctas,
               "CTASplitNum[" + std::to_string(d) + "] = " + std::to_string(split));
    p.ctaSplitNum.push_back(split);
  }
  p.ctaOrder = in.order(rank);
  p.keepsCutRegisters = in.flag();  // Triton 3.6's rule, else 3.9's
  size_t r = p.shape.size();
  in.require(r > 0, "shape = [] (rank 0)");
  for (const auto& [name, v] : {std::pair{"size_per_thread", &p.sizePerThread},
                                {"threads_per_warp", &p.threadsPerWarp},
                                {"warps_per_cta", &p.warpsPerCta},
                                {"CTAsPerCGA", &p.ctasPerCga}})
    in.requireLength(name, *v, r);
  in.requirePermutation("order", p.order, r);
  in.requirePermutation("CTAOrder", p.ctaOrder, r);
  return p;
}

// log2 of the inputs of elementwise::Blocked, from the log2 of its
// parameters (so that no product overflows); at least the parent's when the
// parameters are accepted and not broken.
int inputBits(const elementwise::Blocked& p) {
  int bits = 0;
  for (size_t d = 0; d < p.shape.size(); ++d) {
    int tile = f2lay::log2Exact(p.sizePerThread[d]) + f2lay::log2Exact(p.threadsPerWarp[d]) +
               f2lay::log2Exact(p.warpsPerCta[d]);
    int cta =
        f2lay::log2Exact(p.shape[d]) - f2lay::log2Exact(std::min(p.ctaSplitNum[d], p.shape[d]));
    bits += tile + std::max(0, cta - tile) + f2lay::log2Exact(p.ctasPerCga[d]);
  }
  return bits;
}

std::string describe(const elementwise::Blocked& p) {
  return "size_per_thread " + list(p.sizePerThread) + " threads_per_warp " +
         list(p.threadsPerWarp) + " warps_per_cta " + list(p.warpsPerCta) + " order " +
         list(p.order) + " CTAsPerCGA " + list(p.ctasPerCga) + " CTASplitNum " +
         list(p.ctaSplitNum) + " CTAOrder " + list(p.ctaOrder) +
         (p.keepsCutRegisters ? " (Triton 3.6)" : "");
}

LinearLayout buildBlocked(const elementwise::Blocked& p) {
  return blocked({p.sizePerThread, p.threadsPerWarp, p.warpsPerCta, p.order,
                  makeCgaLayout(p.ctasPerCga, p.ctaSplitNum, p.ctaOrder),
                  p.keepsCutRegisters ? f2lay::TritonVersion::k3_6 : f2lay::TritonVersion::k3_9},
                 p.shape);
}

}  // namespace

void fuzzBlocked(Decoder& in) {
  size_t rank = in.rank(1, 3);
  elementwise::Blocked p = decodeBlocked(in, rank, in.shape(rank, 5));
  Target t{"blocked", describe(p) + " shape " + list(p.shape), in};
  Built b = construct(t, [&] { return buildBlocked(p); });
  if (!accepted(t, b, plainLegal(in)) || inputBits(p) > kMaxInputBits) return;
  expectSame(t, outDimMismatch(*b.answer, p.shape));
  expectSame(t, distributedMismatch(*b.answer, p));
}

// slice(blocked at the slice's shape with a 1 at dim, dim).
void fuzzSlice(Decoder& in) {
  size_t rank = in.rank(1, 3);
  Shape shape = in.shape(rank, 5);
  auto dim = static_cast<unsigned>(in.oneIn16() ? rank + 2 : in.pick(0, static_cast<int>(rank)));
  in.require(dim <= shape.size(), "dim = " + std::to_string(dim) + " is beyond the slice's rank");
  Shape parentShape = shape;
  if (dim <= shape.size()) parentShape.insert(parentShape.begin() + dim, 1);
  elementwise::Blocked parent = decodeBlocked(in, rank + 1, parentShape);
  Target t{
      "slice",
      "dim " + std::to_string(dim) + " of blocked " + describe(parent) + " shape " + list(shape),
      in};
  Built b = construct(t, [&] {
    elementwise::Blocked atParentShape = parent;
    atParentShape.shape = sliceParentShape(shape, dim);
    return slice(buildBlocked(atParentShape), dim);
  });
  if (!accepted(t, b, plainLegal(in))) return;
  expectSame(t, outDimMismatch(*b.answer, shape));
  // elementwise::Slice scans a thread's parent registers for each register.
  if (inputBits(parent) <= 10)
    expectSame(
        t, distributedMismatch(*b.answer, elementwise::Slice<elementwise::Blocked>{parent, dim}));
}

namespace {

// nvidia_mma parameters: version 2 or 3 (rank 3 for version 2 only), and one
// time in 8 a CGA, which the PTX models (mma_fragments.h) do not cover.
struct Mma {
  NvidiaMmaParams p;
  Shape shape;
  std::vector<uint64_t> ctas;  // CTAsPerCGA, split along every dim; empty: one CTA

  bool wgmma() const { return p.version == std::vector<uint64_t>{3, 0}; }
  bool modelled() const {
    return shape.size() == 2 && ctas.empty() &&
           (wgmma() || p.version == std::vector<uint64_t>{2, 0});
  }
  NvidiaMmaParams params() const {
    NvidiaMmaParams q = p;
    if (!ctas.empty()) {
      std::vector<unsigned> order(ctas.size());
      std::iota(order.rbegin(), order.rend(), 0u);
      q.cgaLayout = makeCgaLayout(ctas, ctas, order);
    }
    return q;
  }
  std::string describe() const {
    return "version " + list(p.version) + " warps_per_cta " + list(p.warpsPerCta) +
           " instr_shape " + list(p.instrShape) +
           (ctas.empty() ? "" : " CTAsPerCGA " + list(ctas)) + " shape " + list(shape);
  }
};

Mma decodeMma(Decoder& in) {
  Mma m;
  int version = in.pick(0, 15);
  m.p.version = version < 10 ? std::vector<uint64_t>{2, 0} : std::vector<uint64_t>{3, 0};
  if (version == 15) {
    in.wild = true;
    const std::vector<uint64_t> odd[4] = {{1, 0}, {5, 0}, {2, 1}, {3}};
    m.p.version = odd[in.pick(0, 3)];
    in.require(false, "version = " + list(m.p.version));
  }
  size_t rank = in.rank(2, m.wgmma() ? 2 : 3);
  in.budget -= 5 + (m.wgmma() ? 0 : 2);  // the lanes, mma.sync's 4 registers
  if (m.wgmma()) {
    // [16, N, K]: N a power of two from 8 to 256 (N / 2 registers), K one of wgmma's.
    int n = in.pick(3, 3 + std::min(5, std::max(0, in.budget + 1)));
    in.budget -= n - 1;
    const uint64_t ks[4] = {8, 16, 32, 256};
    m.p.instrShape = {16, uint64_t{1} << n, ks[in.pick(0, 3)]};
  } else {
    m.p.instrShape = rank == 3 ? std::vector<uint64_t>{1, 16, 8} : std::vector<uint64_t>{16, 8};
  }
  if (in.oneIn16()) {
    in.wild = true;
    const std::vector<uint64_t> odd[5] = {
        {16, 16}, {16, 24, 16}, {32, 64, 16}, {16, 64, 12}, {16, 512, 16}};
    m.p.instrShape = odd[in.pick(0, 4)];
    in.require(false, "instr_shape = " + list(m.p.instrShape));
  }
  m.p.warpsPerCta = in.sizes("warps_per_cta", rank, 3);
  m.shape = in.shape(rank, 7);
  if (in.pick(0, 7) == 7) m.ctas = in.sizes("CTAsPerCGA", rank, 1);
  size_t r = m.shape.size();
  in.require(r == 2 || r == 3, "shape = " + list(m.shape) + ": rank 2 or 3");
  in.requireLength("warps_per_cta", m.p.warpsPerCta, r);
  if (!m.ctas.empty()) in.requireLength("CTAsPerCGA", m.ctas, r);
  if (m.p.version == std::vector<uint64_t>{2, 0})
    in.require(
        m.p.instrShape == (r == 3 ? std::vector<uint64_t>{1, 16, 8} : std::vector<uint64_t>{16, 8}),
        "instr_shape = " + list(m.p.instrShape) + " for rank " + std::to_string(r));
  return m;
}

}  // namespace

void fuzzNvidiaMma(Decoder& in) {
  Mma m = decodeMma(in);
  Target t{"nvidia_mma", m.describe(), in};
  Built b = construct(t, [&] { return nvidiaMma(m.params(), m.shape); });
  if (!accepted(t, b, false)) return;
  expectSame(t, outDimMismatch(*b.answer, m.shape));
  if (m.modelled())
    expectSame(t, distributedMismatch(*b.answer, ptx::Accumulator{m.wgmma(), m.p.instrShape[1],
                                                                  m.p.warpsPerCta, m.shape}));
}

// dot_operand with an nvidia_mma parent; PTX's tables cover mma.sync operands
// with k_width 1, 2, 4.
void fuzzDotOperand(Decoder& in) {
  DotOperandParams p;
  p.operandIndex = in.oneIn16() ? 2 : in.pick(0, 1);
  in.require(p.operandIndex < 2, "operand_index = 2");
  p.kWidth = in.size("k_width", 3);
  Mma m = decodeMma(in);
  p.parent = m.p;
  Target t{"dot_operand",
           "operand_index " + std::to_string(p.operandIndex) + " k_width " +
               std::to_string(p.kWidth) + " parent " + m.describe(),
           in};
  Built b = construct(t, [&] {
    DotOperandParams q = p;
    q.parent = m.params();
    return dotOperand(q, m.shape);
  });
  if (!accepted(t, b, false)) return;
  expectSame(t, outDimMismatch(*b.answer, m.shape));
  if (m.modelled() && !m.wgmma() && p.kWidth <= 4)
    expectSame(t, distributedMismatch(*b.answer, ptx::Operand{static_cast<unsigned>(p.operandIndex),
                                                              p.kWidth, m.p.warpsPerCta, m.shape}));
}

namespace {

// ldmatrix's ownership (mma_fragments.h): register bit 0 is the half of a
// 32-bit register, the bits above it the matrix.
struct Ldmatrix {
  uint64_t count;
  bool trans;
  uint64_t registers() const { return 2 * count; }
  uint64_t lanes() const { return 32; }
  uint64_t warps() const { return 1; }
  uint64_t blocks() const { return 1; }
  std::vector<uint64_t> at(uint64_t reg, uint64_t lane, uint64_t, uint64_t) const {
    ptx::MatrixElement e = ptx::ldmatrixElement(trans, lane, reg / 2, reg % 2);
    return {e.row, e.col, e.matrix};
  }
};

}  // namespace

void fuzzLdmatrix(Decoder& in) {
  LdmatrixParams p{in.size("count", 2), in.flag()};
  in.require(p.count == 1 || p.count == 2 || p.count == 4, "count = " + std::to_string(p.count));
  Target t{"ldmatrix", "count " + std::to_string(p.count) + (p.trans ? " trans" : ""), in};
  Built b = construct(t, [&] { return ldmatrix(p); });
  if (!accepted(t, b, plainLegal(in))) return;
  expectSame(t, distributedMismatch(*b.answer, Ldmatrix{p.count, p.trans}, {"register", "lane"}));
}

namespace {

// The AMD parameters both families share: rank 2 or 3 (stated), warps,
// tiles per warp (empty: all 1), the shape; MFMA's CGA.
struct AmdGrid {
  std::vector<uint64_t> warps, tiles, shape;
  CgaBases cga;  // block bit -> CTA steps per dim; empty: one CTA
  std::string describe() const {
    std::string text = "warps_per_cta " + list(warps) + " tiles_per_warp " + list(tiles);
    if (!cga.empty()) {
      text += " cga_layout [";
      for (size_t i = 0; i < cga.size(); ++i) text += (i ? "," : "") + list(cga[i]);
      text += "]";
    }
    return text + " shape " + list(shape);
  }
  std::vector<uint64_t> tilesOrOnes() const {
    return tiles.empty() ? std::vector<uint64_t>(shape.size(), 1) : tiles;
  }
};

AmdGrid decodeAmdGrid(Decoder& in) {
  size_t rank = in.rank(2, 3);
  AmdGrid g;
  g.warps = in.sizes("warps_per_cta", rank, 2);
  if (in.flag()) g.tiles = in.sizes("tiles_per_warp", rank, 1);
  g.shape = in.shape(rank, 7);
  size_t r = g.shape.size();
  in.require(r == 2 || r == 3, "shape = " + list(g.shape) + ": rank 2 or 3");
  in.requireLength("warps_per_cta", g.warps, r);
  if (!g.tiles.empty()) in.requireLength("tiles_per_warp", g.tiles, r);
  return g;
}

// One time in 4 a CGA of one or two CTA bits, each splitting a dim (its
// next power of two) or holding copies.
void decodeAmdCga(Decoder& in, AmdGrid& g) {
  if (in.pick(0, 3) != 3 || in.budget < 2) return;
  size_t rank = g.shape.size();
  std::vector<uint64_t> next(rank, 1);
  for (int b = in.pick(1, 2); b > 0; --b, --in.budget) {
    size_t d = static_cast<size_t>(in.pick(0, static_cast<int>(rank)));
    std::vector<uint64_t> basis(rank, 0);
    if (d < rank) basis[d] = next[d], next[d] *= 2;
    g.cga.push_back(basis);
  }
}

// Triton's MFMA accumulator and operand with a CGA (cga_tiling.h's
// OverCtas): the extents of `wholeDim` (N, or the operand's K) counted from
// the whole tensor, the others from the CTA's share.
template <class Make>
auto mfmaOverCtas(const AmdGrid& g, size_t wholeDim, const Make& model) {
  OverCtas<decltype(model(g.shape))> o{model(g.shape), g.cga, g.shape};
  Shape counted = o.share();
  counted[wholeDim] = g.shape[wholeDim];
  o.cta = model(counted);
  return o;
}

}  // namespace

void fuzzAmdMfma(Decoder& in) {
  AmdMfmaParams p;
  p.version = in.oneIn16() ? 5 * in.pick(0, 1) : in.pick(1, 4);
  in.require(p.version >= 1 && p.version <= 4, "version = " + std::to_string(p.version));
  const std::vector<uint64_t> instrs[6] = {{32, 32, 8}, {16, 16, 16}, {4, 64, 4},
                                           {64, 4, 4},  {32, 16, 8},  {32, 32}};
  int i = in.oneIn16() ? in.pick(4, 5) : in.pick(0, 3);
  in.require(i < 4, "instr_shape = " + list(instrs[i]));
  p.instrShape = instrs[i];
  p.transposed = in.flag();
  p.elementBitwidth = in.oneIn16() ? 16 : 32 << in.pick(0, 1);
  in.require(p.elementBitwidth != 16, "element_bitwidth = 16");
  in.budget -= 6 + (i < 4 ? f2lay::log2Exact(p.instrShape[0] * p.instrShape[1] / 64) : 0);
  AmdGrid g = decodeAmdGrid(in);
  if (g.shape.size() == 2 || g.shape.size() == 3) decodeAmdCga(in, g);
  p.warpsPerCta = g.warps;
  p.tilesPerWarp = g.tiles;
  if (!g.cga.empty())
    p.cgaLayout = f2lay::ref::catalog::testkit::cgaFromBases(g.cga, g.shape.size());
  Target t{"amd_mfma",
           "version " + std::to_string(p.version) + " instr_shape " + list(p.instrShape) +
               (p.transposed ? " transposed" : "") + " element_bitwidth " +
               std::to_string(p.elementBitwidth) + " " + g.describe(),
           in};
  Built b = construct(t, [&] { return amdMfma(p, g.shape); });
  if (!accepted(t, b, false)) return;
  expectSame(t, outDimMismatch(*b.answer, g.shape));
  size_t rank = g.shape.size();
  expectSame(
      t, distributedMismatch(*b.answer, mfmaOverCtas(g, rank - 1, [&](const Shape& counted) {
        return amd::Accumulator{
            false, 0,       p.elementBitwidth == 64, p.transposed, p.instrShape[0], p.instrShape[1],
            64,    g.warps, g.tilesOrOnes(),         counted};
      })));
  // One of its operands, any power-of-two k_width, against AMD's operand table.
  uint64_t index = in.pick(0, 1), kWidth = uint64_t{1} << in.pick(0, 5);
  Target o{
      "dot_operand amd_mfma",
      t.params + " operand_index " + std::to_string(index) + " k_width " + std::to_string(kWidth),
      in};
  Built d = construct(o, [&] { return amdMfmaDotOperand({index, p, kWidth}, g.shape); });
  if (!accepted(o, d, true)) return;
  expectSame(o, outDimMismatch(*d.answer, g.shape));
  expectSame(o, distributedMismatch(
                    *d.answer,
                    mfmaOverCtas(g, index == 0 ? rank - 1 : rank - 2, [&](const Shape& counted) {
                      return amd::mfmaOperandModel(p.instrShape, g.warps, g.tilesOrOnes(), index,
                                                   kWidth, counted);
                    })));
}

WmmaBases decodeWmmaBases(Decoder& in, size_t rank) {
  WmmaBases b;
  auto place = [&](const f2lay::Basis& basis) {
    std::vector<f2lay::Basis>& to = in.flag() ? b.warp : b.reg;
    to.insert(to.begin() + in.pick(0, static_cast<int>(to.size())), basis);
  };
  for (size_t d = 0; d < rank; ++d) {
    int bits = std::min(in.pick(0, 2), std::max(0, in.budget));
    in.budget -= bits;
    for (int k = 0; k < bits; ++k) {
      f2lay::Basis basis(rank, 0);
      basis[d] = uint64_t{1} << k;
      place(basis);
    }
  }
  if (in.flag() && in.budget > 0) {
    --in.budget;
    place(f2lay::Basis(rank, 0));
  }
  if (in.oneIn16()) {
    in.wild = true;
    std::vector<f2lay::Basis>& bases = b.warp.empty() ? b.reg : b.warp;
    auto moving = std::find_if(bases.begin(), bases.end(), [](const f2lay::Basis& x) {
      return std::any_of(x.begin(), x.end(), [](uint64_t v) { return v != 0; });
    });
    int how = moving == bases.end() ? 3 : in.pick(0, 3);
    if (how == 0) {
      for (uint64_t& v : *moving) v *= 2;
      in.require(false, "a basis doubled (a gap or a repeat)");
    } else if (how == 1) {
      bases.push_back(*moving);
      in.require(false, "a basis repeated");
    } else if (how == 2 && rank > 1) {
      size_t d = static_cast<size_t>(
          std::find_if(moving->begin(), moving->end(), [](uint64_t v) { return v != 0; }) -
          moving->begin());
      (*moving)[(d + 1) % rank] = 1;
      in.require(false, "a basis moving two dims");
    } else {
      place(f2lay::Basis(rank + 1, 0));
      in.require(false, "a basis of rank " + std::to_string(rank + 1));
    }
  }
  return b;
}

void fuzzAmdWmma(Decoder& in) {
  AmdWmmaParams p;
  p.version = in.oneIn16() ? 4 * in.pick(0, 1) : in.pick(1, 3);
  in.require(p.version >= 1 && p.version <= 3, "version = " + std::to_string(p.version));
  // Gluon's default, the version 1 and 2 shapes, and version 3's: mostly one
  // the version takes, one in 16 any.
  const std::vector<uint64_t> instrs[9] = {{},           {16, 16, 16},  {16, 16, 32},
                                           {16, 16, 4},  {16, 16, 64},  {16, 16, 128},
                                           {32, 16, 64}, {32, 16, 128}, {32, 16, 16}};
  int i = in.oneIn16()     ? in.pick(0, 8)
          : p.version == 3 ? in.pick(2, 7)
                           : in.pick(0, p.version == 2 ? 2 : 1);
  p.instrShape = instrs[i];
  in.require(p.version == 3 ? i >= 2 && i <= 7 : i <= 1 || (p.version == 2 && i == 2),
             "instr_shape = " + list(p.instrShape) + " for version " + std::to_string(p.version));
  uint64_t instrM = p.instrShape.empty() ? 16 : p.instrShape[0];
  p.transposed = in.flag();
  in.budget -= 5 + (instrM == 32 ? 4 : 3);  // the lanes, 8 or 16 registers
  std::string head = "version " + std::to_string(p.version) + " instr_shape " + list(p.instrShape) +
                     (p.transposed ? " transposed " : " ");
  if (instrM == 16 && in.flag()) {  // Gluon 3.6's warps_per_cta and tiles_per_warp
    AmdGrid g = decodeAmdGrid(in);
    for (size_t d = g.shape.size() >= 2 ? g.shape.size() - 2 : 0; d < g.shape.size(); ++d)
      in.require(g.shape[d] == 1 || g.shape[d] >= 16, "shape[" + std::to_string(d) +
                                                          "] = " + std::to_string(g.shape[d]) +
                                                          " is neither 1 nor at least 16");
    Target t{"amd_wmma", head + g.describe(), in};
    Built b = construct(t, [&] {
      AmdWmmaBases bases = gluon36WmmaBases(g.warps, g.tiles, g.shape);
      p.warpBases = bases.warpBases;
      p.regBases = bases.regBases;
      return amdWmma(p, g.shape);
    });
    if (!accepted(t, b, false)) return;
    expectSame(t, outDimMismatch(*b.answer, g.shape));
    expectSame(t, distributedMismatch(
                      *b.answer, amd::Accumulator{true, p.version, false, p.transposed, 16, 16, 32,
                                                  g.warps, g.tilesOrOnes(), g.shape}));
    return;
  }
  // Gluon 3.9's bases, at any shape; their rank is the shape's.
  Shape shape = in.shape(in.rank(2, 3), 7);
  size_t rank = shape.size();
  in.require(rank == 2 || rank == 3, "shape = " + list(shape) + ": rank 2 or 3");
  WmmaBases bases = decodeWmmaBases(in, rank);
  p.warpBases = bases.warp;
  p.regBases = bases.reg;
  Target t{"amd_wmma", head + bases.describe() + " shape " + list(shape), in};
  Built b = construct(t, [&] { return amdWmma(p, shape); });
  if (!accepted(t, b, plainLegal(in))) return;
  expectSame(t, outDimMismatch(*b.answer, shape));
  expectSame(t, distributedMismatch(*b.answer, amd::WmmaByBases{p.version, p.transposed, instrM,
                                                                bases.warp, bases.reg, shape}));
  // One of its operands, with a k_width Triton's verifier takes for the
  // version, against AMD's operand tables.
  uint64_t index = in.pick(0, 1);
  uint64_t kWidth = p.version == 1   ? uint64_t{8} << in.pick(0, 1)
                    : p.version == 2 ? uint64_t{4} << in.pick(0, 2)
                                     : uint64_t{1} << in.pick(0, 5);
  Target o{
      "dot_operand amd_wmma",
      t.params + " operand_index " + std::to_string(index) + " k_width " + std::to_string(kWidth),
      in};
  Built d = construct(o, [&] { return amdWmmaDotOperand({index, p, kWidth}, shape); });
  if (!accepted(o, d, true)) return;
  expectSame(o, outDimMismatch(*d.answer, shape));
  std::vector<uint64_t> instr =
      p.instrShape.empty() ? std::vector<uint64_t>{16, 16, 16} : p.instrShape;
  expectSame(o, distributedMismatch(
                    *d.answer, amd::wmmaOperandModel(p.version, p.transposed, instr, bases.warp,
                                                     bases.reg, index, kWidth, shape)));
}

}  // namespace f2lay::fuzz::catalog_fuzz
