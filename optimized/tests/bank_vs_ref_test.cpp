// f2lay::opt's bank-conflict analysis against the reference's: bankConflicts
// (rank where Lemma 9.4 is exact, enumeration elsewhere) against
// simulateBankConflicts, lemma94 against lemma94, widestVectorBytes against
// widestVectorBytes, and the enumeration alone against the simulator on every
// access, with the same error messages. Random distributed layouts (Def 4.10
// with broadcast lanes and registers, and beyond: any linear map built in
// offset space), random memory layouts, every access kind and width; then the
// catalog's cases (the 16x32 transpose, Gluon's MMA tile, the ldmatrix tiles)
// and the errors.
#include <gtest/gtest.h>

#include <bit>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "optimized/analysis/bank_conflicts.h"
#include "optimized/opt_linear_layout.h"
#include "optimized/tests/both.h"
#include "reference/analysis/bank_conflicts.h"
#include "reference/analysis/tests/seed_transpose.h"
#include "reference/catalog/ldmatrix.h"
#include "reference/catalog/nvidia_mma.h"
#include "reference/catalog/shared.h"
#include "testkit/random_tensor_layouts.h"

namespace f2lay {
namespace {

using testkit::outcome;
using testkit::randomDistributed;
using testkit::randomMemory;
using testkit::TensorShape;
using testkit::toOpt;

// One access, as both implementations spell it.
struct Access {
  ref::analysis::AccessSpec ref;
  opt::analysis::AccessSpec opt;
  std::string name;
};

Access access(bool load, uint64_t elementBytes, std::optional<uint64_t> vectorBytes,
              int instruction) {
  Access a;
  a.ref = {load ? ref::analysis::AccessKind::kLoad : ref::analysis::AccessKind::kStore,
           elementBytes,
           vectorBytes,
           instruction == 0   ? ref::analysis::Instruction::kVector
           : instruction == 1 ? ref::analysis::Instruction::kMatrix
                              : ref::analysis::Instruction::kMatrixTrans,
           {}};
  a.opt = {load ? opt::analysis::AccessKind::kLoad : opt::analysis::AccessKind::kStore,
           elementBytes,
           vectorBytes,
           instruction == 0   ? opt::analysis::Instruction::kVector
           : instruction == 1 ? opt::analysis::Instruction::kMatrix
                              : opt::analysis::Instruction::kMatrixTrans,
           {}};
  const char* kinds[] = {"", "matrix", "matrix_trans"};
  a.name = std::string(load ? "load" : "store") + kinds[instruction] +
           " w=" + std::to_string(elementBytes) +
           (vectorBytes ? " v=" + std::to_string(*vectorBytes) : std::string(" v=widest"));
  return a;
}

template <class R>
std::string show(const R& r) {
  return std::to_string(r.instructions) + " " + std::to_string(r.wavefronts) + " " +
         std::to_string(r.idealWavefronts) + " " + std::to_string(r.conflicts) + " " +
         std::to_string(r.vectorBytes);
}

template <class R>
std::string show(const std::optional<R>& r) {
  return r ? show(*r) : "null";
}

// How often each path answered, over everything compared.
struct Counts {
  int compared = 0, rank = 0, enumeration = 0, errors = 0;
  int narrow = 0, quadMerged = 0, matrix = 0;
};

// Compares every answer of both sides for one case; false (with a gtest
// failure) when they differ.
bool compare(const ref::LinearLayout& dist, const ref::LinearLayout& shared, const Access& a,
             Counts& counts) {
  opt::LinearLayout od = toOpt(dist), os = toOpt(shared);
  std::string bySim =
      outcome([&] { return show(ref::analysis::simulateBankConflicts(dist, shared, a.ref)); });
  opt::analysis::BankPath path = opt::analysis::BankPath::kRank;
  std::optional<opt::analysis::WavefrontReport> report;
  std::string byOpt = outcome([&] {
    report = opt::analysis::bankConflictsWithPath(od, os, a.opt, path);
    return show(*report);
  });
  std::string byEnumeration =
      outcome([&] { return show(opt::analysis::enumerateBankConflicts(od, os, a.opt)); });
  std::string refLemma = outcome([&] { return show(ref::analysis::lemma94(dist, shared, a.ref)); });
  std::string optLemma = outcome([&] { return show(opt::analysis::lemma94(od, os, a.opt)); });
  // The widest vector depends on the element size only: once per size.
  std::string refWidest, optWidest;
  if (a.opt.kind == opt::analysis::AccessKind::kLoad && !a.opt.vectorBytes) {
    refWidest = outcome([&] {
      return std::to_string(ref::analysis::widestVectorBytes(dist, shared, a.ref.elementBytes));
    });
    optWidest = outcome([&] {
      return std::to_string(opt::analysis::widestVectorBytes(od, os, a.opt.elementBytes));
    });
  }
  ++counts.compared;
  if (report) {
    if (path == opt::analysis::BankPath::kRank) {
      ++counts.rank;
    } else {
      ++counts.enumeration;
      if (a.opt.instruction != opt::analysis::Instruction::kVector)
        ++counts.matrix;
      else if (report->vectorBytes < 4)
        ++counts.narrow;
      else
        ++counts.quadMerged;
    }
  } else {
    ++counts.errors;
  }
  EXPECT_EQ(byOpt, bySim) << a.name << "\n" << dist << shared;
  EXPECT_EQ(byEnumeration, bySim) << "(enumeration alone) " << a.name << "\n" << dist << shared;
  EXPECT_EQ(optLemma, refLemma) << "(lemma 9.4) " << a.name << "\n" << dist << shared;
  EXPECT_EQ(optWidest, refWidest) << "(widest vector) " << a.name << "\n" << dist << shared;
  return byOpt == bySim && byEnumeration == bySim && optLemma == refLemma && optWidest == refWidest;
}

// Every access: loads and stores of every element size, at the widest vector
// and at another width (legal three times in four, given `widest` of an
// element size; else any power of two up to 16, so that the errors are
// compared too), and the four ldmatrix / stmatrix forms (b16).
template <class Widest>
std::vector<Access> accesses(std::mt19937_64& rng, const Widest& widest) {
  std::vector<Access> out;
  for (bool load : {true, false})
    for (uint64_t w : {1, 2, 4, 8, 16}) {
      out.push_back(access(load, w, std::nullopt, 0));
      uint64_t most = widest(w);
      uint64_t v = most && rng() % 4 != 0
                       ? w << rng() % static_cast<uint64_t>(std::countr_zero(most / w) + 1)
                       : uint64_t{1} << rng() % 5;
      out.push_back(access(load, w, v, 0));
    }
  for (bool load : {true, false})
    for (int instruction : {1, 2}) out.push_back(access(load, 2, std::nullopt, instruction));
  return out;
}

// The distributed layout whose input bits land on the given offsets of
// `shared`: each basis is shared(offset).
ref::LinearLayout onOffsets(const ref::LinearLayout& shared,
                            const std::vector<std::vector<uint64_t>>& offsets) {
  const char* dims[] = {"register", "lane", "warp"};
  LayoutValue v;
  for (size_t d = 0; d < 3; ++d) {
    InDim in{dims[d], {}};
    for (uint64_t o : offsets[d]) {
      Basis b;
      ref::DimValues at;  // the offset, and block 0 where shared has a block
      for (const std::string& name : shared.getInDimNames())
        at.push_back({name, name == "offset" ? o : 0});
      for (const auto& [name, value] : shared.apply(at)) b.push_back(value);
      in.bases.push_back(b);
    }
    v.in_dims.push_back(in);
  }
  for (const std::string& name : shared.getOutDimNames())
    v.out_dims.push_back({name, shared.getOutDimSize(name)});
  return ref::LinearLayout(v);
}

// A distributed layout built in offset space, beyond Def 4.10: every input
// bit on a distinct offset bit, then some zeroed (broadcast), some xored with
// other offset bits (dependent, swizzled), and with `rows` (1: ldmatrix, 2:
// .trans, 3: a vector of 2^k elements) the bits an instruction needs put in
// place most of the time.
ref::LinearLayout offsetDistributed(std::mt19937_64& rng, const ref::LinearLayout& shared,
                                    int regBits, int warpBits, int rows) {
  int bits = shared.getInDimSizeLog2("offset");
  std::vector<uint64_t> units;
  for (int i = 0; i < bits; ++i) units.push_back(uint64_t{1} << i);
  std::shuffle(units.begin(), units.end(), rng);
  size_t next = 0;
  auto pick = [&] {
    uint64_t o = units[next++ % units.size()];
    if (rng() % 6 == 0) o = 0;
    if (rng() % 4 == 0) o ^= uint64_t{1} << rng() % static_cast<uint64_t>(bits);
    return o;
  };
  std::vector<std::vector<uint64_t>> offsets(3);
  for (int i = 0; i < regBits; ++i) offsets[0].push_back(pick());
  for (int i = 0; i < 5; ++i) offsets[1].push_back(pick());
  for (int i = 0; i < warpBits; ++i) offsets[2].push_back(pick());
  if (rows && rng() % 6 != 0) {
    // The row bits at +1, +2, +4; everything else moved to multiples of 8,
    // but now and then (an error for ldmatrix, a shorter vector).
    if (rng() % 6 != 0)
      for (auto& dim : offsets)
        for (uint64_t& o : dim) o &= ~uint64_t{7};
    size_t h = regBits ? rng() % static_cast<uint64_t>(regBits) : 0;
    if (rows == 1 && regBits) {
      offsets[0][h] = 1;
      offsets[1][0] = 2;
      offsets[1][1] = 4;
    } else if (rows == 2) {
      offsets[1][2] = 1;
      offsets[1][3] = 2;
      offsets[1][4] = 4;
    } else if (rows == 3) {  // register bits at 1, 2, 4 in a random order
      std::vector<uint64_t> want = {1, 2, 4};
      for (uint64_t k = 0; k < want.size() && k < static_cast<uint64_t>(regBits); ++k)
        offsets[0][(h + k) % static_cast<size_t>(regBits)] = want[k];
    }
  }
  return onOffsets(shared, offsets);
}

// A memory layout: random swizzled unit vectors, Triton's swizzled shared
// layout, or row-major.
ref::LinearLayout memoryFor(std::mt19937_64& rng, const TensorShape& t) {
  switch (rng() % 3) {
    case 0:
      return ref::LinearLayout(randomMemory(rng, t));
    case 1: {
      ref::catalog::SwizzledSharedParams p;
      p.vec = uint64_t{1} << rng() % 4;
      p.perPhase = uint64_t{1} << rng() % 3;
      p.maxPhase = uint64_t{1} << rng() % 4;
      p.order = rng() % 2 ? std::vector<unsigned>{1, 0} : std::vector<unsigned>{0, 1};
      return ref::catalog::swizzledShared(p, {uint64_t{1} << t.rowBits, uint64_t{1} << t.colBits});
    }
    default:
      return ref::catalog::unswizzledShared(
          rng() % 2 ? std::vector<unsigned>{1, 0} : std::vector<unsigned>{0, 1},
          {uint64_t{1} << t.rowBits, uint64_t{1} << t.colBits});
  }
}

TEST(BankVsRef, RandomLayoutsEveryAccess) {
  std::mt19937_64 rng(95);
  Counts counts;
  int failures = 0;
  for (int i = 0; i < 500 && failures < 5; ++i) {
    int warpBits = static_cast<int>(rng() % 3), zeroLanes = static_cast<int>(rng() % 3);
    int bits = 5 - zeroLanes + warpBits + static_cast<int>(rng() % 4);
    int rowBits = static_cast<int>(rng() % static_cast<uint64_t>(bits + 1));
    TensorShape t{rowBits, bits - rowBits};
    ref::LinearLayout shared = memoryFor(rng, t);
    ref::LinearLayout dist;
    if (rng() % 3 == 0) {
      dist = ref::LinearLayout(
          randomDistributed(rng, t, warpBits, zeroLanes, static_cast<int>(rng() % 3)));
    } else {  // rows: none, ldmatrix's, .trans's (twice as often), a vector's
      const int rows[] = {0, 1, 1, 2, 2, 3};
      int regBits = std::max(0, bits - 5 - warpBits) + static_cast<int>(rng() % 3);
      dist = offsetDistributed(rng, shared, regBits, warpBits, rows[rng() % 6]);
    }
    opt::LinearLayout od = toOpt(dist), os = toOpt(shared);
    auto widest = [&](uint64_t w) {  // 0 where the layouts are refused
      return testkit::attempt([&] { return opt::analysis::widestVectorBytes(od, os, w); })
          .answer.value_or(0);
    };
    for (const Access& a : accesses(rng, widest)) failures += !compare(dist, shared, a, counts);
  }
  std::cout << counts.compared << " compared: rank " << counts.rank << ", enumeration "
            << counts.enumeration << " (" << counts.narrow << " under 4 bytes, "
            << counts.quadMerged << " quad-merged loads, " << counts.matrix
            << " ldmatrix/stmatrix), errors " << counts.errors << "\n";
  // Both paths, and every reason for the enumeration, are met often.
  EXPECT_GT(counts.rank, 2000);
  EXPECT_GT(counts.enumeration, 2000);
  EXPECT_GT(counts.narrow, 500);
  EXPECT_GT(counts.quadMerged, 100);
  EXPECT_GT(counts.matrix, 150);
  EXPECT_GT(counts.errors, 500);
}

// Padded memory (analysis/padding.h): the same cases with 1 or 2 random
// (interval, padding) pairs; both sides enumerate the padded addresses
// (Lemma 9.4 is null), vectors are capped by the padding, and ldmatrix is
// refused where a row would straddle or misalign.
TEST(BankVsRef, RandomPaddedLayoutsEveryAccess) {
  std::mt19937_64 rng(97);
  Counts counts;
  int failures = 0;
  for (int i = 0; i < 200 && failures < 5; ++i) {
    int warpBits = static_cast<int>(rng() % 3), zeroLanes = static_cast<int>(rng() % 3);
    int bits = 5 - zeroLanes + warpBits + static_cast<int>(rng() % 4);
    int rowBits = static_cast<int>(rng() % static_cast<uint64_t>(bits + 1));
    TensorShape t{rowBits, bits - rowBits};
    ref::LinearLayout shared = memoryFor(rng, t);
    const int rows[] = {0, 1, 2, 3};
    int regBits = std::max(0, bits - 5 - warpBits) + static_cast<int>(rng() % 3);
    ref::LinearLayout dist = offsetDistributed(rng, shared, regBits, warpBits, rows[rng() % 4]);
    f2lay::analysis::Padding padding;
    for (uint64_t interval : {uint64_t{1} << rng() % 7, uint64_t{2} << rng() % 7})
      if (padding.empty() || (rng() % 2 && interval != padding[0].interval))
        padding.push_back({interval, uint64_t{1} << rng() % 5});
    opt::LinearLayout od = toOpt(dist), os = toOpt(shared);
    auto widest = [&](uint64_t w) {
      return testkit::attempt([&] { return opt::analysis::widestVectorBytes(od, os, w); })
          .answer.value_or(0);
    };
    for (Access a : accesses(rng, widest)) {
      a.ref.padding = a.opt.padding = padding;
      failures += !compare(dist, shared, a, counts);
    }
  }
  std::cout << counts.compared << " padded compared: rank " << counts.rank << ", enumeration "
            << counts.enumeration << ", errors " << counts.errors << "\n";
  EXPECT_GT(counts.enumeration, 1500);
  EXPECT_GT(counts.errors, 100);
}

// The catalog's cases: the 16x32 transpose on its three maps
// (device_tests/HARDWARE.md#seed-transpose), Gluon's MMA tile on unswizzled
// and swizzled memory, the ldmatrix tiles on rows of pitch 16 and 64, and the
// strided LDS.32 of device_tests/HARDWARE.md#strided-accesses.
TEST(BankVsRef, CatalogCases) {
  std::mt19937_64 rng(96);
  Counts counts;
  std::vector<std::pair<ref::LinearLayout, ref::LinearLayout>> cases;
  for (uint64_t factor = 0; factor < 3; ++factor)
    for (const ref::LinearLayout& d :
         {ref::analysis::seed::storeRowWise(), ref::analysis::seed::readColumnPairs()})
      cases.push_back({d, ref::analysis::seed::rowMajorXor(factor)});
  ref::LinearLayout mma =
      ref::catalog::nvidiaMma({{3, 0}, {4, 1}, {16, 64, 16}, std::nullopt}, {64, 64});
  cases.push_back({mma, ref::catalog::unswizzledShared({1, 0}, {64, 64})});
  for (uint64_t vec : {1, 2, 8})
    cases.push_back(
        {mma, ref::catalog::swizzledShared({vec, 1, 8, {1, 0}, std::nullopt}, {64, 64})});
  auto tileMemory = [](std::vector<Basis> offset) {
    return ref::LinearLayout(
        LayoutValue{{{"offset", offset}}, {{"row", 8}, {"col", 8}, {"matrix", 4}}});
  };
  ref::LinearLayout pitch16 = tileMemory(
      {{0, 1, 0}, {0, 2, 0}, {0, 4, 0}, {1, 0, 0}, {2, 0, 0}, {4, 0, 0}, {0, 0, 1}, {0, 0, 2}});
  ref::LinearLayout pitch64 = tileMemory(
      {{0, 1, 0}, {0, 2, 0}, {0, 4, 0}, {0, 0, 1}, {0, 0, 2}, {1, 0, 0}, {2, 0, 0}, {4, 0, 0}});
  for (bool trans : {false, true})
    for (const ref::LinearLayout& m : {pitch16, pitch64})
      cases.push_back({ref::catalog::ldmatrix({4, trans}), m});
  for (uint64_t stride : {1, 2, 4, 8, 16, 32}) {  // lane l reads word l * stride
    std::vector<Basis> reg, lane;
    for (uint64_t s = 1; s < stride; s *= 2) reg.push_back({s});
    for (uint64_t l = 1; l < 32; l *= 2) lane.push_back({l * stride});
    ref::LinearLayout d(
        LayoutValue{{{"register", reg}, {"lane", lane}, {"warp", {}}}, {{"x", 32 * stride}}});
    cases.push_back({d, ref::LinearLayout::identity1D(32 * stride, "offset", "x")});
  }
  auto anyWidth = [](uint64_t) { return uint64_t{0}; };
  for (const auto& [dist, shared] : cases) {
    for (const Access& a : accesses(rng, anyWidth)) compare(dist, shared, a, counts);
    for (uint64_t w : {1, 2, 4, 8, 16})  // every legal width
      for (uint64_t v = w; v <= 16; v *= 2)
        for (bool load : {true, false}) compare(dist, shared, access(load, w, v, 0), counts);
  }
  EXPECT_GT(counts.rank, 50);
  EXPECT_GT(counts.enumeration, 50);
  EXPECT_GT(counts.matrix, 8);
}

TEST(BankVsRef, Errors) {
  Counts counts;
  ref::LinearLayout read = ref::analysis::seed::readColumnPairs(),
                    shared = ref::analysis::seed::rowMajorXor(2);
  std::vector<Access> bad = {access(true, 3, std::nullopt, 0), access(true, 4, 8, 0),
                             access(true, 4, 12, 0),           access(true, 4, 2, 0),
                             access(true, 4, 32, 0),           access(true, 4, std::nullopt, 1),
                             access(false, 2, 16, 2)};
  for (const Access& a : bad) compare(read, shared, a, counts);
  Access load = access(true, 4, std::nullopt, 0);
  // Memories: two offsets on one element, other out dims, a second CTA.
  ref::LinearLayout twice(LayoutValue{
      {{"offset", {{1, 0}, {1, 0}, {4, 0}, {8, 0}, {16, 0}, {0, 1}, {0, 2}, {0, 4}, {0, 8}}}},
      {{"n", 32}, {"m", 16}}});
  compare(read, twice, load, counts);
  compare(read, ref::catalog::unswizzledShared({1, 0}, {16, 32}), load, counts);
  ref::LinearLayout sharedBlocks(LayoutValue{
      {{"offset", shared.value().in_dims[0].bases}, {"block", {{0, 0}}}}, {{"n", 32}, {"m", 16}}});
  compare(read, sharedBlocks, load, counts);
  ref::LinearLayout noOffset(LayoutValue{{{"block", {}}}, {{"n", 32}, {"m", 16}}});
  compare(read, noOffset, load, counts);
  // Distributed layouts: two CTAs, 16 lanes, an unknown in dim, an extra out
  // dim, a block of size 1 (allowed).
  auto distributed = [](std::vector<Basis> reg, std::vector<Basis> lane, std::vector<Basis> block) {
    return ref::LinearLayout(
        LayoutValue{{{"register", reg}, {"lane", lane}, {"warp", {}}, {"block", block}},
                    {{"n", 32}, {"m", 16}}});
  };
  compare(distributed({{0, 1}, {0, 2}, {0, 4}, {0, 8}}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 0}},
                      {{16, 0}}),
          shared, load, counts);
  compare(
      distributed({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {16, 0}}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}}, {}),
      shared, load, counts);
  compare(
      distributed({{0, 1}, {0, 2}, {0, 4}, {0, 8}}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}}, {}),
      shared, load, counts);
  compare(ref::LinearLayout(LayoutValue{{{"thread", {{1, 0}}}}, {{"n", 32}, {"m", 16}}}), shared,
          load, counts);
  compare(ref::LinearLayout(LayoutValue{{{"lane", {{1}, {2}, {4}, {8}, {16}}}}, {{"n", 32}}}),
          shared, load, counts);
  // Too many offsets / accesses to simulate.
  ref::LinearLayout big = ref::LinearLayout::identity1D(uint64_t{1} << 25, "offset", "x");
  ref::LinearLayout wide(LayoutValue{
      {{"register", {{32},     {64},      {128},     {256},     {512},     {1024},    {2048},
                     {4096},   {8192},    {16384},   {32768},   {65536},   {131072},  {262144},
                     {524288}, {1048576}, {2097152}, {4194304}, {8388608}, {16777216}}},
       {"lane", {{1}, {2}, {4}, {8}, {16}}}},
      {{"x", uint64_t{1} << 25}}});
  compare(wide, big, load, counts);
  // 2^25 accesses (a broadcast register) of 2^24 offsets.
  LayoutValue broadcast = wide.value();
  broadcast.in_dims[0].bases.back() = {0};
  broadcast.out_dims[0].size = uint64_t{1} << 24;
  compare(ref::LinearLayout(broadcast),
          ref::LinearLayout::identity1D(uint64_t{1} << 24, "offset", "x"), load, counts);
  EXPECT_EQ(counts.errors, counts.compared - 1);  // only the block of size 1 answers
}

}  // namespace
}  // namespace f2lay
