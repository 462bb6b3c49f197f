// The tests that hold f2lay::opt to f2lay::ref write a computation once, as
// a template over the layout type, and run it on each implementation; the
// two outcomes (outcome.h: the answer, or the error's words) must be equal.
// The one header of testing/ that names the implementations: header-only, so
// that f2lay_testkit itself links neither (its evaluators must not use
// them); the targets that include it link both.
#pragma once

#include <type_traits>

#include "optimized/opt_linear_layout.h"
#include "reference/linear_layout.h"
#include "testkit/outcome.h"

namespace f2lay::testkit {

// opt's layout of the same value.
inline opt::LinearLayout toOpt(const ref::LinearLayout& l) { return opt::LinearLayout(l.value()); }

template <class T>
struct Both {
  Outcome<T> ref, opt;
  bool same() const { return ref == opt; }
};

// op.template operator()<L>() for L = ref::LinearLayout, then for
// opt::LinearLayout (op is a template lambda, [&]<class L>() { ... }, whose
// answer has the same type on both), each outcome kept.
template <class Op>
auto onBoth(const Op& op) {
  using T = std::decay_t<decltype(op.template operator()<ref::LinearLayout>())>;
  return Both<T>{testkit::attempt([&] { return op.template operator()<ref::LinearLayout>(); }),
                 testkit::attempt([&] { return op.template operator()<opt::LinearLayout>(); })};
}

}  // namespace f2lay::testkit
