// Layout A of the paper's Figure 1 ("Linear Layouts", Zhou et al. 2025, §4.1),
// checked with both implementations: f2lay::ref (the reference model) and
// f2lay::opt (bit-packed, same API). Prints each check; exits 1 on a failure.
#include <cstdint>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "formats/error.h"
#include "formats/layout_value.h"
#include "optimized/opt_linear_layout.h"
#include "reference/linear_layout.h"

namespace {

int failures = 0;
// (dim name, value) pairs, as both implementations' apply takes and returns.
using Values = std::vector<std::pair<std::string, uint64_t>>;

void check(bool ok, const std::string& what) {
  std::cout << (ok ? "ok      " : "FAILED  ") << what << "\n";
  if (!ok) ++failures;
}

// A 16x16 tensor held by 2x2 registers, 4x8 lanes and 2x1 warps.
f2lay::LayoutValue figure1A() {
  return {{{"register", {{0, 1}, {1, 0}}},
           {"lane", {{0, 2}, {0, 4}, {0, 8}, {2, 0}, {4, 0}}},
           {"warp", {{8, 0}}}},
          {{"dim0", 16}, {"dim1", 16}}};
}

// The checks that hold for either implementation, written once.
template <class Layout>
void checkFigure1(const Layout& a, const std::string& impl) {
  Values where = {{"register", 1}, {"lane", 9}, {"warp", 0}};
  Values element = {{"dim0", 2}, {"dim1", 3}};
  check(a.apply(where) == element, impl + ": register 1 of lane 9, warp 0 holds (2,3)");
  check(a.isInvertible(), impl + ": the layout is invertible");
  check(a.invert().apply(element) == where,
        impl + ": its inverse finds (2,3) at register 1 of lane 9");
  // Each hardware index comes back to itself through the tensor.
  Layout identity = Layout::identity1D(4, "register", "register") *
                    Layout::identity1D(32, "lane", "lane") * Layout::identity1D(2, "warp", "warp");
  check(a.compose(a.invert()) == identity, impl + ": A then its inverse is the identity");
}

}  // namespace

int main() {
  try {
    f2lay::ref::LinearLayout ref(figure1A());
    f2lay::opt::LinearLayout opt(figure1A());
    checkFigure1(ref, "ref");
    checkFigure1(opt, "opt");
    check(ref.invert().value() == opt.invert().value(), "ref and opt give the same inverse");
  } catch (const f2lay::Error& e) {  // a broken rule or precondition, named
    check(false, e.what());
  }
  std::cout << (failures == 0 ? "all checks passed" : "some checks failed") << "\n";
  return failures == 0 ? 0 : 1;
}
