// The blocked and slice constructors against their element-wise definitions
// (elementwise.h), at every input (elementwise_compare.h), for many parameter
// sets: fixed ones from Triton's and Gluon's cases, and random ones from a
// fixed seed.
#include "definitions/elementwise.h"

#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "definitions/elementwise_compare.h"
#include "reference/catalog/blocked.h"
#include "reference/catalog/slice.h"

namespace f2lay::ref::catalog {
namespace {

std::string describe(const elementwise::Blocked& p) {
  auto list = [](const auto& v) {
    std::ostringstream os;
    os << "[";
    for (size_t i = 0; i < v.size(); ++i) os << (i ? "," : "") << v[i];
    return os.str() + "]";
  };
  return "spt " + list(p.sizePerThread) + " tpw " + list(p.threadsPerWarp) + " wpc " +
         list(p.warpsPerCta) + " order " + list(p.order) + " ctas " + list(p.ctasPerCga) +
         " split " + list(p.ctaSplitNum) + " ctaOrder " + list(p.ctaOrder) + " shape " +
         list(p.shape) + (p.keepsCutRegisters ? " (Triton 3.6)" : "");
}

LinearLayout construct(const elementwise::Blocked& p) {
  return blocked({p.sizePerThread, p.threadsPerWarp, p.warpsPerCta, p.order,
                  makeCgaLayout(p.ctasPerCga, p.ctaSplitNum, p.ctaOrder),
                  p.keepsCutRegisters ? TritonVersion::k3_6 : TritonVersion::k3_9},
                 p.shape);
}

LinearLayout construct(const elementwise::Slice<elementwise::Blocked>& s) {
  return slice(construct(s.parent), s.dim);
}

// Powers of two 2^0..2^maxLog2, one per dim.
std::vector<uint64_t> randomSizes(std::mt19937& rng, size_t rank, int maxLog2) {
  std::vector<uint64_t> s;
  for (size_t d = 0; d < rank; ++d) s.push_back(uint64_t{1} << (rng() % (maxLog2 + 1)));
  return s;
}

std::vector<unsigned> randomOrder(std::mt19937& rng, size_t rank) {
  std::vector<unsigned> o(rank);
  for (size_t i = 0; i < rank; ++i) o[i] = static_cast<unsigned>(i);
  std::shuffle(o.begin(), o.end(), rng);
  return o;
}

elementwise::Blocked randomBlocked(std::mt19937& rng, size_t rank) {
  elementwise::Blocked p;
  p.sizePerThread = randomSizes(rng, rank, 2);
  p.threadsPerWarp = randomSizes(rng, rank, 2);
  p.warpsPerCta = randomSizes(rng, rank, 1);
  p.order = randomOrder(rng, rank);
  // Up to 4 CTAs per dim (2 in rank 3), split into any power of two of them,
  // so that partial splits (distinct CTAs, then copies) occur.
  p.ctasPerCga = randomSizes(rng, rank, rank == 3 ? 1 : 2);
  for (uint64_t c : p.ctasPerCga) {
    uint64_t split = c;
    for (uint64_t drop = rng() % 3; drop > 0 && split > 1; --drop) split /= 2;
    p.ctaSplitNum.push_back(split);
  }
  p.ctaOrder = randomOrder(rng, rank);
  p.shape = randomSizes(rng, rank, rank == 1 ? 7 : 4);
  p.keepsCutRegisters = rng() % 2 == 1;
  return p;
}

elementwise::Blocked oneCta(std::vector<uint64_t> spt, std::vector<uint64_t> tpw,
                            std::vector<uint64_t> wpc, std::vector<unsigned> order,
                            std::vector<uint64_t> shape) {
  size_t rank = shape.size();
  std::vector<unsigned> ctaOrder(rank);
  for (size_t i = 0; i < rank; ++i) ctaOrder[i] = static_cast<unsigned>(rank - 1 - i);
  return {
      spt,      tpw,  wpc, order, std::vector<uint64_t>(rank, 1), std::vector<uint64_t>(rank, 1),
      ctaOrder, shape};
}

TEST(BlockedElementwise, FixedCases) {
  std::vector<elementwise::Blocked> cases = {
      oneCta({2, 2}, {4, 8}, {2, 1}, {1, 0}, {16, 16}),  // paper Figure 1 layout A
      oneCta({1, 4}, {4, 8}, {4, 1}, {1, 0}, {64, 64}),  // calibration: device_tests/HARDWARE.md
      oneCta({4}, {4}, {4}, {0}, {8}),                   // shape smaller than the tile
      oneCta({2}, {4}, {1}, {0}, {32}),                  // replicate in register dim
      oneCta({1, 1}, {32, 1}, {1, 8}, {0, 1}, {1, 64}),  // Triton ReversedOrder
      {{1, 4}, {8, 4}, {4, 1}, {1, 0}, {2, 2}, {2, 1}, {1, 0}, {128, 16}},  // OneDimTooLarge...
      {{1}, {1}, {4}, {0}, {2}, {2}, {0}, {4}},                             // RepeatInCTGDimFirst
      {{8, 1}, {8, 4}, {1, 4}, {0, 1}, {1, 2}, {1, 2}, {0, 1}, {64, 1}},    // Skinny
      {{1, 4}, {8, 4}, {2, 2}, {1, 0}, {4, 2}, {2, 2}, {0, 1}, {64, 64}},
  };
  for (elementwise::Blocked p : cases)
    for (bool keeps : {false, true}) {
      p.keepsCutRegisters = keeps;
      SCOPED_TRACE(describe(p));
      EXPECT_EQ(distributedMismatch(construct(p), p), "");
    }
}

TEST(BlockedElementwise, RandomParameterSets) {
  std::mt19937 rng(20250611);
  for (int i = 0; i < 250; ++i) {
    elementwise::Blocked p = randomBlocked(rng, 1 + i % 3);
    SCOPED_TRACE(describe(p));
    ASSERT_EQ(distributedMismatch(construct(p), p), "");
  }
}

TEST(SliceElementwise, FixedCases) {
  using Slice = elementwise::Slice<elementwise::Blocked>;
  std::vector<Slice> cases = {
      // Triton SliceOfBlocked, both dims, at 128.
      {{{2, 4}, {4, 2}, {2, 2}, {1, 0}, {2, 2}, {2, 2}, {1, 0}, {1, 128}}, 0},
      {{{2, 4}, {4, 2}, {2, 2}, {1, 0}, {2, 2}, {2, 2}, {1, 0}, {128, 1}}, 1},
      // The calibration blocked sliced at shapes smaller and larger than the tile.
      {oneCta({1, 4}, {4, 8}, {4, 1}, {1, 0}, {64, 1}), 1},
      {oneCta({1, 4}, {4, 8}, {4, 1}, {1, 0}, {8, 1}), 1},
      {oneCta({1, 4}, {4, 8}, {4, 1}, {1, 0}, {1, 1024}), 0},
      // Triton Slice4D.
      {oneCta({1, 1, 1, 4}, {2, 1, 1, 16}, {1, 2, 4, 1}, {3, 0, 1, 2}, {2, 1, 1, 1}), 3},
  };
  for (const Slice& s : cases) {
    SCOPED_TRACE(describe(s.parent) + " dim " + std::to_string(s.dim));
    EXPECT_EQ(distributedMismatch(construct(s), s), "");
  }
}

TEST(SliceElementwise, RandomParameterSets) {
  std::mt19937 rng(7);
  for (int i = 0; i < 200; ++i) {
    elementwise::Blocked parent = randomBlocked(rng, 2 + i % 2);
    auto dim = static_cast<unsigned>(rng() % parent.shape.size());
    parent.shape[dim] = 1;  // the parent is laid out at the slice's shape with a 1 at dim
    elementwise::Slice<elementwise::Blocked> s{parent, dim};
    SCOPED_TRACE(describe(parent) + " dim " + std::to_string(dim));
    ASSERT_EQ(distributedMismatch(construct(s), s), "");
  }
}

}  // namespace
}  // namespace f2lay::ref::catalog
