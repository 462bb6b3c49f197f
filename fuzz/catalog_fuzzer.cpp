// libFuzzer target: the catalog's constructors at random parameters, each
// against its element-wise definition, written independently of it in
// reference/catalog/tests (elementwise.h, mma_fragments.h, amd_fragments.h,
// shared_formulas.h, cute_formula.h, cutlass_formula.h) and compared at every
// input by elementwise_compare.h.
//
// FuzzedDataProvider picks a family and decodes its parameters: mostly small
// powers of two, and one value in 16 off that range (0, odd, huge, a list of
// the wrong length, an order that is not a permutation, a rank out of range).
// A constructor must throw f2lay::Error or return the definition's layout.
// Parameters that break a rule the family's header states must be refused;
// where the rules are short (blocked, slice, swizzled shared, ldmatrix, CuTe,
// CUTLASS) plain legal parameters must be accepted. Anything else aborts with
// the family, the parameters and the first differing input. Sizes are drawn
// so that a layout has at most 2^12 inputs; a larger one (from a huge legal
// value) is built but not compared.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <iterator>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "formats/error.h"
#include "fuzz/fuzz_support.h"
#include "reference/catalog/amd_mfma.h"
#include "reference/catalog/amd_wmma.h"
#include "reference/catalog/blocked.h"
#include "reference/catalog/cute.h"
#include "reference/catalog/cutlass.h"
#include "reference/catalog/dot_operand.h"
#include "reference/catalog/ldmatrix.h"
#include "reference/catalog/nvidia_mma.h"
#include "reference/catalog/nvmma_shared.h"
#include "reference/catalog/shared.h"
#include "reference/catalog/slice.h"
#include "reference/catalog/tests/amd_fragments.h"
#include "reference/catalog/tests/cute_formula.h"
#include "reference/catalog/tests/cutlass_formula.h"
#include "reference/catalog/tests/elementwise.h"
#include "reference/catalog/tests/elementwise_compare.h"
#include "reference/catalog/tests/mma_fragments.h"
#include "reference/catalog/tests/shared_formulas.h"

namespace {

using namespace f2lay::ref::catalog;
using f2lay::Error;
using f2lay::isPowerOfTwo;
using f2lay::ref::LinearLayout;

constexpr int kMaxInputBits = 12;

template <class T>
std::string list(const std::vector<T>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

bool isPermutation(std::vector<unsigned> order, size_t rank) {
  std::sort(order.begin(), order.end());
  for (size_t i = 0; i < order.size(); ++i)
    if (order[i] != i) return false;
  return order.size() == rank;
}

// Values off the small range, one in 16 draws: zero, not powers of two,
// powers of two too large for any layout (64 input bits at most).
constexpr uint64_t kWild[16] = {0,
                                3,
                                5,
                                6,
                                12,
                                24,
                                48,
                                1000,
                                uint64_t{1} << 20,
                                uint64_t{1} << 31,
                                uint64_t{1} << 32,
                                uint64_t{1} << 40,
                                uint64_t{1} << 62,
                                (uint64_t{1} << 62) + 1,
                                uint64_t{1} << 63,
                                ~uint64_t{0}};

// Decodes parameters, one byte a value, and keeps what the constructor must
// do with them: `broken` names the first value that breaks a stated rule (it
// must be refused); `wild` says some value was off the small range (it may
// be refused). Rules between values (one entry per dim, orders that are
// permutations) are checked by each family on the values decoded, since two
// changes can cancel out. `budget` is the log2 left for the sizes that
// become inputs.
class Decoder {
 public:
  explicit Decoder(FuzzedDataProvider& in) : in_(in) {}

  std::string broken;
  bool wild = false;
  int budget = kMaxInputBits;

  void require(bool rule, const std::string& what) {
    if (!rule && broken.empty()) broken = what;
  }
  int pick(int lo, int hi) { return in_.ConsumeIntegralInRange(lo, hi); }
  bool flag() { return in_.ConsumeBool(); }
  bool oneIn16() { return in_.ConsumeIntegral<uint8_t>() >= 240; }

  // 2^0..2^maxLog2 within the budget, or one in 16 a value of kWild, which
  // breaks the rule when it is not a power of two.
  uint64_t size(const std::string& name, int maxLog2) {
    uint8_t b = in_.ConsumeIntegral<uint8_t>();
    if (b >= 240) {
      wild = true;
      uint64_t v = kWild[b - 240];
      require(isPowerOfTwo(v), name + " = " + std::to_string(v) + " is not a power of two");
      return v;
    }
    int k = std::max(0, std::min(b % (maxLog2 + 1), budget));
    budget -= k;
    return uint64_t{1} << k;
  }
  // `rank` sizes, or one in 16 a list one entry too long or too short.
  std::vector<uint64_t> sizes(const std::string& name, size_t rank, int maxLog2) {
    size_t n = length(rank);
    std::vector<uint64_t> v;
    for (size_t i = 0; i < n; ++i) v.push_back(size(name + "[" + std::to_string(i) + "]", maxLog2));
    return v;
  }
  // sizes() outside the budget: a distributed layout's shape costs inputs
  // only where it exceeds the tile (a larger layout is not compared).
  std::vector<uint64_t> shape(size_t rank, int maxLog2) {
    int saved = budget;
    budget = 64;
    std::vector<uint64_t> v = sizes("shape", rank, maxLog2);
    budget = saved;
    return v;
  }
  // A permutation of 0..rank-1, or one in 16 a list with one entry changed,
  // added or removed.
  std::vector<unsigned> order(size_t rank) {
    std::vector<unsigned> o(rank);
    std::iota(o.begin(), o.end(), 0u);
    for (size_t i = rank; i > 1; --i) std::swap(o[i - 1], o[pick(0, static_cast<int>(i) - 1)]);
    if (oneIn16()) {
      wild = true;
      int how = pick(0, 2);
      if (how == 0 && rank > 0)
        o[pick(0, static_cast<int>(rank) - 1)] = pick(0, static_cast<int>(rank));
      if (how == 1) o.push_back(static_cast<unsigned>(rank));
      if (how == 2 && rank > 0) o.pop_back();
    }
    return o;
  }
  // One entry per dim, every family's rule.
  template <class T>
  void requireLength(const std::string& name, const std::vector<T>& v, size_t rank) {
    require(v.size() == rank, name + " = " + list(v) + " for rank " + std::to_string(rank));
  }
  void requirePermutation(const std::string& name, const std::vector<unsigned>& order,
                          size_t rank) {
    require(
        isPermutation(order, rank),
        name + " = " + list(order) + " is not a permutation of 0.." + std::to_string(rank) + "-1");
  }
  // lo..hi, or one in 16 one past either end.
  size_t rank(size_t lo, size_t hi) {
    uint8_t b = in_.ConsumeIntegral<uint8_t>();
    if (b >= 240) {
      wild = true;
      return b % 2 ? hi + 1 : lo - 1;
    }
    return lo + b % (hi - lo + 1);
  }

 private:
  size_t length(size_t rank) {
    if (!oneIn16()) return rank;
    wild = true;
    return flag() || rank == 0 ? rank + 1 : rank - 1;
  }

  FuzzedDataProvider& in_;
};

// One family at one parameter set, for the messages.
struct Target {
  const char* family;
  std::string params;
  const Decoder& in;
};

[[noreturn]] void fail(const Target& t, const std::string& what) {
  f2lay::fuzz::fail("catalog", std::string(t.family) + " " + t.params + ": " + what);
}

// What a constructor did: its layout, or the message of its f2lay::Error.
// Any other exception aborts.
struct Built {
  std::optional<LinearLayout> layout;
  std::string error;
};

template <class Build>
Built construct(const Target& t, const Build& build) {
  try {
    return {build(), ""};
  } catch (const Error& e) {
    return {std::nullopt, e.what()};
  } catch (const std::exception& e) {
    fail(t, std::string("threw an exception that is not f2lay::Error: ") + e.what());
  } catch (...) {
    fail(t, "threw something that is not a std::exception");
  }
}

// Whether `b` holds a layout to compare: aborts when parameters that break a
// rule were accepted or, with `mustAccept`, legal ones refused; false for a
// refusal and for a layout too large to enumerate.
bool accepted(const Target& t, const Built& b, bool mustAccept) {
  if (!b.layout) {
    if (mustAccept) fail(t, "refused legal parameters: " + b.error);
    return false;
  }
  if (!t.in.broken.empty()) fail(t, "accepted parameters that break a rule: " + t.in.broken);
  return f2lay::naive::inBits(b.layout->value()) <= kMaxInputBits;
}

bool plainLegal(const Decoder& in) { return in.broken.empty() && !in.wild; }

void expectSame(const Target& t, const std::string& mismatch) {
  if (!mismatch.empty()) fail(t, mismatch);
}

// Triton's layouts of a tensor of `shape` have the out dims dim0.. of exactly
// those sizes.
std::string outDimMismatch(const LinearLayout& l, const Shape& shape) {
  std::vector<std::string> names;
  std::vector<uint64_t> sizes;
  for (const f2lay::OutDim& d : l.value().out_dims)
    names.push_back(d.name), sizes.push_back(d.size);
  if (names != standardOutDimNames(shape.size()) || sizes != shape)
    return "out dims of sizes " + list(sizes) + ", the shape " + list(shape);
  return "";
}

// --- Distributed layouts --------------------------------------------------

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

void fuzzBlocked(Decoder& in) {
  size_t rank = in.rank(1, 3);
  elementwise::Blocked p = decodeBlocked(in, rank, in.shape(rank, 5));
  Target t{"blocked", describe(p) + " shape " + list(p.shape), in};
  Built b = construct(t, [&] { return buildBlocked(p); });
  if (!accepted(t, b, plainLegal(in)) || inputBits(p) > kMaxInputBits) return;
  expectSame(t, outDimMismatch(*b.layout, p.shape));
  expectSame(t, distributedMismatch(*b.layout, p));
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
  expectSame(t, outDimMismatch(*b.layout, shape));
  // elementwise::Slice scans a thread's parent registers for each register.
  if (inputBits(parent) <= 10)
    expectSame(
        t, distributedMismatch(*b.layout, elementwise::Slice<elementwise::Blocked>{parent, dim}));
}

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

void fuzzNvidiaMma(Decoder& in) {
  Mma m = decodeMma(in);
  Target t{"nvidia_mma", m.describe(), in};
  Built b = construct(t, [&] { return nvidiaMma(m.params(), m.shape); });
  if (!accepted(t, b, false)) return;
  expectSame(t, outDimMismatch(*b.layout, m.shape));
  if (m.modelled())
    expectSame(t, distributedMismatch(*b.layout, ptx::Accumulator{m.wgmma(), m.p.instrShape[1],
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
  expectSame(t, outDimMismatch(*b.layout, m.shape));
  if (m.modelled() && !m.wgmma() && p.kWidth <= 4)
    expectSame(t, distributedMismatch(*b.layout, ptx::Operand{static_cast<unsigned>(p.operandIndex),
                                                              p.kWidth, m.p.warpsPerCta, m.shape}));
}

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

void fuzzLdmatrix(Decoder& in) {
  LdmatrixParams p{in.size("count", 2), in.flag()};
  in.require(p.count == 1 || p.count == 2 || p.count == 4, "count = " + std::to_string(p.count));
  Target t{"ldmatrix", "count " + std::to_string(p.count) + (p.trans ? " trans" : ""), in};
  Built b = construct(t, [&] { return ldmatrix(p); });
  if (!accepted(t, b, plainLegal(in))) return;
  expectSame(t, distributedMismatch(*b.layout, Ldmatrix{p.count, p.trans}, {"register", "lane"}));
}

// The AMD parameters both families share: rank 2 or 3 (stated), warps,
// tiles per warp (empty: all 1), the shape.
struct AmdGrid {
  std::vector<uint64_t> warps, tiles, shape;
  std::string describe() const {
    return "warps_per_cta " + list(warps) + " tiles_per_warp " + list(tiles) + " shape " +
           list(shape);
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
  p.warpsPerCta = g.warps;
  p.tilesPerWarp = g.tiles;
  Target t{"amd_mfma",
           "version " + std::to_string(p.version) + " instr_shape " + list(p.instrShape) +
               (p.transposed ? " transposed" : "") + " element_bitwidth " +
               std::to_string(p.elementBitwidth) + " " + g.describe(),
           in};
  Built b = construct(t, [&] { return amdMfma(p, g.shape); });
  if (!accepted(t, b, false)) return;
  expectSame(t, outDimMismatch(*b.layout, g.shape));
  expectSame(t, distributedMismatch(
                    *b.layout, amd::Accumulator{false, 0, p.elementBitwidth == 64, p.transposed,
                                                p.instrShape[0], p.instrShape[1], 64, g.warps,
                                                g.tilesOrOnes(), g.shape}));
}

// Gluon 3.9's warp_bases and reg_bases at `rank`: per dim the moves 1, 2, 4,
// ... each on a warp or a register bit, in any order, and maybe an all-0
// broadcast; one in 16 draws breaks a rule (a gap, a repeat, a basis moving
// two dims, one of the wrong length).
struct WmmaBases {
  std::vector<f2lay::Basis> warp, reg;
  std::string describe() const {
    auto text = [](const std::vector<f2lay::Basis>& bases) {
      std::string s = "[";
      for (size_t i = 0; i < bases.size(); ++i) s += (i ? "," : "") + list(bases[i]);
      return s + "]";
    };
    return "warp_bases " + text(warp) + " reg_bases " + text(reg);
  }
};

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
    expectSame(t, outDimMismatch(*b.layout, g.shape));
    expectSame(t, distributedMismatch(
                      *b.layout, amd::Accumulator{true, p.version, false, p.transposed, 16, 16, 32,
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
  expectSame(t, outDimMismatch(*b.layout, shape));
  expectSame(t, distributedMismatch(*b.layout, amd::WmmaByBases{p.version, p.transposed, instrM,
                                                                bases.warp, bases.reg, shape}));
}

// --- Memory layouts -------------------------------------------------------

// Def 4.11 (swizzledShared) or its vec = perPhase = maxPhase = 1 case
// (unswizzledShared), one CTA.
void fuzzSwizzledShared(Decoder& in) {
  size_t rank = in.rank(1, 3);
  Shape shape = in.sizes("shape", rank, 6);
  in.budget = 64;  // vec, per_phase, max_phase are not inputs
  bool swizzled = in.flag();
  SwizzledSharedParams p{1, 1, 1, in.order(rank), std::nullopt};
  if (swizzled) {
    p.vec = in.size("vec", 4);
    p.perPhase = in.size("per_phase", 4);
    p.maxPhase = in.size("max_phase", 5);
  }
  in.require(!shape.empty(), "shape = [] (rank 0)");
  in.requirePermutation("order", p.order, shape.size());
  Target t{swizzled ? "swizzled_shared" : "unswizzled_shared",
           "vec " + std::to_string(p.vec) + " per_phase " + std::to_string(p.perPhase) +
               " max_phase " + std::to_string(p.maxPhase) + " order " + list(p.order) + " shape " +
               list(shape),
           in};
  Built b = construct(
      t, [&] { return swizzled ? swizzledShared(p, shape) : unswizzledShared(p.order, shape); });
  if (!accepted(t, b, plainLegal(in))) return;
  expectSame(t, outDimMismatch(*b.layout, shape));
  expectSame(t, memoryMismatch(*b.layout, shape, [&](const shared_formulas::Coords& x) {
               return shared_formulas::def411Offset(p, shape, x);
             }));
}

// The TMA swizzles; shared_formulas.h covers rank 2 and rank >= 2 not
// transposed, without fp4 padding.
void fuzzNvmmaShared(Decoder& in) {
  NvmmaSharedParams p;
  const uint64_t widths[6] = {0, 32, 64, 128, 48, 256}, bits[6] = {8, 16, 32, 64, 4, 12};
  int w = in.oneIn16() ? in.pick(4, 5) : in.pick(0, 3),
      e = in.oneIn16() ? in.pick(4, 5) : in.pick(0, 3);
  p.swizzleByteWidth = widths[w];
  p.elementBitwidth = bits[e];
  in.require(w < 4, "swizzle_byte_width = " + std::to_string(p.swizzleByteWidth));
  in.require(e < 4, "element_bitwidth = " + std::to_string(p.elementBitwidth));
  p.transposed = in.flag();
  p.fp4Padded = in.pick(0, 7) == 7;
  // The shape alone gives the rank: no list can have the wrong length.
  Shape shape(in.rank(2, 3));
  for (size_t d = 0; d < shape.size(); ++d)
    shape[d] = in.size("shape[" + std::to_string(d) + "]", 9);
  Target t{"nvmma_shared",
           "swizzle_byte_width " + std::to_string(p.swizzleByteWidth) + " element_bitwidth " +
               std::to_string(p.elementBitwidth) + (p.transposed ? " transposed" : "") +
               (p.fp4Padded ? " fp4_padded" : "") + " shape " + list(shape),
           in};
  Built b = construct(t, [&] { return nvmmaShared(p, shape); });
  if (!accepted(t, b, false)) return;
  expectSame(t, outDimMismatch(*b.layout, shape));
  if (!p.fp4Padded && (shape.size() == 2 || !p.transposed))
    expectSame(t, memoryMismatch(*b.layout, shape, [&](const shared_formulas::Coords& x) {
                 return shared_formulas::nvmmaOffset(p, shape, x);
               }));
}

// The smallest power of two above every value ("offset"'s size).
uint64_t sizeAbove(const std::vector<uint64_t>& values) {
  uint64_t size = 1;
  for (uint64_t v : values)
    while (size <= v) size *= 2;
  return size;
}

// Whether the offsets are exactly 0..n-1, each once.
bool isBijection(const std::vector<uint64_t>& offsets) {
  std::vector<bool> hit(offsets.size(), false);
  for (uint64_t o : offsets) {
    if (o >= hit.size() || hit[o]) return false;
    hit[o] = true;
  }
  return true;
}

// Checks a dim0.. -> offset layout (`toOffset`) and its inverse (`memory`)
// against `offsets`, the definition's offset of each flattened input (dim0
// fastest) of `shape`: the first must match at every input, its offset dim
// the smallest power of two above every offset; the second must exist
// exactly when the offsets are a bijection, and invert them.
void expectOffsets(const Target& t, const Built& toOffset, const Built& memory, const Shape& shape,
                   const std::vector<uint64_t>& offsets) {
  if (accepted(t, toOffset, false)) {
    expectSame(t, flatMismatch(*toOffset.layout,
                               [&](uint64_t x) { return std::vector<uint64_t>{offsets[x]}; }));
    if (toOffset.layout->getOutDimSize("offset") != sizeAbove(offsets))
      fail(t, "offset has size " + std::to_string(toOffset.layout->getOutDimSize("offset")) +
                  ", the offsets reach " +
                  std::to_string(*std::max_element(offsets.begin(), offsets.end())));
  }
  if (!accepted(t, memory, toOffset.layout && isBijection(offsets))) return;
  if (!toOffset.layout || !isBijection(offsets))
    fail(t, "the memory layout exists, the offsets are no bijection");
  expectSame(t, memoryMismatch(*memory.layout, shape, [&](const std::vector<uint64_t>& x) {
               uint64_t flat = 0;
               for (size_t d = shape.size(); d-- > 0;) flat = flat * shape[d] + x[d];
               return offsets[flat];
             }));
}

// CuTe's Swizzle<B,M,S> o shape:stride, both directions (cute.h). Where the
// parameters are CuTe's and small, the definition decides whether the
// constructor must accept: exactly when it is linear over F2 (every offset
// the XOR of those of the input's bits) with no negative offset.
void fuzzCute(Decoder& in) {
  CuteSwizzle sw{in.pick(0, 3), in.pick(0, 4), in.pick(-4, 4)};
  if (in.oneIn16()) {
    in.wild = true;
    const int odd[4][3] = {{-1, 3, 1}, {0, -2, 1}, {20, 20, 30}, {3, 3, 60}};
    const int* o = odd[in.pick(0, 3)];
    sw = {o[0], o[1], o[2]};
  }
  int absShift = std::abs(sw.shift);
  bool cuteSwizzle =
      sw.bits >= 0 && sw.base >= 0 && absShift >= sw.bits && sw.bits + sw.base + absShift <= 62;
  in.require(cuteSwizzle, "a swizzle that is not CuTe's");
  CuteLayout layout;
  in.budget = 10;
  size_t rank = in.rank(1, 3);
  layout.shape = in.sizes("shape", rank, 4);
  const int64_t strides[16] = {0, 1, 2, 3, 4, 5, 6, 8, 12, 16, 32, 64, 128, -1, -2, -4};
  for (size_t i = 0; i < rank; ++i) {
    int64_t s = in.flag() ? strides[in.pick(0, 15)] : int64_t{1} << in.pick(0, 20);
    if (in.oneIn16()) {
      in.wild = true;
      s = (in.flag() ? 1 : -1) * (int64_t{1} << 61);
    }
    layout.stride.push_back(s);
  }
  in.requireLength("stride", layout.stride, layout.shape.size());
  Target t{"cute", cuteToString(sw, layout), in};
  Built toOffset = construct(t, [&] { return cuteToLinear(sw, layout); });
  Built memory = construct(t, [&] { return cuteMemoryLayout(sw, layout); });
  if (!in.broken.empty() || in.wild || layout.shape.empty()) {
    accepted(t, toOffset, false);  // only the refusal of broken rules is checked
    accepted(t, memory, false);
    return;
  }
  uint64_t n = 1;
  for (uint64_t s : layout.shape) n *= s;
  std::vector<uint64_t> offsets(n);
  bool linear = true;
  for (uint64_t x = 0; x < n; ++x) {
    int64_t o = cuteOffset(sw, layout, x), xor_ = 0;
    for (uint64_t bit = 1; bit <= x; bit *= 2)
      if (x & bit) xor_ ^= cuteOffset(sw, layout, bit);
    linear = linear && o >= 0 && o == xor_;
    offsets[x] = static_cast<uint64_t>(o);
  }
  if (!linear) {
    if (toOffset.layout) fail(t, "accepted a layout that is not linear over F2 (cute_formula.h)");
    if (memory.layout) fail(t, "the memory direction accepted a layout that is not linear over F2");
    return;
  }
  if (!toOffset.layout) fail(t, "refused a layout that is linear over F2: " + toOffset.error);
  expectOffsets(t, toOffset, memory, layout.shape, offsets);
}

// CUTLASS's TensorOpMultiplicand crosswise, both directions (cutlass.h):
// linear exactly when every parameter is a power of two, crosswise from
// kElementsPerAccess E = 128 / element_bits to 8E, and ldm at least the
// contiguous extent and crosswise.
void fuzzCutlass(Decoder& in) {
  TensorOpMultiplicandParams p;
  p.elementBits = in.size("element_bits", 7);
  in.require(p.elementBits <= 128, "element_bits = " + std::to_string(p.elementBits));
  uint64_t perAccess = p.elementBits && p.elementBits <= 128 ? 128 / p.elementBits : 1;
  p.crosswise = in.oneIn16() ? perAccess / 2 + 16 * in.pick(0, 1) : perAccess << in.pick(0, 3);
  in.require(isPowerOfTwo(p.crosswise) && p.crosswise >= perAccess && p.crosswise <= 8 * perAccess,
             "crosswise = " + std::to_string(p.crosswise));
  // The extents: mostly crosswise times 1, 2 or 4 by 2^0..2^5, within the budget.
  p.contiguous = in.oneIn16() ? p.crosswise / 2 : p.crosswise << in.pick(0, 2);
  in.budget = kMaxInputBits - (isPowerOfTwo(p.contiguous) ? f2lay::log2Exact(p.contiguous) : 0);
  p.strided = in.size("extent[1]", 5);
  uint64_t minLdm = std::max(p.contiguous, p.crosswise);
  p.ldm = in.oneIn16() ? minLdm / 2 + minLdm / 4 : in.pick(0, 2) * p.contiguous;
  p.rowMajor = in.flag();
  in.require(isPowerOfTwo(p.contiguous), "extent[0] = " + std::to_string(p.contiguous));
  uint64_t ldm = p.ldm ? p.ldm : p.contiguous;
  in.require(isPowerOfTwo(ldm) && ldm >= minLdm, "ldm = " + std::to_string(p.ldm));
  Target t{"cutlass_tensorop",
           "element_bits " + std::to_string(p.elementBits) + " crosswise " +
               std::to_string(p.crosswise) + " extent [" + std::to_string(p.contiguous) + ", " +
               std::to_string(p.strided) + "] ldm " + std::to_string(p.ldm) +
               (p.rowMajor ? " row_major" : ""),
           in};
  Built toOffset = construct(t, [&] { return tensorOpMultiplicandToOffset(p); });
  Built memory = construct(t, [&] { return tensorOpMultiplicand(p); });
  const uint64_t most = uint64_t{1} << kMaxInputBits;
  bool legal = in.broken.empty() && p.contiguous <= most && p.strided <= most &&
               p.contiguous * p.strided <= most;
  if (!accepted(t, toOffset, legal) || !legal) {
    accepted(t, memory, false);
    return;
  }
  // Flattened inputs run over dim0 first: contiguous, or strided for the
  // row-major view.
  Shape shape = p.rowMajor ? Shape{p.strided, p.contiguous} : Shape{p.contiguous, p.strided};
  std::vector<uint64_t> offsets;
  for (uint64_t x = 0; x < p.contiguous * p.strided; ++x)
    offsets.push_back(p.rowMajor ? cutlassOffset(p, x / p.strided, x % p.strided)
                                 : cutlassOffset(p, x % p.contiguous, x / p.contiguous));
  expectOffsets(t, toOffset, memory, shape, offsets);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider provider(data, size);
  Decoder in(provider);
  void (*const families[])(Decoder&) = {
      fuzzBlocked, fuzzSlice,          fuzzNvidiaMma,   fuzzDotOperand, fuzzLdmatrix, fuzzAmdMfma,
      fuzzAmdWmma, fuzzSwizzledShared, fuzzNvmmaShared, fuzzCute,       fuzzCutlass};
  families[provider.ConsumeIntegralInRange<size_t>(0, std::size(families) - 1)](in);
  return 0;
}
