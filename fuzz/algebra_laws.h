// The algebra target's laws (algebra_fuzzer.cpp): each op's answer judged by
// the evaluator of algebra_judge.h against the op's definition, at every
// input of the layouts (forInputs). A law that fails aborts the target with
// the op and the law. Coverage leaves this namespace out
// (coverage-ignorelist.txt): it is the checker, not code under test.
#pragma once

#include <string>
#include <utility>

#include "fuzz/algebra_judge.h"
#include "fuzz/fail.h"

namespace f2lay::fuzz::algebra {

[[noreturn]] inline void fail(const std::string& what) { fuzz::fail("algebra", what); }

inline void require(bool ok, const char* op, const char* law) {
  if (!ok) fail(std::string(op) + ": " + law);
}

// Def 4.2, dims by name: c(x) = b(a(x)).
inline void composeLaw(const Plain& a, const Plain& b, const Plain& c) {
  require(c.ins == a.ins && c.outs == b.outs, "compose",
          "the result's dims are not a's ins, b's outs");
  forInputs(a.inBits, a.cols[0], [&](uint64_t x) {
    uint64_t mid = 0;
    require(moveTo(a(x), a.outs, b.ins, mid), "compose", "a's output does not fit b's inputs");
    require(c(x) == b(mid), "compose", "(a.compose(b))(x) != b(a(x))");
  });
}

// Def 4.3: every dim of the product holds inner's bits low and outer's high.
inline void productLaw(const Plain& inner, const Plain& outer, const Plain& p) {
  // For each dim of p, its dim in inner and in outer (-1: none), and how
  // many of its bits are inner's.
  struct Parts {
    int inner, outer, low;
  };
  auto partsOf = [](const Side& s, const Side& i, const Side& o, int k) {
    Parts x{i.find(s.name[k]), o.find(s.name[k]), 0};
    x.low = x.inner < 0 ? 0 : i.bits[x.inner];
    require(s.bits[k] == x.low + (x.outer < 0 ? 0 : o.bits[x.outer]), "product",
            "a dim's bits are not the factors' sum");
    return x;
  };
  Parts ins[kMaxDims], outs[kMaxDims];
  for (int k = 0; k < p.ins.count; ++k) ins[k] = partsOf(p.ins, inner.ins, outer.ins, k);
  for (int k = 0; k < p.outs.count; ++k) outs[k] = partsOf(p.outs, inner.outs, outer.outs, k);
  require(p.inBits == inner.inBits + outer.inBits &&
              p.outs.total() == inner.outs.total() + outer.outs.total(),
          "product", "a factor's dim is missing");
  forInputs(p.inBits, p.cols[0], [&](uint64_t x) {
    uint64_t xi = 0, xo = 0;
    for (int k = 0; k < p.ins.count; ++k) {
      uint64_t v = p.ins.field(x, k);
      if (ins[k].inner >= 0) xi |= inner.ins.place(v & Side::low(ins[k].low), ins[k].inner);
      if (ins[k].outer >= 0) xo |= outer.ins.place(v >> ins[k].low, ins[k].outer);
    }
    uint64_t yi = inner(xi), yo = outer(xo), y = p(x);
    for (int k = 0; k < p.outs.count; ++k) {
      const Parts& o = outs[k];
      uint64_t vi = o.inner < 0 ? 0 : inner.outs.field(yi, o.inner);
      uint64_t vo = o.outer < 0 ? 0 : outer.outs.field(yo, o.outer);
      require(p.outs.field(y, k) == (vi | vo << o.low), "product",
              "(a*b)(x) is not a(x's low bits) beside b(x's high bits)");
    }
  });
}

// §5.4: outer(C(x)) = a(x), dims by name.
inline void invertAndComposeLaw(const Plain& a, const Plain& outer, const Plain& c) {
  require(c.ins == a.ins && c.outs.sameNames(outer.ins), "invertAndCompose",
          "the result's dims are not a's ins, outer's ins");
  forInputs(a.inBits, a.cols[0], [&](uint64_t x) {
    uint64_t mid = 0, y = 0;
    require(moveTo(c(x), c.outs, outer.ins, mid) && moveTo(outer(mid), outer.outs, a.outs, y),
            "invertAndCompose", "C(x) does not fit outer, or outer's output does not fit a's");
    require(y == a(x), "invertAndCompose", "outer(C(x)) != a(x)");
  });
}

// Triton's heuristic in invertAndCompose (its header, each release): an in
// dim of both layouts, with the same bits, whose columns are equal in the
// common output space (out dims by name) maps to itself, so that a
// broadcast stays put rather than collapsing to 0. Equal out-dim sizes
// (3.6), or (3.9, PR #10116) its output bits apart from the other in dims'
// in each layout. C's columns of such a dim are then its own unit vectors,
// and no other input reaches that out dim.
inline void alikeDimsLaw(const Plain& a, const Plain& outer, const Plain& c, bool v36) {
  auto orOthers = [](const Plain& l, int k) {
    uint64_t mine = 0, others = 0;
    for (int j = 0; j < l.inBits; ++j)
      (j >= l.ins.first[k] && j < l.ins.first[k + 1] ? mine : others) |= l.cols[j];
    return std::pair(mine, others);
  };
  bool sameSizes = true;
  for (int k = 0; k < a.outs.count; ++k)
    sameSizes = sameSizes && a.outs.bits[k] == outer.outs.bits[outer.outs.find(a.outs.name[k])];
  for (int d = 0; d < outer.ins.count; ++d) {
    int s = a.ins.find(outer.ins.name[d]);
    if (s < 0 || a.ins.bits[s] != outer.ins.bits[d]) continue;
    bool alike = true;
    for (int j = 0; j < a.ins.bits[s] && alike; ++j) {
      uint64_t y = 0;
      alike = moveTo(a.cols[a.ins.first[s] + j], a.outs, outer.outs, y) &&
              y == outer.cols[outer.ins.first[d] + j];
    }
    auto [mineA, othersA] = orOthers(a, s);
    auto [mineO, othersO] = orOthers(outer, d);
    alike = alike && (v36 ? sameSizes : !(mineA & othersA) && !(mineO & othersO));
    if (!alike) continue;
    int out = c.outs.find(outer.ins.name[d]);
    require(out >= 0 && c.outs.bits[out] == a.ins.bits[s], "invertAndCompose",
            "an alike dim's out dim is not its size");
    for (int j = 0; j < c.inBits; ++j) {
      bool own = j >= c.ins.first[s] && j < c.ins.first[s + 1];
      if (own)
        require(c.cols[j] == c.outs.place(uint64_t{1} << (j - c.ins.first[s]), out),
                "invertAndCompose", "an alike in dim does not map to itself");
      else
        require(c.outs.field(c.cols[j], out) == 0, "invertAndCompose",
                "another input reaches an alike dim's out dim");
    }
  }
}

// first(second(x)) = x for every x of second's inputs (Def 4.5: an inverse
// undoes its layout, a layout undoes its pseudoinverse).
inline void undoesLaw(const char* op, const Plain& first, const Plain& second) {
  forInputs(second.inBits, second.cols[0], [&](uint64_t x) {
    uint64_t mid = 0, back = 0;
    require(moveTo(second(x), second.outs, first.ins, mid) &&
                moveTo(first(mid), first.outs, second.ins, back) && back == x,
            op, "does not undo its layout");
  });
}

// r is l with its dims kept or reordered by name: for every input of r,
// r(x) is l's output at the same named values, read on r's out dims.
inline void sameFunctionLaw(const char* op, const Plain& l, const Plain& r) {
  int inOf[kMaxDims], outOf[kMaxDims];  // l's dim of each dim of r
  for (int k = 0; k < r.ins.count; ++k) {
    inOf[k] = l.ins.find(r.ins.name[k]);
    require(inOf[k] >= 0 && l.ins.bits[inOf[k]] == r.ins.bits[k], op,
            "an in dim is not the layout's");
  }
  for (int k = 0; k < r.outs.count; ++k) {
    outOf[k] = l.outs.find(r.outs.name[k]);
    require(outOf[k] >= 0 && l.outs.bits[outOf[k]] == r.outs.bits[k], op,
            "an out dim is not the layout's");
  }
  forInputs(r.inBits, r.cols[0], [&](uint64_t x) {
    uint64_t lx = 0;
    for (int k = 0; k < r.ins.count; ++k) lx |= l.ins.place(r.ins.field(x, k), inOf[k]);
    uint64_t ly = l(lx), ry = r(x);
    for (int k = 0; k < r.outs.count; ++k)
      require(r.outs.field(ry, k) == l.outs.field(ly, outOf[k]), op,
              "not the layout's function on the kept dims");
  });
}

// Flattening and reshaping keep the columns.
inline void sameColumnsLaw(const char* op, const Plain& l, const Plain& r) {
  require(r.inBits == l.inBits && r.outs.total() == l.outs.total(), op, "the sizes changed");
  for (int j = 0; j < l.inBits; ++j) require(r.cols[j] == l.cols[j], op, "the columns changed");
}

}  // namespace f2lay::fuzz::algebra
