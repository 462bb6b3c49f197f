// Oracle ops for blocked layouts. Parameters follow Gluon's BlockedLayout in
// snake_case; "cga_layout" gives the CTA tiling as block bases, as Gluon does
// (omitted: one CTA).
#include "blocked.h"
#include "op_table.h"

namespace f2lay::tools {

namespace {

// Gluon's cga_layout: one basis (a value per dim) per block bit.
std::optional<Layout> cgaLayoutArg(const Args& a, size_t rank) {
  if (!a.has("cga_layout")) return std::nullopt;
  std::vector<std::vector<uint64_t>> bases = a.numberLists("cga_layout");
  LayoutValue v{{{"block", {}}}, {}};
  std::vector<uint64_t> sizes(rank, 1);
  for (size_t i = 0; i < bases.size(); ++i) {
    if (bases[i].size() != rank)
      throw Error("cga_layout[" + std::to_string(i) + "]: has " + std::to_string(bases[i].size()) +
                  " values, expected one per dim (" + std::to_string(rank) + ")");
    for (size_t k = 0; k < rank; ++k)
      while (sizes[k] <= bases[i][k]) sizes[k] *= 2;
    v.in_dims[0].bases.push_back(bases[i]);
  }
  for (size_t k = 0; k < rank; ++k) v.out_dims.push_back({"dim" + std::to_string(k), sizes[k]});
  return Layout(std::move(v));
}

}  // namespace

std::vector<Op> blockedOps() {
  return {
      {{"blocked",
        {{"size_per_thread", "elements per thread, per dim (powers of two)"},
         {"threads_per_warp", "threads per warp, per dim"},
         {"warps_per_cta", "warps per CTA, per dim"},
         {"order", "dims from fastest to slowest, a permutation of 0..rank-1"},
         {"cga_layout", "block bases, one value per dim each (default: one CTA)", false},
         {"shape", "the tensor shape (powers of two)"}},
        "layout", "Gluon's BlockedLayout at `shape`: register, lane, warp, block -> dim0.."},
       [](const Args& a) {
         ref::catalog::Shape shape = a.numbers("shape");
         std::vector<uint64_t> order = a.numbers("order");
         return layoutJson(ref::catalog::blocked(
             {a.numbers("size_per_thread"), a.numbers("threads_per_warp"),
              a.numbers("warps_per_cta"), std::vector<unsigned>(order.begin(), order.end()),
              cgaLayoutArg(a, shape.size())},
             shape));
       }},
  };
}

}  // namespace f2lay::tools
