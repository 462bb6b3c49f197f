// libFuzzer target: f2lay::opt's algebra against its laws, the fast first
// line. Three small layouts (at most 6 bits a side, decoded as the
// differential target decodes them: layout_decoder.h) and up to kMaxOps ops
// of f2lay::opt; every answer is judged by algebra_judge.h, which reads
// opt's answers through the packed view and shares no code with opt, the
// reference or Eigen, at every input (up to 2^8, else every unit vector and
// 64 others):
//   compose        (a.compose(b))(x) = b(a(x))                     Def 4.2
//   product        (a*b)(x) = a(x's low bits) | b(x's high bits)   Def 4.3
//   divideLeft     a * divideLeft(a*b, a) = a*b; b * divideLeft(c, b) = c
//   invertAndCompose  outer(C(x)) = a(x), under 3.9's and 3.6's rules  §5.4
//   invert         L^-1(L(x)) = x; pseudoinvert: L(P(y)) = y       Def 4.5
//   concatIns/Outs, sublayout, transposes: the same function, dims joined,
//                  kept or reordered by name
//   flattens, reshapes: the same columns
//   rank and the predicates, free-variable masks: by an elimination of the
//                  test side (testkit/rank.h); getNumConsecutiveInOut by
//                  its definition; ==, apply, the matrix view, the 1-D
//                  constructors by the columns.
// Each request's preconditions are checked by the judge first (compose's
// dims, the product's dim orders, invert's rank, concat's sides, and for
// invertAndCompose the same out dims and a's image inside outer's): a legal
// request must be answered; an illegal one is asked one time in 16 and must
// be refused with f2lay::Error (throwing costs more than the rest of an
// input). ref against opt, and the refusals' words, are the differential
// target's.
#include <fuzzer/FuzzedDataProvider.h>

#include <optional>
#include <string>
#include <vector>

#include "formats/error.h"
#include "fuzz/algebra_laws.h"
#include "fuzz/layout_decoder.h"
#include "optimized/opt_linear_layout.h"
#include "testkit/rank.h"

namespace {

using f2lay::TritonVersion;
using namespace f2lay::fuzz::algebra;
using Opt = f2lay::opt::LinearLayout;

// Up to kMaxOps ops an input, on layouts of at most kMaxBits bits a side, so
// that the laws see every input of them.
constexpr int kMaxOps = 4;
constexpr int kMaxBits = 6;

// f's answer, or nothing when it refuses with f2lay::Error (its words in
// *why, when given).
template <class F>
auto answered(const F& f, std::string* why = nullptr) -> std::optional<decltype(f())> {
  try {
    return f();
  } catch (const f2lay::Error& e) {
    if (why) *why = e.what();
    return std::nullopt;
  }
}

// What the judge knows of a request before asking: it must be answered,
// it must be refused, or either (a precondition the judge does not decide).
enum class Legal { kYes, kNo, kMaybe };

// The plain preconditions, as the contract states them
// (reference/linear_layout.h).
Legal composable(const Plain& a, const Plain& b) {
  if (!a.outs.sameNames(b.ins)) return Legal::kNo;
  for (int k = 0; k < a.outs.count; ++k)
    if (a.outs.bits[k] > b.ins.bits[b.ins.find(a.outs.name[k])]) return Legal::kNo;
  return Legal::kYes;
}
bool disjoint(const Side& x, const Side& y) {
  for (int k = 0; k < x.count; ++k)
    if (y.find(x.name[k]) >= 0) return false;
  return true;
}
// The dims x and y share come in the same order in both.
bool sameOrder(const Side& x, const Side& y) {
  int last = -1;
  for (int k = 0; k < x.count; ++k) {
    int at = y.find(x.name[k]);
    if (at < 0) continue;
    if (at < last) return false;
    last = at;
  }
  return true;
}
Legal multipliable(const Plain& a, const Plain& b) {
  return sameOrder(a.ins, b.ins) && sameOrder(a.outs, b.outs) ? Legal::kYes : Legal::kNo;
}
int rankOf(const Plain& l) {
  f2lay::testkit::Span span;
  for (int j = 0; j < l.inBits; ++j) span.insert(l.cols[j]);
  return span.rank;
}
// invertAndCompose needs the same out dims, none larger in a, and a's image
// inside outer's; then the rules of dims set aside decide (kMaybe).
Legal invertibleComposable(const Plain& a, const Plain& outer) {
  if (!a.outs.sameNames(outer.outs)) return Legal::kNo;
  f2lay::testkit::Span span;
  for (int j = 0; j < outer.inBits; ++j) span.insert(outer.cols[j]);
  for (int j = 0; j < a.inBits; ++j) {
    uint64_t y;
    if (!moveTo(a.cols[j], a.outs, outer.outs, y) || span.insert(y)) return Legal::kNo;
  }
  for (int k = 0; k < a.outs.count; ++k)
    if (a.outs.bits[k] > outer.outs.bits[outer.outs.find(a.outs.name[k])]) return Legal::kNo;
  return Legal::kMaybe;
}

// A subset of `names` (bits of `mask`), in order.
std::vector<std::string> pick(const std::vector<std::string>& names, uint8_t mask) {
  std::vector<std::string> kept;
  for (size_t k = 0; k < names.size(); ++k)
    if (mask >> k & 1) kept.push_back(names[k]);
  return kept;
}

// Asks f unless the request is illegal, and then only one time in 16
// (throwing costs more than the rest of an input): a legal request must be
// answered, an illegal one refused. The answer, if any.
template <class F>
auto ask(FuzzedDataProvider& in, const char* op, Legal legal, const F& f)
    -> std::optional<decltype(f())> {
  if (legal == Legal::kNo && in.ConsumeIntegralInRange(0, 15) != 0) return std::nullopt;
  std::string why;
  auto r = answered(f, &why);
  if (legal == Legal::kYes && !r) fail(std::string(op) + ": a legal request was refused: " + why);
  if (legal == Legal::kNo && r) fail(std::string(op) + ": an illegal request was answered");
  return r;
}

void runOp(FuzzedDataProvider& in, const Opt& a, const Opt& b) {
  const Plain pa = plainOf(a), pb = plainOf(b);
  TritonVersion release = in.ConsumeBool() ? TritonVersion::k3_9 : TritonVersion::k3_6;
  uint8_t arg = in.ConsumeIntegral<uint8_t>();
  switch (in.ConsumeIntegralInRange(0, 16)) {
    case 0:
      if (auto c = ask(in, "compose", composable(pa, pb), [&] { return a.compose(b); }))
        composeLaw(pa, pb, plainOf(*c));
      break;
    case 1:
      if (auto c = ask(in, "invertAndCompose", invertibleComposable(pa, pb),
                       [&] { return a.invertAndCompose(b, release); })) {
        Plain pc = plainOf(*c);
        invertAndComposeLaw(pa, pb, pc);
        alikeDimsLaw(pa, pb, pc, release == TritonVersion::k3_6);
      }
      break;
    case 2: {
      // Under 3.6's rules some legal requests meet Triton 3.6's assertion:
      // there a legal one may be refused.
      int r = rankOf(pa);
      Legal invertible = r == pa.inBits && r == pa.outs.total()
                             ? release == TritonVersion::k3_9 ? Legal::kYes : Legal::kMaybe
                             : Legal::kNo;
      if (auto inv = ask(in, "invert", invertible, [&] { return a.invert(release); }))
        undoesLaw("invert", plainOf(*inv), pa);
      break;
    }
    case 3: {
      Legal surjective = rankOf(pa) == pa.outs.total()
                             ? release == TritonVersion::k3_9 ? Legal::kYes : Legal::kMaybe
                             : Legal::kNo;
      if (auto p = ask(in, "pseudoinvert", surjective, [&] { return a.pseudoinvert(release); }))
        undoesLaw("pseudoinvert", pa, plainOf(*p));
      break;
    }
    case 4:
      if (auto p = ask(in, "product", multipliable(pa, pb), [&] { return a * b; })) {
        Plain pp = plainOf(*p);
        productLaw(pa, pb, pp);
        auto q = divideLeft(*p, a);  // Def 4.4: a*b divides by a
        require(q.has_value(), "divideLeft", "a*b is not divisible by a");
        productLaw(pa, plainOf(*q), pp);
      }
      break;
    case 5:
      if (auto q = divideLeft(a, b)) productLaw(pb, plainOf(*q), pa);
      break;
    case 6: {
      int r = rankOf(pa);
      require(a.rank() == r && a.isInjective() == (r == pa.inBits) &&
                  a.isSurjective() == (r == pa.outs.total()) &&
                  a.isInvertible() == (r == pa.inBits && r == pa.outs.total()),
              "rank", "not the test side's elimination's, or a predicate is wrong");
      // Def: a free variable is a column in the span of the columns before it.
      f2lay::testkit::Span span;
      auto masks = a.getFreeVariableMasks();
      require(static_cast<int>(masks.size()) == pa.ins.count, "getFreeVariableMasks",
              "one mask a dim");
      for (int k = 0, j = 0; k < pa.ins.count; ++k)
        for (int i = 0; i < pa.ins.bits[k]; ++i, ++j)
          require((masks[k].second >> i & 1) == !span.insert(pa.cols[j]), "getFreeVariableMasks",
                  "a bit is free exactly when its column is in the span of those before it");
      break;
    }
    case 7: {
      Legal legal = pa.outs == pb.outs && disjoint(pa.ins, pb.ins) ? Legal::kYes : Legal::kNo;
      if (auto c = ask(in, "concatIns", legal, [&] { return a.concatIns(b); })) {
        Plain pc = plainOf(*c);
        require(pc.outs == pa.outs && pc.inBits == pa.inBits + pb.inBits, "concatIns", "the dims");
        forInputs(pc.inBits, arg, [&](uint64_t x) {
          require(pc(x) == (pa(x & Side::low(pa.inBits)) ^ pb(x >> pa.inBits)), "concatIns",
                  "c(x, y) != a(x) ^ b(y)");
        });
        sameFunctionLaw("concatIns", pc, pa);
      }
      break;
    }
    case 8: {
      Legal legal = pa.ins == pb.ins && disjoint(pa.outs, pb.outs) ? Legal::kYes : Legal::kNo;
      if (auto c = ask(in, "concatOuts", legal, [&] { return a.concatOuts(b); })) {
        Plain pc = plainOf(*c);
        int low = pa.outs.total();
        forInputs(pc.inBits, arg, [&](uint64_t x) {
          require(pc(x) == (pa(x) | pb(x) << low), "concatOuts", "c(x) is not a(x) beside b(x)");
        });
        sameFunctionLaw("concatOuts", pc, pa);
      }
      break;
    }
    case 9: {  // flatten each side
      auto f = ask(in, "flattenIns", Legal::kYes, [&] { return a.flattenIns(); });
      Plain pf = plainOf(*f);
      require(pf.ins.count == 1 && pf.outs == pa.outs, "flattenIns", "the dims");
      sameColumnsLaw("flattenIns", pa, pf);
      f = ask(in, "flattenOuts", Legal::kYes, [&] { return a.flattenOuts(); });
      pf = plainOf(*f);
      require(pf.ins == pa.ins && pf.outs.count == 1, "flattenOuts", "the dims");
      sameColumnsLaw("flattenOuts", pa, pf);
      break;
    }
    case 10: {  // reshape each side into two dims, cut at arg
      int inBits = pa.inBits, outBits = pa.outs.total();
      int cutIn = arg % (inBits + 1), cutOut = (arg >> 4) % (outBits + 1);
      f2lay::DimSizes ins = {{"x", uint64_t{1} << cutIn}, {"y", uint64_t{1} << (inBits - cutIn)}};
      f2lay::DimSizes outs = {{"x", uint64_t{1} << cutOut},
                              {"y", uint64_t{1} << (outBits - cutOut)}};
      auto r = ask(in, "reshapeIns", Legal::kYes, [&] { return a.reshapeIns(ins); });
      sameColumnsLaw("reshapeIns", pa, plainOf(*r));
      r = ask(in, "reshapeOuts", Legal::kYes, [&] { return a.reshapeOuts(outs); });
      sameColumnsLaw("reshapeOuts", pa, plainOf(*r));
      break;
    }
    case 11: {  // transposes: every dim, in the order arg picks
      std::vector<std::string> ins = a.getInDimNames(), outs = a.getOutDimNames();
      for (size_t k = ins.size(); k > 1; --k) std::swap(ins[k - 1], ins[(arg >> k) % k]);
      for (size_t k = outs.size(); k > 1; --k) std::swap(outs[k - 1], outs[(arg >> (k + 2)) % k]);
      auto t = ask(in, "transposeIns", Legal::kYes, [&] { return a.transposeIns(ins); });
      sameFunctionLaw("transposeIns", pa, plainOf(*t));
      t = ask(in, "transposeOuts", Legal::kYes, [&] { return a.transposeOuts(outs); });
      sameFunctionLaw("transposeOuts", pa, plainOf(*t));
      break;
    }
    case 12: {  // sublayout: the dims arg picks, in the layout's order
      std::vector<std::string> ins = pick(a.getInDimNames(), arg & 0x0f),
                               outs = pick(a.getOutDimNames(), arg >> 4 & 0x07);
      auto s = ask(in, "sublayout", Legal::kYes, [&] { return a.sublayout(ins, outs); });
      Plain ps = plainOf(*s);
      require(ps.ins.count == static_cast<int>(ins.size()) &&
                  ps.outs.count == static_cast<int>(outs.size()),
              "sublayout", "not the dims asked for");
      sameFunctionLaw("sublayout", pa, ps);
      break;
    }
    case 13: {  // getNumConsecutiveInOut, by its definition: the largest 2^k
                // such that the first in dim's values below 2^k are the first
                // out dim's, and no other input moves those bits
      uint64_t got = a.getNumConsecutiveInOut();
      int k = 0;
      auto valid = [&](int k) {
        if (!pa.ins.count || !pa.outs.count || k > pa.ins.bits[0] || k > pa.outs.bits[0])
          return false;
        for (int j = 0; j < pa.inBits; ++j)
          if (j < k ? pa.cols[j] != uint64_t{1} << j : (pa.cols[j] & Side::low(k)) != 0)
            return false;
        return true;
      };
      while (valid(k + 1)) ++k;
      require(got == uint64_t{1} << k, "getNumConsecutiveInOut", "not the definition's count");
      break;
    }
    case 14: {  // ==, and the dim queries
      require((a == b) == (pa == pb), "operator==", "not: the same dims and the same columns");
      for (int k = 0; k < pa.ins.count; ++k)
        require(a.getInDimSizeLog2(f2lay::opt::nameOf(pa.ins.name[k])) == pa.ins.bits[k],
                "getInDimSizeLog2", "not the dim's bits");
      break;
    }
    case 15: {  // apply at one input, by name; and the matrix view
      uint64_t x = in.ConsumeIntegral<uint64_t>() & Side::low(pa.inBits);
      f2lay::DimValues input;
      for (int k = 0; k < pa.ins.count; ++k)
        input.push_back({f2lay::opt::nameOf(pa.ins.name[k]), pa.ins.field(x, k)});
      f2lay::DimValues y = a.apply(input);
      uint64_t want = pa(x);
      require(static_cast<int>(y.size()) == pa.outs.count, "apply", "one value an out dim");
      for (int k = 0; k < pa.outs.count; ++k)
        require(y[k].second == pa.outs.field(want, k), "apply", "not the XOR of x's columns");
      auto m = a.getMatrixView();
      for (size_t r = 0; r < m.size(); ++r)
        for (size_t c = 0; c < m[r].size(); ++c)
          require(m[r][c] == static_cast<int>(pa.cols[c] >> r & 1), "getMatrixView",
                  "entry (r, c) is not bit r of column c");
      break;
    }
    default: {  // the 1-D constructors
      int bits = arg % 9, shift = (arg >> 4) % 6;
      Plain id = plainOf(Opt::identity1D(uint64_t{1} << bits, "lane", "dim0"));
      Plain z = plainOf(Opt::zeros1D(uint64_t{1} << bits, "lane", "dim0", uint64_t{1} << shift));
      Plain s = plainOf(Opt::strided1D(uint64_t{1} << bits, uint64_t{1} << shift, "lane", "dim0"));
      require(id.inBits == bits && id.outs.total() == bits && z.outs.total() == shift &&
                  s.outs.total() == bits + shift,
              "1-D constructors", "the sizes");
      for (int j = 0; j < bits; ++j)
        require(id.cols[j] == uint64_t{1} << j && z.cols[j] == 0 &&
                    s.cols[j] == uint64_t{1} << (j + shift),
                "1-D constructors", "a column");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  f2lay::LayoutValue v[3];
  for (int i = 0; i < 3; ++i)
    v[i] = f2lay::fuzz::decodeLayout(in, i ? &v[i - 1] : nullptr, kMaxBits);
  std::optional<Opt> l[3];  // built when an op first asks (building is much of an input's cost)
  auto layout = [&](int i) -> const Opt& {
    if (!l[i]) l[i].emplace(v[i]);
    return *l[i];
  };
  for (int n = 0; n < kMaxOps && in.remaining_bytes() > 0; ++n) {
    int i = in.ConsumeIntegralInRange(0, 2), j = in.ConsumeIntegralInRange(0, 2);
    runOp(in, layout(i), layout(j));
  }
  return 0;
}
