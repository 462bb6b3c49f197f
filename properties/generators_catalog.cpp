// Catalog layouts with random legal parameters (generators.h), through the
// reference's constructors, and the generators built from them.
#include <numeric>

#include "blocked.h"
#include "cute.h"
#include "dot_operand.h"
#include "generators.h"
#include "law_support.h"
#include "linear_layout.h"
#include "nvidia_mma.h"
#include "nvmma_shared.h"
#include "shared.h"
#include "slice.h"

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

namespace {

ref::LinearLayout genBlockedLayout(size_t rank) {
  ref::catalog::BlockedParams p;
  for (size_t k = 0; k < rank; ++k) p.sizePerThread.push_back(pow2(*rc::gen::inRange(0, 3)));
  p.threadsPerWarp = genSpread(5, rank);
  p.warpsPerCta = genSpread(*rc::gen::inRange(0, 3), rank);
  p.order = genOrder(rank);
  return ref::catalog::blocked(p, genShape(rank, 0, 5));
}

ref::catalog::NvidiaMmaParams genMmaV2Params() {
  return {{2, 0}, genSpread(*rc::gen::inRange(0, 3), 2), {16, 8}, std::nullopt};
}

ref::LinearLayout genCatalogDistributedLayout() {
  switch (*rc::gen::inRange(0, 5)) {
    case 0:
      return genBlockedLayout(*rc::gen::inRange<size_t>(1, 4));
    case 1:
      return ref::catalog::nvidiaMma(genMmaV2Params(), genShape(2, 3, 6));
    case 2: {  // Hopper: 4 warps (or 8) along M, instruction N of 8 to 64
      std::vector<uint64_t> warps = {pow2(*rc::gen::inRange(2, 4)), 1};
      uint64_t n = pow2(*rc::gen::inRange(3, 7));
      return ref::catalog::nvidiaMma({{3, 0}, warps, {16, n, 16}, std::nullopt},
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

ref::LinearLayout genCatalogMemoryLayout() {
  switch (*rc::gen::inRange(0, 3)) {
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
    default: {
      int b = *rc::gen::inRange(0, 4), m = *rc::gen::inRange(0, 4), s = *rc::gen::inRange(b, 4);
      int rows = *rc::gen::inRange(0, 5), cols = *rc::gen::inRange(b + m + s - rows > 0 ? b + m + s - rows : 0, 7);
      bool rowMajor = *rc::gen::inRange(0, 2);
      ref::catalog::CuteLayout l{{pow2(rows), pow2(cols)},
                                 rowMajor ? std::vector<int64_t>{static_cast<int64_t>(pow2(cols)), 1}
                                          : std::vector<int64_t>{1, static_cast<int64_t>(pow2(rows))}};
      return ref::catalog::cuteMemoryLayout({b, m, s}, l);
    }
  }
}

}  // namespace

rc::Gen<LayoutValue> genCatalogDistributed() {
  return rc::gen::exec([] { return genCatalogDistributedLayout().value(); });
}

rc::Gen<LayoutValue> genCatalogMemory() {
  return rc::gen::exec([] { return genCatalogMemoryLayout().value(); });
}

// B: independent of A; A with its register and lane columns permuted (the
// data stays in the warp: a shuffle or less); or A with its registers
// permuted.
Case makeConversionPair(Choices& choices) {
  // A 2-D tensor of 4 to 10 bits: smaller ones are mostly broadcasts,
  // where every conversion is a no-op.
  DistributedShape shape = makeDistributedShape(choices, false);
  shape.tensorBits = {choices.inRange(2, 6), choices.inRange(2, 6)};
  shape.blockBits = 0;
  Case c;
  LayoutValue a = makeDistributed(choices, shape), b;
  int kind = choices.inRange(0, 3);
  if (kind == 0) {
    b = makeDistributed(choices, shape);
  } else {
    // Permute the first `span` columns (registers, then lanes), keeping
    // the dims' sizes.
    std::vector<uint64_t> cols = columnsOf(a);
    size_t span = a.in_dims[0].bases.size() + (kind == 1 ? a.in_dims[1].bases.size() : 0);
    for (size_t i = span; i > 1; --i) std::swap(cols[i - 1], cols[choices.inRange(0, static_cast<int>(i))]);
    Dims dims;
    for (const InDim& d : a.in_dims) dims.ins.push_back({d.name, static_cast<int>(d.bases.size())});
    for (const OutDim& d : a.out_dims) dims.outs.push_back({d.name, log2Exact(d.size)});
    b = layoutOf(dims, cols);
  }
  c.layouts = {a, b};
  c.params["element_bytes"] = pow2(choices.inRange(0, 4));  // 1, 2, 4 or 8
  return c;
}

rc::Gen<Case> genConversionPair() {
  return rc::gen::exec([] {
    RcChoices c;
    return makeConversionPair(c);
  });
}

rc::Gen<Case> genShapeOpSequence() {
  return rc::gen::exec([] {
    Case c;
    c.layouts = {*genDistributed(true)};
    ref::LinearLayout l(c.layouts[0]);
    Json ops = Json::array();
    int count = *rc::gen::inRange(1, 5);
    for (int i = 0; i < count; ++i) {
      Shape sizes;
      for (const OutDim& d : l.value().out_dims) sizes.push_back(d.size);
      size_t rank = sizes.size();
      Json op;
      // A rank-0 result (of split) only takes expand_dims.
      switch (rank == 0 ? 4 : *rc::gen::inRange(0, 6)) {
        case 0:
          op = {{"op", "trans"}, {"order", genOrder(rank)}};
          break;
        case 1: {  // the same elements in 1 to 3 dims
          int bits = l.getTotalOutDimSizeLog2();
          Shape to;
          int parts = *rc::gen::inRange(1, 4), left = bits;
          for (int k = 0; k < parts - 1; ++k) {
            int b = *rc::gen::inRange(0, left + 1);
            to.push_back(pow2(b));
            left -= b;
          }
          to.push_back(pow2(left));
          op = {{"op", "reshape"}, {"shape", to}};
          break;
        }
        case 2:
          op = {{"op", "join"}};
          break;
        case 3:
          op = {{"op", "split"}};
          break;
        case 4:
          op = {{"op", "expand_dims"}, {"axis", *rc::gen::inRange<size_t>(0, rank + 1)}};
          break;
        default: {  // a size-1 dim to 1, 2 or 4
          std::vector<unsigned> ones;
          for (unsigned k = 0; k < rank; ++k)
            if (sizes[k] == 1) ones.push_back(k);
          if (ones.empty()) continue;
          op = {{"op", "broadcast"}, {"axis", ones[*rc::gen::inRange<size_t>(0, ones.size())]},
                {"size", pow2(*rc::gen::inRange(0, 3))}};
        }
      }
      // join and split apply only to some layouts (a register bit for the
      // new dim, a last dim of size 2 on a register): those they refuse are
      // left out; the law still runs every op it is given.
      ref::LinearLayout next;
      try {
        next = applyShapeOp(l, op, true);
      } catch (const Error&) {
        if (op["op"] == "join" || op["op"] == "split") continue;
        // Any other op is legal here: its error is the law's to report.
        ops.push_back(op);
        break;
      }
      if (next.getTotalOutDimSizeLog2() > 10 || next.value().out_dims.size() > 4) continue;
      l = next;
      ops.push_back(op);
    }
    c.params["ops"] = ops;
    return c;
  });
}

}  // namespace f2lay::properties
