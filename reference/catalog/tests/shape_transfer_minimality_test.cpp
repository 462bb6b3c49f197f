// Theorem 9.3, second part: Def 4.10 is the smallest family that contains the
// blocked layouts and is closed under Triton's shape operations. The proof is
// constructive: "reshape any tensor into the form 2x2x...x2 and apply
// dimension transpositions ... a layout of all ones can be created using the
// blocked encoding, and arbitrary zeros can be inserted by reducing along
// arbitrary dimensions". Checked here at small sizes by a breadth-first
// search: from the invertible blocked layouts with 2 lanes and 2 warps, the
// shape ops of shape_transfer.h plus reductions (tt.reduce's layout is the slice,
// slice.h) reach exactly the Def 4.10 layouts within the search's bounds,
// each enumerated from the definition. Without the ops that insert zeros
// (reductions, broadcasts, expand_dims, join, split), only the layouts
// without zero columns are reached: the zeros are needed. (Zero register
// columns come from backward broadcast; Triton's slice drops them.)
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <optional>

#include "reference/catalog/blocked.h"
#include "reference/catalog/predicates.h"
#include "reference/catalog/shape_transfer.h"
#include "reference/catalog/slice.h"
#include "testkit/outcome.h"

namespace f2lay::ref::catalog {
namespace {

constexpr Direction kFwd = Direction::kForward;
constexpr Direction kBwd = Direction::kBackward;

// The search stays within rank 1..3, 4 output bits and 3 register bits (lanes
// and warps are fixed at 2 each by the start layouts; no op changes them).
constexpr size_t kMaxRank = 3;
constexpr int kMaxOutBits = 4;
constexpr int kMaxRegisterBits = 3;

// Every shape of rank 1..kMaxRank with `bits` bits in all (sizes may be 1).
std::vector<Shape> shapesWithBits(int bits) {
  std::vector<Shape> shapes;
  std::function<void(Shape, int)> grow = [&](Shape s, int left) {
    if (!s.empty() && left == 0) shapes.push_back(s);
    if (s.size() == kMaxRank) return;
    for (int b = 0; b <= left; ++b) {
      Shape t = s;
      t.push_back(uint64_t{1} << b);
      grow(t, left - b);
    }
  };
  grow({}, bits);
  return shapes;
}

std::vector<std::vector<unsigned>> permutations(size_t rank) {
  std::vector<unsigned> p(rank);
  std::iota(p.begin(), p.end(), 0u);
  std::vector<std::vector<unsigned>> all;
  do all.push_back(p);
  while (std::next_permutation(p.begin(), p.end()));
  return all;
}

Shape shapeOf(const LinearLayout& l) {
  Shape s;
  for (const OutDim& d : l.value().out_dims) s.push_back(d.size);
  return s;
}

bool withinBounds(const LinearLayout& l) {
  size_t rank = l.value().out_dims.size();
  return rank >= 1 && rank <= kMaxRank && l.getTotalOutDimSizeLog2() <= kMaxOutBits &&
         l.getInDimSizeLog2("register") <= kMaxRegisterBits;
}

// The layouts one op away from `l`. Ops whose preconditions fail are skipped.
std::vector<LinearLayout> successors(const LinearLayout& l, bool insertZeros) {
  std::vector<std::function<LinearLayout()>> ops;
  Shape shape = shapeOf(l);
  auto rank = static_cast<unsigned>(shape.size());
  for (const std::vector<unsigned>& order : permutations(rank))
    ops.push_back([&l, order] { return trans(l, order, kFwd); });
  for (const Shape& to : shapesWithBits(l.getTotalOutDimSizeLog2()))
    ops.push_back([&l, to] { return reshape(l, to, kFwd); });
  if (insertZeros) {
    for (unsigned axis = 0; axis < rank; ++axis) {
      if (rank >= 2) ops.push_back([&l, axis] { return slice(l, axis); });
      ops.push_back([&l, axis] { return broadcast(l, axis, 2, kFwd); });
      ops.push_back([&l, axis, &shape] { return broadcast(l, axis, shape[axis], kBwd); });
      ops.push_back([&l, axis] { return expandDims(l, axis, kBwd); });
    }
    for (unsigned axis = 0; axis <= rank; ++axis)
      ops.push_back([&l, axis] { return expandDims(l, axis, kFwd); });
    ops.push_back([&l] { return join(l, kFwd); });
    ops.push_back([&l] { return split(l, kFwd); });
  }
  std::vector<LinearLayout> next;
  for (const auto& op : ops) {
    // No answer: the op does not apply to this layout (e.g. split without a
    // size-2 last dim on a register).
    std::optional<LinearLayout> n = f2lay::testkit::attempt(op).answer;
    if (n && withinBounds(*n)) next.push_back(*n);
  }
  return next;
}

using LayoutSet = std::map<std::string, LinearLayout>;

LayoutSet reachable(const std::vector<LinearLayout>& starts, bool insertZeros) {
  LayoutSet seen;
  std::vector<LinearLayout> frontier;
  for (const LinearLayout& s : starts)
    if (seen.emplace(s.toString(), s).second) frontier.push_back(s);
  while (!frontier.empty()) {
    LinearLayout l = frontier.back();
    frontier.pop_back();
    for (const LinearLayout& n : successors(l, insertZeros))
      if (seen.emplace(n.toString(), n).second) frontier.push_back(n);
  }
  return seen;
}

// Every invertible blocked layout with 2 lanes, 2 warps, one CTA and at most 4
// elements per thread: the shape is the tile, so no column is zero ("a layout
// of all ones").
std::vector<LinearLayout> invertibleBlockedStarts() {
  std::vector<LinearLayout> starts;
  for (size_t rank = 1; rank <= kMaxRank; ++rank)
    for (int sptBits = 0; sptBits <= 2; ++sptBits)
      for (const Shape& spt : shapesWithBits(sptBits)) {
        if (spt.size() != rank) continue;
        for (size_t laneDim = 0; laneDim < rank; ++laneDim)
          for (size_t warpDim = 0; warpDim < rank; ++warpDim)
            for (const std::vector<unsigned>& order : permutations(rank)) {
              BlockedParams p{
                  spt, std::vector<uint64_t>(rank, 1), std::vector<uint64_t>(rank, 1), order, {}};
              p.threadsPerWarp[laneDim] = 2;
              p.warpsPerCta[warpDim] = 2;
              Shape tile = spt;
              tile[laneDim] *= 2;
              tile[warpDim] *= 2;
              starts.push_back(blocked(p, tile));
            }
      }
  return starts;
}

bool hasZeroColumn(const LinearLayout& l) {
  for (const InDim& d : l.value().in_dims)
    for (const Basis& b : d.bases)
      if (std::all_of(b.begin(), b.end(), [](uint64_t x) { return x == 0; })) return true;
  return false;
}

// Every Def 4.10 layout register, lane, warp, block -> `shape` with
// `registerBits` registers, 1 lane bit, 1 warp bit and no block bit,
// enumerated from the definition: each output bit on its own column (a unit
// basis), every other column zero.
std::vector<LinearLayout> allDistributed(const Shape& shape, int registerBits) {
  std::vector<std::pair<size_t, int>> outBits;  // (dim, bit)
  for (size_t k = 0; k < shape.size(); ++k)
    for (int j = 0; j < log2Exact(shape[k]); ++j) outBits.push_back({k, j});
  int columns = registerBits + 2;
  std::vector<LinearLayout> all;
  // assignment[c] = index into outBits, or -1 for a zero column.
  std::vector<int> assignment(static_cast<size_t>(columns), -1);
  std::function<void(size_t)> place = [&](size_t bit) {
    if (bit == outBits.size()) {
      LayoutValue v;
      const char* names[] = {"register", "lane", "warp", "block"};
      int counts[] = {registerBits, 1, 1, 0};
      int c = 0;
      for (int d = 0; d < 4; ++d) {
        InDim in{names[d], {}};
        for (int i = 0; i < counts[d]; ++i, ++c) {
          Basis b(shape.size(), 0);
          int a = assignment[static_cast<size_t>(c)];
          if (a >= 0) b[outBits[a].first] = uint64_t{1} << outBits[a].second;
          in.bases.push_back(b);
        }
        v.in_dims.push_back(in);
      }
      for (size_t k = 0; k < shape.size(); ++k)
        v.out_dims.push_back({"dim" + std::to_string(k), shape[k]});
      all.push_back(LinearLayout(v));
      return;
    }
    for (size_t c = 0; c < assignment.size(); ++c)
      if (assignment[c] < 0) {
        assignment[c] = static_cast<int>(bit);
        place(bit + 1);
        assignment[c] = -1;
      }
  };
  place(0);
  return all;
}

// The targets: every Def 4.10 layout within the search's bounds (rank 1..3,
// 0..4 output bits, 0..3 register bits besides the lane and the warp bit).
std::vector<LinearLayout> targets() {
  std::vector<LinearLayout> all;
  for (int bits = 0; bits <= kMaxOutBits; ++bits)
    for (const Shape& shape : shapesWithBits(bits))
      for (int reg = 0; reg <= kMaxRegisterBits; ++reg)
        for (const LinearLayout& l : allDistributed(shape, reg)) all.push_back(l);
  return all;
}

TEST(ShapeOpsMinimality, EnumerationMatchesDef410) {
  // 2x2x2 with 2 register bits: 4 columns, 3 output bits: 4*3*2 = 24 layouts.
  std::vector<LinearLayout> cube = allDistributed({2, 2, 2}, 2);
  EXPECT_EQ(cube.size(), 24u);
  for (const LinearLayout& l : cube) EXPECT_TRUE(isDistributed(l)) << l;
  std::vector<LinearLayout> all = targets();
  for (const LinearLayout& l : all) ASSERT_TRUE(isDistributed(l)) << l;
  // n output bits over c = registers + 2 columns: c!/(c-n)! layouts per
  // shape; 3, 6, 10, 15, 21 shapes of rank 1..3 with n = 0..4 bits:
  //   n=0: 3 x 4 = 12; n=1: 6 x (2+3+4+5) = 84; n=2: 10 x (2+6+12+20) = 400;
  //   n=3: 15 x (0+6+24+60) = 1350; n=4: 21 x (0+0+24+120) = 3024.
  EXPECT_EQ(all.size(), 12u + 84 + 400 + 1350 + 3024);
}

// Within the bounds, the closure of the blocked layouts under the shape ops
// is exactly Def 4.10: every target is reached (the family is needed, the
// theorem's minimality) and nothing else is (closure, the first part).
TEST(ShapeOpsMinimality, BlockedPlusShapeOpsReachExactlyDef410) {
  std::vector<LinearLayout> starts = invertibleBlockedStarts();
  for (const LinearLayout& s : starts) ASSERT_TRUE(s.isInvertible()) << s;
  LayoutSet reached = reachable(starts, /*insertZeros=*/true);
  for (const auto& entry : reached) EXPECT_TRUE(isDistributed(entry.second)) << entry.second;
  int missing = 0;
  std::vector<LinearLayout> all = targets();
  for (const LinearLayout& t : all)
    if (!reached.count(t.toString()) && ++missing <= 5) ADD_FAILURE() << "not reached:\n" << t;
  EXPECT_EQ(missing, 0);
  EXPECT_EQ(reached.size(), all.size());
}

// The control: transpositions and reshapes alone keep the blocked layouts
// invertible, so exactly the targets without zero columns are reached.
TEST(ShapeOpsMinimality, ZerosNeedReductionsOrBroadcasts) {
  LayoutSet reached = reachable(invertibleBlockedStarts(), /*insertZeros=*/false);
  size_t withZeros = 0, without = 0;
  for (const LinearLayout& t : targets()) {
    bool zero = hasZeroColumn(t);
    (zero ? withZeros : without) += 1;
    EXPECT_EQ(reached.count(t.toString()) == 1, !zero) << t;
  }
  EXPECT_GT(withZeros, 0u);
  EXPECT_GT(without, 0u);
}

}  // namespace
}  // namespace f2lay::ref::catalog
