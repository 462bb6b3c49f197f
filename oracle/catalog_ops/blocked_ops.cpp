// Oracle ops for blocked layouts. Parameters follow Gluon's BlockedLayout in
// snake_case; "cga_layout" gives the CTA tiling as block bases, as Gluon does
// (omitted: one CTA), or Triton's legacy CTALayoutAttr gives it as
// "ctas_per_cga", "cta_split_num" and "cta_order" (all three together).
#include "oracle/op_table.h"
#include "reference/catalog/blocked.h"

namespace f2lay::oracle {

namespace {

// Triton's legacy CTALayoutAttr (legacyCgaLayout), or Gluon's cga_layout bases.
std::optional<Layout> cgaArg(const Args& a, size_t rank) {
  const char* legacy[] = {"ctas_per_cga", "cta_split_num", "cta_order"};
  int given = 0;
  for (const char* key : legacy) given += a.has(key) ? 1 : 0;
  if (given == 0) return a.cgaLayout(rank);
  if (a.has("cga_layout"))
    throw Error(
        "blocked: give either \"cga_layout\" or the legacy \"ctas_per_cga\", "
        "\"cta_split_num\", \"cta_order\", not both");
  return legacyCgaLayout(a, rank);
}

}  // namespace

std::vector<Op> blockedOps() {
  return {
      {{"blocked",
        {{"size_per_thread", "elements per thread, per dim (powers of two)"},
         {"threads_per_warp", "threads per warp, per dim"},
         kWarpsArg,
         kOrderArg,
         kCgaArg,
         {"ctas_per_cga", "legacy CTAsPerCGA, per dim (with cta_split_num, cta_order)", false},
         {"cta_split_num", "legacy CTASplitNum: distinct CTA tiles per dim", false},
         {"cta_order", "legacy CTAOrder: a permutation of 0..rank-1", false},
         kShapeArg,
         {"triton",
          "\"3.9\" (default) or \"3.6\": 3.6 kept the registers past a smaller "
          "shape as broadcasts, 3.9 removes them",
          false}},
        "layout",
        "Gluon's BlockedLayout at `shape`: register, lane, warp, block -> dim0.."},
       [](const Args& a) {
         ref::catalog::Shape shape = a.numbers("shape");
         return layoutJson(
             ref::catalog::blocked({a.numbers("size_per_thread"), a.numbers("threads_per_warp"),
                                    a.numbers("warps_per_cta"), a.order("order", shape.size()),
                                    cgaArg(a, shape.size()), a.triton()},
                                   shape));
       }},
  };
}

}  // namespace f2lay::oracle
