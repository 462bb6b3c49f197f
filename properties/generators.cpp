#include "properties/generators.h"

#include <algorithm>
#include <numeric>
#include <random>

#include "testkit/dims.h"
#include "testkit/rank.h"

namespace f2lay::properties {

namespace {

const char* const kInNames[] = {"register", "lane", "warp", "block"};

std::string outName(size_t i) { return "dim" + std::to_string(i); }

// Full-range values: RapidCheck scales integer ranges by the size, so that
// early cases would only use low bits.
rc::Gen<uint64_t> genBits(int bits) {
  return rc::gen::resize(100, rc::gen::inRange<uint64_t>(0, uint64_t{1} << bits));
}

// Independent columns stay; a dependent one is replaced by the lowest unit
// vector outside the span while the rank is short of `outBits`. The span is
// the test side's own (testkit/rank.h), not the elimination of the code under
// test.
void repairRank(std::vector<uint64_t>& cols, int outBits) {
  testkit::Span basis;
  for (size_t j = 0; j < cols.size(); ++j) {
    if (basis.insert(cols[j])) continue;
    for (int k = 0; k < outBits && basis.rank < outBits; ++k)
      if (basis.insert(uint64_t{1} << k)) {
        cols[j] = uint64_t{1} << k;
        break;
      }
  }
}

// A side's total for genWideLayout, in [lo, hi]: a third of the time the top
// (63 or 64, where a lost high bit shows), a third a low boundary (0, 1, 32),
// else any count.
int genTotal(int lo, int hi) {
  std::vector<int> top, low;
  for (int t : {63, 64})
    if (t >= lo && t <= hi) top.push_back(t);
  for (int t : {0, 1, 32})
    if (t >= lo && t <= hi) low.push_back(t);
  int pick = *rc::gen::inRange(0, 3);
  if (pick == 0 && !top.empty()) return *rc::gen::elementOf(top);
  if (pick == 1 && !low.empty()) return *rc::gen::elementOf(low);
  return *rc::gen::inRange(lo, hi + 1);
}

// `total` bits over 1-4 dims named by `name`, each at most 63 bits.
testkit::DimBits splitBits(int total, std::string (*name)(size_t)) {
  std::vector<std::string> names;
  for (int k = 0, n = *rc::gen::inRange(total > 63 ? 2 : 1, 5); k < n; ++k)
    names.push_back(name(k));
  return testkit::spreadBits(total, names, [](int most) { return *rc::gen::inRange(0, most + 1); });
}

std::string inName(size_t k) { return kInNames[k]; }

rc::Gen<LayoutValue> genOfRank(const Dims& dims, int rank) {
  return rc::gen::map(rc::gen::arbitrary<uint64_t>(), [dims, rank](uint64_t seed) {
    return layoutOf(dims, columnsOfRank(dims.inBits(), dims.outBits(), rank, seed));
  });
}

int genAnyRank(const Dims& dims) {
  int most = std::min(dims.inBits(), dims.outBits());
  return *rc::gen::inRange(0, 2) ? most : *rc::gen::inRange(0, most + 1);
}

}  // namespace

std::vector<uint64_t> columnsOfRank(int inBits, int outBits, int rank, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int> at(inBits), to(outBits);
  std::iota(at.begin(), at.end(), 0);
  std::iota(to.begin(), to.end(), 0);
  std::shuffle(at.begin(), at.end(), rng);
  std::shuffle(to.begin(), to.end(), rng);
  std::vector<uint64_t> cols(inBits, 0);
  for (int i = 0; i < rank; ++i) cols[at[i]] = uint64_t{1} << to[i];
  for (int n = 0; n < 2 * (inBits + outBits); ++n) {
    if (rng() % 2 && inBits >= 2) {
      size_t j = rng() % inBits, k = rng() % inBits;
      if (j != k) cols[j] ^= cols[k];
    } else if (outBits >= 2) {
      int s = static_cast<int>(rng() % outBits), t = static_cast<int>(rng() % outBits);
      if (s != t)
        for (uint64_t& c : cols) c ^= (c >> s & 1) << t;
    }
  }
  return cols;
}

rc::Gen<LayoutValue> genWideLayout(RankKind kind, int maxIn, int maxOut) {
  return rc::gen::resize(
      100, rc::gen::exec([kind, maxIn, maxOut] {
        bool atMost = kind == RankKind::kInjective || kind == RankKind::kInvertible;
        bool atLeast = kind == RankKind::kSurjective || kind == RankKind::kInvertible;
        int out = genTotal(0, atLeast ? std::min(maxIn, maxOut) : maxOut);
        int in = kind == RankKind::kInvertible ? out
                 : atMost                      ? genTotal(0, std::min(out, maxIn))
                 : atLeast                     ? genTotal(out, maxIn)
                                               : genTotal(0, maxIn);
        Dims dims{splitBits(in, inName), splitBits(out, outName)};
        return *genOfRank(dims, kind == RankKind::kAny ? genAnyRank(dims) : std::min(in, out));
      }));
}

rc::Gen<LayoutValue> genWideLayoutFrom(const std::vector<std::pair<std::string, int>>& ins) {
  return rc::gen::resize(100, rc::gen::exec([ins] {
                           Dims dims{ins, splitBits(genTotal(0, 64), outName)};
                           return *genOfRank(dims, genAnyRank(dims));
                         }));
}

rc::Gen<LayoutValue> genWideSurjectionOnto(const std::vector<std::pair<std::string, int>>& outs) {
  return rc::gen::resize(100, rc::gen::exec([outs] {
                           Dims dims{{}, outs};
                           dims.ins = splitBits(genTotal(dims.outBits(), 64), inName);
                           return *genOfRank(dims, dims.outBits());
                         }));
}

rc::Gen<LayoutValue> genWithDependentColumn(const LayoutValue& injective) {
  return rc::gen::exec([injective] {
    std::vector<uint64_t> cols = columnsOf(injective);
    size_t j = *rc::gen::inRange<size_t>(0, cols.size());
    uint64_t combination = 0;
    for (size_t k = 0; k < cols.size(); ++k)
      if (k != j && *rc::gen::inRange(0, 2)) combination ^= cols[k];
    cols[j] = combination;
    return layoutOf(dimsOf(injective), cols);
  });
}

int Dims::inBits() const { return testkit::totalBits(ins); }

int Dims::outBits() const { return testkit::totalBits(outs); }

Dims dimsOf(const LayoutValue& l) { return {testkit::inDimBits(l), testkit::outDimBits(l)}; }

LayoutValue layoutOf(const Dims& dims, const std::vector<uint64_t>& cols) {
  return testkit::layoutOf(dims.ins, dims.outs, cols);
}

rc::Gen<LayoutValue> genLayoutFrom(const std::vector<std::pair<std::string, int>>& ins) {
  return rc::gen::exec([ins] {
    std::vector<std::pair<std::string, int>> outs;
    int nOut = *rc::gen::inRange(1, 4);
    for (int k = 0; k < nOut; ++k) outs.push_back({outName(k), *rc::gen::inRange(0, 4)});
    return *genLayoutOnto(ins, outs);
  });
}

rc::Gen<LayoutValue> genLayoutOnto(const std::vector<std::pair<std::string, int>>& ins,
                                   const std::vector<std::pair<std::string, int>>& outs) {
  return rc::gen::exec([ins, outs] {
    Dims dims{ins, outs};
    std::vector<uint64_t> cols;
    for (int j = 0; j < dims.inBits(); ++j) cols.push_back(*genBits(dims.outBits()));
    return layoutOf(dims, cols);
  });
}

rc::Gen<LayoutValue> genLayout(RankKind kind) {
  return rc::gen::exec([kind] {
    Dims dims;
    int nOut = *rc::gen::inRange(1, 4), nIn = *rc::gen::inRange(1, 5);
    for (int k = 0; k < nOut; ++k) dims.outs.push_back({outName(k), *rc::gen::inRange(0, 4)});
    for (int k = 0; k < nIn; ++k) dims.ins.push_back({kInNames[k], *rc::gen::inRange(0, 4)});
    // The bit counts the rank asks for: trim the last in dims, or grow the
    // first.
    int out = dims.outBits();
    bool atMost = kind == RankKind::kInjective || kind == RankKind::kInvertible;
    bool atLeast = kind == RankKind::kSurjective || kind == RankKind::kInvertible;
    for (int k = nIn - 1; atMost && k >= 0 && dims.inBits() > out; --k)
      dims.ins[k].second -= std::min(dims.ins[k].second, dims.inBits() - out);
    if (atLeast && dims.inBits() < out) dims.ins[0].second += out - dims.inBits();
    std::vector<uint64_t> cols;
    for (int j = 0; j < dims.inBits(); ++j) cols.push_back(*genBits(out));
    if (kind != RankKind::kAny) repairRank(cols, out);
    return layoutOf(dims, cols);
  });
}

DistributedShape makeDistributedShape(Choices& c, bool allow64Lanes) {
  DistributedShape s;
  int rank = c.inRange(1, 4);
  for (int k = 0; k < rank; ++k) s.tensorBits.push_back(c.inRange(0, 4));
  s.laneBits = allow64Lanes && c.inRange(0, 4) == 0 ? 6 : 5;
  s.warpBits = c.inRange(0, 3);
  s.blockBits = c.inRange(0, 2);
  return s;
}

LayoutValue makeDistributed(Choices& c, const DistributedShape& shape) {
  Dims dims;
  for (size_t k = 0; k < shape.tensorBits.size(); ++k)
    dims.outs.push_back({outName(k), shape.tensorBits[k]});
  int t = dims.outBits();
  int fixed = shape.laneBits + shape.warpBits + shape.blockBits;
  int registers = std::max(c.inRange(0, 4), t - fixed);
  dims.ins = {{"register", registers},
              {"lane", shape.laneBits},
              {"warp", shape.warpBits},
              {"block", shape.blockBits}};
  // Tensor bit k goes to the free column picked among those left, so the
  // smallest choice fills the registers first.
  std::vector<uint64_t> cols(dims.inBits(), 0);
  std::vector<int> free(cols.size());
  for (size_t j = 0; j < free.size(); ++j) free[j] = static_cast<int>(j);
  for (int k = 0; k < t; ++k) {
    size_t pick = c.inRange(0, static_cast<int>(free.size()));
    cols[free[pick]] = uint64_t{1} << k;
    free.erase(free.begin() + static_cast<long>(pick));
  }
  return layoutOf(dims, cols);
}

rc::Gen<DistributedShape> genDistributedShape(bool allow64Lanes) {
  return rc::gen::exec([allow64Lanes] {
    RcChoices c;
    return makeDistributedShape(c, allow64Lanes);
  });
}

rc::Gen<LayoutValue> genDistributed(const DistributedShape& shape) {
  return rc::gen::exec([shape] {
    RcChoices c;
    return makeDistributed(c, shape);
  });
}

rc::Gen<LayoutValue> genDistributed(bool allow64Lanes) {
  return rc::gen::mapcat(genDistributedShape(allow64Lanes),
                         [](const DistributedShape& s) { return genDistributed(s); });
}

LayoutValue makeMemory(Choices& c, const std::vector<int>& tensorBits,
                       const std::vector<int>& first) {
  Dims dims;
  for (size_t k = 0; k < tensorBits.size(); ++k) dims.outs.push_back({outName(k), tensorBits[k]});
  int t = dims.outBits();
  dims.ins = {{"offset", t}};
  // Triangular in an order of the tensor bits (so invertible): `first`, then
  // the others in a random order; then the columns past `first` reordered:
  // still invertible, still one or two bits each.
  std::vector<int> left, order = first;
  for (int k = 0; k < t; ++k)
    if (std::find(first.begin(), first.end(), k) == first.end()) left.push_back(k);
  while (!left.empty()) {
    size_t pick = c.inRange(0, static_cast<int>(left.size()));
    order.push_back(left[pick]);
    left.erase(left.begin() + static_cast<long>(pick));
  }
  int fixed = static_cast<int>(first.size());
  std::vector<uint64_t> cols;
  for (int i = 0; i < t; ++i) {
    uint64_t col = uint64_t{1} << order[i];
    if (i > 0 && i >= fixed && c.inRange(0, 2)) col |= uint64_t{1} << order[c.inRange(0, i)];
    cols.push_back(col);
  }
  for (int i = t - 1; i > fixed; --i) std::swap(cols[i], cols[c.inRange(fixed, i + 1)]);
  return layoutOf(dims, cols);
}

rc::Gen<LayoutValue> genMemory(const std::vector<int>& tensorBits) {
  return rc::gen::exec([tensorBits] {
    RcChoices c;
    return makeMemory(c, tensorBits);
  });
}

rc::Gen<LayoutValue> genMemory() {
  return rc::gen::exec([] {
    int rank = *rc::gen::inRange(1, 4);
    std::vector<int> bits;
    for (int k = 0; k < rank; ++k) bits.push_back(*rc::gen::inRange(0, 5));
    return *genMemory(bits);
  });
}

}  // namespace f2lay::properties
