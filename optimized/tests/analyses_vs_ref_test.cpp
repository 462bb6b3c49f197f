// The §5 constructions (written once, in analysis/) on f2lay::opt's layouts
// and F2 spaces against the same constructions on the reference's, on random
// distributed (Def 4.10, with broadcast lanes and registers) and memory
// layouts (Def 4.14): the same answers and errors. What differs, and so what
// these compare, is what the constructions stand on: the two F2 space
// backends and the two layout algebras. The constructions themselves are
// checked by the simulators (reference/analysis/*_simulator), which share no
// code with them.
#include <gtest/gtest.h>

#include <random>

#include "analysis/conversion.h"
#include "analysis/gather.h"
#include "analysis/vectorization.h"
#include "optimized/opt_linear_layout.h"
#include "optimized/tests/both.h"
#include "testkit/random_tensor_layouts.h"

namespace f2lay {
namespace {

using testkit::outcome;
using testkit::randomDistributed;
using testkit::randomMemory;
using testkit::TensorShape;
using testkit::toOpt;

// The answer, or the error message, of each side.

std::string show(const ref::LinearLayout& l) { return l.toString(); }
std::string show(const opt::LinearLayout& l) { return l.toString(); }

TEST(AnalysesVsRef, ClassifyConversion) {
  std::mt19937_64 rng(21);
  int kinds[4] = {0, 0, 0, 0};
  for (int t = 0; t < 600; ++t) {
    TensorShape shape{2 + static_cast<int>(rng() % 3), 2 + static_cast<int>(rng() % 3)};
    int warpBits = static_cast<int>(rng() % 2);
    if (shape.bits() < 5 + warpBits) continue;
    int zeroLanesA = rng() % 4 == 0, zeroLanesB = rng() % 4 == 0;
    ref::LinearLayout a(randomDistributed(rng, shape, warpBits, zeroLanesA, rng() % 2));
    ref::LinearLayout b =
        rng() % 4 == 0
            ? a
            : ref::LinearLayout(randomDistributed(rng, shape, warpBits, zeroLanesB, rng() % 2));
    if (rng() % 4 == 0) {  // a with its registers renumbered
      LayoutValue v = a.value();
      std::shuffle(v.in_dims[0].bases.begin(), v.in_dims[0].bases.end(), rng);
      b = ref::LinearLayout(v);
    }
    if (rng() % 20 == 0 && shape.bits() >= 6)  // other warp counts: an error
      b = ref::LinearLayout(randomDistributed(rng, shape, warpBits ^ 1, 0, 0));
    std::string byRef = outcome([&] {
      auto c = ref::analysis::classifyConversion(a, b);
      ++kinds[static_cast<int>(c.kind)];
      return toString(c.kind) + " " + toString(c.minimalKind) + " " + c.reason + "\n" +
             show(c.bInvA) + show(c.pull);
    });
    std::string byOpt = outcome([&] {
      auto c = opt::analysis::classifyConversion(toOpt(a), toOpt(b));
      return toString(c.kind) + " " + toString(c.minimalKind) + " " + c.reason + "\n" +
             show(c.bInvA) + show(c.pull);
    });
    ASSERT_EQ(byOpt, byRef) << a << b;
  }
  // Every kind was met (the random pairs reach them all).
  for (int k : kinds) EXPECT_GT(k, 5);
}

// Vectorization, tile division and duplication written out, on either
// implementation's layouts.
template <class L>
std::string describeVectorization(const L& d, const L& s, uint64_t elements,
                                  uint64_t elementBytes) {
  L o = f2lay::analysis::offsetsOf(d, s);
  std::string r = show(o) + std::to_string(f2lay::analysis::contiguousRegisterBits(o));
  for (int i : f2lay::analysis::vectorRegisterBits(o)) r += " " + std::to_string(i);
  for (const L& tile :
       {f2lay::analysis::vectorTile<L>(elements), f2lay::analysis::matrixTile<L>(elementBytes)}) {
    auto div = f2lay::analysis::divideByTile(o, tile);
    r += div ? show(div->quotient) + show(div->permuted) : "none";
  }
  auto dup = f2lay::analysis::duplication(d);
  for (const auto& [n, m] : dup.zeroBits) r += " " + n + std::to_string(m);
  r += " " + std::to_string(dup.heldElements) + " " + std::to_string(dup.distinctElements);
  for (const char* axis : {"dim0", "dim1"}) {
    auto st = f2lay::analysis::reductionStores(d, axis);
    r += " " + std::to_string(st.distinctPartials) + " " + std::to_string(st.naiveStores);
  }
  return r;
}

TEST(AnalysesVsRef, VectorizationTilesAndDuplication) {
  std::mt19937_64 rng(22);
  for (int t = 0; t < 600; ++t) {
    TensorShape shape{2 + static_cast<int>(rng() % 4), 2 + static_cast<int>(rng() % 4)};
    int warpBits = static_cast<int>(rng() % 2);
    if (shape.bits() < 5 + warpBits) continue;
    ref::LinearLayout d(randomDistributed(rng, shape, warpBits, rng() % 3 == 0, rng() % 2));
    ref::LinearLayout s(randomMemory(rng, shape));
    if (rng() % 3 == 0) {  // beyond Def 4.10: register images repeat and mix
      LayoutValue v = d.value();
      for (Basis& b : v.in_dims[0].bases)
        b = rng() % 2 ? Basis{0, 1} : Basis{uint64_t{1} << (rng() % shape.rowBits), rng() % 2};
      d = ref::LinearLayout(v);
    }
    if (rng() % 4 == 0) {  // row-major memory: long vectors
      s = ref::LinearLayout(LayoutValue{{{"offset", {}}}, d.value().out_dims});
      s = ref::LinearLayout::identity1D(uint64_t{1} << shape.colBits, "offset", "dim1") *
          ref::LinearLayout::identity1D(uint64_t{1} << shape.rowBits, "offset", "dim0");
      s = s.transposeOuts({"dim0", "dim1"});
    }
    uint64_t elements = uint64_t{1} << (rng() % 4), elementBytes = uint64_t{1} << (rng() % 3);
    std::string byRef =
        outcome([&] { return describeVectorization(d, s, elements, elementBytes); });
    std::string byOpt =
        outcome([&] { return describeVectorization(toOpt(d), toOpt(s), elements, elementBytes); });
    ASSERT_EQ(byOpt, byRef) << d << s;
    EXPECT_EQ(outcome([&] {
                return std::to_string(opt::analysis::reductionStores(toOpt(d), "dim7").naiveStores);
              }),
              outcome([&] {
                return std::to_string(ref::analysis::reductionStores(d, "dim7").naiveStores);
              }));
  }
}

// A gather's locality and plan written out, on either implementation.
template <class L>
std::string describeGather(const L& l, size_t axis) {
  auto where = f2lay::analysis::gatherLocality(l, axis);
  std::string r = where.reason;
  if (!where.warpLocal) return r;
  auto p = f2lay::analysis::gatherPlan(l, axis);
  r += std::to_string(p.laneBitsAlongAxis) + " " + std::to_string(p.registerBitsAlongAxis) + " " +
       std::to_string(p.paperRounds) + " " + std::to_string(p.rounds);
  for (const auto& s : p.axisSources)
    r += " " + std::to_string(s.registerMask) + "/" + std::to_string(s.laneMask);
  for (const auto& sends : p.sendRegisters)
    for (uint64_t x : sends) r += "," + std::to_string(x);
  return r;
}

TEST(AnalysesVsRef, GatherPlan) {
  std::mt19937_64 rng(23);
  int planned = 0, local = 0;
  for (int t = 0; t < 300; ++t) {
    TensorShape shape{2 + static_cast<int>(rng() % 4), 2 + static_cast<int>(rng() % 4)};
    int warpBits = static_cast<int>(rng() % 2);
    if (shape.bits() < 5 + warpBits) continue;
    ref::LinearLayout l(randomDistributed(rng, shape, warpBits, rng() % 3 == 0, rng() % 2));
    for (size_t axis : {size_t{0}, size_t{1}, size_t{2}}) {
      std::string byRef = outcome([&] { return describeGather(l, axis); });
      std::string byOpt = outcome([&] { return describeGather(toOpt(l), axis); });
      ASSERT_EQ(byOpt, byRef) << l << "axis " << axis;
      local += byRef.find("warps") == std::string::npos && byRef.rfind("error", 0) != 0;
      planned += byRef.rfind("error", 0) != 0;
    }
  }
  EXPECT_GT(planned, 100);
  EXPECT_GT(local, 100);
}

}  // namespace
}  // namespace f2lay
