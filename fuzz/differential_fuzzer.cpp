// libFuzzer target: ref and opt side by side. FuzzedDataProvider decodes up
// to three small layouts (at most 8 bits a side, so that the reference stays
// fast) and then a sequence of operations; each runs on both
// implementations, and their answers (layout, number or error message) must
// be equal. Algebra laws are checked on the way: an inverse composes to the
// identity, a product divides back, rank matches the image's size.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>

#include "compare.h"  // outcome: an answer, or its error message, as text
#include "error.h"
#include "law_support.h"  // applyFlat through the public apply()
#include "linear_layout.h"
#include "opt_linear_layout.h"

namespace {

using f2lay::LayoutValue;
using f2lay::properties::applyFlat;
using f2lay::testing::outcome;
using Ref = f2lay::ref::LinearLayout;
using Opt = f2lay::opt::LinearLayout;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "differential_fuzzer: %s\n", what.c_str());
  std::abort();
}

const char* const kIns[] = {"register", "lane", "warp", "block"};
const char* const kOuts[] = {"dim0", "dim1", "dim2"};

LayoutValue decodeLayout(FuzzedDataProvider& in) {
  LayoutValue v;
  int nOut = in.ConsumeIntegralInRange(1, 3), outBits = 0;
  for (int k = 0; k < nOut; ++k) {
    int bits = in.ConsumeIntegralInRange(0, 8 - outBits);
    outBits += bits;
    v.out_dims.push_back({kOuts[k], uint64_t{1} << bits});
  }
  int nIn = in.ConsumeIntegralInRange(1, 4), inBits = 0;
  for (int k = 0; k < nIn; ++k) {
    f2lay::InDim d{kIns[k], {}};
    int bits = in.ConsumeIntegralInRange(0, 8 - inBits);
    inBits += bits;
    for (int i = 0; i < bits; ++i) {
      f2lay::Basis b;
      for (const auto& o : v.out_dims) b.push_back(in.ConsumeIntegralInRange<uint64_t>(0, o.size - 1));
      d.bases.push_back(b);
    }
    v.in_dims.push_back(d);
  }
  return v;
}

template <class L>
std::string text(const L& l) {
  return f2lay::writeJsonLayout(l.value());
}

// Runs op on both implementations; returns the answer, aborting when they differ.
template <class F>
std::string both(const char* name, const F& op) {
  std::string r = outcome([&] { return op.template operator()<Ref>(); });
  std::string o = outcome([&] { return op.template operator()<Opt>(); });
  if (r != o) fail(std::string(name) + ": ref says " + r + ", opt says " + o);
  return r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  LayoutValue v[3];
  for (LayoutValue& l : v) l = decodeLayout(in);
  while (in.remaining_bytes() > 0) {
    const LayoutValue& a = v[in.ConsumeIntegralInRange(0, 2)];
    const LayoutValue& b = v[in.ConsumeIntegralInRange(0, 2)];
    switch (in.ConsumeIntegralInRange(0, 9)) {
      case 0:
        both("compose", [&]<class L>() { return text(L(a).compose(L(b))); });
        break;
      case 1:
        both("invertAndCompose", [&]<class L>() { return text(L(a).invertAndCompose(L(b))); });
        break;
      case 2:
        both("invert", [&]<class L>() {
          L l(a), inv = l.invert();
          // Def 4.5: L^-1(L(x)) = x for every input x.
          for (uint64_t x = 0; x < (uint64_t{1} << l.getTotalInDimSizeLog2()); ++x)
            if (applyFlat(inv, applyFlat(l, x)) != x) fail("invert: L^-1(L(x)) != x");
          return text(inv);
        });
        break;
      case 3:
        both("pseudoinvert", [&]<class L>() { return text(L(a).pseudoinvert()); });
        break;
      case 4:
        both("product", [&]<class L>() {
          L p = L(a) * L(b);
          auto q = divideLeft(p, L(a));
          if (!q || !(L(a) * *q == p)) fail("product: a * divideLeft(a*b, a) != a*b");
          return text(p);
        });
        break;
      case 5:
        both("rank", [&]<class L>() {
          L l(a);
          std::set<uint64_t> image;
          for (uint64_t x = 0; x < (uint64_t{1} << l.getTotalInDimSizeLog2()); ++x)
            image.insert(applyFlat(l, x));
          if (image.size() != uint64_t{1} << l.rank()) fail("rank: 2^rank is not the image's size");
          return std::to_string(l.rank()) + std::to_string(l.isInjective()) +
                 std::to_string(l.isSurjective());
        });
        break;
      case 6:
        both("concatIns", [&]<class L>() { return text(L(a).concatIns(L(b))); });
        break;
      case 7:
        both("concatOuts", [&]<class L>() { return text(L(a).concatOuts(L(b))); });
        break;
      case 8:
        both("flattenOuts", [&]<class L>() { return text(L(a).flattenOuts().flattenIns()); });
        break;
      default:
        both("freeVariableMasks", [&]<class L>() {
          std::string s;
          for (const auto& [name, mask] : L(a).getFreeVariableMasks()) s += name + std::to_string(mask);
          return s + std::to_string(L(a).getNumConsecutiveInOut());
        });
    }
  }
  return 0;
}
