// Every op that both implementations answer, taken from the op table
// (oracle/op_table.h) rather than listed here: each runs on f2lay::ref and
// f2lay::opt with the same request, drawn key by key for it
// (oracle/op_requests.h), and the two answers (result or error, word for
// word) must be equal. An op added to the table is tested here the day it is
// added.
#include <gtest/gtest.h>

#include <random>

#include "formats/json_format.h"
#include "oracle/op_requests.h"
#include "oracle/op_table.h"
#include "testkit/random_layout.h"
#include "testkit/random_tensor_layouts.h"

namespace f2lay {
namespace {

using testkit::randomDistributed;
using testkit::randomLayout;
using testkit::randomMemory;
using testkit::TensorShape;

constexpr int kDraws = 300;

const std::vector<std::string> kIns = {"register", "lane", "warp", "block"};
const std::vector<std::string> kOuts = {"dim0", "dim1", "dim2"};

std::vector<std::string> someOf(std::mt19937_64& rng, std::vector<std::string> names) {
  std::shuffle(names.begin(), names.end(), rng);
  names.resize(1 + rng() % names.size());
  return names;
}

// A layout whose in dims are `first`'s out dims, sizes and order kept, so
// that compose and invert_and_compose meet pairs they accept.
LayoutValue chainedAfter(std::mt19937_64& rng, const LayoutValue& first) {
  LayoutValue v = randomLayout(rng, {}, someOf(rng, kOuts), 6);
  for (const OutDim& d : first.out_dims) {
    InDim in{d.name, {}};
    for (uint64_t s = 1; s < d.size; s <<= 1) {
      Basis b;
      for (const OutDim& o : v.out_dims) b.push_back(rng() % o.size);
      in.bases.push_back(b);
    }
    v.in_dims.push_back(in);
  }
  return v;
}

// A layout beside `first` for concat_ins (other in dims, the same out dims)
// or concat_outs (the same in dims, other out dims).
LayoutValue besides(std::mt19937_64& rng, const LayoutValue& first, bool ins) {
  LayoutValue v = ins ? randomLayout(rng, {"x", "y"}, {}, 4) : randomLayout(rng, {}, {"u", "v"}, 4);
  if (ins) v.out_dims = first.out_dims;
  if (!ins)
    for (const InDim& d : first.in_dims) v.in_dims.push_back({d.name, {}});
  for (InDim& d : v.in_dims) {
    size_t bits = ins ? d.bases.size() : first.in_dims[&d - &v.in_dims[0]].bases.size();
    d.bases.clear();
    for (size_t i = 0; i < bits; ++i) {
      Basis b;
      for (const OutDim& o : v.out_dims) b.push_back(rng() % o.size);
      d.bases.push_back(b);
    }
  }
  return v;
}

// self (or layout), other, shared: half the time what the analyses take
// (two distributed layouts of 32 lanes and a memory layout of one tensor),
// else arbitrary layouts, other often chained after self, equal to it or
// beside it.
std::vector<LayoutValue> drawLayouts(std::mt19937_64& rng) {
  if (rng() % 2) {
    TensorShape shape{2 + static_cast<int>(rng() % 3), 2 + static_cast<int>(rng() % 3)};
    int warpBits = static_cast<int>(rng() % 2);
    if (shape.bits() < 5 + warpBits) warpBits = 0;
    if (shape.bits() < 5) shape.colBits = 5 - shape.rowBits;
    int zeros = rng() % 4 == 0;
    return {randomDistributed(rng, shape, warpBits, zeros, rng() % 2),
            randomDistributed(rng, shape, warpBits, 0, rng() % 2), randomMemory(rng, shape)};
  }
  LayoutValue self = randomLayout(rng, someOf(rng, kIns), someOf(rng, kOuts), 5);
  uint64_t kind = rng() % 5;
  LayoutValue other = kind == 0   ? chainedAfter(rng, self)
                      : kind == 1 ? self
                      : kind == 2 ? besides(rng, self, true)
                      : kind == 3 ? besides(rng, self, false)
                                  : randomLayout(rng, someOf(rng, kIns), someOf(rng, kOuts), 5);
  return {self, other, randomLayout(rng, {"offset"}, someOf(rng, kOuts), 5)};
}

TEST(OpsVsRef, EveryOpOfBothImplementations) {
  std::mt19937_64 rng(41);
  int ops = 0;
  for (const oracle::Op& op : oracle::opTable()) {
    if (!op.runOpt) continue;
    ++ops;
    int answered = 0;
    for (int t = 0; t < kDraws; ++t) {
      std::vector<LayoutValue> layouts = drawLayouts(rng);
      oracle::DrawnRequest request([&](uint64_t n) { return rng() % n; }, layouts);
      Json byRef = oracle::attempt(op.run, request);
      Json byOpt = oracle::attempt(op.runOpt, request);
      ASSERT_EQ(byOpt, byRef) << op.doc.name << " with " << request.describe() << "\nself "
                              << writeJsonLayout(layouts[0]) << "\nother "
                              << writeJsonLayout(layouts[1]) << "\nshared "
                              << writeJsonLayout(layouts[2]);
      answered += byRef["ok"].get<bool>();
    }
    // The draws reach the op's answers, not only its refusals.
    EXPECT_GT(answered, kDraws / 20) << op.doc.name << " answered " << answered << " of " << kDraws;
  }
  EXPECT_GE(ops, 34);  // the algebra and the analyses f2lay::opt answers
}

}  // namespace
}  // namespace f2lay
