// What the catalog fuzzer's families share: the messages (Target), the
// outcome of a constructor (Built, or any Outcome) and the checks on it; and the families
// themselves, each decoding its parameters and comparing the constructor with
// its element-wise definition: the distributed layouts in
// catalog_distributed.cpp, the memory layouts in catalog_memory.cpp.
#pragma once

#include <bit>
#include <exception>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "formats/error.h"
#include "fuzz/catalog_decoder.h"
#include "fuzz/fuzz_support.h"
#include "reference/catalog/predicates.h"
#include "reference/catalog/shape_fit.h"
#include "reference/linear_layout.h"
#include "testkit/columns.h"
#include "testkit/outcome.h"
#include "testkit/rank.h"

namespace f2lay::fuzz::catalog_fuzz {

using namespace f2lay::ref::catalog;
using f2lay::ref::LinearLayout;

// One family at one parameter set, for the messages.
struct Target {
  const char* family;
  std::string params;
  const Decoder& in;
};

[[noreturn]] inline void fail(const Target& t, const std::string& what) {
  f2lay::fuzz::fail("catalog", std::string(t.family) + " " + t.params + ": " + what);
}

// What a constructor did: its layout (answer), or the message of its
// f2lay::Error (testkit/outcome.h). Any other exception aborts.
using Built = f2lay::testkit::Outcome<LinearLayout>;

template <class Build>
auto construct(const Target& t, const Build& build) -> f2lay::testkit::Outcome<decltype(build())> {
  try {
    return f2lay::testkit::attempt(build);
  } catch (const std::exception& e) {
    fail(t, std::string("threw an exception that is not f2lay::Error: ") + e.what());
  } catch (...) {
    fail(t, "threw something that is not a std::exception");
  }
}

// §4.2's two families, Def 4.10 (distributed) and Def 4.14 (memory), judged
// on the flat columns by the test side's elimination (testkit/columns.h,
// rank.h), must be what reference/catalog/predicates.h says of each layout
// the catalog builds.
inline void predicatesAgree(const Target& t, const LinearLayout& l) {
  const f2lay::LayoutValue& v = l.value();
  if (totalOutBits(v) > 64) return;
  std::vector<uint64_t> cols = f2lay::testkit::columnsOf(v);
  int rank = f2lay::testkit::rankOf(cols);
  bool unitOrZero = true, oneOrTwo = true;
  std::set<uint64_t> seen;
  for (uint64_t c : cols) {
    int bits = std::popcount(c);
    unitOrZero = unitOrZero && bits <= 1 && (c == 0 || seen.insert(c).second);
    oneOrTwo = oneOrTwo && (bits == 1 || bits == 2);
  }
  bool distributed = rank == totalOutBits(v) && unitOrZero;
  bool memory = rank == totalOutBits(v) && rank == totalInBits(v) && oneOrTwo;
  if (isDistributed(l) != distributed)
    fail(t, std::string("isDistributed says ") + (distributed ? "no" : "yes") + " to Def 4.10's " +
                (distributed ? "yes" : "no"));
  if (isMemory(l) != memory)
    fail(t, std::string("isMemory says ") + (memory ? "no" : "yes") + " to Def 4.14's " +
                (memory ? "yes" : "no"));
}

// Whether `b` holds a layout to compare: aborts when parameters that break a
// rule were accepted or, with `mustAccept`, legal ones refused; false for a
// refusal and for a layout too large to enumerate. A layout to compare meets
// predicatesAgree first.
inline bool accepted(const Target& t, const Built& b, bool mustAccept) {
  if (!b.answer) {
    if (mustAccept) fail(t, "refused legal parameters: " + b.error);
    return false;
  }
  if (!t.in.broken.empty()) fail(t, "accepted parameters that break a rule: " + t.in.broken);
  if (totalInBits(b.answer->value()) > kMaxInputBits) return false;
  predicatesAgree(t, *b.answer);
  return true;
}

inline bool plainLegal(const Decoder& in) { return in.broken.empty() && !in.wild; }

inline void expectSame(const Target& t, const std::string& mismatch) {
  if (!mismatch.empty()) fail(t, mismatch);
}

// Triton's layouts of a tensor of `shape` have the out dims dim0.. of exactly
// those sizes.
inline std::string outDimMismatch(const LinearLayout& l, const Shape& shape) {
  std::vector<std::string> names;
  std::vector<uint64_t> sizes;
  for (const f2lay::OutDim& d : l.value().out_dims)
    names.push_back(d.name), sizes.push_back(d.size);
  if (names != standardOutDimNames(shape.size()) || sizes != shape)
    return "out dims of sizes " + list(sizes) + ", the shape " + list(shape);
  return "";
}

// Gluon 3.9's warp_bases and reg_bases at `rank` (catalog_distributed.cpp, for
// amd_wmma and its scales): per dim the moves 1, 2, 4,
// ... each on a warp or a register bit, in any order, and maybe an all-0
// broadcast; one in 16 draws breaks a rule (a gap, a repeat, a basis moving
// two dims, one of the wrong length).
struct WmmaBases {
  std::vector<f2lay::Basis> warp, reg;
  std::string describe() const {
    auto text = [](const std::vector<f2lay::Basis>& bases) {
      std::string s = "[";
      for (size_t i = 0; i < bases.size(); ++i) s += (i ? "," : "") + list(bases[i]);
      return s + "]";
    };
    return "warp_bases " + text(warp) + " reg_bases " + text(reg);
  }
};
WmmaBases decodeWmmaBases(Decoder& in, size_t rank);

// The families, one parameter set each (catalog_distributed.cpp).
void fuzzBlocked(Decoder& in);
void fuzzSlice(Decoder& in);
void fuzzNvidiaMma(Decoder& in);
void fuzzDotOperand(Decoder& in);
void fuzzLdmatrix(Decoder& in);
void fuzzAmdMfma(Decoder& in);
void fuzzAmdWmma(Decoder& in);
// (catalog_amd_scale.cpp)
void fuzzAmdMfmaScale(Decoder& in);
void fuzzAmdWmmaScale(Decoder& in);
// (catalog_memory.cpp)
void fuzzSwizzledShared(Decoder& in);
void fuzzNvmmaShared(Decoder& in);
void fuzzCute(Decoder& in);
void fuzzCutlass(Decoder& in);
// (catalog_padded.cpp)
void fuzzPaddedShared(Decoder& in);
void fuzzAmdPaddedShared(Decoder& in);
// (catalog_linear.cpp)
void fuzzDistributedLinear(Decoder& in);
void fuzzSharedLinear(Decoder& in);
// (catalog_tmem.cpp)
void fuzzTmemRegLayout(Decoder& in);
void fuzzTensorMemory(Decoder& in);
void fuzzTensorMemoryScales(Decoder& in);

}  // namespace f2lay::fuzz::catalog_fuzz
