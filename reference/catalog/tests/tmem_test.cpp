// Tensor memory layouts and the tcgen05.ld/st register layouts: against the
// element-wise definitions of tmem_fragments.h at many parameters, against
// Gluon 3.9.0's answers (literal bases, each case saying where it comes
// from), and the parameter errors.
#include <gtest/gtest.h>

#include <array>
#include <iostream>
#include <optional>

#include "definitions/layout_literals.h"
#include "definitions/tmem_fragments.h"
#include "definitions/tmem_scales.h"
#include "reference/catalog/tensor_memory.h"
#include "reference/catalog/tests/test_support.h"
#include "reference/catalog/tmem_reg_layout.h"
#include "testkit/evaluate.h"
#include "testkit/outcome.h"

namespace f2lay::ref::catalog {
namespace {

TensorMemoryParams block(uint64_t m, uint64_t n) {
  TensorMemoryParams p;
  p.block = {m, n};
  return p;
}

TmemRegParams reg(TensorMemoryParams layout, Shape shape, uint64_t warps, std::string variant) {
  TmemRegParams p;
  p.shape = shape;
  p.allocShape = shape;
  p.layout = layout;
  p.numWarps = warps;
  p.instrVariant = variant;
  return p;
}

using CgaList = std::vector<std::array<uint64_t, 2>>;

// The CGAs the sweeps take: one CTA, splits along either dim or both (in
// either order), two CTA bits along dim0, a CTA pair holding copies.
const std::vector<CgaList> kCgas = {
    {}, {{1, 0}}, {{0, 1}}, {{1, 0}, {0, 1}}, {{0, 1}, {1, 0}}, {{0, 0}}, {{1, 0}, {2, 0}}};

bool twoCtaCga(const CgaList& cga) {
  return !cga.empty() && cga[0] == std::array<uint64_t, 2>{1, 0};
}

TensorMemoryParams params(const tmem::Layout& d) {
  TensorMemoryParams p = block(d.blockM, d.blockN);
  p.colStride = d.colStride;
  p.fp4Padded = d.fp4Padded;
  p.twoCtas = d.twoCtas;
  if (!d.cga.bases.empty()) {
    std::vector<Basis> bases;
    for (const auto& b : d.cga.bases) bases.push_back({b[0], b[1]});
    p.cgaLayout = testkit::cgaFromBases(bases, 2);
  }
  return p;
}

std::string text(const tmem::Layout& d) {
  std::string cga;
  for (const auto& b : d.cga.bases)
    cga += "[" + std::to_string(b[0]) + "," + std::to_string(b[1]) + "]";
  return "block " + std::to_string(d.blockM) + "x" + std::to_string(d.blockN) + " shape " +
         std::to_string(d.m) + "x" + std::to_string(d.n) + " col_stride " +
         std::to_string(d.colStride) + (d.fp4Padded ? " fp4_padded" : "") +
         (d.twoCtas ? " two_ctas" : "") + " cga " + cga;
}

// Every TMEM cell {lane, column} of every CTA of `l` against `def.at`.
template <class Def>
std::string cellMismatch(const LinearLayout& l, const Def& def) {
  const std::vector<InDim>& dims = l.value().in_dims;
  if (dims.size() != 3 || dims[0].bases.size() != 7 ||
      uint64_t{1} << dims[1].bases.size() != def.columns() ||
      uint64_t{1} << dims[2].bases.size() != def.blocks())
    return "in dims of other sizes than 128 lanes, " + std::to_string(def.columns()) +
           " columns, " + std::to_string(def.blocks()) + " blocks";
  int colBits = static_cast<int>(dims[1].bases.size());
  f2lay::testkit::Evaluator apply(l.value());
  for (uint64_t b = 0; b < def.blocks(); ++b)
    for (uint64_t col = 0; col < def.columns(); ++col)
      for (uint64_t row = 0; row < 128; ++row)
        if (apply(row | col << 7 | b << (7 + colBits)) != def.at(row, col, b))
          return "block " + std::to_string(b) + " lane " + std::to_string(row) + " column " +
                 std::to_string(col) + " differs";
  return "";
}

// Every TMEM cell {lane, column} of every CTA against tmem::Layout::at, over
// col_stride, fp4_padded, two_ctas and CGAs; the parameters the layout cannot
// hold must be refused (a share with fewer rows than the tile, two CTAs of 64
// rows with a single slot to move to the lanes).
TEST(TensorMemory, MatchesElementwise) {
  int checked = 0, refused = 0;
  for (uint64_t bm : {64, 128})
    for (uint64_t bn : {1, 8, 64})
      for (uint64_t m : {64, 128, 256})
        for (uint64_t n : {1, 4, 16})
          for (uint64_t cs : {1, 2, 4})
            for (bool fp4 : {false, true})
              for (const CgaList& cga : kCgas)
                for (bool two : {false, true}) {
                  if ((fp4 && cs > 1) || (two && !twoCtaCga(cga))) continue;
                  tmem::Layout def{bm, bn, m, n, cs, fp4, two, {cga}};
                  if (def.cga.split(0) > m || def.cga.split(1) > n) continue;
                  SCOPED_TRACE(text(def));
                  bool legal =
                      def.cm() >= def.tileRows() && !(def.halves() && def.width() * def.pad() < 2);
                  auto built = f2lay::testkit::attempt([&] {
                    return tensorMemory(params(def), {m, n});
                  });
                  ASSERT_EQ(built.answer.has_value(), legal) << built.error;
                  if (!legal) {
                    ++refused;
                    continue;
                  }
                  ASSERT_EQ(cellMismatch(*built.answer, def), "");
                  ++checked;
                }
  EXPECT_GT(checked, 800);
  EXPECT_GT(refused, 100);
}

// Every TMEM cell of every CTA against tmem::Scales::at: shares smaller and
// larger than the 64 x 4 tile, CGAs.
TEST(TensorMemoryScales, MatchesElementwise) {
  int checked = 0;
  for (uint64_t m : {1, 8, 32, 64, 128, 512})
    for (uint64_t n : {1, 2, 4, 8, 32})
      for (const CgaList& cga : kCgas) {
        tmem::Scales def{m, n, {cga}};
        if (def.cga.split(0) > m || def.cga.split(1) > n) continue;
        std::optional<LinearLayout> cgaLayout =
            params(tmem::Layout{128, 1, m, n, 1, false, false, {cga}}).cgaLayout;
        SCOPED_TRACE("shape " + std::to_string(m) + "x" + std::to_string(n) + " cga bits " +
                     std::to_string(cga.size()));
        ASSERT_EQ(cellMismatch(tensorMemoryScales(cgaLayout, {m, n}), def), "");
        ++checked;
      }
  EXPECT_GT(checked, 150);
}

struct Storage {
  uint64_t bits, colStride;
};
const std::vector<Storage> kStorages = {{32, 1}, {16, 1}, {16, 2}, {8, 1}, {8, 4}};
const std::vector<std::string> kVariants = {"32x32b", "16x64b", "16x128b", "16x256b",
                                            "32x32b_splitn"};

// Counts of one sweep over tmem_reg_layout's parameters.
struct Sweep {
  int covered = 0, beyond = 0, refused = 0;
};

// tmem_reg_layout at `def` (its allocation alloc0 x alloc1, `bits`-bit
// elements) against the definition: where tmem::covers holds the layout must
// be given and match it at every input.
void checkReg(tmem::RegLayout def, uint64_t bits, Sweep& s) {
  bool known = tmem::narrowOf(bits, def.tmem, def.narrow);
  SCOPED_TRACE(def.shape + " " + std::to_string(bits) + "-bit " + text(def.tmem) + " view " +
               std::to_string(def.m()) + "x" + std::to_string(def.n()) + " warps " +
               std::to_string(def.numWarps));
  TmemRegParams p = reg(params(def.tmem), {def.m(), def.n()}, def.numWarps, def.shape);
  p.allocShape = {def.tmem.m, def.tmem.n};
  p.elementBitwidth = bits;
  auto built = f2lay::testkit::attempt([&] { return tmemRegLayout(p); });
  bool cover = known && tmem::covers(def);
  if (cover) {
    ASSERT_TRUE(built.answer) << built.error;
    ASSERT_EQ(distributedMismatch(*built.answer, def), "");
  }
  ++(cover ? s.covered : built.answer ? s.beyond : s.refused);
}

// Every (register, lane, warp, block) of every shape against tmem::RegLayout:
// 32-, 16- and 8-bit elements (packed, partly packed, unpacked, padded),
// CGAs, two CTAs, warps holding copies, 32x32b_splitn.
TEST(TmemRegLayout, MatchesElementwise) {
  Sweep s;
  for (const std::string& variant : kVariants)
    for (Storage st : kStorages)
      for (uint64_t bm : {64, 128})
        for (uint64_t bn : {2, 4, 16, 256})
          for (uint64_t m : {64, 128})
            for (uint64_t n : {8, 32})
              for (uint64_t warps : {4, 8, 32})
                for (const CgaList& cga : kCgas)
                  for (bool two : {false, true}) {
                    if (two && !twoCtaCga(cga)) continue;
                    if ((!cga.empty() || two || n > 8) && warps > 8) continue;  // time
                    if (bn == 2 && (st.bits == 32 || n > 8 || warps > 4)) continue;
                    tmem::RegLayout def{
                        {bm, bn, m, n, st.colStride, false, two, {cga}}, variant, warps};
                    if (def.tmem.cga.split(0) > m || def.tmem.cga.split(1) > n) continue;
                    checkReg(def, st.bits, s);
                    if (::testing::Test::HasFatalFailure()) return;
                  }
  std::cout << "tmem_reg_layout: " << s.covered << " covered, " << s.beyond
            << " given beyond the definition's scope (not compared), " << s.refused << " refused\n";
  EXPECT_GT(s.covered, 2500);
}

// Views of a larger allocation (twice the rows, the columns or both): the
// allocation's layout, the view's elements.
TEST(TmemRegLayout, ViewsMatchElementwise) {
  Sweep s;
  for (const std::string& variant : kVariants)
    for (Storage st : kStorages)
      for (uint64_t bm : {64, 128})
        for (uint64_t bn : {4, 16, 256})
          for (uint64_t m : {64, 128})
            for (uint64_t n : {8, 32})
              for (uint64_t warps : {4, 8})
                for (const CgaList& cga : {CgaList{}, CgaList{{1, 0}}, CgaList{{0, 1}}})
                  for (bool two : {false, true})
                    for (std::array<int, 2> grow : {std::array<int, 2>{1, 0}, {0, 1}, {1, 1}}) {
                      if (two && !twoCtaCga(cga)) continue;
                      if ((!cga.empty() || bn == 16) && (n > 8 || warps > 4)) continue;  // time
                      tmem::RegLayout def{
                          {bm, bn, m << grow[0], n << grow[1], st.colStride, false, two, {cga}},
                          variant,
                          warps};
                      def.viewM = m;
                      def.viewN = n;
                      if (def.tmem.cga.split(0) > m || def.tmem.cga.split(1) > n) continue;
                      checkReg(def, st.bits, s);
                      if (::testing::Test::HasFatalFailure()) return;
                    }
  std::cout << "tmem_reg_layout views: " << s.covered << " covered, " << s.beyond
            << " given beyond the definition's scope (not compared), " << s.refused << " refused\n";
  EXPECT_GT(s.covered, 1500);
}

// Gluon 3.9.0, compute_tmem_reg_layout(float32, [128, 64], [128, 64],
// TensorMemoryLayout((128, 64), 1), 4 or 8, shape): its reg, lane and warp
// bases (asked in this session; oracle/cases/catalog_tmem.jsonl has them too).
TEST(TmemRegLayout, GluonDefaults) {
  EXPECT_EQ(tmemRegLayout(reg(block(128, 64), {128, 64}, 4, "32x32b")),
            testkit::distributed({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}},
                                 {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}}, {{32, 0}, {64, 0}}, {},
                                 {128, 64}));
  EXPECT_EQ(tmemRegLayout(reg(block(128, 64), {128, 64}, 4, "16x64b")),
            testkit::distributed({{0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}, {16, 0}},
                                 {{8, 0}, {0, 1}, {1, 0}, {2, 0}, {4, 0}}, {{32, 0}, {64, 0}}, {},
                                 {128, 64}));
  EXPECT_EQ(tmemRegLayout(reg(block(128, 64), {128, 64}, 8, "16x128b")),
            testkit::distributed({{8, 0}, {0, 4}, {0, 8}, {0, 16}, {0, 32}},
                                 {{0, 1}, {0, 2}, {1, 0}, {2, 0}, {4, 0}},
                                 {{32, 0}, {64, 0}, {16, 0}}, {}, {128, 64}));
  EXPECT_EQ(tmemRegLayout(reg(block(128, 64), {128, 64}, 4, "16x256b")),
            testkit::distributed({{0, 1}, {8, 0}, {0, 8}, {0, 16}, {0, 32}, {16, 0}},
                                 {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, {{32, 0}, {64, 0}}, {},
                                 {128, 64}));
  // A 64-row block: lanes 16-31 read the upper 32 columns (16x32bx2).
  EXPECT_EQ(tmemRegLayout(reg(block(64, 64), {64, 64}, 4, "32x32b")),
            testkit::distributed({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}},
                                 {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 32}}, {{16, 0}, {32, 0}}, {},
                                 {64, 64}));
}

// Gluon 3.9.0 on packed and unpacked 16-bit elements and on a two-CTA
// layout (asked in this session).
TEST(TmemRegLayout, GluonPackingAndCtas) {
  TmemRegParams p = reg(block(128, 64), {128, 64}, 4, "16x128b");
  p.elementBitwidth = 16;
  p.layout.colStride = 2;
  EXPECT_EQ(tmemRegLayout(p),
            testkit::distributed({{0, 1}, {8, 0}, {0, 8}, {0, 16}, {0, 32}, {16, 0}},
                                 {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, {{32, 0}, {64, 0}}, {},
                                 {128, 64}));
  TmemRegParams two = reg(block(64, 64), {256, 64}, 4, "32x32b");
  two.layout.twoCtas = true;
  two.layout.cgaLayout = testkit::cgaFromBases({{1, 0}}, 2);
  LinearLayout want = testkit::distributed({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {64, 0}},
                                           {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}},
                                           {{32, 0}, {0, 32}}, {{128, 0}}, {256, 64});
  EXPECT_EQ(tmemRegLayout(two), want);
}

// Gluon 3.9.0 (adapters/gluon_check.py's gluon_tmem_answer, asked in this
// session) on 8-bit packed elements, 16-bit ones with a CGA of two CTA bits,
// and int8 in fp4_padded columns (Gluon answers None).
TEST(TmemRegLayout, GluonNarrowAndCga) {
  // compute_tmem_reg_layout(int8, [128, 64], [128, 64],
  // TensorMemoryLayout((128, 64), 1), 4, '16x128b')
  TmemRegParams p8 = reg(block(128, 64), {128, 64}, 4, "16x128b");
  p8.elementBitwidth = 8;
  EXPECT_EQ(tmemRegLayout(p8),
            testkit::distributed({{0, 1}, {0, 2}, {8, 0}, {0, 16}, {0, 32}, {16, 0}},
                                 {{0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 0}}, {{32, 0}, {64, 0}}, {},
                                 {128, 64}));
  // compute_tmem_reg_layout(float16, [256, 64], [256, 64],
  // TensorMemoryLayout((128, 32), 1, [[1, 0], [0, 1]]), 4, '16x256b')
  TmemRegParams p16 = reg(block(128, 32), {256, 64}, 4, "16x256b");
  p16.elementBitwidth = 16;
  p16.layout.cgaLayout = testkit::cgaFromBases({{1, 0}, {0, 1}}, 2);
  EXPECT_EQ(tmemRegLayout(p16),
            testkit::distributed({{0, 1}, {0, 2}, {8, 0}, {0, 16}, {16, 0}},
                                 {{0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 0}}, {{32, 0}, {64, 0}},
                                 {{128, 0}, {0, 32}}, {256, 64}));
  // compute_tmem_reg_layout(int8, [128, 64], [128, 64],
  // TensorMemoryLayout((128, 64), 1, fp4_padded=True), 4, '32x32b') is None
  TmemRegParams fp4 = reg(block(128, 64), {128, 64}, 4, "32x32b");
  fp4.elementBitwidth = 8;
  fp4.layout.fp4Padded = true;
  EXPECT_PRED2(contains, errorMessage([&] { tmemRegLayout(fp4); }), "Gluon 3.9.0 answers None");
}

// Gluon 3.9.0 (gluon_tmem_answer, asked in this session) on the scope the
// definition gained: 32x32b_splitn, views of a larger allocation, partly
// packed narrow elements.
TEST(TmemRegLayout, GluonSplitnViewsPartlyPacked) {
  // compute_tmem_reg_layout(float32, [128, 64], [128, 64],
  // TensorMemoryLayout((128, 64), 1), 8, '32x32b_splitn')
  EXPECT_EQ(tmemRegLayout(reg(block(128, 64), {128, 64}, 8, "32x32b_splitn")),
            testkit::distributed({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 32}},
                                 {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}},
                                 {{32, 0}, {64, 0}, {0, 16}}, {}, {128, 64}));
  // compute_tmem_reg_layout(float32, [64, 2], [64, 2],
  // TensorMemoryLayout((64, 2), 1), 4, '32x32b_splitn'): one register
  EXPECT_EQ(tmemRegLayout(reg(block(64, 2), {64, 2}, 4, "32x32b_splitn")),
            testkit::distributed({{0, 1}}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 0}},
                                 {{16, 0}, {32, 0}}, {}, {64, 2}));
  // compute_tmem_reg_layout(float32, [128, 64], [2, 128, 128],
  // TensorMemoryLayout((128, 64), 1), 4, '16x64b')
  TmemRegParams view = reg(block(128, 64), {128, 64}, 4, "16x64b");
  view.allocShape = {2, 128, 128};
  EXPECT_EQ(tmemRegLayout(view),
            testkit::distributed({{0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}, {16, 0}},
                                 {{8, 0}, {0, 1}, {1, 0}, {2, 0}, {4, 0}}, {{32, 0}, {64, 0}}, {},
                                 {128, 64}));
  // compute_tmem_reg_layout(float32, [64, 64], [128, 64],
  // TensorMemoryLayout((64, 64), 1), 4, '16x64b'): lanes 16-31 unused
  TmemRegParams rows = reg(block(64, 64), {64, 64}, 4, "16x64b");
  rows.allocShape = {128, 64};
  EXPECT_EQ(tmemRegLayout(rows), testkit::distributed({{0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}},
                                                      {{8, 0}, {0, 1}, {1, 0}, {2, 0}, {4, 0}},
                                                      {{16, 0}, {32, 0}}, {}, {64, 64}));
  // compute_tmem_reg_layout(int8, [128, 8], [128, 8], TensorMemoryLayout((64,
  // 4), 1, [[1, 0], [0, 1]], two_ctas=True), 4, '32x32b'): two slots a CTA
  TmemRegParams p8 = reg(block(64, 4), {128, 8}, 4, "32x32b");
  p8.elementBitwidth = 8;
  p8.layout.twoCtas = true;
  p8.layout.cgaLayout = testkit::cgaFromBases({{1, 0}, {0, 1}}, 2);
  EXPECT_EQ(tmemRegLayout(p8),
            testkit::distributed({{0, 1}}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}},
                                 {{32, 0}, {0, 2}}, {{64, 0}, {0, 4}}, {128, 8}));
  // compute_tmem_reg_layout(float16, [128, 4], [128, 4], TensorMemoryLayout((64,
  // 2), 1, [[1, 0], [0, 1]], two_ctas=True), 4, '32x32b'): one slot a CTA
  TmemRegParams p16 = reg(block(64, 2), {128, 4}, 4, "32x32b");
  p16.elementBitwidth = 16;
  p16.layout.twoCtas = true;
  p16.layout.cgaLayout = testkit::cgaFromBases({{1, 0}, {0, 1}}, 2);
  EXPECT_EQ(tmemRegLayout(p16),
            testkit::distributed({}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}}, {{32, 0}, {0, 1}},
                                 {{64, 0}, {0, 2}}, {128, 4}));
}

// Gluon 3.9.0 to_linear_layout (gluon_tmem_answer, asked in this session):
// the rows and cols Gluon prints, the block bases its CGA times the share.
TEST(TensorMemory, GluonCgaAndScales) {
  // TensorMemoryScalesLayout([[1, 0]]) at [256, 8]
  EXPECT_EQ(
      tensorMemoryScales(testkit::cgaFromBases({{1, 0}}, 2), {256, 8}),
      LinearLayout(LayoutValue{{{"row", {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {0, 0}, {0, 0}}},
                                {"col", {{0, 1}, {0, 2}, {32, 0}, {64, 0}, {0, 4}}},
                                {"block", {{128, 0}}}},
                               {{"dim0", 256}, {"dim1", 8}}}));
  // TensorMemoryLayout((64, 16), 2, [[0, 1]]) at [64, 32]
  TensorMemoryParams p = block(64, 16);
  p.colStride = 2;
  p.cgaLayout = testkit::cgaFromBases({{0, 1}}, 2);
  EXPECT_EQ(
      tensorMemory(p, {64, 32}),
      LinearLayout(LayoutValue{{{"row", {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 0}, {16, 0}, {32, 0}}},
                                {"col", {{0, 0}, {0, 1}, {0, 2}, {0, 4}, {0, 8}}},
                                {"block", {{0, 16}}}},
                               {{"dim0", 64}, {"dim1", 32}}}));
}

TEST(TmemRegLayout, Errors) {
  EXPECT_PRED2(contains, errorMessage([] {
                 tmemRegLayout(reg(block(128, 4), {128, 4}, 4, "16x256b"));
               }),
               "fewer than the shape's 8");
  EXPECT_PRED2(contains, errorMessage([] {
                 tmemRegLayout(reg(block(128, 64), {128, 64}, 4, "16x32bx2"));
               }),
               "never requested");
  EXPECT_PRED2(contains, errorMessage([] {
                 tmemRegLayout(reg(block(128, 64), {128, 64}, 6, "32x32b"));
               }),
               "num_warps = 6");
  EXPECT_PRED2(contains, errorMessage([] {
                 tmemRegLayout(reg(block(128, 64), {64, 64}, 4, "32x32b"));
               }),
               "shape[0] per CTA = 64");
  TmemRegParams p = reg(block(128, 64), {128, 64}, 4, "32x32b");
  p.elementBitwidth = 16;
  p.layout.colStride = 4;
  EXPECT_PRED2(contains, errorMessage([&] { tmemRegLayout(p); }), "col_stride must be at most 32");
}

TEST(TensorMemory, Errors) {
  EXPECT_PRED2(contains, errorMessage([] {
                 tensorMemory(block(32, 64), {128, 64});
               }),
               "block[0] = 32 must be 64 or 128");
  TensorMemoryParams p = block(128, 64);
  p.fp4Padded = true;
  p.colStride = 2;
  EXPECT_PRED2(contains, errorMessage([&] { tensorMemory(p, {128, 64}); }), "fp4_padded");
  TensorMemoryParams two = block(128, 64);
  two.twoCtas = true;
  EXPECT_PRED2(contains, errorMessage([&] { tensorMemory(two, {128, 64}); }), "[1, 0]");
}

}  // namespace
}  // namespace f2lay::ref::catalog
