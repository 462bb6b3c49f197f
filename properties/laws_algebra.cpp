// The algebra's laws (Defs 4.1-4.5), checked on both implementations, each
// against brute force over every input where it can be.
#include <set>

#include "law_support.h"
#include "laws.h"
#include "predicates.h"

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
    return unless(a.compose(b).compose(d) == a.compose(b.compose(d)),
                  "(a.b).c != a.(b.c)");
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

// apply(a.compose(b)) == apply(b) after apply(a), input by input.
std::string applyOfCompose(const Case& c) {
  return forBoth([&]<class L>() {
    L a(c.layouts[0]), b(c.layouts[1]);
    L ab = a.compose(b);
    for (uint64_t x = 0; x < inputsOf(c.layouts[0]); ++x)
      if (applyFlat(ab, x) != applyFlat(b, applyFlat(a, x)))
        return "differs at input " + std::to_string(x);
    return std::string();
  });
}

// Def 4.1: L(x xor y) == L(x) xor L(y), for every x and a partner y of it.
std::string applyIsLinear(const Case& c) {
  return forBoth([&]<class L>() {
    L a(c.layouts[0]);
    uint64_t n = inputsOf(c.layouts[0]);
    if (applyFlat(a, 0) != 0) return std::string("L(0) != 0");
    for (uint64_t x = 0; x < n; ++x) {
      uint64_t y = (x * 0x9E3779B97F4A7C15ull >> 7) & (n - 1);
      if (applyFlat(a, x ^ y) != (applyFlat(a, x) ^ applyFlat(a, y)))
        return "L(x^y) != L(x)^L(y) at x=" + std::to_string(x) + ", y=" + std::to_string(y);
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

// Def 4.5 for invertible layouts: both compositions are identities.
std::string inverseComposesToIdentity(const Case& c) {
  return forBoth([&]<class L>() {
    L l(c.layouts[0]);
    L inv = l.invert();
    if (!(l.compose(inv) == L(identityOn(inSizes(c.layouts[0])))))
      return std::string("L then L^-1 is not the identity");
    return unless(inv.compose(l) == L(identityOn(outSizes(c.layouts[0]))),
                  "L^-1 then L is not the identity");
  });
}

// Def 4.5: the pseudoinverse P of a surjective L is injective and L(P(y)) = y.
std::string pseudoinverseIsRightInverse(const Case& c) {
  return forBoth([&]<class L>() {
    L l(c.layouts[0]);
    L p = l.pseudoinvert();
    if (!p.isInjective()) return std::string("the pseudoinverse is not injective");
    for (uint64_t y = 0; y < (uint64_t{1} << l.getTotalOutDimSizeLog2()); ++y)
      if (applyFlat(l, applyFlat(p, y)) != y) return "L(P(y)) != y at y=" + std::to_string(y);
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
    if (l.isInjective() != (r == l.getTotalInDimSizeLog2())) return std::string("isInjective wrong");
    return unless(l.isSurjective() == (r == l.getTotalOutDimSizeLog2()), "isSurjective wrong");
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
  laws["inverse_composes_to_identity"] = inverseComposesToIdentity;
  laws["pseudoinverse_is_right_inverse"] = pseudoinverseIsRightInverse;
  laws["reshape_and_transpose_round_trip"] = reshapeAndTransposeRoundTrip;
  laws["rank_is_brute_force"] = rankIsBruteForce;
  laws["memory_is_invertible"] = memoryIsInvertible;
  laws["distributed_is_def_4_10"] = isDef410;
}

}  // namespace f2lay::properties
