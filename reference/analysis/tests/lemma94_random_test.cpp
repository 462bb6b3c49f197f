// Lemma 9.4 against the simulator on random layouts: wherever the lemma
// answers it must give the simulator's numbers, and it must answer often.
// Where it declines for loads whose quads repeat an address, the simulator
// must find the load no dearer than the fixed-phase cost (the lemma's answer
// for the same access as a store), and sometimes cheaper: that is why it
// declines (lemma94.cpp).
#include <gtest/gtest.h>

#include <bit>
#include <iostream>
#include <random>

#include "reference/analysis/bank_conflicts.h"
#include "reference/catalog/shared.h"
#include "testkit/random_tensor_layouts.h"

namespace f2lay::ref::analysis {
namespace {

using testkit::TensorShape;

// offset -> the tensor with the first offsets on `count` nonzero register
// bases of `dist` (so a vector is possible), then the other tensor bits in
// random order, each xored half the time with the target of a random lower
// offset (a swizzle, which may break the vector's alignment).
LinearLayout registerFirstMemory(std::mt19937_64& rng, const TensorShape& t,
                                 const LinearLayout& dist, size_t count) {
  std::vector<Basis> offset;
  std::vector<bool> taken(static_cast<size_t>(t.bits()), false);
  for (const Basis& b : dist.value().in_dims[0].bases) {  // register
    if (offset.size() == count || (b[0] == 0 && b[1] == 0)) continue;
    offset.push_back(b);
    for (int k = 0; k < t.bits(); ++k)
      if (testkit::unit(t, k) == b) taken[static_cast<size_t>(k)] = true;
  }
  std::vector<int> rest;
  for (int k = 0; k < t.bits(); ++k)
    if (!taken[static_cast<size_t>(k)]) rest.push_back(k);
  std::shuffle(rest.begin(), rest.end(), rng);
  for (int k : rest) {
    Basis b = testkit::unit(t, k);
    if (!offset.empty() && rng() % 2) {
      const Basis& lower = offset[rng() % offset.size()];
      b = {b[0] ^ lower[0], b[1] ^ lower[1]};
    }
    offset.push_back(b);
  }
  return LinearLayout(LayoutValue{{{"offset", offset}}, t.outDims()});
}

LinearLayout randomMemoryFor(std::mt19937_64& rng, const TensorShape& t, const LinearLayout& dist) {
  switch (rng() % 3) {
    case 0:
      return LinearLayout(testkit::randomMemory(rng, t));
    case 1: {
      catalog::SwizzledSharedParams p;
      p.vec = uint64_t{1} << rng() % 4;
      p.perPhase = uint64_t{1} << rng() % 3;
      p.maxPhase = uint64_t{1} << rng() % 4;
      p.order = rng() % 2 ? std::vector<unsigned>{1, 0} : std::vector<unsigned>{0, 1};
      return catalog::swizzledShared(p, {uint64_t{1} << t.rowBits, uint64_t{1} << t.colBits});
    }
    default:
      return registerFirstMemory(rng, t, dist, 1 + rng() % 3);
  }
}

TEST(Lemma94Random, AgreesWithTheSimulatorWhereItAnswers) {
  std::mt19937_64 rng(94);
  const uint64_t widths[] = {1, 2, 4, 8, 16};
  int cases = 0, answered = 0, narrow = 0, quadMerged = 0, quadCheaper = 0, vectorized = 0;
  for (int i = 0; i < 2000; ++i) {
    int warpBits = static_cast<int>(rng() % 3), zeroLanes = static_cast<int>(rng() % 3);
    int zeroRegisters = static_cast<int>(rng() % 2);
    int bits = 5 - zeroLanes + warpBits + static_cast<int>(rng() % 4);
    int rowBits = static_cast<int>(rng() % static_cast<uint64_t>(bits + 1));
    TensorShape t{rowBits, bits - rowBits};
    LinearLayout dist(testkit::randomDistributed(rng, t, warpBits, zeroLanes, zeroRegisters));
    LinearLayout shared = randomMemoryFor(rng, t, dist);
    AccessSpec access{rng() % 2 ? AccessKind::kLoad : AccessKind::kStore,
                      widths[rng() % 5],
                      std::nullopt,
                      Instruction::kVector,
                      {}};
    uint64_t widest = widestVectorBytes(dist, shared, access.elementBytes);
    if (rng() % 2)  // any legal width up to the widest
      access.vectorBytes = access.elementBytes
                           << rng() % (std::countr_zero(widest / access.elementBytes) + 1);
    WavefrontReport sim = simulateBankConflicts(dist, shared, access);
    std::optional<WavefrontReport> lemma = lemma94(dist, shared, access);
    ++cases;
    vectorized += sim.vectorBytes > access.elementBytes;
    if (lemma) {
      ++answered;
      EXPECT_EQ(*lemma, sim) << "case " << i << "\n" << dist << "\n" << shared;
      continue;
    }
    if (sim.vectorBytes < 4) {
      ++narrow;
      continue;
    }
    // Declined for a quad merge: the same access as a store has the fixed
    // phases the lemma assumes.
    ASSERT_EQ(access.kind, AccessKind::kLoad) << "case " << i;
    ++quadMerged;
    AccessSpec asStore = access;
    asStore.kind = AccessKind::kStore;
    std::optional<WavefrontReport> fixed = lemma94(dist, shared, asStore);
    ASSERT_TRUE(fixed) << "case " << i;
    EXPECT_LE(sim.wavefronts, fixed->wavefronts) << "case " << i;
    quadCheaper += sim.wavefronts < fixed->wavefronts;
  }
  std::cout << cases << " cases: the lemma answered " << answered << ", declined " << narrow
            << " narrower than a bank and " << quadMerged << " quad-merged loads (" << quadCheaper
            << " of them cheaper than the fixed phases); " << vectorized << " vectorized\n";
  EXPECT_GT(answered, cases / 3);
  EXPECT_GT(quadCheaper, 0);
  EXPECT_GT(vectorized, cases / 10);
}

}  // namespace
}  // namespace f2lay::ref::analysis
