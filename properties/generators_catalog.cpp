// Catalog layouts with random legal parameters (generators.h), through the
// reference's constructors, and the generators built from them.
#include <numeric>
#include <optional>

#include "properties/generators.h"
#include "properties/law_support.h"
#include "reference/catalog/amd_scale.h"
#include "reference/catalog/blocked.h"
#include "reference/catalog/cute.h"
#include "reference/catalog/dot_operand.h"
#include "reference/catalog/linear.h"
#include "reference/catalog/nvidia_mma.h"
#include "reference/catalog/nvmma_shared.h"
#include "reference/catalog/padded_shared.h"
#include "reference/catalog/shared.h"
#include "reference/catalog/slice.h"
#include "reference/catalog/tensor_memory.h"
#include "reference/catalog/tmem_reg_layout.h"
#include "reference/linear_layout.h"
#include "testkit/outcome.h"

namespace f2lay::properties {

namespace {

using ref::catalog::Shape;

uint64_t pow2(int bits) { return uint64_t{1} << bits; }

}  // namespace

std::vector<uint64_t> genSpread(int bits, size_t rank) {
  std::vector<uint64_t> sizes(rank, 1);
  for (int i = 0; i < bits; ++i) sizes[*rc::gen::inRange<size_t>(0, rank)] *= 2;
  return sizes;
}

std::vector<unsigned> genOrder(size_t rank) {
  std::vector<unsigned> left(rank), order;
  std::iota(left.begin(), left.end(), 0u);
  while (!left.empty()) {
    size_t pick = *rc::gen::inRange<size_t>(0, left.size());
    order.push_back(left[pick]);
    left.erase(left.begin() + static_cast<long>(pick));
  }
  return order;
}

Shape genShape(size_t rank, int minBits, int maxBits) {
  Shape s;
  for (size_t k = 0; k < rank; ++k) s.push_back(pow2(*rc::gen::inRange(minBits, maxBits + 1)));
  return s;
}

std::vector<Basis> genUnitBases(const Shape& shape) {
  std::vector<Basis> bases;
  for (size_t d = 0; d < shape.size(); ++d)
    for (uint64_t v = 1; v < shape[d]; v *= 2) {
      bases.emplace_back(shape.size(), 0);
      bases.back()[d] = v;
    }
  for (int z = *rc::gen::inRange(0, 3); z > 0; --z) bases.emplace_back(shape.size(), 0);
  for (size_t i = bases.size(); i > 1; --i)
    std::swap(bases[i - 1], bases[*rc::gen::inRange<size_t>(0, i)]);
  return bases;
}

namespace {

ref::LinearLayout genBlockedLayout(size_t rank) {
  ref::catalog::BlockedParams p;
  for (size_t k = 0; k < rank; ++k) p.sizePerThread.push_back(pow2(*rc::gen::inRange(0, 3)));
  p.threadsPerWarp = genSpread(5, rank);
  p.warpsPerCta = genSpread(*rc::gen::inRange(0, 3), rank);
  p.order = genOrder(rank);
  return ref::catalog::blocked(p, genShape(rank, 0, 5));
}

// Gluon's DistributedLinearLayout: each bit of the shape on a random
// register, lane, warp or block basis.
ref::LinearLayout genDistributedLinearLayout() {
  Shape shape = genShape(*rc::gen::inRange<size_t>(1, 4), 0, 3);
  ref::catalog::DistributedLinearParams p;
  std::vector<Basis>* dims[] = {&p.regBases, &p.laneBases, &p.warpBases, &p.blockBases};
  for (const Basis& b : genUnitBases(shape)) dims[*rc::gen::inRange(0, 4)]->push_back(b);
  return ref::catalog::distributedLinear(p, shape);
}

// Gluon's SharedLinearLayout in Def 4.14's form (an invertible matrix whose
// columns have 1 or 2 bits): the unit bases of the shape, some of them with
// one of the bases kept pure XORed in (a swizzle).
ref::LinearLayout genSharedLinearLayout() {
  Shape shape = genShape(*rc::gen::inRange<size_t>(1, 4), 1, 4);
  std::vector<Basis> bases;
  for (const Basis& b : genUnitBases(shape))
    if (b != Basis(b.size(), 0)) bases.push_back(b);
  size_t pure = *rc::gen::inRange<size_t>(1, bases.size() + 1);
  for (size_t i = pure; i < bases.size(); ++i)
    if (*rc::gen::inRange(0, 2)) {
      const Basis& with = bases[*rc::gen::inRange<size_t>(0, pure)];
      for (size_t d = 0; d < shape.size(); ++d) bases[i][d] ^= with[d];
    }
  return ref::catalog::sharedLinear({bases, {}, 16});
}

ref::catalog::NvidiaMmaParams genMmaV2Params() {
  return {{2, 0}, genSpread(*rc::gen::inRange(0, 3), 2), {16, 8}, std::nullopt};
}

// An AMDMFMALayout of rank 2: every (M, N) (64x4 only transposed, as Triton
// asserts), or only M 16 and 32 for the scaled instructions.
ref::catalog::AmdMfmaParams genMfmaParams(bool scaled) {
  std::vector<std::vector<uint64_t>> mn = {{32, 32}, {16, 16}};
  if (!scaled) mn.insert(mn.end(), {{4, 64}, {64, 4}});
  std::vector<uint64_t> instr = mn[*rc::gen::inRange<size_t>(0, mn.size())];
  instr.push_back(pow2(*rc::gen::inRange(2, 7)));
  bool transposed = instr[0] == 64 || *rc::gen::inRange(0, 2);
  return {static_cast<uint64_t>(*rc::gen::inRange(1, 5)),
          instr,
          transposed,
          genSpread(*rc::gen::inRange(0, 3), 2),
          32,
          {pow2(*rc::gen::inRange(0, 2)), pow2(*rc::gen::inRange(0, 2))},
          std::nullopt};
}

// An AMDWMMALayout of rank 2 (Gluon 3.9's bases): per dim the moves 1, 2,
// ... in tiles, each on a warp or a register bit, now and then a broadcast.
ref::catalog::AmdWmmaParams genWmmaParams() {
  uint64_t version = *rc::gen::inRange(1, 4);
  std::vector<std::vector<uint64_t>> instrs = {{16, 16, 16}};
  if (version == 2) instrs.push_back({16, 16, 32});
  if (version == 3) instrs = {{16, 16, 4}, {16, 16, 32}, {16, 16, 128}, {32, 16, 64}};
  ref::catalog::AmdWmmaParams p{version,
                                *rc::gen::inRange(0, 2) == 1,
                                {},
                                {},
                                instrs[*rc::gen::inRange<size_t>(0, instrs.size())],
                                std::nullopt};
  for (size_t d = 0; d < 2; ++d)
    for (int k = 0, n = *rc::gen::inRange(0, 3); k < n; ++k) {
      Basis b{0, 0};
      b[d] = pow2(k);
      (*rc::gen::inRange(0, 2) ? p.warpBases : p.regBases).push_back(b);
    }
  if (*rc::gen::inRange(0, 4) == 0) p.warpBases.push_back({0, 0});
  return p;
}

uint64_t genWmmaKWidth(uint64_t version) {
  if (version == 1) return *rc::gen::element<uint64_t>(8, 16);
  if (version == 2) return *rc::gen::element<uint64_t>(4, 8, 16);
  return pow2(*rc::gen::inRange(0, 5));
}

// A CGA of up to two CTA bits, each splitting one dim (or a copy).
ref::LinearLayout genCga() {
  std::vector<Basis> bases;
  uint64_t next[2] = {1, 1};
  for (int i = 0, n = *rc::gen::inRange(1, 3); i < n; ++i) {
    Basis b{0, 0};
    if (*rc::gen::inRange(0, 5) != 0) {
      size_t d = *rc::gen::inRange<size_t>(0, 2);
      b[d] = next[d];
      next[d] *= 2;
    }
    bases.push_back(b);
  }
  LayoutValue v{{{"block", bases}}, {{"dim0", 1}, {"dim1", 1}}};
  inferOutDimSizes(v);
  return ref::LinearLayout(std::move(v));
}

// Dot operands of every parent family (CGA parents too) and the AMD scales.
ref::LinearLayout genOperandLayout() {
  uint64_t index = *rc::gen::inRange(0, 2);
  switch (*rc::gen::inRange(0, 5)) {
    case 0: {  // an mma.sync parent with a CGA
      ref::catalog::NvidiaMmaParams parent = genMmaV2Params();
      parent.cgaLayout = genCga();
      return ref::catalog::dotOperand({index, parent, pow2(*rc::gen::inRange(0, 4))},
                                      genShape(2, 4, 7));
    }
    case 1: {
      ref::catalog::AmdMfmaParams parent = genMfmaParams(false);
      if (*rc::gen::inRange(0, 3) == 0) parent.cgaLayout = genCga();
      return ref::catalog::amdMfmaDotOperand({index, parent, pow2(*rc::gen::inRange(0, 5))},
                                             genShape(2, 2, 7));
    }
    case 2: {
      ref::catalog::AmdWmmaParams parent = genWmmaParams();
      if (*rc::gen::inRange(0, 3) == 0) parent.cgaLayout = genCga();
      return ref::catalog::amdWmmaDotOperand({index, parent, genWmmaKWidth(parent.version)},
                                             genShape(2, 2, 7));
    }
    case 3:
      return ref::catalog::amdMfmaScale(
          {index, genMfmaParams(true), 16},
          {pow2(*rc::gen::inRange(0, 8)), pow2(*rc::gen::inRange(0, 5))});
    default: {
      ref::catalog::AmdWmmaParams parent = genWmmaParams();
      if (*rc::gen::inRange(0, 3) == 0) parent.cgaLayout = genCga();
      return ref::catalog::amdWmmaScale(
          {index, parent, genWmmaKWidth(parent.version)},
          {pow2(*rc::gen::inRange(0, 8)), pow2(*rc::gen::inRange(0, 5))},
          *rc::gen::element<uint64_t>(16, 32));
    }
  }
}

// A tcgen05.ld/st register layout (Blackwell) that Gluon 3.9.0 gives: any of
// the four shapes on a 128-row block with at least 8 columns per warp group
// (32-bit elements, packed), or 32x32b on a 64-row block (where lanes 16-31
// may read the upper half of the columns).
ref::LinearLayout genTmemRegLayout() {
  ref::catalog::TmemRegParams p;
  p.numWarps = pow2(*rc::gen::inRange(2, 4));
  bool rows64 = *rc::gen::inRange(0, 4) == 0;
  p.layout.block = {rows64 ? 64u : 128u, pow2(*rc::gen::inRange(3, 9))};
  p.shape = {(rows64 ? 64 : 128) * pow2(*rc::gen::inRange(0, 2)), pow2(*rc::gen::inRange(5, 9))};
  p.allocShape = p.shape;
  p.instrVariant =
      rows64 ? "32x32b" : *rc::gen::element<std::string>("32x32b", "16x64b", "16x128b", "16x256b");
  return ref::catalog::tmemRegLayout(p);
}

ref::LinearLayout genCatalogDistributedLayout() {
  switch (*rc::gen::inRange(0, 8)) {
    case 7:
      return genTmemRegLayout();
    case 6:
      return genOperandLayout();
    case 0:
      return genBlockedLayout(*rc::gen::inRange<size_t>(1, 4));
    case 5:
      return genDistributedLinearLayout();
    case 1:
      return ref::catalog::nvidiaMma(genMmaV2Params(), genShape(2, 3, 6));
    case 2: {  // Hopper: 4 warps (or 8) along M, instruction N of 8 to 64
      std::vector<uint64_t> warps = {pow2(*rc::gen::inRange(2, 4)), 1};
      uint64_t n = pow2(*rc::gen::inRange(3, 7));
      return ref::catalog::nvidiaMma(
          {{3, 0}, warps, {16, n, 16}, std::nullopt},
          {pow2(*rc::gen::inRange(6, 8)), n * pow2(*rc::gen::inRange(0, 2))});
    }
    case 3: {
      ref::catalog::DotOperandParams p;
      p.operandIndex = *rc::gen::inRange(0, 2);
      p.parent = genMmaV2Params();
      p.kWidth = pow2(*rc::gen::inRange(0, 4));
      return ref::catalog::dotOperand(p, genShape(2, 4, 6));
    }
    default: {
      size_t rank = *rc::gen::inRange<size_t>(2, 4);
      return ref::catalog::slice(genBlockedLayout(rank), *rc::gen::inRange<unsigned>(0, rank));
    }
  }
}

// CuTe: Sw<b,m,s> o a compact layout of one to three modes, each one leaf
// or a nested pair (CuTe's hierarchical modes, cute.h), the
// leaves stacked in memory in a random order, e.g. ((8,2),64):((64,4096),1).
// Compact, with b + m + s within its bits, it is a bijection onto 0..size-1.
ref::LinearLayout genCuteLayout() {
  int b = *rc::gen::inRange(0, 4), m = *rc::gen::inRange(0, 4), s = *rc::gen::inRange(b, 4);
  size_t modes = *rc::gen::inRange<size_t>(1, 4);
  std::vector<size_t> leafMode;
  std::vector<int> leafBits;
  int total = 0;
  for (size_t mode = 0; mode < modes; ++mode)
    for (int k = *rc::gen::inRange(1, 3); k > 0; --k) {
      leafMode.push_back(mode);
      leafBits.push_back(*rc::gen::inRange(0, 3));
      total += leafBits.back();
    }
  if (total < b + m + s) leafBits.back() += b + m + s - total;
  std::vector<int64_t> stride(leafBits.size());
  int64_t next = 1;
  for (unsigned leaf : genOrder(leafBits.size())) {
    stride[leaf] = next;
    next <<= leafBits[leaf];
  }
  ref::catalog::CuteLayout l;
  for (size_t mode = 0; mode < modes; ++mode) {
    std::vector<ref::catalog::CuteTuple> shape, strides;
    for (size_t leaf = 0; leaf < leafBits.size(); ++leaf)
      if (leafMode[leaf] == mode) {
        shape.emplace_back(int64_t{1} << leafBits[leaf]);
        strides.emplace_back(stride[leaf]);
      }
    l.shape.push_back(shape.size() == 1 ? shape[0] : ref::catalog::CuteTuple(shape));
    l.stride.push_back(strides.size() == 1 ? strides[0] : ref::catalog::CuteTuple(strides));
  }
  return ref::catalog::cuteMemoryLayout({b, m, s}, l);
}

ref::LinearLayout genCatalogMemoryLayout() {
  switch (*rc::gen::inRange(0, 5)) {
    case 3:
      return genSharedLinearLayout();
    case 4: {
      // padded_shared's linear component (reference/catalog/padded_shared.h):
      // each dim's offset bits 1, 2, 4, ... in random order, one CTA.
      ref::catalog::PaddedSharedParams p;
      p.shape = genShape(2, 0, 6);
      for (size_t d = 0; d < 2; ++d)
        for (uint64_t x = 1; x < p.shape[d]; x *= 2)
          p.offsetBases.push_back(d ? Basis{0, x} : Basis{x, 0});
      for (size_t i = p.offsetBases.size(); i > 1; --i)
        std::swap(p.offsetBases[i - 1], p.offsetBases[*rc::gen::inRange<size_t>(0, i)]);
      p.intervalPaddingPairs = {{pow2(*rc::gen::inRange(0, 9)), pow2(*rc::gen::inRange(0, 5))}};
      return ref::catalog::paddedShared(p).linear;
    }
    case 0: {
      ref::catalog::SwizzledSharedParams p;
      p.vec = pow2(*rc::gen::inRange(0, 4));
      p.perPhase = pow2(*rc::gen::inRange(0, 3));
      p.maxPhase = pow2(*rc::gen::inRange(0, 4));
      p.order = genOrder(2);
      return ref::catalog::swizzledShared(p, genShape(2, 0, 6));
    }
    case 1: {
      ref::catalog::NvmmaSharedParams p;
      p.swizzleByteWidth = *rc::gen::element<uint64_t>(0, 32, 64, 128);
      p.elementBitwidth = *rc::gen::element<uint64_t>(8, 16, 32);
      p.transposed = *rc::gen::inRange(0, 2);
      // At least one swizzle row of 8 rows by swizzleByteWidth bytes.
      uint64_t inner = std::max<uint64_t>(p.swizzleByteWidth, 16) * 8 / p.elementBitwidth;
      Shape s = {pow2(*rc::gen::inRange(3, 7)), inner * pow2(*rc::gen::inRange(0, 2))};
      if (p.transposed) std::swap(s[0], s[1]);
      return ref::catalog::nvmmaShared(p, s);
    }
    default:
      return genCuteLayout();
  }
}

}  // namespace

namespace {

// One CTA bit along dim0 or dim1 (or none), as Gluon's cga_layout.
std::optional<ref::LinearLayout> genTmemCga(bool twoCtas) {
  int kind = twoCtas ? 1 : *rc::gen::inRange(0, 3);
  if (kind == 0) return std::nullopt;
  Basis b = kind == 1 ? Basis{1, 0} : Basis{0, 1};
  return ref::LinearLayout(
      LayoutValue{{{"block", {b}}}, {{"dim0", b[0] ? 2u : 1u}, {"dim1", b[1] ? 2u : 1u}}});
}

// tensor_memory: 128 TMEM lanes (7 in bits), so a CTA's share of at most
// 64 or 128 rows by a few columns; scales: up to 64 x 8.
ref::LinearLayout genTensorMemoryLayout() {
  if (*rc::gen::inRange(0, 3) == 0) {
    std::optional<ref::LinearLayout> cga = genTmemCga(false);
    Shape shape = {pow2(*rc::gen::inRange(0, 7)), pow2(*rc::gen::inRange(0, 4))};
    if (cga)
      for (int d = 0; d < 2; ++d) shape[d] *= cga->getOutDimSize("dim" + std::to_string(d));
    return ref::catalog::tensorMemoryScales(cga, shape);
  }
  ref::catalog::TensorMemoryParams p;
  uint64_t blockM = *rc::gen::element<uint64_t>(64, 128);
  p.block = {blockM, pow2(*rc::gen::inRange(0, 4))};
  p.twoCtas = *rc::gen::inRange(0, 4) == 0;
  p.fp4Padded = *rc::gen::inRange(0, 4) == 0;
  p.colStride = p.fp4Padded ? 1 : pow2(*rc::gen::inRange(0, 2));
  p.cgaLayout = genTmemCga(p.twoCtas);
  Shape shape = {blockM == 128 || p.twoCtas ? blockM : 64 * pow2(*rc::gen::inRange(0, 2)),
                 pow2(*rc::gen::inRange(0, 3))};
  // Two CTAs of 64 rows move a column slot to the lanes: at least 2 slots
  // (a tile of 2 columns when a column is one slot).
  if (p.twoCtas && blockM == 64 && p.colStride == 1 && !p.fp4Padded) {
    p.block[1] = std::max<uint64_t>(p.block[1], 2);
    shape[1] = std::max<uint64_t>(shape[1], 2);
  }
  if (p.cgaLayout)
    for (int d = 0; d < 2; ++d) shape[d] *= p.cgaLayout->getOutDimSize("dim" + std::to_string(d));
  return ref::catalog::tensorMemory(p, shape);
}

}  // namespace

rc::Gen<LayoutValue> genTensorMemory() {
  return rc::gen::exec([] { return genTensorMemoryLayout().value(); });
}

rc::Gen<LayoutValue> genCatalogDistributed() {
  return rc::gen::exec([] { return genCatalogDistributedLayout().value(); });
}

rc::Gen<LayoutValue> genCatalogMemory() {
  return rc::gen::exec([] { return genCatalogMemoryLayout().value(); });
}

// B, by how far the conversion must move data (§5.4), each a quarter of
// the pairs: A with a warp column swapped for a register or lane column
// (across warps: there is at least one warp bit); B independent of A (mostly
// across warps, or lanes); A with its register and lane columns permuted (a
// shuffle or less); A with its registers permuted (a register permutation or
// less).
Case makeConversionPair(Choices& choices) {
  enum Relation { kSwapWarp, kIndependent, kPermuteLanes, kPermuteRegisters };
  auto relation = static_cast<Relation>(choices.inRange(0, 4));
  // A 2-D tensor of 4 to 8 bits: smaller ones are mostly broadcasts, where
  // every conversion is a no-op; larger ones cost the brute-force laws time.
  DistributedShape shape = makeDistributedShape(choices, false);
  shape.tensorBits = {choices.inRange(2, 5), choices.inRange(2, 5)};
  shape.blockBits = 0;
  if (relation == kSwapWarp) shape.warpBits = std::max(shape.warpBits, 1);
  // Registers move data only where two of them hold some: enough tensor bits
  // past the lanes and warps for two registers.
  if (relation == kPermuteRegisters)
    shape.tensorBits[0] = std::max(shape.tensorBits[0], 7 + shape.warpBits - shape.tensorBits[1]);
  LayoutValue a = makeDistributed(choices, shape), b;
  std::vector<uint64_t> cols = columnsOf(a);
  size_t registers = a.in_dims[0].bases.size(), lanes = a.in_dims[1].bases.size();
  if (relation == kIndependent) {
    b = makeDistributed(choices, shape);
  } else {
    if (relation == kSwapWarp) {
      int warp = static_cast<int>(registers + lanes) + choices.inRange(0, shape.warpBits);
      std::swap(cols[warp], cols[choices.inRange(0, static_cast<int>(registers + lanes))]);
    } else {  // permute the first `span` columns (registers, then lanes)
      size_t span = registers + (relation == kPermuteLanes ? lanes : 0);
      for (size_t i = span; i > 1; --i)
        std::swap(cols[i - 1], cols[choices.inRange(0, static_cast<int>(i))]);
    }
    Dims dims;  // A's, so B keeps the dims' sizes
    for (const InDim& d : a.in_dims) dims.ins.push_back({d.name, static_cast<int>(d.bases.size())});
    for (const OutDim& d : a.out_dims) dims.outs.push_back({d.name, log2Exact(d.size)});
    b = layoutOf(dims, cols);
  }
  Case c;
  c.layouts = {a, b};
  // 1, 2, 4 or 8 bytes, the two widths whose vectors cover a bank (where the
  // swizzle laws apply, Lemma 9.4) twice as often.
  const uint64_t widths[] = {1, 2, 4, 8, 4, 8};
  c.params["element_bytes"] = widths[choices.inRange(0, 6)];
  return c;
}

// Full-range choices from the first case (RapidCheck scales integer ranges
// by its size, which kept early pairs to one warp and 1-byte elements);
// shrinking still goes toward the low end of each range.
rc::Gen<Case> genPaddedConversion() {
  return rc::gen::resize(100, rc::gen::exec([] {
                           RcChoices c;
                           Case out = makeConversionPair(c);
                           out.params["padding_interval"] = pow2(*rc::gen::inRange(0, 9));
                           out.params["padding_amount"] = pow2(*rc::gen::inRange(0, 5));
                           out.params["row_major"] = *rc::gen::inRange(0, 2);
                           return out;
                         }));
}

rc::Gen<Case> genConversionPair() {
  return rc::gen::resize(100, rc::gen::exec([] {
                           RcChoices c;
                           return makeConversionPair(c);
                         }));
}

// Each step picks one of the six ops evenly; an op that does not apply yet
// gets the op that makes it apply first (split: a join, so the last dim is
// the register bit 0 it adds; broadcast: an expand_dims, for a size-1 dim),
// so that each op's data movement is checked often. Tensors stay within 10
// bits and 4 dims (the law enumerates every slot).
rc::Gen<Case> genShapeOpSequence() {
  return rc::gen::exec([] {
    Case c;
    c.layouts = {*genDistributed(true)};
    ref::LinearLayout l(c.layouts[0]);
    Json ops = Json::array();
    // Applies op to l and records it; false (l kept) when it does not apply
    // or would grow the tensor past the limits. join and split apply only to
    // some layouts (a register bit for the new dim, a last dim of size 2 on a
    // register); every other op is legal where it is drawn, so its error is
    // recorded, ends the sequence, and is the law's to report.
    bool failed = false;
    auto apply = [&](const Json& op) {
      if (failed) return false;
      std::optional<ref::LinearLayout> next =
          testkit::attempt([&] { return applyShapeOp(l, op, true); }).answer;
      if (!next) {
        failed = op["op"] != "join" && op["op"] != "split";
        if (failed) ops.push_back(op);
        return false;
      }
      if (next->getTotalOutDimSizeLog2() > 10 || next->value().out_dims.size() > 4) return false;
      l = *next;
      ops.push_back(op);
      return true;
    };
    // The ops are drawn over their whole range from the first case (RapidCheck
    // scales ranges by its size, which made early sequences one trans).
    auto draw = [](int lo, int hi) { return *rc::gen::resize(100, rc::gen::inRange(lo, hi)); };
    int count = draw(1, 5);
    for (int i = 0; i < count; ++i) {
      Shape sizes;
      for (const OutDim& d : l.value().out_dims) sizes.push_back(d.size);
      size_t rank = sizes.size();
      // A rank-0 result (of split) only takes expand_dims.
      switch (rank == 0 ? 4 : draw(0, 6)) {
        case 0:
          apply({{"op", "trans"}, {"order", genOrder(rank)}});
          break;
        case 1: {  // the same elements in 1 to 3 dims
          int left = l.getTotalOutDimSizeLog2();
          Shape to;
          for (int k = *rc::gen::inRange(1, 4); k > 1; --k) {
            int b = *rc::gen::inRange(0, left + 1);
            to.push_back(pow2(b));
            left -= b;
          }
          to.push_back(pow2(left));
          apply({{"op", "reshape"}, {"shape", to}});
          break;
        }
        case 2:
          apply({{"op", "join"}});
          break;
        case 3:
          if (!apply({{"op", "split"}}) && apply({{"op", "join"}})) apply({{"op", "split"}});
          break;
        case 4:
          apply({{"op", "expand_dims"}, {"axis", *rc::gen::inRange<size_t>(0, rank + 1)}});
          break;
        default: {  // a size-1 dim to 1, 2 or 4
          std::vector<unsigned> ones;
          for (unsigned k = 0; k < rank; ++k)
            if (sizes[k] == 1) ones.push_back(k);
          if (ones.empty()) {
            ones.push_back(*rc::gen::inRange<unsigned>(0, rank + 1));
            if (!apply({{"op", "expand_dims"}, {"axis", ones[0]}})) break;
          }
          apply({{"op", "broadcast"},
                 {"axis", ones[*rc::gen::inRange<size_t>(0, ones.size())]},
                 {"size", pow2(*rc::gen::inRange(0, 3))}});
        }
      }
    }
    c.params["ops"] = ops;
    return c;
  });
}

}  // namespace f2lay::properties
