// Memory layouts against definitions written independently of the
// constructors: Def 4.11's offset formula, the TMA byte-address swizzle of
// NVMMA layouts, the matrix structure [I C; 0 I] of §4.3 and Def 4.14.
// Each formula maps a tensor element to its offset; the layout, applied to
// that offset, must give the element back, for every element (so the layout
// is the formula's inverse, a bijection).
#include "reference/catalog/shared.h"

#include <gtest/gtest.h>

#include <functional>

#include "definitions/elementwise_compare.h"
#include "definitions/shared_formulas.h"
#include "reference/catalog/nvmma_shared.h"
#include "reference/catalog/tests/test_support.h"

namespace f2lay::ref::catalog {
namespace {

using shared_formulas::Coords;
using shared_formulas::def411Offset;
using shared_formulas::nvmmaOffset;
using OffsetOf = std::function<uint64_t(const Coords&)>;

// The layout applied at offsetOf(x) gives x back, for every element x
// (elementwise_compare.h).
void expectInverseOf(const LinearLayout& layout, const Shape& shape, const OffsetOf& offsetOf) {
  EXPECT_EQ(memoryMismatch(layout, shape, offsetOf), "") << layout;
}

// Def 4.14: invertible, and every column of the matrix has 1 or 2 non-zero
// bits. Written here from the definition, not from predicates.h.
void expectMemoryLayout(const LinearLayout& l) {
  EXPECT_TRUE(l.isInvertible()) << l;
  MatrixView m = l.getMatrixView();
  size_t cols = m.empty() ? 0 : m[0].size();
  for (size_t c = 0; c < cols; ++c) {
    int bits = 0;
    for (const std::vector<int>& row : m) bits += row[c];
    EXPECT_TRUE(bits == 1 || bits == 2) << "column " << c << " has " << bits << " bits\n" << l;
  }
}

TEST(SwizzledShared, Def411OffsetFormulaAtEveryElement) {
  struct Case {
    SwizzledSharedParams p;
    Shape shape;
  };
  std::vector<Case> cases;
  for (uint64_t vec : {1, 2, 4, 8})
    for (uint64_t perPhase : {1, 2, 4})
      for (uint64_t maxPhase : {1, 2, 4, 8, 16})
        for (const Shape& shape : {Shape{16, 32}, Shape{64, 8}, Shape{4, 4}})
          for (std::vector<unsigned> order : {std::vector<unsigned>{1, 0}, {0, 1}})
            cases.push_back({{vec, perPhase, maxPhase, order, {}}, shape});
  cases.push_back({{2, 2, 4, {2, 0, 1}, {}}, {8, 4, 16}});
  cases.push_back({{4, 1, 8, {0, 2, 1}, {}}, {8, 2, 32}});
  cases.push_back({{1, 1, 1, {0}, {}}, {64}});
  for (const Case& c : cases) {
    SCOPED_TRACE("vec " + std::to_string(c.p.vec) + " perPhase " + std::to_string(c.p.perPhase) +
                 " maxPhase " + std::to_string(c.p.maxPhase) + " order[0] " +
                 std::to_string(c.p.order[0]));
    LinearLayout l = swizzledShared(c.p, c.shape);
    expectInverseOf(l, c.shape, [&](const Coords& x) { return def411Offset(c.p, c.shape, x); });
    expectMemoryLayout(l);
  }
}

// The paper's unswizzled layout: offsets walk order[0] first.
TEST(UnswizzledShared, RowMajorAlongOrder) {
  Shape shape = {4, 8, 2};
  std::vector<unsigned> order = {1, 2, 0};
  expectInverseOf(unswizzledShared(order, shape), shape,
                  [](const Coords& x) { return x[1] + 8 * (x[2] + 2 * x[0]); });
  expectMemoryLayout(unswizzledShared(order, shape));
}

// §4.3: for a 2^m x 2^n tensor (order [1, 0]: columns j are dim1), with the
// out dims ordered (j, i), the matrix is [I_n C; 0 I_m] where column t of C is
//   c_t = (vec * ((2^t / perPhase) mod maxPhase)) mod 2^n.
// The c_t below are worked out by hand from that formula.
MatrixView blockMatrix(int n, int m, const std::vector<uint64_t>& c) {
  MatrixView rows(n + m, std::vector<int>(n + m, 0));
  for (int k = 0; k < n + m; ++k) rows[k][k] = 1;
  for (int t = 0; t < m; ++t)
    for (int b = 0; b < n; ++b) rows[b][n + t] = (c[t] >> b) & 1;
  return rows;
}

TEST(SwizzledShared, Section43MatrixStructureWithTheCi) {
  struct Case {
    uint64_t vec, perPhase, maxPhase;
    int m, n;  // log2 of rows and columns
    std::vector<uint64_t> c;
  };
  const std::vector<Case> cases = {
      // c_t = 8 * (2^t mod 8): 8, 16, 32, then 0 once 2^t reaches maxPhase.
      {8, 1, 8, 6, 6, {8, 16, 32, 0, 0, 0}},
      // c_t = 2 * ((2^t / 2) mod 4): 0, 2, 4, 0, 0.
      {2, 2, 4, 5, 5, {0, 2, 4, 0, 0}},
      // c_t = (2^t mod 4): 1, 2, 0, 0, 0 (max phase only).
      {1, 1, 4, 5, 5, {1, 2, 0, 0, 0}},
      // c_t = 4 * (2^t mod 8) mod 16: 4, 8, then 16 mod 16 = 0.
      {4, 1, 8, 3, 4, {4, 8, 0}},
      // The 16x32 transpose's XOR 2m (device_tests/HARDWARE.md#seed-transpose):
      // c_t = 2 * 2^t mod 32: 2, 4, 8, 16.
      {2, 1, 16, 4, 5, {2, 4, 8, 16}},
  };
  for (const Case& c : cases) {
    LinearLayout l = swizzledShared({c.vec, c.perPhase, c.maxPhase, {1, 0}, {}},
                                    {uint64_t{1} << c.m, uint64_t{1} << c.n});
    EXPECT_EQ(l.transposeOuts({"dim1", "dim0"}).getMatrixView(), blockMatrix(c.n, c.m, c.c))
        << "vec " << c.vec << " perPhase " << c.perPhase << " maxPhase " << c.maxPhase << "\n"
        << l;
  }
}

TEST(NvmmaShared, TmaSwizzleFormulaAtEveryElement) {
  std::vector<std::pair<NvmmaSharedParams, Shape>> cases;
  for (uint64_t width : {0, 32, 64, 128})
    for (uint64_t bits : {8, 16, 32, 64})
      for (bool transposed : {false, true})
        for (const Shape& shape : {Shape{16, 128}, Shape{128, 16}, Shape{512, 16}, Shape{16, 512},
                                   Shape{64, 64}, Shape{8, 256}, Shape{256, 8}}) {
          size_t contig = transposed ? 0 : 1;
          uint64_t rows = std::min<uint64_t>(shape[1 - contig], 256);
          if (width != 0 && (std::min<uint64_t>(shape[contig], 256) < 8 * width / bits || rows < 8))
            continue;  // the box does not hold one swizzle pattern (an error case)
          cases.push_back({{width, bits, transposed, false, {}}, shape});
          if (width == 0 && transposed)  // Triton 3.6 ignored transposed there
            cases.push_back({{width, bits, transposed, false, {}, TritonVersion::k3_6}, shape});
        }
  cases.push_back({{128, 16, false, false, {}}, {2, 8, 64}});
  cases.push_back({{64, 32, false, false, {}}, {4, 4, 32}});
  cases.push_back({{32, 8, false, false, {}}, {2, 512, 32}});
  cases.push_back({{0, 16, false, false, {}}, {4, 2, 512}});
  ASSERT_GT(cases.size(), 100u);
  for (const auto& c : cases) {
    // Plain names, not structured bindings: clang 14 cannot capture those.
    const auto& p = c.first;
    const auto& shape = c.second;
    SCOPED_TRACE(::testing::Message()
                 << "width " << p.swizzleByteWidth << " bits " << p.elementBitwidth
                 << (p.transposed ? " transposed" : "") << " shape[0] " << shape[0] << " Triton "
                 << toString(p.triton));
    LinearLayout l = nvmmaShared(p, shape);
    expectInverseOf(l, shape, [&](const Coords& x) { return nvmmaOffset(p, shape, x); });
    expectMemoryLayout(l);
  }
}

TEST(SharedErrors, NameTheParameterAndTheRule) {
  auto message = [](const auto& f) { return errorMessage(f); };
  EXPECT_EQ(message([] {
              swizzledShared({3, 1, 1, {1, 0}, {}}, {8, 8});
            }),
            "swizzled_shared: vec = 3 is not a power of two (at most 2^62); Def 4.11 needs "
            "powers of two for the map to be linear over F2");
  EXPECT_NE(message([] {
              swizzledShared({1, 0, 1, {1, 0}, {}}, {8, 8});
            }).find("per_phase = 0"),
            std::string::npos);
  EXPECT_NE(message([] {
              swizzledShared({1, 1, 6, {1, 0}, {}}, {8, 8});
            }).find("max_phase = 6"),
            std::string::npos);
  EXPECT_NE(message([] {
              swizzledShared({1, 1, 1, {0, 0}, {}}, {8, 8});
            }).find("swizzled_shared: order: must be a permutation"),
            std::string::npos);
  EXPECT_NE(message([] {
              unswizzledShared({1, 0}, {8, 12});
            }).find("unswizzled_shared: shape[1] = 12 is not a power of two"),
            std::string::npos);
  EXPECT_EQ(message([] {
              nvmmaShared({128, 16, false, false, {}}, {64, 32});
            }),
            "nvmma_shared: swizzle_byte_width = 128 spans 64 elements of 16 bits, wider than "
            "the contiguous dim dim1 (32 elements per CTA)");
  EXPECT_NE(message([] {
              nvmmaShared({128, 16, true, false, {}}, {32, 64});
            }).find("wider than the contiguous dim dim0 (32 elements"),
            std::string::npos);
  EXPECT_NE(message([] {
              nvmmaShared({64, 16, false, false, {}}, {4, 64});
            }).find("a CTA's box has 4 rows"),
            std::string::npos);
  EXPECT_NE(message([] {
              nvmmaShared({48, 16, false, false, {}}, {8, 64});
            }).find("swizzle_byte_width = 48 must be 0, 32, 64 or 128"),
            std::string::npos);
  EXPECT_NE(message([] {
              nvmmaShared({0, 4, false, false, {}}, {8, 64});
            }).find("element_bitwidth = 4 must be 8, 16, 32 or 64"),
            std::string::npos);
  EXPECT_NE(message([] {
              nvmmaShared({0, 16, true, false, {}}, {2, 1, 1});
            })
                .find("nvmma_shared: swizzle_byte_width = 0 with transposed at rank 3: Triton "
                      "3.9 builds a layout here that holds elements at several offsets"),
            std::string::npos);
  EXPECT_EQ(message([] {
              nvmmaShared({0, 16, true, false, {}, TritonVersion::k3_6}, {2, 1, 1});
            }),
            "(no error)");
  EXPECT_NE(message([] {
              nvmmaShared({128, 16, false, true, {}}, {64, 64});
            })
                .find("nvmma_shared: fp4_padded with element_bitwidth = 16: padded fp4 pairs are "
                      "bytes"),
            std::string::npos);
  EXPECT_NE(message([] {
              nvmmaShared({32, 16, false, false, {}}, {64});
            }).find("needs a shape of rank 2 or more"),
            std::string::npos);
}

}  // namespace
}  // namespace f2lay::ref::catalog
