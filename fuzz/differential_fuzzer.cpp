// libFuzzer target: ref and opt side by side. FuzzedDataProvider decodes
// three small layouts (at most 8 bits a side, so that the laws can check
// every input) and then up to kMaxOps operations; each runs on both
// implementations, and their answers (layout, numbers or error message) must
// be equal. Algebra laws are checked on the way, by XOR of the columns of
// the plain values (no code of either implementation): compose is function
// composition, invertAndCompose solves outer(C(x)) = this(x), an inverse
// undoes its layout, a product divides back, 2^rank is the image's size.
#include <bitset>
#include <optional>
#include <string>
#include <vector>

#include "error.h"
#include "fuzz_support.h"
#include "generators.h"  // columnsOf: a layout's flattened columns
#include "json_format.h"
#include "linear_layout.h"
#include "opt_linear_layout.h"

namespace {

using f2lay::LayoutValue;
using Ref = f2lay::ref::LinearLayout;
using Opt = f2lay::opt::LinearLayout;

// Enough for a law to meet the result of an earlier op; few enough that
// one input stays cheap (fuzz/README.md: execs/s).
constexpr int kMaxOps = 4;

[[noreturn]] void fail(const std::string& what) { f2lay::fuzz::fail("differential", what); }

const char* const kHardware[] = {"register", "lane", "warp", "block"};
const char* const kTensor[] = {"dim0", "dim1", "dim2"};

// In dims are hardware dims, or (so that compose and invertAndCompose meet
// layouts they accept) the previous layout's out dims, names and sizes.
LayoutValue decodeLayout(FuzzedDataProvider& in, const LayoutValue* previous) {
  LayoutValue v;
  int nOut = in.ConsumeIntegralInRange(1, 3), outBits = 0;
  for (int k = 0; k < nOut; ++k) {
    int bits = in.ConsumeIntegralInRange(0, 8 - outBits);
    outBits += bits;
    v.out_dims.push_back({kTensor[k], uint64_t{1} << bits});
  }
  std::vector<std::pair<std::string, int>> ins;
  if (previous && in.ConsumeBool()) {
    for (const f2lay::OutDim& d : previous->out_dims) ins.push_back({d.name, f2lay::log2Exact(d.size)});
  } else {
    int nIn = in.ConsumeIntegralInRange(1, 4), inBits = 0;
    for (int k = 0; k < nIn; ++k) {
      int bits = in.ConsumeIntegralInRange(0, 8 - inBits);
      inBits += bits;
      ins.push_back({kHardware[k], bits});
    }
  }
  for (const auto& [name, bits] : ins) {
    f2lay::InDim d{name, {}};
    for (int i = 0; i < bits; ++i) {
      f2lay::Basis b;
      for (const auto& o : v.out_dims) b.push_back(in.ConsumeIntegralInRange<uint64_t>(0, o.size - 1));
      d.bases.push_back(b);
    }
    v.in_dims.push_back(d);
  }
  return v;
}

// An op's answer on one implementation: a layout, numbers, or the error.
struct Answer {
  LayoutValue layout;
  std::vector<uint64_t> numbers;
  std::string error;
  bool operator==(const Answer&) const = default;
};

std::string describe(const Answer& a) {
  if (!a.error.empty()) return "error: " + a.error;
  std::string s = f2lay::writeJsonLayout(a.layout);
  for (uint64_t n : a.numbers) s += " " + std::to_string(n);
  return s;
}

template <class F>
Answer answer(const F& f) {
  Answer a;
  try {
    f(a);
  } catch (const f2lay::Error& e) {
    a.error = e.what();
  }
  return a;
}

// The layouts decoded, built once by each implementation.
// The layouts decoded, each built by an implementation when an op first
// asks for it (building is much of an input's cost).
struct Operands {
  LayoutValue value[3];
  mutable std::optional<Ref> ref[3];
  mutable std::optional<Opt> opt[3];
  template <class L>
  const L& get(int i) const {
    auto& built = [&]() -> auto& {
      if constexpr (std::is_same_v<L, Ref>) return ref[i];
      else return opt[i];
    }();
    if (!built) built.emplace(value[i]);
    return *built;
  }
};

// Runs op on both implementations; the answer, aborting when they differ.
template <class F>
Answer both(const char* name, const F& op) {
  Answer r = answer([&](Answer& a) { op.template operator()<Ref>(a); });
  Answer o = answer([&](Answer& a) { op.template operator()<Opt>(a); });
  if (!(r == o)) fail(std::string(name) + ": ref says " + describe(r) + ", opt says " + describe(o));
  return r;
}

// The laws below are the checker, not code under test: coverage would only
// count their loops over every input (and trace each comparison in them),
// so the fuzzer leaves them out (clang's no_sanitize("coverage"); the
// sanitizers still check them).
#if defined(__clang__)
#define F2LAY_NO_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define F2LAY_NO_COVERAGE
#endif

// L(x) by XOR of the flattened columns.
F2LAY_NO_COVERAGE uint64_t eval(const std::vector<uint64_t>& cols, uint64_t x) {
  uint64_t y = 0;
  for (size_t j = 0; j < cols.size(); ++j)
    if (x >> j & 1) y ^= cols[j];
  return y;
}

// The out dims of `first` are the in dims of `second`, in order, with the
// same sizes: flat outputs of first are flat inputs of second.
bool chained(const LayoutValue& first, const LayoutValue& second) {
  if (first.out_dims.size() != second.in_dims.size()) return false;
  for (size_t k = 0; k < first.out_dims.size(); ++k)
    if (first.out_dims[k].name != second.in_dims[k].name ||
        first.out_dims[k].size != uint64_t{1} << second.in_dims[k].bases.size())
      return false;
  return true;
}

// Def 4.2: (a.compose(b))(x) = b(a(x)).
F2LAY_NO_COVERAGE void composeLaw(const LayoutValue& a, const LayoutValue& b, const LayoutValue& c) {
  if (!chained(a, b) || c.out_dims != b.out_dims) return;
  auto ca = f2lay::properties::columnsOf(a), cb = f2lay::properties::columnsOf(b),
       cc = f2lay::properties::columnsOf(c);
  for (uint64_t x = 0; x < uint64_t{1} << ca.size(); ++x)
    if (eval(cc, x) != eval(cb, eval(ca, x))) fail("compose: (a.compose(b))(x) != b(a(x))");
}

// §5.4: a.invertAndCompose(outer) = C with outer(C(x)) = a(x).
F2LAY_NO_COVERAGE void invertAndComposeLaw(const LayoutValue& a, const LayoutValue& outer, const LayoutValue& c) {
  if (!chained(c, outer) || outer.out_dims != a.out_dims) return;
  auto ca = f2lay::properties::columnsOf(a), co = f2lay::properties::columnsOf(outer),
       cc = f2lay::properties::columnsOf(c);
  for (uint64_t x = 0; x < uint64_t{1} << ca.size(); ++x)
    if (eval(co, eval(cc, x)) != eval(ca, x)) fail("invertAndCompose: outer(C(x)) != a(x)");
}

// Def 4.5: L^-1(L(x)) = x for every input x.
F2LAY_NO_COVERAGE void inverseLaw(const LayoutValue& l, const LayoutValue& inverse) {
  auto cl = f2lay::properties::columnsOf(l), ci = f2lay::properties::columnsOf(inverse);
  for (uint64_t x = 0; x < uint64_t{1} << cl.size(); ++x)
    if (eval(ci, eval(cl, x)) != x) fail("invert: L^-1(L(x)) != x");
}

// The image has 2^rank elements (marked in a bitmap: at most 2^8 outputs).
F2LAY_NO_COVERAGE void rankLaw(const LayoutValue& l, uint64_t rank) {
  std::bitset<256> image;
  auto cols = f2lay::properties::columnsOf(l);
  for (uint64_t x = 0; x < uint64_t{1} << cols.size(); ++x) image.set(eval(cols, x));
  if (image.count() != uint64_t{1} << rank) fail("rank: 2^rank is not the image's size");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  Operands ops;
  for (int i = 0; i < 3; ++i)
    ops.value[i] = decodeLayout(in, i ? &ops.value[i - 1] : nullptr);
  for (int n = 0; n < kMaxOps && in.remaining_bytes() > 0; ++n) {
    int i = in.ConsumeIntegralInRange(0, 2), j = in.ConsumeIntegralInRange(0, 2);
    const LayoutValue &a = ops.value[i], &b = ops.value[j];
    switch (in.ConsumeIntegralInRange(0, 9)) {
      case 0: {
        Answer c = both("compose", [&]<class L>(Answer& r) {
          r.layout = ops.get<L>(i).compose(ops.get<L>(j)).value();
        });
        if (c.error.empty()) composeLaw(a, b, c.layout);
        break;
      }
      case 1: {
        Answer c = both("invertAndCompose", [&]<class L>(Answer& r) {
          r.layout = ops.get<L>(i).invertAndCompose(ops.get<L>(j)).value();
        });
        if (c.error.empty()) invertAndComposeLaw(a, b, c.layout);
        break;
      }
      case 2: {
        Answer inv = both("invert", [&]<class L>(Answer& r) { r.layout = ops.get<L>(i).invert().value(); });
        if (inv.error.empty()) inverseLaw(a, inv.layout);
        break;
      }
      case 3:
        both("pseudoinvert", [&]<class L>(Answer& r) { r.layout = ops.get<L>(i).pseudoinvert().value(); });
        break;
      case 4:
        both("product", [&]<class L>(Answer& r) {
          const L &x = ops.get<L>(i), &y = ops.get<L>(j);
          L p = x * y;
          // Def 4.4: the product divides back by its left factor.
          auto q = divideLeft(p, x);
          if (!q || !(x * *q == p))
            fail("product: a * divideLeft(a*b, a) != a*b for a = " + f2lay::writeJsonLayout(a) +
                 ", b = " + f2lay::writeJsonLayout(b) + (q ? ", quotient " + f2lay::writeJsonLayout(q->value()) : ", no quotient"));
          r.layout = p.value();
        });
        break;
      case 5: {
        Answer rank = both("rank", [&]<class L>(Answer& r) {
          const L& l = ops.get<L>(i);
          r.numbers = {static_cast<uint64_t>(l.rank()), l.isInjective(), l.isSurjective()};
        });
        rankLaw(a, rank.numbers[0]);
        break;
      }
      case 6:
        both("concatIns", [&]<class L>(Answer& r) { r.layout = ops.get<L>(i).concatIns(ops.get<L>(j)).value(); });
        break;
      case 7:
        both("concatOuts", [&]<class L>(Answer& r) { r.layout = ops.get<L>(i).concatOuts(ops.get<L>(j)).value(); });
        break;
      case 8:
        both("flatten", [&]<class L>(Answer& r) { r.layout = ops.get<L>(i).flattenOuts().flattenIns().value(); });
        break;
      default:
        both("freeVariableMasks", [&]<class L>(Answer& r) {
          for (const auto& [name, mask] : ops.get<L>(i).getFreeVariableMasks()) r.numbers.push_back(mask);
          r.numbers.push_back(ops.get<L>(i).getNumConsecutiveInOut());
        });
    }
  }
  return 0;
}
