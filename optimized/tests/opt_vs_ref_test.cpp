// f2lay::opt against f2lay::ref, operation by operation: the same results
// and the same errors, word for word, on random layouts (fixed seeds) that
// reach every precondition. The golden cases and the catalog go through
// both as well, by `f2lay verify --check` (tools/).
#include <gtest/gtest.h>

#include <random>

#include "json_format.h"
#include "linear_layout.h"
#include "opt_linear_layout.h"
#include "naive.h"

namespace f2lay {
namespace {

// What an operation gave: its result written out, or its error message.
struct Outcome {
  bool ok;
  std::string text;
  bool operator==(const Outcome&) const = default;
};
std::ostream& operator<<(std::ostream& os, const Outcome& o) {
  return os << (o.ok ? "result " : "error ") << o.text;
}

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
  auto run = [&]<class L>(const L*) -> Outcome {
    try {
      std::vector<L> ls;
      for (const LayoutValue& v : args) ls.emplace_back(v);
      return {true, show(op(ls))};
    } catch (const Error& e) {
      return {false, e.what()};
    }
  };
  Outcome r = run(static_cast<const ref::LinearLayout*>(nullptr));
  Outcome o = run(static_cast<const opt::LinearLayout*>(nullptr));
  ASSERT_EQ(o, r) << what << " of\n" << [&] {
    std::string s;
    for (const LayoutValue& v : args) s += writeJsonLayout(v) + "\n";
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

LayoutValue random(std::mt19937_64& rng, const std::vector<std::string>& ins,
                   const std::vector<std::string>& outs, int maxBits) {
  return naive::randomLayout(rng, ins, outs, maxBits);
}

// Out dims of a with its in dims; used to chain layouts (compose).
std::vector<std::string> outNames(const LayoutValue& v) {
  std::vector<std::string> n;
  for (const OutDim& d : v.out_dims) n.push_back(d.name);
  return n;
}
std::vector<std::string> inNames(const LayoutValue& v) {
  std::vector<std::string> n;
  for (const InDim& d : v.in_dims) n.push_back(d.name);
  return n;
}

constexpr int kTrials = 400;
// invertAndCompose and the inverses follow either release's rules.
constexpr TritonVersion kReleases[] = {TritonVersion::k3_6, TritonVersion::k3_9};

TEST(OptVsRef, UnaryOperations) {
  std::mt19937_64 rng(11);
  for (int t = 0; t < kTrials; ++t) {
    int maxBits = 1 + static_cast<int>(rng() % 10);
    LayoutValue v = random(rng, someOf(rng, kDims), someOf(rng, kOuts), maxBits);
    auto one = [&](auto op, const char* what) { expectSame(op, {v}, what); };
    one([](auto& l) { return l[0].rank(); }, "rank");
    one([](auto& l) { return l[0].isInjective(); }, "isInjective");
    one([](auto& l) { return l[0].isSurjective(); }, "isSurjective");
    one([](auto& l) { return l[0].isInvertible(); }, "isInvertible");
    for (TritonVersion r : kReleases) {
      one([r](auto& l) { return l[0].invert(r); }, "invert");
      one([r](auto& l) { return l[0].pseudoinvert(r); }, "pseudoinvert");
    }
    one([](auto& l) { return l[0].getFreeVariableMasks(); }, "getFreeVariableMasks");
    one([](auto& l) { return l[0].getNumConsecutiveInOut(); }, "getNumConsecutiveInOut");
    one([](auto& l) { return l[0].getMatrixView(); }, "getMatrixView");
    one([](auto& l) { return l[0].flattenIns(); }, "flattenIns");
    one([](auto& l) { return l[0].flattenOuts(); }, "flattenOuts");
    one([](auto& l) { return l[0].toString(); }, "toString");
    std::vector<std::string> ins = someOf(rng, inNames(v)), outs = someOf(rng, outNames(v));
    if (rng() % 5 == 0) ins.push_back("nope");
    one([&](auto& l) { return l[0].sublayout(ins, outs); }, "sublayout");
    std::vector<std::string> permutedIns = inNames(v), permutedOuts = outNames(v);
    std::shuffle(permutedIns.begin(), permutedIns.end(), rng);
    std::shuffle(permutedOuts.begin(), permutedOuts.end(), rng);
    if (rng() % 6 == 0 && !permutedIns.empty()) permutedIns.pop_back();
    one([&](auto& l) { return l[0].transposeIns(permutedIns); }, "transposeIns");
    one([&](auto& l) { return l[0].transposeOuts(permutedOuts); }, "transposeOuts");
    int inBits = naive::inBits(v), outBits = naive::outBits(v);
    int cut = inBits ? static_cast<int>(rng() % (inBits + 1)) : 0;
    ref::DimSizes reshaped = {{"a", uint64_t{1} << cut}, {"b", uint64_t{1} << (inBits - cut)}};
    if (rng() % 6 == 0) reshaped[1].second *= 2;
    if (rng() % 10 == 0) reshaped[0].first = "b";
    one([&](auto& l) { return l[0].reshapeIns(reshaped); }, "reshapeIns");
    cut = outBits ? static_cast<int>(rng() % (outBits + 1)) : 0;
    ref::DimSizes reshapedOuts = {{"x", uint64_t{1} << (outBits - cut)}, {"y", uint64_t{1} << cut}};
    if (rng() % 10 == 0) reshapedOuts[0].second = 3;
    one([&](auto& l) { return l[0].reshapeOuts(reshapedOuts); }, "reshapeOuts");
    // apply at a random input, sometimes with a bad dim or value.
    ref::DimValues input;
    for (const InDim& d : v.in_dims) input.push_back({d.name, rng() & ((uint64_t{1} << d.bases.size()) - 1)});
    if (rng() % 8 == 0) input.push_back({"nope", 0});
    if (rng() % 8 == 0 && !input.empty()) input.pop_back();
    if (rng() % 8 == 0 && !input.empty()) input[0].second = ~uint64_t{0};
    one([&](auto& l) { return l[0].apply(input); }, "apply");
  }
}

TEST(OptVsRef, BinaryOperations) {
  std::mt19937_64 rng(12);
  for (int t = 0; t < kTrials; ++t) {
    int maxBits = 1 + static_cast<int>(rng() % 8);
    LayoutValue a = random(rng, someOf(rng, kDims), someOf(rng, kOuts), maxBits);
    // compose: b's in dims are a's out dims (in another order), sometimes not.
    std::vector<std::string> mid = outNames(a);
    std::shuffle(mid.begin(), mid.end(), rng);
    if (rng() % 8 == 0) mid = someOf(rng, kOuts);
    LayoutValue b = random(rng, mid, someOf(rng, {"o0", "o1"}), maxBits);
    expectSame([](auto& l) { return l[0].compose(l[1]); }, {a, b}, "compose");
    // invertAndCompose: the same out dims; sharing in dims so that the
    // broadcasting heuristic has dims to set aside.
    LayoutValue c = random(rng, someOf(rng, kDims), outNames(a), maxBits);
    if (rng() % 2 && !a.in_dims.empty()) {
      c.in_dims.erase(std::remove_if(c.in_dims.begin(), c.in_dims.end(),
                                     [&](const InDim& d) { return d.name == a.in_dims[0].name; }),
                      c.in_dims.end());
      c.in_dims.insert(c.in_dims.begin(), a.in_dims[0]);
      for (OutDim& o : c.out_dims) o = a.out_dims[&o - c.out_dims.data()];
    }
    std::shuffle(c.out_dims.begin(), c.out_dims.end(), rng);  // names only; bases reread below
    c = random(rng, inNames(c), outNames(c), maxBits);
    for (TritonVersion r : kReleases) {
      expectSame([r](auto& l) { return l[0].invertAndCompose(l[1], r); }, {a, c}, "invertAndCompose");
      expectSame([r](auto& l) { return l[1].invertAndCompose(l[0], r); }, {a, c}, "invertAndCompose");
      expectSame([r](auto& l) { return l[0].invertAndCompose(l[0], r); }, {a}, "invertAndCompose self");
    }
    LayoutValue d = random(rng, someOf(rng, kDims), someOf(rng, kOuts), maxBits);
    expectSame([](auto& l) { return l[0] * l[1]; }, {a, d}, "product");
    // One object as both factors (the fuzzer found both implementations
    // telling the factors apart by address).
    expectSame([](auto& l) { return l[0] * l[0]; }, {a}, "product self");
    expectSame([](auto& l) { return l[0] == l[1]; }, {a, d}, "equal");
    expectSame([](auto& l) { return l[0] == l[1]; }, {a, a}, "equal");
    expectSame([](auto& l) { return l[0].concatIns(l[1]); }, {a, d}, "concatIns");
    expectSame([](auto& l) { return l[0].concatOuts(l[1]); }, {a, d}, "concatOuts");
    expectSame([](auto& l) { return divideLeft(l[0], l[1]); }, {a, d}, "divideLeft");
    // A product divides by its inner factor.
    expectSame([](auto& l) { return divideLeft(l[1] * l[0], l[1]); }, {a, d}, "divideLeft");
  }
}

TEST(OptVsRef, InvertAndComposeOfConversions) {
  // Distributed layouts over one tensor, the §5.4 use: B^-1 A both ways.
  std::mt19937_64 rng(13);
  for (int t = 0; t < kTrials; ++t) {
    LayoutValue a = random(rng, kDims, {"dim0", "dim1"}, 5);
    LayoutValue b = random(rng, kDims, {"dim1", "dim0"}, 5);
    if (rng() % 3 == 0) b.in_dims[2] = a.in_dims[2];  // a shared warp dim
    for (TritonVersion r : kReleases)
      expectSame([r](auto& l) { return l[0].invertAndCompose(l[1], r); }, {a, b}, "invertAndCompose");
  }
}

TEST(OptVsRef, LimitsAndLargeLayouts) {
  std::mt19937_64 rng(14);
  for (int t = 0; t < 100; ++t) {
    // Up to 64 bits a side.
    LayoutValue a = random(rng, {"a", "b", "c", "d"}, {"x", "y", "z", "w"}, 16);
    LayoutValue b = random(rng, {"a", "b", "c", "d"}, {"u", "v"}, 16);
    expectSame([](auto& l) { return l[0] * l[1]; }, {a, b}, "product (limits)");
    expectSame([](auto& l) { return l[0].concatOuts(l[1]); }, {a, b}, "concatOuts (limits)");
    expectSame([](auto& l) { return l[0].pseudoinvert(); }, {a}, "pseudoinvert");
    expectSame([](auto& l) { return l[0].rank(); }, {a}, "rank");
    expectSame([](auto& l) { return l[0].flattenIns(); }, {a}, "flattenIns");
  }
}

}  // namespace
}  // namespace f2lay
