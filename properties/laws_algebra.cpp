// The algebra's laws (Defs 4.1-4.5), checked on both implementations, each
// against brute force over every input where it can be (up to 2^12 inputs)
// and, on the whole 64-bit range, at the inputs of testkit::inputsToCheck
// (every unit vector among them). Expected values come from the plain
// values' columns by XOR (testkit/evaluate.h), never from ref or opt.
#include <set>

#include "properties/generators.h"
#include "properties/law_support.h"
#include "properties/laws.h"
#include "reference/catalog/predicates.h"
#include "testkit/evaluate.h"
#include "testkit/inputs.h"
#include "testkit/rank.h"

namespace f2lay::properties {

std::vector<std::pair<std::string, uint64_t>> inSizes(const LayoutValue& l) {
  std::vector<std::pair<std::string, uint64_t>> dims;
  for (const InDim& d : l.in_dims) dims.push_back({d.name, uint64_t{1} << d.bases.size()});
  return dims;
}

std::vector<std::pair<std::string, uint64_t>> outSizes(const LayoutValue& l) {
  std::vector<std::pair<std::string, uint64_t>> dims;
  for (const OutDim& d : l.out_dims) dims.push_back({d.name, d.size});
  return dims;
}

LayoutValue identityOn(const std::vector<std::pair<std::string, uint64_t>>& dims) {
  LayoutValue v;
  for (const auto& [name, size] : dims) v.out_dims.push_back({name, size});
  for (size_t k = 0; k < dims.size(); ++k) {
    InDim d{dims[k].first, {}};
    for (uint64_t bit = 1; bit < dims[k].second; bit <<= 1) {
      Basis b(dims.size(), 0);
      b[k] = bit;
      d.bases.push_back(b);
    }
    v.in_dims.push_back(d);
  }
  return v;
}

namespace {

uint64_t inputsOf(const LayoutValue& l) { return uint64_t{1} << totalInBits(l); }

// Def 4.2: (a then b) then c == a then (b then c).
std::string composeIsAssociative(const Case& c) {
  return forBoth([&]<class L>() {
    L a(c.layouts[0]), b(c.layouts[1]), d(c.layouts[2]);
    return unless(a.compose(b).compose(d) == a.compose(b.compose(d)), "(a.b).c != a.(b.c)");
  });
}

std::string composeHasIdentities(const Case& c) {
  return forBoth([&]<class L>() {
    L a(c.layouts[0]);
    L in(identityOn(inSizes(c.layouts[0]))), out(identityOn(outSizes(c.layouts[0])));
    if (!(a.compose(out) == a)) return std::string("a composed with the identity on its outs != a");
    return unless(in.compose(a) == a, "the identity on a's ins composed with a != a");
  });
}

// Def 4.2: (a.compose(b))(x) = b(a(x)), the right side by XOR of the plain
// values' columns (b's in dims are a's out dims, in order).
std::string applyOfCompose(const Case& c) {
  auto ca = columnsOf(c.layouts[0]), cb = columnsOf(c.layouts[1]);
  return forBoth([&]<class L>() {
    L ab = L(c.layouts[0]).compose(L(c.layouts[1]));
    for (uint64_t x : testkit::inputsToCheck(static_cast<int>(ca.size())))
      if (applyFlat(ab, x) != testkit::applyColumns(cb, testkit::applyColumns(ca, x)))
        return "differs at input " + std::to_string(x);
    return std::string();
  });
}

// Def 4.1: L(x) is the XOR of the bases of x's set bits; apply against the
// plain value's columns, which neither implementation wrote.
std::string applyIsLinear(const Case& c) {
  auto cols = columnsOf(c.layouts[0]);
  return forBoth([&]<class L>() {
    L a(c.layouts[0]);
    for (uint64_t x : testkit::inputsToCheck(static_cast<int>(cols.size())))
      if (applyFlat(a, x) != testkit::applyColumns(cols, x))
        return "L(x) is not the XOR of x's columns at x=" + std::to_string(x);
    return std::string();
  });
}

// Bits of dim `name` on a side of l (0 when l lacks it), and the value of
// l's basis for input bit i of in dim d in out dim o (0 when l lacks o).
int inBitsOf(const LayoutValue& l, const std::string& name) {
  for (const InDim& d : l.in_dims)
    if (d.name == name) return static_cast<int>(d.bases.size());
  return 0;
}
int outBitsOf(const LayoutValue& l, const std::string& name) {
  for (const OutDim& d : l.out_dims)
    if (d.name == name) return log2Exact(d.size);
  return 0;
}
uint64_t basisValue(const LayoutValue& l, const std::string& d, int i, const std::string& o) {
  for (const InDim& in : l.in_dims)
    for (size_t k = 0; in.name == d && k < l.out_dims.size(); ++k)
      if (l.out_dims[k].name == o) return in.bases[i][k];
  return 0;
}

// Def 4.3, element by element: in the product of inner and outer, each
// shared dim holds inner's bits low and outer's above them, on both sides,
// so input bit i of in dim d maps to inner's basis (d, i) when i is one of
// inner's bits of d, else to outer's basis (d, i - those bits) shifted
// past inner's bits of each out dim.
std::string productIsBlockDiagonal(const Case& c) {
  const LayoutValue &inner = c.layouts[0], &outer = c.layouts[1];
  return forBoth([&]<class L>() -> std::string {
    LayoutValue p = (L(inner) * L(outer)).value();
    if (totalInBits(p) != totalInBits(inner) + totalInBits(outer) ||
        totalOutBits(p) != totalOutBits(inner) + totalOutBits(outer))
      return "the product's sides are not the factors' bits added";
    for (const InDim& d : p.in_dims) {
      int low = inBitsOf(inner, d.name);
      if (static_cast<int>(d.bases.size()) != low + inBitsOf(outer, d.name))
        return "in dim " + d.name + " has the wrong size";
      for (int i = 0; i < static_cast<int>(d.bases.size()); ++i)
        for (size_t k = 0; k < p.out_dims.size(); ++k) {
          const std::string& o = p.out_dims[k].name;
          uint64_t want = i < low ? basisValue(inner, d.name, i, o)
                                  : basisValue(outer, d.name, i - low, o) << outBitsOf(inner, o);
          if (d.bases[i][k] != want)
            return "basis " + std::to_string(i) + " of " + d.name + " in " + o + " is " +
                   str(d.bases[i][k]) + ", not " + str(want);
        }
    }
    return std::string();
  });
}

// Def 4.3 and 4.4: dividing a product by its inner factor gives a quotient
// C with inner * C == the product.
std::string productDivideLeftRoundTrip(const Case& c) {
  return forBoth([&]<class L>() {
    L a(c.layouts[0]), b(c.layouts[1]);
    L ab = a * b;
    auto q = divideLeft(ab, a);
    if (!q) return std::string("divideLeft(a*b, a) found no quotient");
    return unless(a * *q == ab, "a * divideLeft(a*b, a) != a*b: quotient " + str(*q));
  });
}

// Def 4.5 for invertible layouts: L^-1(L(x)) = x by XOR of the plain
// values' columns, and both compositions are identities.
std::string inverseComposesToIdentity(const Case& c) {
  auto cl = columnsOf(c.layouts[0]);
  return forBoth([&]<class L>() {
    L l(c.layouts[0]);
    L inv = l.invert();
    auto ci = columnsOf(inv.value());
    for (uint64_t x : testkit::inputsToCheck(static_cast<int>(cl.size())))
      if (testkit::applyColumns(ci, testkit::applyColumns(cl, x)) != x)
        return "L^-1(L(x)) != x at x=" + std::to_string(x);
    if (!(l.compose(inv) == L(identityOn(inSizes(c.layouts[0])))))
      return std::string("L then L^-1 is not the identity");
    return unless(inv.compose(l) == L(identityOn(outSizes(c.layouts[0]))),
                  "L^-1 then L is not the identity");
  });
}

// Def 4.5: the pseudoinverse P of a surjective L is injective (its columns'
// rank, by the test side's elimination, is their count) and L(P(y)) = y,
// both by the plain values' columns.
std::string pseudoinverseIsRightInverse(const Case& c) {
  auto cl = columnsOf(c.layouts[0]);
  return forBoth([&]<class L>() {
    auto cp = columnsOf(L(c.layouts[0]).pseudoinvert().value());
    if (testkit::rankOf(cp) != static_cast<int>(cp.size()))
      return std::string("the pseudoinverse is not injective");
    for (uint64_t y : testkit::inputsToCheck(totalOutBits(c.layouts[0])))
      if (testkit::applyColumns(cl, testkit::applyColumns(cp, y)) != y)
        return "L(P(y)) != y at y=" + std::to_string(y);
    return std::string();
  });
}

// §5.4: C = a.invertAndCompose(outer) maps a's in dims to outer's (in
// order) and solves outer(C(x)) = a(x), by the plain values' columns.
std::string invertAndComposeSolves(const Case& c) {
  const LayoutValue &a = c.layouts[0], &outer = c.layouts[1];
  auto ca = columnsOf(a), co = columnsOf(outer);
  return forBoth([&]<class L>() {
    LayoutValue s = L(a).invertAndCompose(L(outer)).value();
    if (inSizes(s) != inSizes(a) || outSizes(s) != inSizes(outer))
      return std::string("C does not map a's in dims to outer's in dims");
    auto cs = columnsOf(s);
    for (uint64_t x : testkit::inputsToCheck(static_cast<int>(ca.size())))
      if (testkit::applyColumns(co, testkit::applyColumns(cs, x)) != testkit::applyColumns(ca, x))
        return "outer(C(x)) != a(x) at x=" + std::to_string(x);
    return std::string();
  });
}

// transposeOuts and reshapeIns/reshapeOuts undone give the layout back.
std::string reshapeAndTransposeRoundTrip(const Case& c) {
  return forBoth([&]<class L>() {
    L l(c.layouts[0]);
    std::vector<std::string> outs = l.getOutDimNames(), reversed(outs.rbegin(), outs.rend());
    if (!(l.transposeOuts(reversed).transposeOuts(outs) == l))
      return std::string("transposeOuts there and back changed the layout");
    std::vector<std::string> ins = l.getInDimNames(), insReversed(ins.rbegin(), ins.rend());
    if (!(l.transposeIns(insReversed).transposeIns(ins) == l))
      return std::string("transposeIns there and back changed the layout");
    if (!(l.flattenIns().reshapeIns(inSizes(c.layouts[0])) == l))
      return std::string("flattenIns then reshapeIns back changed the layout");
    return unless(l.flattenOuts().reshapeOuts(outSizes(c.layouts[0])) == l,
                  "flattenOuts then reshapeOuts back changed the layout");
  });
}

// rank, isInjective and isSurjective against the size of the image.
std::string rankIsBruteForce(const Case& c) {
  return forBoth([&]<class L>() {
    L l(c.layouts[0]);
    std::set<uint64_t> image;
    for (uint64_t x = 0; x < inputsOf(c.layouts[0]); ++x) image.insert(applyFlat(l, x));
    int r = std::countr_zero(image.size());
    if (image.size() != uint64_t{1} << r) return "the image has " + str(image.size()) + " points";
    if (l.rank() != r) return "rank " + str(l.rank()) + ", image 2^" + str(r);
    if (l.isInjective() != (r == l.getTotalInDimSizeLog2()))
      return std::string("isInjective wrong");
    return unless(l.isSurjective() == (r == l.getTotalOutDimSizeLog2()), "isSurjective wrong");
  });
}

// rank, isInjective, isSurjective and isInvertible against the rank of the
// test side's elimination (testkit/rank.h); where the generator built the rank
// (params.rank), the elimination must find that rank too.
std::string rankIsIndependent(const Case& c) {
  auto cols = columnsOf(c.layouts[0]);
  int r = testkit::rankOf(cols), in = static_cast<int>(cols.size()),
      out = totalOutBits(c.layouts[0]);
  if (c.params.contains("rank") && c.params["rank"].get<int>() != r)
    return "built with rank " + c.params["rank"].dump() + ", eliminated to " + str(r);
  return forBoth([&]<class L>() {
    L l(c.layouts[0]);
    if (l.rank() != r) return "rank " + str(l.rank()) + ", not " + str(r);
    if (l.isInjective() != (r == in)) return std::string("isInjective wrong");
    if (l.isSurjective() != (r == out)) return std::string("isSurjective wrong");
    return unless(l.isInvertible() == (r == in && r == out), "isInvertible wrong");
  });
}

// Def 4.14 layouts are invertible (and the predicate recognizes them).
std::string memoryIsInvertible(const Case& c) {
  return forBoth([&]<class L>() {
    L l(c.layouts[0]);
    if (!l.isInvertible()) return std::string("not invertible");
    return unless(ref::catalog::isMemory(ref::LinearLayout(c.layouts[0])), "not Def 4.14");
  });
}

std::string isDef410(const Case& c) {
  return unless(ref::catalog::isDistributed(ref::LinearLayout(c.layouts[0])), "not Def 4.10");
}

}  // namespace

void addAlgebraLaws(std::map<std::string, Law>& laws) {
  laws["compose_is_associative"] = composeIsAssociative;
  laws["compose_has_identities"] = composeHasIdentities;
  laws["apply_of_compose"] = applyOfCompose;
  laws["apply_is_linear"] = applyIsLinear;
  laws["product_divide_left_round_trip"] = productDivideLeftRoundTrip;
  laws["product_is_block_diagonal"] = productIsBlockDiagonal;
  laws["invert_and_compose_solves"] = invertAndComposeSolves;
  laws["rank_is_independent"] = rankIsIndependent;
  laws["inverse_composes_to_identity"] = inverseComposesToIdentity;
  laws["pseudoinverse_is_right_inverse"] = pseudoinverseIsRightInverse;
  laws["reshape_and_transpose_round_trip"] = reshapeAndTransposeRoundTrip;
  laws["rank_is_brute_force"] = rankIsBruteForce;
  laws["memory_is_invertible"] = memoryIsInvertible;
  laws["distributed_is_def_4_10"] = isDef410;
}

}  // namespace f2lay::properties
