// libFuzzer target: ref and opt side by side. FuzzedDataProvider decodes
// three layouts and then up to kMaxOps operations; each runs on both
// implementations, and their answers (layout, numbers, text or error
// message) must be equal. The first byte picks the range: at most 8 bits a
// side, or, when its bit 1 is set and bit 2 clear (a quarter of the inputs:
// the reference's elimination of 64 x 64 matrices is most of such an
// input's time), the README's whole range, 64 bits a side over dims of up
// to 63 bits (in dims of 32 bits and more, out dims of 2^32 and more).
// The ops: first, decoded as they were before the op table was reachable
// (so that the corpus and the regressions keep what they reach), the
// algebra's C++ calls, with the laws below checked on the way, rank,
// toString and the 1-D constructors at 64 bits included; then, on the bytes
// left, every op of the op table that both implementations answer (the
// algebra and the analyses, oracle/op_table.h), picked by its index there,
// its request drawn key by key from the input (oracle/op_requests.h), the
// answers compared as the oracle gives them.
// Algebra laws are checked on the way, by XOR of the columns of the plain
// values (testkit/evaluate.h, no code of either implementation), at
// every input up to 2^12 and at sampled ones above (every unit vector among
// them): apply is the XOR of x's columns (so is opt's BatchApply, on each of
// its paths), compose is function composition,
// invertAndCompose solves outer(C(x)) = a(x), an inverse undoes its layout,
// a pseudoinverse is a right inverse, a product divides back, the rank is
// the test side's elimination's, flattening and reshaping keep the columns,
// the matrix view is the columns' bits.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "analysis/space.h"
#include "formats/error.h"
#include "formats/json_format.h"
#include "fuzz/fuzz_support.h"
#include "fuzz/layout_decoder.h"
#include "optimized/analysis/subspace.h"
#include "optimized/batch_apply.h"
#include "optimized/opt_linear_layout.h"
#include "optimized/tests/both.h"
#include "oracle/op_requests.h"
#include "oracle/op_table.h"
#include "reference/analysis/f2_space.h"
#include "reference/linear_layout.h"
#include "testkit/columns.h"
#include "testkit/evaluate.h"
#include "testkit/inputs.h"
#include "testkit/rank.h"

namespace {

using f2lay::LayoutValue;
using Ref = f2lay::ref::LinearLayout;
using Opt = f2lay::opt::LinearLayout;

// Enough for a law to meet the result of an earlier op; few enough that
// one input stays cheap (fuzz/README.md: execs/s).
constexpr int kMaxOps = 4;
// Then ops of the op table: each an analysis, mostly, several times an
// algebra op's cost.
constexpr int kMaxTableOps = 2;

[[noreturn]] void fail(const std::string& what) { f2lay::fuzz::fail("differential", what); }

// An op's answer on one implementation: a layout, numbers, or the error.
struct Answer {
  LayoutValue layout;
  std::vector<uint64_t> numbers;
  std::string text, error;
  bool operator==(const Answer&) const = default;
};

std::string describe(const Answer& a) {
  if (!a.error.empty()) return "error: " + a.error;
  std::string s = f2lay::writeJsonLayout(a.layout);
  for (uint64_t n : a.numbers) s += " " + std::to_string(n);
  return s + " " + a.text;
}

// The layouts decoded, each built by an implementation when an op first
// asks for it (building is much of an input's cost).
struct Operands {
  LayoutValue value[3];
  mutable std::optional<Ref> ref[3];
  mutable std::optional<Opt> opt[3];
  template <class L>
  const L& get(int i) const {
    auto& built = [&]() -> auto& {
      if constexpr (std::is_same_v<L, Ref>)
        return ref[i];
      else
        return opt[i];
    }
    ();
    if (!built) built.emplace(value[i]);
    return *built;
  }
};

// The answer op fills in, or its error (testkit/outcome.h) in `error`.
Answer answerOf(const f2lay::testkit::Outcome<Answer>& o) {
  Answer a = o.answer.value_or(Answer{});
  a.error = o.error;
  return a;
}

// Runs op on both implementations (optimized/tests/both.h); the answer, aborting
// when they differ.
template <class F>
Answer both(const char* name, const F& op) {
  auto outcomes = f2lay::testkit::onBoth([&]<class L>() {
    Answer a;
    op.template operator()<L>(a);
    return a;
  });
  Answer r = answerOf(outcomes.ref), o = answerOf(outcomes.opt);
  if (!(r == o))
    fail(std::string(name) + ": ref says " + describe(r) + ", opt says " + describe(o));
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

using f2lay::testkit::applyColumns;
using f2lay::testkit::columnsOf;
using f2lay::testkit::inputsToCheck;

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
F2LAY_NO_COVERAGE void composeLaw(const LayoutValue& a, const LayoutValue& b,
                                  const LayoutValue& c) {
  if (!chained(a, b) || c.out_dims != b.out_dims) return;
  auto ca = columnsOf(a), cb = columnsOf(b), cc = columnsOf(c);
  for (uint64_t x : inputsToCheck(static_cast<int>(ca.size())))
    if (applyColumns(cc, x) != applyColumns(cb, applyColumns(ca, x)))
      fail("compose: (a.compose(b))(x) != b(a(x))");
}

// §5.4: a.invertAndCompose(outer) = C with outer(C(x)) = a(x).
F2LAY_NO_COVERAGE void invertAndComposeLaw(const LayoutValue& a, const LayoutValue& outer,
                                           const LayoutValue& c) {
  if (!chained(c, outer) || outer.out_dims != a.out_dims) return;
  auto ca = columnsOf(a), co = columnsOf(outer), cc = columnsOf(c);
  for (uint64_t x : inputsToCheck(static_cast<int>(ca.size())))
    if (applyColumns(co, applyColumns(cc, x)) != applyColumns(ca, x))
      fail("invertAndCompose: outer(C(x)) != a(x)");
}

// Def 4.5: first undoes second, first(second(x)) = x, for every x of
// second's input bits (L^-1(L(x)) = x; L(P(y)) = y for a pseudoinverse P).
F2LAY_NO_COVERAGE void undoesLaw(const char* op, const LayoutValue& first,
                                 const LayoutValue& second) {
  auto c1 = columnsOf(first), c2 = columnsOf(second);
  for (uint64_t x : inputsToCheck(static_cast<int>(c2.size())))
    if (applyColumns(c1, applyColumns(c2, x)) != x)
      fail(std::string(op) + ": does not undo its layout");
}

// The columns of `after` are those of `before` (flatten, reshape).
F2LAY_NO_COVERAGE void sameColumnsLaw(const char* op, const LayoutValue& before,
                                      const LayoutValue& after) {
  if (columnsOf(before) != columnsOf(after)) fail(std::string(op) + ": the columns changed");
}

// Def 4.1: apply(x) is the XOR of x's columns; `out` is apply's answer,
// its out-dim values in order.
F2LAY_NO_COVERAGE void applyLaw(const LayoutValue& l, uint64_t x,
                                const std::vector<uint64_t>& out) {
  if (out != f2lay::testkit::apply(l, x)) fail("apply: not the XOR of x's columns");
}

// optimized/batch_apply.h: each of BatchApply's paths gives the XOR of the
// columns (bits above the input's ignored), one input at a time, in batches
// of 37 (one AVX2 block of 32 and a tail) and, up to 2^12 inputs, all at once.
// A decoded layout of at most 8 input bits is one byte group; applyAll is
// also held to the law on one of 9 to 12 (its columns the layout's, repeated
// and mixed), so that the groups of the high bits count.
F2LAY_NO_COVERAGE void batchApplyLaw(const LayoutValue& l, const Opt& built, uint64_t x,
                                     bool widen = true) {
  using f2lay::opt::BatchApply;
  auto cols = columnsOf(l);
  int bits = static_cast<int>(cols.size());
  if (widen && bits <= 8) {
    int wide = 9 + static_cast<int>(x % 4);
    std::vector<uint64_t> more(wide, 0);
    for (int k = 0; k < wide && bits > 0; ++k)
      more[k] = cols[k % bits] ^ (k >= bits ? cols[(k + 1) % bits] : 0);
    LayoutValue w = f2lay::testkit::layoutOf({{"in", wide}}, f2lay::testkit::outDimBits(l), more);
    batchApplyLaw(w, Opt(w), x, false);
  }
  std::vector<uint64_t> in(37), want(37), out(37);
  for (size_t k = 0; k < in.size(); ++k) {
    in[k] = x ^ (k * 0x9e3779b97f4a7c15u);
    want[k] = applyColumns(cols, in[k] & f2lay::testkit::lowBits(bits));
  }
  std::vector<BatchApply::Path> paths = {BatchApply::Path::Portable};
  if (BatchApply::avx2Supported()) paths.push_back(BatchApply::Path::Avx2);
  for (BatchApply::Path path : paths) {
    BatchApply batch(built, path);
    if (batch(in[0]) != want[0]) fail(std::string("BatchApply ") + batch.path() + ": one input");
    batch.apply(in.data(), out.data(), in.size());
    if (out != want) fail(std::string("BatchApply ") + batch.path() + ": a batch");
    if (bits > 12) continue;
    std::vector<uint64_t> all(size_t{1} << bits);
    batch.applyAll(all.data());
    for (uint64_t y = 0; y < all.size(); ++y)
      if (all[y] != applyColumns(cols, y))
        fail(std::string("BatchApply ") + batch.path() + ": applyAll");
  }
}

// A random subset of `names` (bits of `mask`), in order or reversed.
std::vector<std::string> pick(std::vector<std::string> names, uint8_t mask) {
  std::vector<std::string> kept;
  for (size_t k = 0; k < names.size(); ++k)
    if (mask >> k & 1) kept.push_back(names[k]);
  if (mask & 0x80) std::reverse(kept.begin(), kept.end());
  return kept;
}

// Two dims (named x, y) of `bits` bits in all, cut at `cut` (mod bits + 1);
// `wrong` adds one bit, which reshape must refuse.
std::vector<std::pair<std::string, uint64_t>> cutInTwo(int bits, uint8_t cut, bool wrong) {
  int low = cut % (bits + 1), high = bits - low + (wrong ? 1 : 0);
  return {{"x", uint64_t{1} << low}, {"y", high < 64 ? uint64_t{1} << high : 0}};
}

// The ops both implementations answer, in the op table's order.
const std::vector<const f2lay::oracle::Op*>& opsOfBoth() {
  static const std::vector<const f2lay::oracle::Op*> ops = [] {
    std::vector<const f2lay::oracle::Op*> both;
    for (const f2lay::oracle::Op& op : f2lay::oracle::opTable())
      if (op.runOpt) both.push_back(&op);
    return both;
  }();
  return ops;
}

// The laws of the ops that have one, on an op table answer's layout.
F2LAY_NO_COVERAGE void tableLaw(const std::string& op, const LayoutValue& a, const LayoutValue& b,
                                const f2lay::Json& result) {
  if (!result.is_object() || !result.contains("in_dims")) return;
  LayoutValue c = f2lay::layoutFromJson(result, "result");
  if (op == "compose") composeLaw(a, b, c);
  if (op == "invert_and_compose") invertAndComposeLaw(a, b, c);
  if (op == "invert") undoesLaw("invert", c, a);
  if (op == "flatten_ins" || op == "flatten_outs" || op == "reshape_ins" || op == "reshape_outs")
    sameColumnsLaw(op.c_str(), a, c);
}

// Op `k` of opsOfBoth on a request drawn from the input, with self = a,
// other = b, shared = s: the answers of ref and opt must be equal. Only on
// layouts of at most 8 bits a side (the narrow range): the analyses
// enumerate every access, the reference's simulators cost an input most of
// its time at 12 bits, and the algebra's 64-bit edges are the hand-decoded
// ops' to reach.
void tableOp(FuzzedDataProvider& in, size_t k, const LayoutValue& a, const LayoutValue& b,
             const LayoutValue& s) {
  for (const LayoutValue* v : {&a, &b, &s})
    if (f2lay::totalInBits(*v) > 8 || f2lay::totalOutBits(*v) > 8) return;
  const f2lay::oracle::Op& op = *opsOfBoth()[k];
  f2lay::oracle::DrawnRequest request(
      [&](uint64_t n) { return in.ConsumeIntegralInRange<uint64_t>(0, n - 1); }, {a, b, s});
  f2lay::Json r = f2lay::oracle::attempt(op.run, request);
  f2lay::Json o = f2lay::oracle::attempt(op.runOpt, request);
  if (r != o)
    fail(op.doc.name + " (" + request.describe() + "): ref says " + r.dump() + ", opt says " +
         o.dump());
  if (r["ok"].get<bool>()) tableLaw(op.doc.name, a, b, r["result"]);
}

// The §5 constructions' span arithmetic (analysis/space.h), the reference's
// Gaussian elimination and opt's packed echelon, on the columns of two of
// the input's layouts: every operation's vectors must be equal (their order
// is part of the contract), and the intersection's dimension must be dim A +
// dim B - dim(A + B) by the test side's own rank. General layouts' columns
// reach what Def 4.10's unit vectors cannot: an intersection that a's own
// vectors do not span (Zassenhaus).
F2LAY_NO_COVERAGE void spanLaw(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
  using f2lay::analysis::Space;
  using f2lay::analysis::Vecs;
  Answer r = both("span arithmetic", [&]<class L>(Answer& out) {
    using S = Space<L>;
    Vecs independent = S::extendBasis({}, a);
    std::vector<Vecs> lists = {S::intersectSpans(a, b), S::extendBasis(a, b), independent,
                               S::completeWithUnits(a, 64)};
    out.numbers = {static_cast<uint64_t>(S::rankOf(a))};
    for (const Vecs& v : lists) {
      out.numbers.push_back(v.size());
      out.numbers.insert(out.numbers.end(), v.begin(), v.end());
    }
    typename S::Coordinates coordinates(independent);
    for (uint64_t x : b) {
      out.numbers.push_back(S::inSpan(a, x));
      out.numbers.push_back(coordinates.of(x).value_or(~uint64_t{0}));
    }
  });
  std::vector<uint64_t> sum = a;
  sum.insert(sum.end(), b.begin(), b.end());
  int dimension =
      f2lay::testkit::rankOf(a) + f2lay::testkit::rankOf(b) - f2lay::testkit::rankOf(sum);
  if (r.numbers[1] != static_cast<uint64_t>(dimension))
    fail("intersectSpans: " + std::to_string(r.numbers[1]) + " vectors for an intersection of " +
         "dimension " + std::to_string(dimension));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  int cap = size > 0 && (data[0] & 6) == 2 ? 64 : 8;
  Operands ops;
  for (int i = 0; i < 3; ++i)
    ops.value[i] = f2lay::fuzz::decodeLayout(in, i ? &ops.value[i - 1] : nullptr, cap);
  for (int n = 0; n < kMaxOps && in.remaining_bytes() > 0; ++n) {
    int i = in.ConsumeIntegralInRange(0, 2), j = in.ConsumeIntegralInRange(0, 2);
    const LayoutValue &a = ops.value[i], &b = ops.value[j];
    // Ops 0-8 decode as they did before the rest were added, so the seeds
    // still reach what they reached; 9 picks among the rest, 23 is one of
    // 1-3 under Triton 3.6's rules. `arg` is the rest's argument.
    int op = in.ConsumeIntegralInRange(0, 9);
    if (op == 9) op += in.ConsumeIntegralInRange(0, 14);
    auto release = f2lay::kCurrentTriton;
    if (op == 23) {
      op = in.ConsumeIntegralInRange(1, 3);
      release = f2lay::TritonVersion::k3_6;
    }
    uint8_t arg = op >= 10 ? in.ConsumeIntegral<uint8_t>() : 0;
    uint8_t all = 0x7f | (arg & 0x80);  // every dim, in order or reversed
    switch (op) {
      case 0: {
        Answer c = both("compose", [&]<class L>(Answer& r) {
          r.layout = ops.get<L>(i).compose(ops.get<L>(j)).value();
        });
        if (c.error.empty()) composeLaw(a, b, c.layout);
        break;
      }
      case 1: {
        Answer c = both("invertAndCompose", [&]<class L>(Answer& r) {
          r.layout = ops.get<L>(i).invertAndCompose(ops.get<L>(j), release).value();
        });
        if (c.error.empty()) invertAndComposeLaw(a, b, c.layout);
        break;
      }
      case 2: {
        Answer inv = both("invert", [&]<class L>(Answer& r) {
          r.layout = ops.get<L>(i).invert(release).value();
        });
        if (inv.error.empty()) undoesLaw("invert", inv.layout, a);
        break;
      }
      case 3: {
        Answer p = both("pseudoinvert", [&]<class L>(Answer& r) {
          r.layout = ops.get<L>(i).pseudoinvert(release).value();
        });
        if (p.error.empty() && f2lay::testkit::rankOf(columnsOf(a)) == f2lay::totalOutBits(a))
          undoesLaw("pseudoinvert", a, p.layout);
        break;
      }
      case 4:
        both("product", [&]<class L>(Answer& r) {
          const L &x = ops.get<L>(i), &y = ops.get<L>(j);
          L p = x * y;
          // Def 4.4: the product divides back by its left factor.
          auto q = divideLeft(p, x);
          if (!q || !(x * *q == p))
            fail("product: a * divideLeft(a*b, a) != a*b for a = " + f2lay::writeJsonLayout(a) +
                 ", b = " + f2lay::writeJsonLayout(b) +
                 (q ? ", quotient " + f2lay::writeJsonLayout(q->value()) : ", no quotient"));
          r.layout = p.value();
        });
        break;
      case 5: {
        Answer rank = both("rank", [&]<class L>(Answer& r) {
          const L& l = ops.get<L>(i);
          r.numbers = {static_cast<uint64_t>(l.rank()), l.isInjective(), l.isSurjective(),
                       l.isInvertible()};
        });
        int want = f2lay::testkit::rankOf(columnsOf(a));
        if (rank.numbers[0] != static_cast<uint64_t>(want) ||
            rank.numbers[1] != (want == f2lay::totalInBits(a)) ||
            rank.numbers[2] != (want == f2lay::totalOutBits(a)))
          fail("rank: not the test side's elimination's, or injectivity/surjectivity wrong");
        break;
      }
      case 6:
        both("concatIns", [&]<class L>(Answer& r) {
          r.layout = ops.get<L>(i).concatIns(ops.get<L>(j)).value();
        });
        break;
      case 7:
        both("concatOuts", [&]<class L>(Answer& r) {
          r.layout = ops.get<L>(i).concatOuts(ops.get<L>(j)).value();
        });
        break;
      case 8: {  // each side alone: flattenOuts is refused at 64 bits, flattenIns need not be
        Answer ins = both("flattenIns", [&]<class L>(Answer& r) {
          r.layout = ops.get<L>(i).flattenIns().value();
        });
        if (ins.error.empty()) sameColumnsLaw("flattenIns", a, ins.layout);
        Answer outs = both("flattenOuts", [&]<class L>(Answer& r) {
          r.layout = ops.get<L>(i).flattenOuts().value();
        });
        if (outs.error.empty()) sameColumnsLaw("flattenOuts", a, outs.layout);
        break;
      }
      case 9:
        both("freeVariableMasks", [&]<class L>(Answer& r) {
          for (const auto& [name, mask] : ops.get<L>(i).getFreeVariableMasks())
            r.numbers.push_back(mask);
          r.numbers.push_back(ops.get<L>(i).getNumConsecutiveInOut());
        });
        break;
      case 10: {  // apply at x, its dims sometimes wrong (a bad name, one missing, a value too
                  // wide: all ones, or one past the largest)
        uint64_t x = in.ConsumeIntegral<uint64_t>();
        std::vector<std::pair<std::string, uint64_t>> input;
        uint64_t flat = 0;
        int shift = 0;
        for (const f2lay::InDim& d : a.in_dims) {
          int bits = static_cast<int>(d.bases.size());
          uint64_t v = shift < 64 ? x >> shift & f2lay::testkit::lowBits(bits) : 0;
          if (shift < 64) flat |= v << shift;
          input.push_back({d.name, v});
          shift += bits;
        }
        if (arg % 8 == 1) input.push_back({"nope", 0});
        if (arg % 8 == 2 && !input.empty()) input.pop_back();
        if (arg % 8 == 3 && !input.empty()) input[0].second = ~uint64_t{0};
        // The first value out of range: 2^bits, one past the largest.
        if (arg % 8 == 4 && !a.in_dims.empty() && a.in_dims[0].bases.size() < 64)
          input[0].second = uint64_t{1} << a.in_dims[0].bases.size();
        Answer y = both("apply", [&]<class L>(Answer& r) {
          for (const auto& [name, value] : ops.get<L>(i).apply(input)) r.numbers.push_back(value);
        });
        if (arg % 8 == 0) {
          applyLaw(a, flat, y.numbers);
          batchApplyLaw(a, ops.get<Opt>(i), x);
        }
        break;
      }
      case 11: {
        Answer m = both("matrixView", [&]<class L>(Answer& r) {
          for (const auto& row : ops.get<L>(i).getMatrixView())
            for (int bit : row) r.numbers.push_back(static_cast<uint64_t>(bit));
        });
        auto cols = columnsOf(a);
        for (size_t k = 0; k < m.numbers.size(); ++k)
          if (m.numbers[k] != (cols[k % cols.size()] >> (k / cols.size()) & 1))
            fail("matrixView: entry (r, c) is not output bit r of column c");
        break;
      }
      case 12:
        both("sublayout", [&]<class L>(Answer& r) {
          const L& l = ops.get<L>(i);
          r.layout = l.sublayout(pick(l.getInDimNames(), arg),
                                 pick(l.getOutDimNames(), arg >> 4 | (arg & 0x80)))
                         .value();
        });
        break;
      case 13:
        both("transposeIns", [&]<class L>(Answer& r) {
          const L& l = ops.get<L>(i);
          r.layout = l.transposeIns(pick(l.getInDimNames(), arg & 1 ? arg : all)).value();
        });
        break;
      case 14:
        both("transposeOuts", [&]<class L>(Answer& r) {
          const L& l = ops.get<L>(i);
          r.layout = l.transposeOuts(pick(l.getOutDimNames(), arg & 1 ? arg : all)).value();
        });
        break;
      case 15: {
        Answer re = both("reshapeIns", [&]<class L>(Answer& r) {
          r.layout =
              ops.get<L>(i).reshapeIns(cutInTwo(f2lay::totalInBits(a), arg, arg & 0x80)).value();
        });
        if (re.error.empty()) sameColumnsLaw("reshapeIns", a, re.layout);
        break;
      }
      case 16: {
        Answer re = both("reshapeOuts", [&]<class L>(Answer& r) {
          r.layout =
              ops.get<L>(i).reshapeOuts(cutInTwo(f2lay::totalOutBits(a), arg, arg & 0x80)).value();
        });
        if (re.error.empty()) sameColumnsLaw("reshapeOuts", a, re.layout);
        break;
      }
      case 17:
        both("divideLeft", [&]<class L>(Answer& r) {
          auto q = divideLeft(ops.get<L>(i), ops.get<L>(j));
          if (q) r.layout = q->value();
          r.numbers = {q.has_value()};
        });
        break;
      case 18:
        both("equal", [&]<class L>(Answer& r) {
          const L &x = ops.get<L>(i), &y = ops.get<L>(j);
          r.numbers = {x == y, x.hasInDim("lane"), x.hasOutDim("dim1")};
          for (const std::string& name : x.getInDimNames())
            r.numbers.push_back(x.getInDimSizeLog2(name));
          for (const std::string& name : x.getOutDimNames())
            r.numbers.push_back(x.getOutDimSize(name));
        });
        break;
      case 19:
        both("toString", [&]<class L>(Answer& r) { r.text = ops.get<L>(i).toString(); });
        break;
      default: {  // the 1-D constructors, at sizes and strides up to 2^63 (0 and odd ones refused)
        uint64_t size = arg & 0x40 ? uint64_t{1} << (arg % 64) : arg % 5;
        uint64_t stride = uint64_t{1} << in.ConsumeIntegralInRange(0, 63);
        both("constructors", [&]<class L>(Answer& r) {
          L made = op == 20   ? L::identity1D(size, "lane", "dim0")
                   : op == 21 ? L::zeros1D(size, "lane", "dim0", stride)
                              : L::strided1D(size, stride, "lane", "dim0");
          r.layout = made.value();
        });
      }
    }
  }
  // Then ops of the op table, by their index, on what the input has left:
  // bytes the ops above never read, so the corpus and the regressions still
  // do what they did and more.
  for (int n = 0; n < kMaxTableOps && in.remaining_bytes() > 0; ++n) {
    int i = in.ConsumeIntegralInRange(0, 2), j = in.ConsumeIntegralInRange(0, 2);
    size_t k = in.ConsumeIntegralInRange<size_t>(0, opsOfBoth().size() - 1);
    tableOp(in, k, ops.value[i], ops.value[j], ops.value[(i + j + 1) % 3]);
  }
  spanLaw(columnsOf(ops.value[0]), columnsOf(ops.value[1]));
  return 0;
}
