// f2lay::opt against f2lay::ref where the op table (ops_vs_ref_test.cpp)
// does not reach: the C++ calls outside it, the conversions' invertAndCompose
// under both releases, and the whole range (64 bits a side) against the
// columns' XOR. The same results and the same errors, word for word, on
// random layouts (fixed seeds). The golden cases and the catalog go through
// both as well, by `f2lay verify --check` (tools/).
#include <gtest/gtest.h>

#include <random>

#include "formats/json_format.h"
#include "optimized/opt_linear_layout.h"
#include "optimized/tests/both.h"
#include "properties/law_support.h"
#include "reference/linear_layout.h"
#include "testkit/columns.h"
#include "testkit/dims.h"
#include "testkit/evaluate.h"
#include "testkit/inputs.h"
#include "testkit/random_layout.h"
#include "testkit/rank.h"

namespace f2lay {
namespace {

using testkit::inDimNames;
using testkit::outDimNames;
using testkit::randomLayout;

// An operation's answer written out (an error is kept by testkit::onBoth).
std::string show(const ref::LinearLayout& l) { return writeJsonLayout(l.value()); }
std::string show(const opt::LinearLayout& l) { return writeJsonLayout(l.value()); }
std::string show(const std::string& s) { return s; }
std::string show(bool b) { return b ? "true" : "false"; }
std::string show(int x) { return std::to_string(x); }
std::string show(uint64_t x) { return std::to_string(x); }
std::string show(const std::vector<std::pair<std::string, uint64_t>>& v) {
  std::string s;
  for (const auto& [name, x] : v) s += name + "=" + std::to_string(x) + " ";
  return s;
}
std::string show(const std::vector<std::vector<int>>& m) {
  std::string s;
  for (const auto& row : m) {
    for (int x : row) s += static_cast<char>('0' + x);
    s += "/";
  }
  return s;
}
template <class L>
std::string show(const std::optional<L>& l) {
  return l ? show(*l) : "null";
}

// Runs op on both implementations, each built from the same values.
template <class Op>
void expectSame(const Op& op, const std::vector<LayoutValue>& args, const std::string& what) {
  auto both = testkit::onBoth([&]<class L>() {
    std::vector<L> ls;
    for (const LayoutValue& v : args) ls.emplace_back(v);
    return show(op(ls));
  });
  ASSERT_EQ(both.opt, both.ref) << what << " of\n"
                                << [&] {
                                     std::string s;
                                     for (const LayoutValue& v : args)
                                       s += writeJsonLayout(v) + "\n";
                                     return s;
                                   }();
}

const std::vector<std::string> kDims = {"register", "lane", "warp", "block"};
const std::vector<std::string> kOuts = {"dim0", "dim1", "dim2"};

// A random subset of names in random order (possibly empty).
std::vector<std::string> someOf(std::mt19937_64& rng, std::vector<std::string> names) {
  std::shuffle(names.begin(), names.end(), rng);
  names.resize(rng() % (names.size() + 1));
  return names;
}

constexpr int kTrials = 400;
// invertAndCompose and the inverses follow either release's rules.
constexpr TritonVersion kReleases[] = {TritonVersion::k3_6, TritonVersion::k3_9};

// The op table's ops (every one both answer) are compared on drawn requests
// by ops_vs_ref_test.cpp. Here, the C++ calls the table does not make: rank,
// toString, and one object passed as both operands (the fuzzer found both
// implementations telling the factors of L * L apart by address).
TEST(OptVsRef, CallsOutsideTheOpTable) {
  std::mt19937_64 rng(11);
  for (int t = 0; t < kTrials; ++t) {
    int maxBits = 1 + static_cast<int>(rng() % 10);
    LayoutValue v = randomLayout(rng, someOf(rng, kDims), someOf(rng, kOuts), maxBits);
    expectSame([](auto& l) { return l[0].rank(); }, {v}, "rank");
    expectSame([](auto& l) { return l[0].toString(); }, {v}, "toString");
    expectSame([](auto& l) { return l[0] * l[0]; }, {v}, "product self");
    expectSame([](auto& l) { return l[0] == l[0]; }, {v}, "equal self");
    expectSame([](auto& l) { return divideLeft(l[0] * l[0], l[0]); }, {v}, "divideLeft self");
    for (TritonVersion r : kReleases)
      expectSame([r](auto& l) { return l[0].invertAndCompose(l[0], r); }, {v},
                 "invertAndCompose self");
  }
}

TEST(OptVsRef, InvertAndComposeOfConversions) {
  // Distributed layouts over one tensor, the §5.4 use: B^-1 A both ways.
  std::mt19937_64 rng(13);
  for (int t = 0; t < kTrials; ++t) {
    LayoutValue a = randomLayout(rng, kDims, {"dim0", "dim1"}, 5);
    LayoutValue b = randomLayout(rng, kDims, {"dim1", "dim0"}, 5);
    if (rng() % 3 == 0) b.in_dims[2] = a.in_dims[2];  // a shared warp dim
    for (TritonVersion r : kReleases)
      expectSame([r](auto& l) { return l[0].invertAndCompose(l[1], r); }, {a, b},
                 "invertAndCompose");
  }
}

TEST(OptVsRef, LimitsAndLargeLayouts) {
  std::mt19937_64 rng(14);
  for (int t = 0; t < 100; ++t) {
    // Up to 64 bits a side.
    LayoutValue a = randomLayout(rng, {"a", "b", "c", "d"}, {"x", "y", "z", "w"}, 16);
    LayoutValue b = randomLayout(rng, {"a", "b", "c", "d"}, {"u", "v"}, 16);
    expectSame([](auto& l) { return l[0] * l[1]; }, {a, b}, "product (limits)");
    expectSame([](auto& l) { return l[0].concatOuts(l[1]); }, {a, b}, "concatOuts (limits)");
    expectSame([](auto& l) { return l[0].pseudoinvert(); }, {a}, "pseudoinvert");
    expectSame([](auto& l) { return l[0].rank(); }, {a}, "rank");
    expectSame([](auto& l) { return l[0].flattenIns(); }, {a}, "flattenIns");
  }
}

// The whole range (README: 64 input and 64 output bits). Expected values
// come from the plain values' columns by XOR (testkit/evaluate.h), at 0,
// every unit vector, the top bits and random inputs.

using Side = testkit::DimBits;
using testkit::applyColumns;
using testkit::columnsOf;
using testkit::totalBits;

// `total` bits over `names` (at most 63 bits a dim; 64 needs two names).
Side split(std::mt19937_64& rng, int total, const std::vector<std::string>& names) {
  return testkit::spreadBits(total, names,
                             [&](int most) { return static_cast<int>(rng() % (most + 1)); });
}

// Random columns from `ins` onto `outs`, every third an XOR of two earlier
// ones; with `fullRank`, min(in, out) of them (shuffled among the rest) are
// unit vectors over lower bits, triangular, so the rank is min(in, out).
LayoutValue wideLayout(std::mt19937_64& rng, const Side& ins, const Side& outs, bool fullRank) {
  int in = totalBits(ins), out = totalBits(outs), full = fullRank ? std::min(in, out) : 0;
  std::vector<uint64_t> cols;
  for (int j = 0; j < in; ++j)
    cols.push_back(j < full                   ? uint64_t{1} << j | (rng() & testkit::lowBits(j))
                   : j >= 2 && rng() % 3 == 0 ? cols[rng() % j] ^ cols[rng() % j]
                                              : rng() & testkit::lowBits(out));
  std::shuffle(cols.begin(), cols.end(), rng);
  return testkit::layoutOf(ins, outs, cols);
}

// expectSame, then `law` ("" or how it fails) on opt's result (equal to
// ref's once expectSame holds). The arguments meet op's preconditions by
// construction, so an error fails too.
template <class Op, class Law>
void expectLaw(const Op& op, const std::vector<LayoutValue>& args, const Law& law,
               const std::string& what) {
  expectSame(op, args, what);
  std::string why = testkit::outcome([&] {
    std::vector<opt::LinearLayout> ls;
    for (const LayoutValue& v : args) ls.emplace_back(v);
    return std::string(law(op(ls).value()));
  });
  EXPECT_EQ(why, "") << what << " of " << writeJsonLayout(args[0]);
}

// The boundaries first, then random totals.
int total(std::mt19937_64& rng, int t, int most) {
  const int edges[] = {0, 1, 32, 63, 64};
  return std::min(most, t < 5 ? edges[t] : static_cast<int>(rng() % (most + 1)));
}

TEST(OptVsRef, WholeRangeEveryOp) {
  // The 1-D constructors at 2^63: identity1D's columns are the unit vectors.
  auto identity = [](auto& l) {
    return std::decay_t<decltype(l[0])>::identity1D(uint64_t{1} << 63, "lane", "dim0");
  };
  expectLaw(
      identity, {LayoutValue{}},
      [](const LayoutValue& v) {
        auto cols = columnsOf(v);
        for (size_t j = 0; j < cols.size(); ++j)
          if (cols[j] != uint64_t{1} << j) return "column " + std::to_string(j);
        return cols.size() == 63 ? "" : std::string("not 63 columns");
      },
      "identity1D");
  expectSame(
      [](auto& l) {
        return std::decay_t<decltype(l[0])>::zeros1D(uint64_t{1} << 63, "lane", "dim0",
                                                     uint64_t{1} << 40);
      },
      {LayoutValue{}}, "zeros1D");
  expectSame(
      [](auto& l) {
        return std::decay_t<decltype(l[0])>::strided1D(uint64_t{1} << 32, uint64_t{1} << 31, "lane",
                                                       "dim0");
      },
      {LayoutValue{}}, "strided1D");
  std::mt19937_64 rng(15);
  const std::vector<std::string> hw = {"register", "lane", "warp", "block"},
                                 tensor = {"dim0", "dim1", "dim2"};
  for (int t = 0; t < 40; ++t) {
    Side outs = split(rng, total(rng, t, 64), tensor);
    int out = totalBits(outs), in = total(rng, (t + 2) % 40, 64);
    LayoutValue a = wideLayout(rng, split(rng, in, hw), outs, t % 2);
    auto ca = columnsOf(a);
    auto inputs = testkit::inputsToCheck(in, t), outputs = testkit::inputsToCheck(out, t);
    SCOPED_TRACE("trial " + std::to_string(t) + ": " + writeJsonLayout(a));

    // Def 4.1: apply is the XOR of the columns of x's set bits.
    for (uint64_t x : inputs) {
      ASSERT_EQ(properties::applyFlat(ref::LinearLayout(a), x), applyColumns(ca, x));
      ASSERT_EQ(properties::applyFlat(opt::LinearLayout(a), x), applyColumns(ca, x));
    }
    // The rank and what it decides, against the test side's elimination.
    int r = testkit::rankOf(ca);
    EXPECT_EQ(opt::LinearLayout(a).rank(), r);
    EXPECT_EQ(ref::LinearLayout(a).rank(), r);
    expectSame([](auto& l) { return l[0].isInjective(); }, {a}, "isInjective");
    expectSame([](auto& l) { return l[0].isSurjective(); }, {a}, "isSurjective");
    expectSame([](auto& l) { return l[0].isInvertible(); }, {a}, "isInvertible");
    EXPECT_EQ(opt::LinearLayout(a).isInjective(), r == in);
    EXPECT_EQ(opt::LinearLayout(a).isSurjective(), r == out);
    // getMatrixView: entry (row r, column c) is output bit r of column c.
    expectSame([](auto& l) { return l[0].getMatrixView(); }, {a}, "getMatrixView");
    auto m = opt::LinearLayout(a).getMatrixView();
    for (int row = 0; row < out; ++row)
      for (int c = 0; c < in; ++c) ASSERT_EQ(m[row][c], static_cast<int>(ca[c] >> row & 1));
    // Flattening keeps the columns.
    auto sameColumns = [&](const LayoutValue& v) {
      return columnsOf(v) == ca ? "" : std::string("the columns changed");
    };
    expectSame([](auto& l) { return l[0].flattenIns(); }, {a}, "flattenIns");  // refused at 64 bits
    expectSame([](auto& l) { return l[0].flattenOuts(); }, {a}, "flattenOuts");
    if (in < 64)
      expectLaw([](auto& l) { return l[0].flattenIns(); }, {a}, sameColumns, "flattenIns");
    if (out < 64)
      expectLaw([](auto& l) { return l[0].flattenOuts(); }, {a}, sameColumns, "flattenOuts");
    expectLaw(
        [&](auto& l) {
          return l[0].reshapeIns(
              {{"x", uint64_t{1} << in / 2}, {"y", uint64_t{1} << (in - in / 2)}});
        },
        {a}, sameColumns, "reshapeIns");
    expectLaw(
        [&](auto& l) {
          return l[0].reshapeOuts(
              {{"x", uint64_t{1} << out / 2}, {"y", uint64_t{1} << (out - out / 2)}});
        },
        {a}, sameColumns, "reshapeOuts");
    std::vector<std::string> ins = inDimNames(a), outNamesA = outDimNames(a);
    std::reverse(ins.begin(), ins.end());
    std::reverse(outNamesA.begin(), outNamesA.end());
    expectSame([&](auto& l) { return l[0].transposeIns(ins); }, {a}, "transposeIns");
    expectSame([&](auto& l) { return l[0].transposeOuts(outNamesA); }, {a}, "transposeOuts");
    std::vector<std::string> keptIns = someOf(rng, ins), keptOuts = someOf(rng, outNamesA);
    expectSame([&](auto& l) { return l[0].sublayout(keptIns, keptOuts); }, {a}, "sublayout");
    expectSame([](auto& l) { return l[0].getFreeVariableMasks(); }, {a}, "getFreeVariableMasks");
    expectSame([](auto& l) { return l[0].getNumConsecutiveInOut(); }, {a},
               "getNumConsecutiveInOut");
    expectSame([](auto& l) { return l[0].toString(); }, {a}, "toString");

    // Def 4.2: (a.compose(b))(x) = b(a(x)); b's in dims are a's out dims.
    LayoutValue b = wideLayout(rng, outs, split(rng, total(rng, t + 1, 64), {"o0", "o1"}), t % 3);
    auto cb = columnsOf(b);
    expectLaw([](auto& l) { return l[0].compose(l[1]); }, {a, b},
              [&](const LayoutValue& ab) {
                auto c = columnsOf(ab);
                for (uint64_t x : inputs)
                  if (applyColumns(c, x) != applyColumns(cb, applyColumns(ca, x)))
                    return "at x=" + std::to_string(x);
                return std::string();
              },
              "compose");
    // §5.4: C = a.invertAndCompose(outer) solves outer(C(x)) = a(x), outer
    // surjective onto a's out dims.
    LayoutValue outer =
        wideLayout(rng, split(rng, out + static_cast<int>(rng() % (65 - out)), hw), outs, true);
    auto co = columnsOf(outer);
    for (TritonVersion release : kReleases)
      expectLaw([release](auto& l) { return l[0].invertAndCompose(l[1], release); }, {a, outer},
                [&](const LayoutValue& c) {
                  auto cc = columnsOf(c);
                  for (uint64_t x : inputs)
                    if (applyColumns(co, applyColumns(cc, x)) != applyColumns(ca, x))
                      return "at x=" + std::to_string(x);
                  return std::string();
                },
                "invertAndCompose");
    // Def 4.5: L(P(y)) = y for the surjective outer, and L^-1(L(x)) = x for
    // an invertible one.
    expectLaw([](auto& l) { return l[0].pseudoinvert(); }, {outer},
              [&](const LayoutValue& p) {
                auto cp = columnsOf(p);
                for (uint64_t y : outputs)
                  if (applyColumns(co, applyColumns(cp, y)) != y)
                    return "at y=" + std::to_string(y);
                return std::string();
              },
              "pseudoinvert");
    LayoutValue square = wideLayout(rng, split(rng, out, hw), outs, true);
    auto cs = columnsOf(square);
    for (TritonVersion release : kReleases)
      expectLaw([release](auto& l) { return l[0].invert(release); }, {square},
                [&](const LayoutValue& inv) {
                  auto ci = columnsOf(inv);
                  for (uint64_t x : outputs)
                    if (applyColumns(ci, applyColumns(cs, x)) != x)
                      return "at x=" + std::to_string(x);
                  return std::string();
                },
                "invert");

    // Def 4.3: with dims of their own, the product's columns are a's, then
    // d's shifted past a's output bits; it divides back by a (Def 4.4).
    LayoutValue d = wideLayout(rng, split(rng, total(rng, t + 3, 64 - in), {"p", "q"}),
                               split(rng, total(rng, t + 4, 64 - out), {"u", "v"}), t % 2);
    expectLaw([](auto& l) { return l[0] * l[1]; }, {a, d},
              [&](const LayoutValue& p) {
                auto want = ca;
                for (uint64_t c : columnsOf(d)) want.push_back(out < 64 ? c << out : 0);
                return columnsOf(p) == want ? "" : std::string("not a's columns, then d's shifted");
              },
              "product");
    expectSame([](auto& l) { return divideLeft(l[0] * l[1], l[0]); }, {a, d}, "divideLeft");
    expectSame([](auto& l) { return divideLeft(l[0], l[1]); }, {a, d}, "divideLeft");
    // Shared dims, where the factors' bits interleave; and the concatenations.
    LayoutValue e = wideLayout(rng, split(rng, total(rng, t, 64 - in), hw),
                               split(rng, total(rng, t + 1, 64 - out), tensor), t % 2);
    expectSame([](auto& l) { return l[0] * l[1]; }, {a, e}, "product (shared dims)");
    expectSame([](auto& l) { return divideLeft(l[0] * l[1], l[0]); }, {a, e},
               "divideLeft (shared dims)");
    expectSame([](auto& l) { return l[0].concatIns(l[1]); }, {a, d}, "concatIns");
    expectSame([](auto& l) { return l[0].concatOuts(l[1]); }, {a, d}, "concatOuts");
    expectSame([](auto& l) { return l[0] == l[1]; }, {a, a}, "equal");
  }
}

}  // namespace
}  // namespace f2lay
