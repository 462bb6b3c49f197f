// CuTe's Swizzle<B,M,S> o shape:stride against CuTe's definition evaluated
// directly on integers (cute_formula.h, from include/cute/swizzle.hpp: offset
// ^ shiftr(offset & yyy_msk, S); layout.hpp: colexicographic coordinates,
// index = sum c_i * stride_i), at every coordinate; the F2-linearity rule
// against brute force over all pairs; linearToCute as the inverse of
// cuteToLinear.
#include "reference/catalog/cute.h"

#include <gtest/gtest.h>

#include <functional>
#include <random>

#include "definitions/cute_formula.h"
#include "reference/catalog/cutlass.h"
#include "reference/catalog/shared.h"
#include "reference/catalog/tests/test_support.h"
#include "testkit/evaluate.h"

namespace f2lay::ref::catalog {
namespace {

struct Case {
  int b, m, s;
  std::vector<uint64_t> shape;
  std::vector<int64_t> stride;
};

uint64_t sizeOf(const std::vector<uint64_t>& shape) {
  uint64_t n = 1;
  for (uint64_t x : shape) n *= x;
  return n;
}

// CuTe's offset of the 1-D coordinate x (cute_formula.h).
int64_t cuteOffset(const Case& c, uint64_t x) {
  return f2lay::ref::catalog::cuteOffset({c.b, c.m, c.s}, flatCuteLayout(c.shape, c.stride), x);
}

std::vector<uint64_t> colex(const std::vector<uint64_t>& shape, uint64_t x) {
  std::vector<uint64_t> c;
  for (uint64_t s : shape) c.push_back(x % s), x /= s;
  return c;
}

LinearLayout toLinear(const Case& c) {
  return cuteToLinear({c.b, c.m, c.s}, flatCuteLayout(c.shape, c.stride));
}
LinearLayout memory(const Case& c) {
  return cuteMemoryLayout({c.b, c.m, c.s}, flatCuteLayout(c.shape, c.stride));
}

std::vector<Case> linearCases() {
  std::vector<std::vector<int>> swizzles = {{0, 0, 0}, {1, 0, 1}, {2, 3, 3},  {3, 3, 3},
                                            {3, 4, 3}, {2, 1, 3}, {1, 2, -1}, {2, 0, -3},
                                            {3, 0, 4}, {2, 4, 2}};
  std::vector<std::pair<std::vector<uint64_t>, std::vector<int64_t>>> layouts = {
      {{8, 64}, {64, 1}},       {{64, 8}, {1, 64}},       {{32, 32}, {1, 32}},
      {{4, 8, 16}, {1, 4, 32}}, {{16, 4, 8}, {32, 1, 4}}, {{16, 16}, {16, 1}},
      {{4, 4}, {1, 8}},         {{2, 8}, {0, 1}},         {{1, 64}, {7, 2}}};
  std::vector<Case> cases;
  for (const std::vector<int>& sw : swizzles)
    for (const auto& l : layouts) cases.push_back({sw[0], sw[1], sw[2], l.first, l.second});
  return cases;
}

TEST(CuteSwizzle, DefinitionAtEveryCoordinate) {
  uint64_t checked = 0, inverted = 0;
  for (const Case& c : linearCases()) {
    SCOPED_TRACE(cuteToString({c.b, c.m, c.s}, flatCuteLayout(c.shape, c.stride)));
    LinearLayout l = toLinear(c);
    ASSERT_EQ(l.getOutDimNames(), std::vector<std::string>{"offset"});
    // testkit::apply's input is the flattened coordinate, dim0 in the low bits: for
    // power-of-two shapes that is CuTe's colexicographic 1-D index.
    for (uint64_t x = 0; x < sizeOf(c.shape); ++x, ++checked)
      ASSERT_EQ(f2lay::testkit::apply(l.value(), x)[0], static_cast<uint64_t>(cuteOffset(c, x)))
          << x;
    if (!l.isInvertible()) continue;
    LinearLayout m = memory(c);
    ASSERT_EQ(m.getInDimNames(), std::vector<std::string>{"offset"});
    for (uint64_t x = 0; x < sizeOf(c.shape); ++x, ++inverted)
      ASSERT_EQ(f2lay::testkit::apply(m.value(), static_cast<uint64_t>(cuteOffset(c, x))),
                colex(c.shape, x));
  }
  EXPECT_EQ(checked, 10u * (512 * 4 + 1024 + 256 + 16 + 16 + 64));
  EXPECT_GT(inverted, 10u * 512 * 5);
}

// The out dim is the smallest power of two above every offset.
TEST(CuteSwizzle, OffsetSizeAndGaps) {
  EXPECT_EQ(toLinear({0, 0, 0, {4, 4}, {1, 8}}).getOutDimSize("offset"), 32u);
  EXPECT_EQ(toLinear({0, 0, 0, {2, 8}, {0, 1}}).getOutDimSize("offset"), 8u);
  // Sw<1,2,-1> moves bit 2 into bit 3: (4):(1) reaches offset 8 and up.
  EXPECT_EQ(toLinear({1, 2, -1, {8}, {1}}).getOutDimSize("offset"), 16u);
  EXPECT_PRED2(contains, errorMessage([] {
                 memory({0, 0, 0, {4, 4}, {1, 8}});
               }),
               "cute_swizzle: Sw<0,0,0> o (4,4):(1,8) is not invertible");
}

// Every pair x, y of coordinates, by brute force: the layout is F2-linear with
// non-negative offsets exactly when cuteToLinear accepts it.
TEST(CuteSwizzle, RejectsExactlyTheNonLinearLayouts) {
  std::mt19937_64 rng(20250611);
  const std::vector<int64_t> strides = {0, 1, 2, 3, 4, 5, 6, 8, 12, 16, 32, -1, -2, -4};
  int accepted = 0, rejected = 0;
  for (int round = 0; round < 400; ++round) {
    Case c{0, 0, 0, {}, {}};
    size_t rank = 1 + rng() % 3;
    int bits = 0;
    for (size_t i = 0; i < rank; ++i) {
      int k = static_cast<int>(rng() % 3);
      if (bits + k > 7) k = 0;
      bits += k;
      c.shape.push_back(uint64_t{1} << k);
      c.stride.push_back(strides[rng() % strides.size()]);
    }
    if (rng() % 2)
      c = {2, static_cast<int>(rng() % 3), 2 + static_cast<int>(rng() % 2), c.shape, c.stride};
    bool linear = true;
    for (uint64_t x = 0; x < sizeOf(c.shape); ++x) {
      linear = linear && cuteOffset(c, x) >= 0;
      for (uint64_t y = 0; y < sizeOf(c.shape); ++y)
        linear = linear && cuteOffset(c, x ^ y) == (cuteOffset(c, x) ^ cuteOffset(c, y));
    }
    std::string error = errorMessage([&] { toLinear(c); });
    SCOPED_TRACE(cuteToString({c.b, c.m, c.s}, flatCuteLayout(c.shape, c.stride)) + ": " + error);
    EXPECT_EQ(error == "(no error)", linear);
    (linear ? accepted : rejected)++;
  }
  EXPECT_GT(accepted, 50);
  EXPECT_GT(rejected, 50);
}

// The witness in the message is a real one, checked with the definition.
TEST(CuteSwizzle, NonLinearErrorsNameAWitness) {
  Case three{0, 0, 0, {4}, {3}};
  EXPECT_EQ(errorMessage([&] { toLinear(three); }),
            "cute_swizzle: Sw<0,0,0> o (4):(3) is not linear over F2: x = (1), y = (2) give "
            "L(x xor y) = L(3) = 9 but L(x) xor L(y) = 3 xor 6 = 5 (strides that are not "
            "powers of two, and modes whose offsets overlap, add with carries)");
  EXPECT_EQ(cuteOffset(three, 3), 9);
  EXPECT_EQ(cuteOffset(three, 1) ^ cuteOffset(three, 2), 5);

  // Overlapping modes: dim0 bit 1 (offset 2) and dim1 bit 0 (offset 2).
  Case overlap{0, 0, 0, {4, 4}, {1, 2}};
  EXPECT_PRED2(contains, errorMessage([&] { toLinear(overlap); }),
               "x = (2,0), y = (0,1) give L(x xor y) = L(2,1) = 4 but L(x) xor L(y) = 2 xor 2 = 0");
  EXPECT_EQ(cuteOffset(overlap, 2 ^ 4), 4);

  // The swizzle keeps the witness: Sw<1,0,1> maps 4 = 0b100 to itself and
  // 2 to 2 ^ 1 = 3.
  EXPECT_PRED2(contains, errorMessage([] {
                 toLinear({1, 0, 1, {4, 4}, {1, 2}});
               }),
               "L(2,1) = 4 but L(x) xor L(y) = 3 xor 3 = 0");

  Case negative{0, 0, 0, {4}, {-1}};
  EXPECT_PRED2(contains, errorMessage([&] { toLinear(negative); }),
               "x = (1), y = (2) give L(x xor y) = L(3) = -3 but L(x) xor L(y) = -1 xor -2 = 1");
  EXPECT_EQ(errorMessage([] {
              toLinear({0, 0, 0, {2}, {-1}});
            }),
            "cute_swizzle: Sw<0,0,0> o (2):(-1): stride[0] = -1 gives the coordinate (1) the "
            "offset -1; memory offsets must be non-negative");

  // Non-power-of-two shape: 1-D index 3 is (0,1), at offset 4, not 1 xor 2.
  Case carry{0, 0, 0, {3, 2}, {1, 4}};
  EXPECT_EQ(errorMessage([&] { toLinear(carry); }),
            "cute_swizzle: Sw<0,0,0> o (3,2):(1,4) is not linear over F2: shape[0] = 3 is not a "
            "power of two, so CuTe's 1-D coordinates carry between modes: x = 1, y = 2 give "
            "L(x xor y) = L(3) = 4 but L(x) xor L(y) = 1 xor 2 = 3");
  EXPECT_EQ(cuteOffset(carry, 3), 4);
  EXPECT_EQ(errorMessage([] {
              toLinear({0, 0, 0, {3}, {1}});
            }),
            "cute_swizzle: Sw<0,0,0> o (3):(1) is not linear over F2: shape[0] = 3 is not a power "
            "of two; linear layouts need power-of-two shapes");
}

TEST(CuteSwizzle, ParameterErrors) {
  EXPECT_PRED2(contains, errorMessage([] {
                 toLinear({2, 3, 1, {8}, {1}});
               }),
               "cute_swizzle: |s| = 1 must be at least b = 2");
  EXPECT_PRED2(contains, errorMessage([] {
                 toLinear({-1, 3, 1, {8}, {1}});
               }),
               "b = -1 must be at least 0");
  EXPECT_PRED2(contains, errorMessage([] {
                 toLinear({0, -2, 1, {8}, {1}});
               }),
               "m = -2 must be at least 0");
  EXPECT_PRED2(contains, errorMessage([] {
                 toLinear({20, 20, 30, {8}, {1}});
               }),
               "b + m + |s| = 70 puts the swizzle masks beyond 62 bits");
  EXPECT_PRED2(contains, errorMessage([] {
                 toLinear({0, 0, 0, {8, 2}, {1}});
               }),
               "shape has 2 modes but stride has 1");
  EXPECT_PRED2(contains, errorMessage([] { toLinear({0, 0, 0, {}, {}}); }), "at least one mode");
  EXPECT_PRED2(contains, errorMessage([] {
                 toLinear({0, 0, 0, {0}, {1}});
               }),
               "shape[0] = 0 is empty");
  EXPECT_PRED2(contains, errorMessage([] {
                 toLinear({0, 0, 0, {8}, {int64_t{1} << 61}});
               }),
               "stride[0] = 2305843009213693952 times shape[0] = 8 goes beyond 2^62");
  // The range rule before the power-of-two rule, whose witness search would
  // overflow (fuzz/regressions/catalog/cute-stride-overflow-in-witness-search).
  EXPECT_PRED2(contains, errorMessage([] {
                 toLinear({0, 0, 0, {6}, {int64_t{1} << 61}});
               }),
               "stride[0] = 2305843009213693952 times shape[0] = 6 goes beyond 2^62");
}

// Triton's Def 4.11 swizzle with vec 8, perPhase 1, maxPhase 8 on an 8x64
// row-major tile is CuTe's Sw<3,3,3> o (8,64):(64,1): both put (i, j) at
// column j xor 8 * (i mod 8) of row i.
TEST(CuteSwizzle, MatchesTritonSwizzledShared) {
  LinearLayout triton = swizzledShared({8, 1, 8, {1, 0}, {}}, {8, 64});
  EXPECT_EQ(triton.sublayout({"offset"}, {"dim0", "dim1"}), memory({3, 3, 3, {8, 64}, {64, 1}}));
  LinearLayout tritonVec2 = swizzledShared({2, 1, 4, {1, 0}, {}}, {4, 8});
  EXPECT_EQ(tritonVec2.sublayout({"offset"}, {"dim0", "dim1"}), memory({2, 1, 2, {4, 8}, {8, 1}}));
}

// CUTLASS's crosswise layouts with extent[0] = crosswise = ldm are a CuTe
// swizzle of a row-major (contiguous, strided) layout (cutlass.h): B =
// log2 kTileShapeStride, M = log2 kElementsPerAccess, S = log2(8 * kFactor).
TEST(CuteSwizzle, MatchesCutlassTensorOpCrosswise) {
  EXPECT_EQ(tensorOpMultiplicandToOffset({16, 32, 32, 32, 0, false}),
            toLinear({2, 3, 3, {32, 32}, {1, 32}}));
  EXPECT_EQ(tensorOpMultiplicandToOffset({16, 64, 64, 16, 0, false}),
            toLinear({3, 3, 3, {64, 16}, {1, 64}}));
  EXPECT_EQ(tensorOpMultiplicandToOffset({32, 32, 32, 16, 0, false}),
            toLinear({3, 2, 3, {32, 16}, {1, 32}}));
}

TEST(LinearToCute, InvertsCuteToLinear) {
  int found = 0;
  for (const Case& c : linearCases()) {
    SCOPED_TRACE(cuteToString({c.b, c.m, c.s}, flatCuteLayout(c.shape, c.stride)));
    LinearLayout l = toLinear(c);
    std::optional<CuteSwizzledLayout> back = linearToCute(l);
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(cuteToLinear(back->swizzle, back->layout).value().in_dims, l.value().in_dims)
        << cuteToString(back->swizzle, back->layout);
    if (l.isInvertible()) {
      std::optional<CuteSwizzledLayout> fromMemory = linearToCute(memory(c));
      ASSERT_TRUE(fromMemory.has_value());
      EXPECT_EQ(cuteToString(fromMemory->swizzle, fromMemory->layout),
                cuteToString(back->swizzle, back->layout));
    }
    ++found;
  }
  EXPECT_EQ(found, 90);
}

TEST(LinearToCute, ReadsTheParametersBack) {
  auto read = [](const LinearLayout& l) {
    std::optional<CuteSwizzledLayout> c = linearToCute(l);
    return c ? cuteToString(c->swizzle, c->layout) : std::string("none");
  };
  EXPECT_EQ(read(toLinear({3, 3, 3, {8, 64}, {64, 1}})), "Sw<3,3,3> o (8,64):(64,1)");
  EXPECT_EQ(read(toLinear({2, 3, 3, {32, 32}, {1, 32}})), "Sw<2,3,3> o (32,32):(1,32)");
  EXPECT_EQ(read(toLinear({0, 0, 0, {4, 4}, {1, 8}})), "Sw<0,0,0> o (4,4):(1,8)");
  // A mode of size 1 reads back with stride 0.
  EXPECT_EQ(read(toLinear({0, 0, 0, {1, 64}, {7, 2}})), "Sw<0,0,0> o (1,64):(0,2)");
  // dim0 bits at offsets 3 and 1: no swizzle makes one doubling mode of it,
  // but Sw<1,0,1> makes them 2 and 1, a nested mode (2,2):(2,1).
  LayoutValue v{{{"dim0", {{3}, {1}}}}, {{"offset", 4}}};
  EXPECT_EQ(read(LinearLayout(v)), "Sw<1,0,1> o ((2,2)):((2,1))");
  // Two bits at offset 1: every swizzle keeps them equal, and CuTe's sum carries.
  LayoutValue same{{{"dim0", {{1}, {1}}}}, {{"offset", 2}}};
  EXPECT_EQ(read(LinearLayout(same)), "none");
  LayoutValue wrongDims{{{"lane", {{1}}}}, {{"offset", 2}}};
  EXPECT_PRED2(contains, errorMessage([&] { linearToCute(LinearLayout(wrongDims)); }),
               "linear_to_cute: expects dim0.. -> offset or offset -> dim0..");
}

// ---------------------------------------------------------------- nested modes

// The nested-mode example, Sw<3,4,3> o _0 o ((8,2),64):((64,4096),1), with
// pycute's answers (nvidia-cutlass 4.2.0.0: ComposedLayout(Swizzle(3,4,3), 0,
// Layout(((8,2),64),((64,4096),1)))(x) at x = 1, 2, 4, 8 (dim0's bits) and
// 16, 32, ..., 512 (dim1's): 64, 144, 288, 4096 and 1, 2, 4, 8, 16, 32).
TEST(CuteNested, Issue22ExampleAgainstPycute) {
  CuteLayout l{{{8, 2}, 64}, {{64, 4096}, 1}};
  LinearLayout got = cuteToLinear({3, 4, 3}, l);
  LayoutValue want{
      {{"dim0", {{64}, {144}, {288}, {4096}}}, {"dim1", {{1}, {2}, {4}, {8}, {16}, {32}}}},
      {{"offset", 8192}}};
  EXPECT_EQ(got.value(), want);
  // pycute: C((5,37)) = 325, C(((3,1),45)) = 4349, C(1023) = 4559.
  EXPECT_EQ(f2lay::testkit::apply(got.value(), 5 + 16 * 37)[0], 325u);
  EXPECT_EQ(f2lay::testkit::apply(got.value(), 3 + 8 * 1 + 16 * 45)[0], 4349u);
  EXPECT_EQ(f2lay::testkit::apply(got.value(), 1023)[0], 4559u);
  // 1024 elements spread over 8192 offsets: no offset -> coordinate layout.
  EXPECT_PRED2(contains, errorMessage([&] {
                 cuteMemoryLayout({3, 4, 3}, l);
               }),
               "cute_swizzle: Sw<3,4,3> o ((8,2),64):((64,4096),1) is not invertible");
  EXPECT_EQ(catalog::cuteOffset({3, 4, 3}, l, 1023), 4559);  // the definition, too
}

// A nested bijection, both directions: Sw<3,3,3> o ((8,2),64):((1,512),8),
// pycute's answers at dim0's bits 1, 2, 4, 512 and dim1's 8, 16, 32, 72,
// 144, 288 (ComposedLayout(Swizzle(3,3,3), 0, Layout(((8,2),64),((1,512),8)))).
TEST(CuteNested, BijectionAgainstPycute) {
  CuteLayout l{{{8, 2}, 64}, {{1, 512}, 8}};
  LayoutValue toOffset{
      {{"dim0", {{1}, {2}, {4}, {512}}}, {"dim1", {{8}, {16}, {32}, {72}, {144}, {288}}}},
      {{"offset", 1024}}};
  EXPECT_EQ(cuteToLinear({3, 3, 3}, l).value(), toOffset);
  EXPECT_EQ(cuteMemoryLayout({3, 3, 3}, l), LinearLayout(toOffset).invert());
  std::optional<CuteSwizzledLayout> back = linearToCute(cuteMemoryLayout({3, 3, 3}, l));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(cuteToString(back->swizzle, back->layout), "Sw<3,3,3> o ((8,2),64):((1,512),8)");
}

// Random nested layouts against the recursive definition (cute_formula.h,
// CuTe's crd2idx) at every coordinate, both directions, and linearToCute
// giving back a layout with the same bases.
TEST(CuteNested, DefinitionAtEveryCoordinate) {
  std::mt19937_64 rng(2222);
  const std::vector<int64_t> strides = {0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 3, -1};
  const std::vector<std::vector<int>> swizzles = {{0, 0, 0}, {1, 0, 1},  {2, 1, 2},
                                                  {3, 3, 3}, {2, 0, -3}, {1, 2, -1}};
  int linear = 0, invertible = 0, refused = 0;
  for (int round = 0; round < 600; ++round) {
    CuteLayout l;
    uint64_t size = 1;
    for (size_t mode = 1 + rng() % 3; mode > 0; --mode) {
      std::function<std::pair<CuteTuple, CuteTuple>(int)> draw = [&](int depth) {
        if (depth == 2 || rng() % 3) {
          uint64_t n = uint64_t{1} << (rng() % 3);
          if (size * n > 512) n = 1;
          size *= n;
          return std::pair<CuteTuple, CuteTuple>{CuteTuple(static_cast<int64_t>(n)),
                                                 CuteTuple(strides[rng() % strides.size()])};
        }
        std::vector<CuteTuple> shape, stride;
        for (size_t k = 2 + rng() % 2; k > 0; --k) {
          auto [a, b] = draw(depth + 1);
          shape.push_back(a), stride.push_back(b);
        }
        return std::pair<CuteTuple, CuteTuple>{CuteTuple(shape), CuteTuple(stride)};
      };
      auto [shape, stride] = draw(0);
      l.shape.push_back(shape), l.stride.push_back(stride);
    }
    const std::vector<int>& s = swizzles[rng() % swizzles.size()];
    CuteSwizzle sw{s[0], s[1], s[2]};
    SCOPED_TRACE(cuteToString(sw, l));
    bool isLinear = true;
    for (uint64_t x = 0; x < size; ++x) {
      int64_t o = catalog::cuteOffset(sw, l, x), xor_ = 0;
      for (uint64_t bit = 1; bit <= x; bit *= 2)
        if (x & bit) xor_ ^= catalog::cuteOffset(sw, l, bit);
      isLinear = isLinear && o >= 0 && o == xor_;
    }
    std::string error = errorMessage([&] { cuteToLinear(sw, l); });
    ASSERT_EQ(error == "(no error)", isLinear) << error;
    if (!isLinear) {
      ++refused;
      continue;
    }
    ++linear;
    LinearLayout got = cuteToLinear(sw, l);
    // The flattened input is CuTe's 1-D coordinate (power-of-two leaves).
    for (uint64_t x = 0; x < size; ++x)
      ASSERT_EQ(f2lay::testkit::apply(got.value(), x)[0],
                static_cast<uint64_t>(catalog::cuteOffset(sw, l, x)))
          << x;
    std::optional<CuteSwizzledLayout> back = linearToCute(got);
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(cuteToLinear(back->swizzle, back->layout).value().in_dims, got.value().in_dims)
        << cuteToString(back->swizzle, back->layout);
    if (!got.isInvertible()) continue;
    ++invertible;
    LinearLayout memory = cuteMemoryLayout(sw, l);
    std::vector<uint64_t> modeSizes;
    for (const CuteTuple& mode : l.shape) modeSizes.push_back(cuteSize(mode));
    for (uint64_t x = 0; x < size; ++x)
      ASSERT_EQ(f2lay::testkit::apply(memory.value(),
                                      static_cast<uint64_t>(catalog::cuteOffset(sw, l, x))),
                colex(modeSizes, x));
  }
  EXPECT_GT(linear, 100);
  EXPECT_GT(invertible, 30);
  EXPECT_GT(refused, 100);
}

TEST(CuteNested, Errors) {
  EXPECT_EQ(errorMessage([] {
              cuteToLinear({}, {{{8, 2}}, {{1, 2, 3}}});
            }),
            "cute_swizzle: shape[0] is a tuple of 2 but stride[0] is a tuple of 3; CuTe needs the "
            "stride congruent with the shape");
  EXPECT_EQ(errorMessage([] {
              cuteToLinear({}, {{{8, {2, 2}}}, {{1, 8}}});
            }),
            "cute_swizzle: shape[0][1] is a tuple of 2 but stride[0][1] is the integer 8; CuTe "
            "needs the stride congruent with the shape");
  EXPECT_EQ(errorMessage([] {
              cuteToLinear({}, {{{8, 0}}, {{1, 8}}});
            }),
            "cute_swizzle: shape[0][1] = 0 is empty");
  // Non-power-of-two leaf: 1-D index 3 is leaf coordinates (0,1), at offset
  // 4, not L(1) xor L(2) = 1 xor 2.
  EXPECT_EQ(errorMessage([] {
              cuteToLinear({}, {{{3, 2}}, {{1, 4}}});
            }),
            "cute_swizzle: Sw<0,0,0> o ((3,2)):((1,4)) is not linear over F2: shape[0][0] = 3 is "
            "not a power of two, so CuTe's 1-D coordinates carry between modes: x = 1, y = 2 give "
            "L(x xor y) = L(3) = 4 but L(x) xor L(y) = 1 xor 2 = 3");
  // ((2,3)):((1,8)) has no witness among its 6 coordinates (x xor y < 6).
  EXPECT_EQ(errorMessage([] {
              cuteToLinear({}, {{{2, 3}}, {{1, 8}}});
            }),
            "cute_swizzle: Sw<0,0,0> o ((2,3)):((1,8)) is not linear over F2: shape[0][1] = 3 is "
            "not a power of two; linear layouts need power-of-two shapes");
  // Overlapping leaves of one mode: (2,2):(1,1) puts bits 0 and 1 of dim0 at offset 1.
  EXPECT_PRED2(contains, errorMessage([] {
                 cuteToLinear({}, {{{2, 2}}, {{1, 1}}});
               }),
               "x = (1), y = (2) give L(x xor y) = L(3) = 2 but L(x) xor L(y) = 1 xor 1 = 0");
  EXPECT_EQ(errorMessage([] {
              cuteToLinear({}, {{{2, 2}}, {{1, -4}}});
            }),
            "cute_swizzle: Sw<0,0,0> o ((2,2)):((1,-4)): stride[0][1] = -4 gives the coordinate "
            "(2) the offset -4; memory offsets must be non-negative");
}

// The canonical nested answer: maximal doubling runs per mode.
TEST(CuteNested, LinearToCuteSplitsModesIntoRuns) {
  auto read = [](const LayoutValue& v) {
    std::optional<CuteSwizzledLayout> c = linearToCute(LinearLayout(v));
    return c ? cuteToString(c->swizzle, c->layout) : std::string("none");
  };
  // dim0 at offset bits 6, 7, 8, 12, dim1 at 0..5: the nested-mode example
  // unswizzled.
  EXPECT_EQ(
      read({{{"dim0", {{64}, {128}, {256}, {4096}}}, {"dim1", {{1}, {2}, {4}, {8}, {16}, {32}}}},
            {{"offset", 8192}}}),
      "Sw<0,0,0> o ((8,2),64):((64,4096),1)");
  // Zeros in the middle of a mode: a run of stride 0.
  EXPECT_EQ(read({{{"dim0", {{1}, {0}, {0}, {2}}}}, {{"offset", 4}}}),
            "Sw<0,0,0> o ((2,4,2)):((1,0,2))");
  // A flat answer with a swizzle is preferred over a nested one without:
  // Sw<1,0,1> o (4):(2) has bases 3, 4 (disjoint: also ((2,2)):((3,4))).
  EXPECT_EQ(read({{{"dim0", {{3}, {4}}}}, {{"offset", 8}}}), "Sw<1,0,1> o (4):(2)");
}

// CuTe's text as a layout (cuteTextLayout) and a layout as CuTe's text
// (layoutCuteText): the direction by invertibility, and the refusals.
TEST(CuteNested, TextBothWays) {
  CuteText bijection{{3, 3, 3}, 0, {{{8, 2}, 64}, {{1, 512}, 8}}};
  EXPECT_EQ(cuteTextLayout(bijection), cuteMemoryLayout({3, 3, 3}, bijection.layout));
  EXPECT_EQ(layoutCuteText(cuteTextLayout(bijection)), bijection);
  // 1024 elements over 8192 offsets: CuTe's own direction.
  CuteText spread{{3, 4, 3}, 0, {{{8, 2}, 64}, {{64, 4096}, 1}}};
  EXPECT_EQ(cuteTextLayout(spread).getInDimNames(), (std::vector<std::string>{"dim0", "dim1"}));
  EXPECT_EQ(errorMessage([] {
              cuteTextLayout({{}, 4, {{8}, {1}}});
            }),
            "CuTe text: the offset 4 makes the layout affine (offset 0 maps to it), not linear "
            "over F2; only _0 reads");
  LayoutValue carry{{{"dim0", {{1}, {1}}}}, {{"offset", 2}}};
  EXPECT_EQ(errorMessage([&] { layoutCuteText(LinearLayout(carry)); }),
            "CuTe text: no CuTe layout has these bases: dim0 bit 0 -> offset 1 and dim0 bit 1 -> "
            "offset 1 share a bit, so CuTe's index (a sum) would carry, and no Swizzle<B,M,S> "
            "makes every pair of bases disjoint");
  LayoutValue lanes{{{"lane", {{1}}}}, {{"offset", 2}}};
  EXPECT_EQ(errorMessage([&] { layoutCuteText(LinearLayout(lanes)); }),
            "CuTe text: expects dim0.. -> offset or offset -> dim0..");
}

}  // namespace
}  // namespace f2lay::ref::catalog
