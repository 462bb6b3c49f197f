// Shape operations as transfer functions (paper §4.4, Theorem 9.3): hand-worked
// cases, the no-op property checked element by element against the ops
// evaluated on coordinates (written here from tt.trans, tt.reshape, tt.join,
// tt.split, tt.expand_dims and tt.broadcast, sharing no code with
// shape_transfer.cpp), closure of Def 4.10, and the precondition errors.
#include "reference/catalog/shape_transfer.h"

#include <gtest/gtest.h>

#include <functional>
#include <numeric>
#include <random>

#include "definitions/layout_literals.h"
#include "reference/catalog/blocked.h"
#include "reference/catalog/predicates.h"
#include "reference/catalog/tests/test_support.h"

namespace f2lay::ref::catalog {
namespace {

using testkit::distributed;
using Coord = std::vector<uint64_t>;
constexpr Direction kFwd = Direction::kForward;
constexpr Direction kBwd = Direction::kBackward;

// ---------------------------------------------------------------------------
// The ops on coordinates.

// tt.trans: result coordinate i is operand coordinate order[i].
Coord transCoord(const Coord& c, const std::vector<unsigned>& order) {
  Coord r;
  for (unsigned from : order) r.push_back(c[from]);
  return r;
}

// tt.reshape keeps the row-major (C order, last dim fastest) linear index.
uint64_t rowMajorIndex(const Coord& c, const Shape& shape) {
  uint64_t index = 0;
  for (size_t i = 0; i < shape.size(); ++i) index = index * shape[i] + c[i];
  return index;
}
Coord fromRowMajor(uint64_t index, const Shape& shape) {
  Coord c(shape.size());
  for (size_t i = shape.size(); i-- > 0;) {
    c[i] = index % shape[i];
    index /= shape[i];
  }
  return c;
}

Coord withLast(Coord c, uint64_t k) {  // tt.join: operand k goes to [..., k]
  c.push_back(k);
  return c;
}
Coord insertedZero(Coord c, unsigned axis) {  // tt.expand_dims
  c.insert(c.begin() + axis, 0);
  return c;
}
Coord without(Coord c, unsigned axis) {
  c.erase(c.begin() + axis);
  return c;
}

// ---------------------------------------------------------------------------
// Evaluating a distributed layout slot by slot.

struct Slot {
  uint64_t reg, lane, warp, block;
};

uint64_t inSize(const LinearLayout& l, const char* dim) {
  return uint64_t{1} << l.getInDimSizeLog2(dim);
}

Coord at(const LinearLayout& l, const Slot& s) {
  Coord c;
  for (const auto& [name, value] :
       l.apply({{"register", s.reg}, {"lane", s.lane}, {"warp", s.warp}, {"block", s.block}}))
    c.push_back(value);
  return c;
}

// Calls f on every slot of `l`; stops at the first failing check (f returns
// false), reporting it.
void forEachSlot(const LinearLayout& l, const std::function<bool(const Slot&)>& f) {
  for (uint64_t b = 0; b < inSize(l, "block"); ++b)
    for (uint64_t w = 0; w < inSize(l, "warp"); ++w)
      for (uint64_t n = 0; n < inSize(l, "lane"); ++n)
        for (uint64_t r = 0; r < inSize(l, "register"); ++r)
          if (!f({r, n, w, b})) {
            ADD_FAILURE() << "at register " << r << " lane " << n << " warp " << w << " block "
                          << b;
            return;
          }
}

void expectSameResources(const LinearLayout& in, const LinearLayout& out) {
  for (const char* d : {"register", "lane", "warp", "block"})
    EXPECT_EQ(in.getInDimSizeLog2(d), out.getInDimSizeLog2(d)) << d;
}

// Same slots, and each slot's result element is op(its operand element).
void expectSlotwise(const LinearLayout& in, const LinearLayout& out,
                    const std::function<Coord(const Coord&)>& op) {
  expectSameResources(in, out);
  forEachSlot(in, [&](const Slot& s) {
    Coord want = op(at(in, s)), got = at(out, s);
    EXPECT_EQ(got, want) << "operand\n" << in << "result\n" << out;
    return got == want;
  });
}

// tt.broadcast: the slot's result element is a copy of its operand element:
// equal off `axis`, and the operand's coordinate along `axis` is 0.
void expectBroadcastCopies(const LinearLayout& in, const LinearLayout& out, unsigned axis) {
  ASSERT_EQ(in.getInDimSizeLog2("lane"), out.getInDimSizeLog2("lane"));
  ASSERT_EQ(in.getInDimSizeLog2("warp"), out.getInDimSizeLog2("warp"));
  ASSERT_EQ(in.getInDimSizeLog2("block"), out.getInDimSizeLog2("block"));
  // Forward adds registers: the operand's register r is every result register
  // r + k * (operand's register count), as the new bits sit above the old.
  uint64_t inRegs = inSize(in, "register");
  forEachSlot(out, [&](const Slot& s) {
    Coord source = at(in, {s.reg % inRegs, s.lane, s.warp, s.block});
    Coord got = at(out, s);
    bool ok = source[axis] == 0 && without(source, axis) == without(got, axis);
    EXPECT_TRUE(ok) << "operand element " << ::testing::PrintToString(source) << ", result element "
                    << ::testing::PrintToString(got) << "\noperand\n"
                    << in << "result\n"
                    << out;
    return ok;
  });
}

// tt.join: result register r holds operand (r & 1)'s register r >> 1 (Triton's
// lowering interleaves the two operands' registers).
void expectJoin(const LinearLayout& in, const LinearLayout& out) {
  ASSERT_EQ(out.getInDimSizeLog2("register"), in.getInDimSizeLog2("register") + 1);
  forEachSlot(out, [&](const Slot& s) {
    Coord want = withLast(at(in, {s.reg >> 1, s.lane, s.warp, s.block}), s.reg & 1);
    Coord got = at(out, s);
    EXPECT_EQ(got, want) << "operands\n" << in << "result\n" << out;
    return got == want;
  });
}

// tt.split: the operand's registers are split on one bit p (Triton's lowering
// separates the chunks of 2^p registers); result k's register y is the operand
// register y with bit p = k inserted, and the element loses its last
// coordinate, which is k.
void expectSplit(const LinearLayout& in, const LinearLayout& out) {
  ASSERT_EQ(out.getInDimSizeLog2("register") + 1, in.getInDimSizeLog2("register"));
  int p = -1;
  for (int bit = 0; bit < in.getInDimSizeLog2("register"); ++bit)
    if (at(in, {uint64_t{1} << bit, 0, 0, 0}).back() == 1) p = bit;
  ASSERT_GE(p, 0) << in;
  uint64_t low = (uint64_t{1} << p) - 1;
  forEachSlot(out, [&](const Slot& s) {
    bool ok = true;
    for (uint64_t k = 0; k < 2; ++k) {
      uint64_t reg = ((s.reg & ~low) << 1) | (k << p) | (s.reg & low);
      Coord operand = at(in, {reg, s.lane, s.warp, s.block});
      ok = ok && operand == withLast(at(out, s), k);
    }
    EXPECT_TRUE(ok) << "operand\n" << in << "results\n" << out;
    return ok;
  });
}

// ---------------------------------------------------------------------------
// Random layouts.

std::mt19937& rng() {
  static std::mt19937 gen(20250514);
  return gen;
}
uint64_t pick(uint64_t lo, uint64_t hi) {
  return std::uniform_int_distribution<uint64_t>(lo, hi)(rng());
}

// A random shape of `rank` dims (sizes 1..2^maxBitsPerDim) with at most
// maxBits bits in all.
Shape randomShape(size_t rank, int maxBits) {
  Shape s;
  int left = maxBits;
  for (size_t i = 0; i < rank; ++i) {
    int bits = static_cast<int>(pick(0, static_cast<uint64_t>(std::min(left, 3))));
    left -= bits;
    s.push_back(uint64_t{1} << bits);
  }
  return s;
}

int totalBits(const Shape& s) {
  int bits = 0;
  for (uint64_t x : s) bits += log2Exact(x);
  return bits;
}

// A random Def 4.10 layout at `shape`: each output bit on its own column of a
// random (register, lane, warp, block), the other columns zero. With
// lastOnRegister, the bit of the last dim (size 2) goes to a register column.
LinearLayout randomDistributed(const Shape& shape, bool lastOnRegister = false) {
  int n = totalBits(shape);
  std::vector<std::pair<std::string, int>> dims = {{"register", static_cast<int>(pick(0, 2))},
                                                   {"lane", static_cast<int>(pick(0, 3))},
                                                   {"warp", static_cast<int>(pick(0, 2))},
                                                   {"block", static_cast<int>(pick(0, 1))}};
  int columns = 0;
  for (const auto& d : dims) columns += d.second;
  if (lastOnRegister && dims[0].second == 0) {
    dims[0].second = 1;
    ++columns;
  }
  if (columns < n) {  // enough registers for every output bit
    dims[0].second += n - columns;
    columns = n;
  }
  // column index -> (dim, bit) of the output, or none.
  std::vector<std::pair<size_t, int>> outBits;
  for (size_t k = 0; k < shape.size(); ++k)
    for (int j = 0; j < log2Exact(shape[k]); ++j) outBits.push_back({k, j});
  std::vector<int> order(static_cast<size_t>(columns));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng());
  if (lastOnRegister) {
    // The last dim's bit (the last of outBits) on a random register column.
    int reg = static_cast<int>(pick(0, static_cast<uint64_t>(dims[0].second - 1)));
    std::iter_swap(std::find(order.begin(), order.end(), reg), order.begin() + n - 1);
  }
  LayoutValue v;
  int column = 0;
  for (const auto& [name, bits] : dims) {
    InDim d{name, {}};
    for (int i = 0; i < bits; ++i, ++column) {
      Basis b(shape.size(), 0);
      auto slot = std::find(order.begin(), order.end(), column) - order.begin();
      if (slot < n) b[outBits[slot].first] = uint64_t{1} << outBits[slot].second;
      d.bases.push_back(b);
    }
    v.in_dims.push_back(d);
  }
  for (size_t k = 0; k < shape.size(); ++k)
    v.out_dims.push_back({"dim" + std::to_string(k), shape[k]});
  return LinearLayout(v);
}

std::vector<uint64_t> randomSplit(uint64_t total, size_t rank) {
  std::vector<uint64_t> parts(rank, 1);
  for (uint64_t t = total; t > 1; t /= 2) parts[pick(0, rank - 1)] *= 2;
  return parts;
}

// A random blocked layout (with a CGA layout half the time) at a small shape.
LinearLayout randomBlocked(size_t rank) {
  BlockedParams p;
  for (size_t i = 0; i < rank; ++i) p.sizePerThread.push_back(uint64_t{1} << pick(0, 2));
  p.threadsPerWarp = randomSplit(uint64_t{1} << pick(0, 3), rank);
  p.warpsPerCta = randomSplit(uint64_t{1} << pick(0, 2), rank);
  p.order.resize(rank);
  std::iota(p.order.begin(), p.order.end(), 0u);
  std::shuffle(p.order.begin(), p.order.end(), rng());
  if (pick(0, 1) == 1) {
    std::vector<uint64_t> ctas = randomSplit(2, rank), split = ctas;
    if (pick(0, 1) == 1) split = std::vector<uint64_t>(rank, 1);
    std::vector<unsigned> ctaOrder = p.order;
    p.cgaLayout = makeCgaLayout(ctas, split, ctaOrder);
  }
  return blocked(p, randomShape(rank, 7));
}

// Random Def 4.10 and blocked layouts of rank 1..3 (and a fixed seed).
std::vector<LinearLayout> randomLayouts(int count) {
  std::vector<LinearLayout> out;
  for (int i = 0; i < count; ++i) {
    size_t rank = pick(1, 3);
    out.push_back(i % 2 == 0 ? randomDistributed(randomShape(rank, 6)) : randomBlocked(rank));
  }
  return out;
}

std::vector<uint64_t> sizes(const LinearLayout& l) {
  std::vector<uint64_t> s;
  for (const OutDim& d : l.value().out_dims) s.push_back(d.size);
  return s;
}

std::vector<unsigned> randomOrder(size_t rank) {
  std::vector<unsigned> order(rank);
  std::iota(order.begin(), order.end(), 0u);
  std::shuffle(order.begin(), order.end(), rng());
  return order;
}

constexpr int kRandomLayouts = 150;

// ---------------------------------------------------------------------------
// Hand-worked cases.

// Paper §4.1 Figure 1, layout A (16x16), and its transpose: each basis (i, j)
// becomes (j, i).
const LinearLayout kLayoutA =
    distributed({{0, 1}, {1, 0}}, {{0, 2}, {0, 4}, {0, 8}, {2, 0}, {4, 0}}, {{8, 0}}, {}, {16, 16});
const LinearLayout kLayoutAT =
    distributed({{1, 0}, {0, 1}}, {{2, 0}, {4, 0}, {8, 0}, {0, 2}, {0, 4}}, {{0, 8}}, {}, {16, 16});

TEST(ShapeOpsHand, TransOfLayoutA) {
  EXPECT_EQ(trans(kLayoutA, {1, 0}, kFwd), kLayoutAT);
  EXPECT_EQ(trans(kLayoutAT, {1, 0}, kBwd), kLayoutA);
}

// A rank-3 permutation, forward and backward differ: order [2, 0, 1] sends
// (a, b, c) to (c, a, b), so basis (0, 0, 1) becomes (1, 0, 0); backward takes
// (1, 0, 0) of the result back to the operand's (0, 0, 1).
TEST(ShapeOpsHand, TransRank3) {
  LinearLayout in = distributed({{0, 0, 1}}, {{0, 1, 0}}, {{1, 0, 0}}, {}, {2, 2, 2});
  LinearLayout out = distributed({{1, 0, 0}}, {{0, 0, 1}}, {{0, 1, 0}}, {}, {2, 2, 2});
  EXPECT_EQ(trans(in, {2, 0, 1}, kFwd), out);
  EXPECT_EQ(trans(out, {2, 0, 1}, kBwd), in);
  EXPECT_NE(trans(out, {2, 0, 1}, kFwd), in);
}

// Row-major: element (c0, c1) of a 2x4 tensor has index 4*c0 + c1, so
// (0,1) -> 1, (0,2) -> 2, (1,0) -> 4. (Flattening with dim0 least significant
// would give (1,0) -> 1 instead.)
TEST(ShapeOpsHand, ReshapeIsRowMajor) {
  LinearLayout in = distributed({{0, 1}}, {{0, 2}, {1, 0}}, {}, {}, {2, 4});
  LinearLayout out = distributed({{1}}, {{2}, {4}}, {}, {}, {8});
  EXPECT_EQ(reshape(in, {8}, kFwd), out);
  EXPECT_EQ(reshape(out, {2, 4}, kBwd), in);
  // 8 -> 4x2: index 1 -> (0,1), 2 -> (1,0), 4 -> (2,0).
  EXPECT_EQ(reshape(out, {4, 2}, kFwd), distributed({{0, 1}}, {{1, 0}, {2, 0}}, {}, {}, {4, 2}));
}

// Join: a new register bit 0 on the new last dim, the old registers above it.
TEST(ShapeOpsHand, JoinAndSplit) {
  LinearLayout in = distributed({{1}}, {{2}}, {}, {}, {4});
  LinearLayout joined = distributed({{0, 1}, {1, 0}}, {{2, 0}}, {}, {}, {4, 2});
  EXPECT_EQ(join(in, kFwd), joined);
  EXPECT_EQ(split(joined, kFwd), in);
  EXPECT_EQ(split(in, kBwd), joined);
  EXPECT_EQ(join(joined, kBwd), in);
  // The split bit need not be register bit 0 (Triton's tryJoinOnAxis).
  EXPECT_EQ(split(distributed({{1, 0}, {0, 1}}, {{2, 0}}, {}, {}, {4, 2}), kFwd), in);
}

TEST(ShapeOpsHand, ExpandDims) {
  LinearLayout in = distributed({{1}}, {{2}}, {{0}}, {}, {4});
  LinearLayout at0 = distributed({{0, 1}}, {{0, 2}}, {{0, 0}}, {}, {1, 4});
  LinearLayout at1 = distributed({{1, 0}}, {{2, 0}}, {{0, 0}}, {}, {4, 1});
  EXPECT_EQ(expandDims(in, 0, kFwd), at0);
  EXPECT_EQ(expandDims(in, 1, kFwd), at1);
  EXPECT_EQ(expandDims(at0, 0, kBwd), in);
  EXPECT_EQ(expandDims(at1, 1, kBwd), in);
}

// Forward: the new register bits go above the old ones, along the axis.
// Backward: the axis coordinate of every basis becomes 0 (zero columns kept).
TEST(ShapeOpsHand, Broadcast) {
  LinearLayout in = distributed({{0, 1}}, {{0, 2}}, {}, {}, {1, 4});
  EXPECT_EQ(broadcast(in, 0, 4, kFwd),
            distributed({{0, 1}, {1, 0}, {2, 0}}, {{0, 2}}, {}, {}, {4, 4}));
  EXPECT_EQ(broadcast(kLayoutA, 0, 16, kBwd),
            distributed({{0, 1}, {0, 0}}, {{0, 2}, {0, 4}, {0, 8}, {0, 0}, {0, 0}}, {{0, 0}}, {},
                        {1, 16}));
}

// ---------------------------------------------------------------------------
// The no-op property (Theorem 9.3: "the operation effectively becomes a
// no-op") and closure of Def 4.10, on random layouts, both directions.

TEST(ShapeOpsNoOp, Trans) {
  for (const LinearLayout& in : randomLayouts(kRandomLayouts)) {
    std::vector<unsigned> order = randomOrder(sizes(in).size());
    auto op = [&](const Coord& c) { return transCoord(c, order); };
    LinearLayout out = trans(in, order, kFwd);
    expectSlotwise(in, out, op);
    EXPECT_TRUE(isDistributed(out)) << out;
    // Backward from a result layout: the operand layout it returns.
    LinearLayout back = trans(in, order, kBwd);
    expectSlotwise(back, in, op);
    EXPECT_TRUE(isDistributed(back)) << back;
  }
}

TEST(ShapeOpsNoOp, Reshape) {
  for (const LinearLayout& in : randomLayouts(kRandomLayouts)) {
    Shape from = sizes(in);
    Shape to = randomSplit(uint64_t{1} << totalBits(from), pick(1, 4));
    auto op = [&](const Coord& c) { return fromRowMajor(rowMajorIndex(c, from), to); };
    LinearLayout out = reshape(in, to, kFwd);
    expectSlotwise(in, out, op);
    EXPECT_TRUE(isDistributed(out)) << out;
    // Backward: `in` as the result of a reshape from shape `to`.
    auto opBack = [&](const Coord& c) { return fromRowMajor(rowMajorIndex(c, to), from); };
    LinearLayout back = reshape(in, to, kBwd);
    expectSlotwise(back, in, opBack);
    EXPECT_TRUE(isDistributed(back)) << back;
  }
}

TEST(ShapeOpsNoOp, JoinForwardSplitBackward) {
  for (const LinearLayout& in : randomLayouts(kRandomLayouts)) {
    LinearLayout out = join(in, kFwd);
    expectJoin(in, out);
    EXPECT_TRUE(isDistributed(out)) << out;
    EXPECT_EQ(split(in, kBwd), out);  // the two results' layout -> the operand's
  }
}

// Result (resp. operand) layouts of rank 1..3 with the last dim of size 2 on a
// register: the image of join forward, and more (any register bit).
TEST(ShapeOpsNoOp, SplitForwardJoinBackward) {
  for (int i = 0; i < kRandomLayouts; ++i) {
    Shape shape = randomShape(pick(0, 2), 5);
    shape.push_back(2);
    LinearLayout in = randomDistributed(shape, /*lastOnRegister=*/true);
    LinearLayout out = split(in, kFwd);
    expectSplit(in, out);
    EXPECT_TRUE(isDistributed(out)) << out;
    LinearLayout operands = join(in, kBwd);
    EXPECT_EQ(operands, out);
  }
}

TEST(ShapeOpsNoOp, ExpandDims) {
  for (const LinearLayout& in : randomLayouts(kRandomLayouts)) {
    auto axis = static_cast<unsigned>(pick(0, sizes(in).size()));
    LinearLayout out = expandDims(in, axis, kFwd);
    expectSlotwise(in, out, [&](const Coord& c) { return insertedZero(c, axis); });
    EXPECT_TRUE(isDistributed(out)) << out;
    // Backward from a result with a size-1 dim (any such layout).
    LinearLayout back = expandDims(out, axis, kBwd);
    expectSlotwise(back, out, [&](const Coord& c) { return insertedZero(c, axis); });
    EXPECT_TRUE(isDistributed(back)) << back;
  }
}

TEST(ShapeOpsNoOp, Broadcast) {
  for (const LinearLayout& in : randomLayouts(kRandomLayouts)) {
    // Backward from any result: the operand has size 1 at the axis.
    auto axis = static_cast<unsigned>(pick(0, sizes(in).size() - 1));
    uint64_t size = sizes(in)[axis];
    LinearLayout operand = broadcast(in, axis, size, kBwd);
    expectSameResources(operand, in);
    expectBroadcastCopies(operand, in, axis);
    EXPECT_TRUE(isDistributed(operand)) << operand;
    // Forward from that operand, to a random size.
    uint64_t to = uint64_t{1} << pick(0, 2);
    LinearLayout out = broadcast(operand, axis, to, kFwd);
    expectBroadcastCopies(operand, out, axis);
    EXPECT_EQ(sizes(out)[axis], to);
    EXPECT_TRUE(isDistributed(out)) << out;
  }
}

// ---------------------------------------------------------------------------
// Preconditions.

template <typename F>
std::string errorOf(F f) {
  std::string message = errorMessage(f);
  if (message == "(no error)") ADD_FAILURE() << "no error";
  return message;
}

TEST(ShapeOpsErrors, NamesTheRuleBroken) {
  LinearLayout l2x4 = distributed({{0, 1}}, {{0, 2}, {1, 0}}, {}, {}, {2, 4});
  EXPECT_PRED2(contains, errorOf([&] {
                 trans(l2x4, {0, 0}, kFwd);
               }),
               "trans: order: must be a permutation of 0..1");
  EXPECT_PRED2(contains, errorOf([&] {
                 reshape(l2x4, {4, 4}, kFwd);
               }),
               "reshape: shape has 2^4 elements but the layout's tensor has 2^3");
  EXPECT_PRED2(contains, errorOf([&] {
                 reshape(l2x4, {3, 2}, kFwd);
               }),
               "reshape: shape[0] = 3 is not a power of two");
  EXPECT_PRED2(contains, errorOf([&] { split(l2x4, kFwd); }),
               "split: the last dim must have size 2");
  // The last dim held by a lane, not a register.
  LinearLayout laneHeld = distributed({{1, 0}}, {{0, 1}}, {}, {}, {2, 2});
  EXPECT_PRED2(contains, errorOf([&] { split(laneHeld, kFwd); }),
               "split: the last dim must be held by exactly one basis, a register basis");
  EXPECT_PRED2(contains, errorOf([&] { join(laneHeld, kBwd); }), "join (backward): the last dim");
  // Two bases on the last dim (not Def 4.10): no split is a no-op.
  LinearLayout twice = distributed({{0, 1}}, {{0, 1}}, {}, {}, {1, 2});
  EXPECT_PRED2(contains, errorOf([&] { split(twice, kFwd); }), "2 bases have a non-zero last");
  EXPECT_PRED2(contains, errorOf([&] { expandDims(l2x4, 3, kFwd); }),
               "expand_dims: axis = 3 must be at most the operand's rank (2)");
  EXPECT_PRED2(contains, errorOf([&] { expandDims(l2x4, 0, kBwd); }),
               "dim 0 of the result must have size 1");
  EXPECT_PRED2(contains, errorOf([&] { broadcast(l2x4, 1, 8, kFwd); }),
               "dim 1 of the operand must have size 1 to be broadcast, it has size 4");
  EXPECT_PRED2(contains, errorOf([&] { broadcast(l2x4, 1, 8, kBwd); }),
               "dim 1 of the result has size 4, not size = 8");
  EXPECT_PRED2(contains, errorOf([&] { broadcast(l2x4, 2, 2, kFwd); }),
               "broadcast: axis = 2 must be below the rank");
  LinearLayout named(LayoutValue{{{"register", {{1}}}}, {{"x", 2}}});
  EXPECT_PRED2(contains, errorOf([&] { trans(named, {0}, kFwd); }),
               "out dims must be dim0, dim1, ... in order");
  LinearLayout noRegister(LayoutValue{{{"lane", {{1}}}}, {{"dim0", 2}}});
  EXPECT_PRED2(contains, errorOf([&] { join(noRegister, kFwd); }),
               "join: the layout needs a \"register\" in dim");
  EXPECT_PRED2(contains, errorOf([&] { parseDirection("direction", "sideways"); }),
               "direction: \"sideways\" must be \"forward\" or \"backward\"");
}

}  // namespace
}  // namespace f2lay::ref::catalog
