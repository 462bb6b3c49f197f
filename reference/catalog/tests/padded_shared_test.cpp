// Padded shared memory (Gluon 3.9's PaddedSharedLayout) against definitions
// written independently of the constructor and of analysis::paddedOffset:
//   * where each (offset, block) sits (padded_definition.h): the integer sum
//     of the offset bases of the offset's set bits, plus each set block
//     bit's cga_layout basis times the CTA tile;
//   * the padded address, as Gluon's docstring says it in words: walk the
//     offsets in order, one cell each, and after every `interval` elements
//     skip `padding` cells (paddings of several intervals ending at one
//     position add up);
// and Gluon's docstring examples, cell by cell.
#include "reference/catalog/padded_shared.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "analysis/padding.h"
#include "definitions/padded_definition.h"
#include "definitions/padded_walk.h"
#include "reference/catalog/tests/test_support.h"

namespace f2lay::ref::catalog {
namespace {

using analysis::Padding;

// Random legal parameters: per dim, the offset bits 1, 2, 4, ... and the
// block bits, in random order, some zero block bases; 1 to 3 pairs.
PaddedSharedParams drawParams(std::mt19937_64& rng) {
  auto below = [&](uint64_t n) { return std::uniform_int_distribution<uint64_t>(0, n - 1)(rng); };
  size_t rank = 1 + below(3);
  PaddedSharedParams p;
  p.shape.assign(rank, 1);
  for (size_t d = 0; d < rank; ++d) {
    uint64_t offsetBits = below(5), blockBits = below(3);
    for (uint64_t k = 0; k < offsetBits; ++k) {
      Basis b(rank, 0);
      b[d] = uint64_t{1} << k;
      p.offsetBases.push_back(b);
    }
    for (uint64_t k = 0; k < blockBits; ++k) {
      Basis b(rank, 0);
      b[d] = uint64_t{1} << k;
      p.cgaBases.push_back(b);
    }
    p.shape[d] = uint64_t{1} << (offsetBits + blockBits);
  }
  for (uint64_t z = below(3); z > 0 && below(2); --z) p.cgaBases.push_back(Basis(rank, 0));
  std::shuffle(p.offsetBases.begin(), p.offsetBases.end(), rng);
  std::shuffle(p.cgaBases.begin(), p.cgaBases.end(), rng);
  std::vector<uint64_t> intervals = {1, 2, 4, 8, 16, 32, 64};
  std::shuffle(intervals.begin(), intervals.end(), rng);
  for (size_t i = 0, n = 1 + below(3); i < n; ++i)
    p.intervalPaddingPairs.push_back({intervals[i], uint64_t{1} << below(5)});
  return p;
}

TEST(PaddedShared, RandomLayoutsMatchTheDefinitionAtEveryOffset) {
  std::mt19937_64 rng(22);
  for (int round = 0; round < 100; ++round) {
    PaddedSharedParams p = drawParams(rng);
    ASSERT_TRUE(padded_definition::legal(p));
    PaddedShared got = paddedShared(p);
    ASSERT_EQ(got.padding, p.intervalPaddingPairs);
    const LinearLayout& l = got.linear;
    ASSERT_EQ(l.getInDimNames(), (std::vector<std::string>{"offset", "block"}));
    uint64_t offsets = uint64_t{1} << l.getInDimSizeLog2("offset");
    uint64_t blocks = uint64_t{1} << l.getInDimSizeLog2("block");
    ASSERT_EQ(offsets, uint64_t{1} << p.offsetBases.size());
    ASSERT_EQ(blocks, uint64_t{1} << p.cgaBases.size());
    for (size_t d = 0; d < p.shape.size(); ++d)
      ASSERT_EQ(l.getOutDimSize("dim" + std::to_string(d)), p.shape[d]);
    for (uint64_t b = 0; b < blocks; ++b)
      for (uint64_t o = 0; o < offsets; ++o) {
        DimValues at = l.apply({{"offset", o}, {"block", b}});
        std::vector<uint64_t> want = padded_definition::coords(p, o, b);
        for (size_t d = 0; d < want.size(); ++d)
          ASSERT_EQ(at[d].second, want[d]) << "offset " << o << " block " << b << " dim" << d;
      }
    std::vector<uint64_t> cells = cellsByWalking(got.padding, offsets);
    for (uint64_t o = 0; o < offsets; ++o)
      ASSERT_EQ(analysis::paddedOffset(got.padding, o), cells[o]) << "offset " << o;
  }
}

// The element at each cell of Gluon 3.9's PaddedSharedLayout docstring
// (python/triton/experimental/gluon/language/_layouts.py), -1 for padding.
void expectCells(const PaddedSharedParams& p, const std::vector<std::vector<int64_t>>& cells) {
  PaddedShared got = paddedShared(p);
  uint64_t offsets = uint64_t{1} << got.linear.getInDimSizeLog2("offset");
  std::vector<std::vector<int64_t>> memory;
  for (uint64_t o = 0; o < offsets; ++o) {
    uint64_t a = analysis::paddedOffset(got.padding, o);
    if (memory.size() <= a) memory.resize(a + 1, std::vector<int64_t>{-1});
    std::vector<int64_t> x;
    for (const auto& [dim, v] : got.linear.apply({{"offset", o}, {"block", 0}}))
      x.push_back(static_cast<int64_t>(v));
    memory[a] = x;
  }
  EXPECT_EQ(memory, cells);
}

TEST(PaddedShared, GluonDocstringExamples) {
  // [[2, 1], [4, 2]], identity: [e0, e1, p0, e2, e3, p1, p2, p3, e4, e5, p4, e6, e7]
  expectCells({{{2, 1}, {4, 2}}, {{1}, {2}, {4}}, {}, {8}},
              {{0}, {1}, {-1}, {2}, {3}, {-1}, {-1}, {-1}, {4}, {5}, {-1}, {6}, {7}});
  // [[2, 2]], offset_bases [[2], [1]]: [x0, x2, p0, p1, x1, x3]. The docstring
  // says shape = [8]; its two bases span 4 elements, which f2lay requires of
  // shape (Gluon takes the size from the bases).
  expectCells({{{2, 2}}, {{2}, {1}}, {}, {4}}, {{0}, {2}, {-1}, {-1}, {1}, {3}});
  // shape [8, 4], [[8, 1]], offset_bases [[0,1], [0,2], [2,0], [4,0], [1,0]]:
  // rows 0, 2, p, 4, 6, p, 1, 3, p, 5, 7.
  std::vector<std::vector<int64_t>> rows;
  for (int64_t r : {0, 2, -1, 4, 6, -1, 1, 3, -1, 5, 7}) {
    if (r < 0) {
      rows.push_back({-1});
      continue;
    }
    for (int64_t c = 0; c < 4; ++c) rows.push_back({r, c});
  }
  expectCells({{{8, 1}}, {{0, 1}, {0, 2}, {2, 0}, {4, 0}, {1, 0}}, {}, {8, 4}}, rows);
}

TEST(PaddedShared, IdentityForWalksEachCtaAlongOrder) {
  // Gluon 3.9: with_identity_for([[2, 1], [4, 2]], [16, 8], [1, 0], [[1, 0]])
  // has offset_bases [[0,1], [0,2], [0,4], [1,0], [2,0], [4,0]].
  PaddedSharedParams p = paddedSharedIdentityFor({{2, 1}, {4, 2}}, {16, 8}, {1, 0}, {{1, 0}});
  EXPECT_EQ(p.offsetBases, (std::vector<Basis>{{0, 1}, {0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}));
  // Triton scales the block basis by the CTA tile: block = [[8, 0]].
  PaddedShared got = paddedShared(p);
  EXPECT_EQ(got.linear.value().in_dims[1].bases, (std::vector<Basis>{{8, 0}}));
}

TEST(PaddedShared, RefusesWhatGluonAndTritonRefuse) {
  // The definition's legality agrees: it refuses each of these too, and
  // takes the one the constructor takes.
  auto error = [](const PaddedSharedParams& p) {
    std::string e = errorMessage([&] { (void)paddedShared(p); });
    EXPECT_EQ(padded_definition::legal(p), e == "(no error)") << e;
    return e;
  };
  std::vector<Basis> off = {{0, 1}, {0, 2}, {1, 0}, {2, 0}};
  EXPECT_PRED2(contains, error({{}, off, {}, {4, 4}}), "interval_padding_pairs: must have");
  EXPECT_PRED2(contains, error({{{3, 1}}, off, {}, {4, 4}}), "interval 3 is not a power of two");
  EXPECT_PRED2(contains, error({{{4, 0}}, off, {}, {4, 4}}), "padding 0 is not a power of two");
  EXPECT_PRED2(contains, error({{{4, 1}, {4, 2}}, off, {}, {4, 4}}), "appears twice");
  EXPECT_PRED2(contains, error({{{4, 1}}, {{0, 1}, {0, 2}, {1, 1}, {2, 0}}, {}, {4, 4}}),
               "offset_bases[2]: moves in 2 dims");
  EXPECT_PRED2(contains, error({{{4, 1}}, {{0, 1}, {0, 3}, {1, 0}, {2, 0}}, {}, {4, 4}}),
               "offset_bases[1]: value 3 in dim1 is not a power of two");
  EXPECT_PRED2(contains, error({{{4, 1}}, {{0, 1}, {0, 0}, {1, 0}, {2, 0}}, {}, {4, 4}}),
               "offset_bases[1]: is zero");
  EXPECT_PRED2(contains, error({{{4, 1}}, {{0, 1}, {0, 1}, {1, 0}, {2, 0}}, {}, {4, 4}}),
               "offset_bases[1]: equals offset_bases[0]");
  EXPECT_PRED2(contains, error({{{4, 1}}, {{0, 1}, {0, 4}, {1, 0}, {2, 0}}, {}, {4, 8}}),
               "offset_bases: dim1 reaches 4 but no basis is 2");
  EXPECT_PRED2(contains, error({{{4, 1}}, off, {{1, 0}, {1, 0}}, {16, 4}}),
               "cga_layout[1]: equals cga_layout[0]");
  EXPECT_PRED2(contains, error({{{4, 1}}, off, {{2, 0}}, {16, 4}}),
               "cga_layout: dim0 reaches 2 but no basis is 1");
  EXPECT_PRED2(contains, error({{{4, 1}}, off, {}, {8, 4}}),
               "shape = 8x4 but offset_bases and cga_layout span 4x4");
  EXPECT_PRED2(contains, error({{{4, 1}}, {{0, 1}}, {}, {}}), "shape must have at least one dim");
  EXPECT_PRED2(contains, error({{{4, 1}}, {{0, 1, 0}}, {}, {1, 2}}),
               "offset_bases[0]: has 3 values");
  // Zero cga_layout bases are broadcasts, which Triton 3.9 accepts.
  EXPECT_EQ(error({{{4, 1}}, off, {{0, 0}, {1, 0}}, {8, 4}}), "(no error)");
}

}  // namespace
}  // namespace f2lay::ref::catalog
