// Oracle ops for layouts given by their bases (Gluon's DistributedLinearLayout,
// TTGIR's #ttg.linear on a tensor of any shape, and SharedLinearLayout, keys in
// snake_case) and Gluon's make_cga_layout,
// which turns Triton's legacy CTA tiling into cga_layout bases.
#include "oracle/op_table.h"
#include "reference/catalog/linear.h"

namespace f2lay::oracle {

namespace {

std::vector<std::vector<uint64_t>> basesOrNone(const Args& a, const char* key) {
  return a.has(key) ? a.numberLists(key) : std::vector<std::vector<uint64_t>>{};
}

}  // namespace

std::vector<Op> linearOps() {
  return {
      {{"distributed_linear",
        {{"reg_bases", "per register bit, its tensor element (one value per dim)"},
         {"lane_bases", "per lane bit, the same"},
         {"warp_bases", "per warp bit, the same"},
         {"block_bases", "per block (CTA) bit, the same (default [])", false},
         kShapeArg},
        "layout",
        "Gluon's DistributedLinearLayout: register, lane, warp, block -> dim0.., the bases as "
        "given once Triton 3.9's rules hold (each non-zero basis one power of two in one dim, "
        "none repeated, every element of `shape` held)"},
       [](const Args& a) {
         return layoutJson(ref::catalog::distributedLinear(
             {a.numberLists("reg_bases"), a.numberLists("lane_bases"), a.numberLists("warp_bases"),
              basesOrNone(a, "block_bases")},
             a.numbers("shape")));
       }},
      {{"linear_encoding",
        {{"reg_bases", "per register bit, its tensor element (one value per dim)"},
         {"lane_bases", "per lane bit, the same"},
         {"warp_bases", "per warp bit, the same"},
         {"block_bases", "per block (CTA) bit, the same (default [])", false},
         kShapeArg},
        "layout",
        "Triton's LinearEncodingAttr (#ttg.linear in TTGIR) on a tensor of `shape`: the bases, "
        "checked at their own extent as distributed_linear checks them, fitted to `shape` as "
        "toLinearLayout does (a smaller tile repeats over registers; beyond a smaller shape, "
        "registers are dropped and lanes and warps hold copies)"},
       [](const Args& a) {
         return layoutJson(ref::catalog::linearEncoding(
             {a.numberLists("reg_bases"), a.numberLists("lane_bases"), a.numberLists("warp_bases"),
              basesOrNone(a, "block_bases")},
             a.numbers("shape")));
       }},
      {{"shared_linear",
        {{"offset_bases", "per offset bit, its tensor element (one value per dim)"},
         {"block_bases", "per block (CTA) bit, the same (default [])", false},
         {"alignment", "the buffer's alignment in bytes, a power of two (default 16)", false}},
        "layout",
        "Gluon's SharedLinearLayout: offset, block -> dim0.., the bases as given once they are "
        "a bijection (zero bases aside) onto Gluon's shape: per dim, the power of two above its "
        "largest value"},
       [](const Args& a) {
         return layoutJson(ref::catalog::sharedLinear(
             {a.numberLists("offset_bases"), basesOrNone(a, "block_bases"),
              a.has("alignment") ? a.number("alignment") : 16}));
       }},
      {{"make_cga_layout",
        {{"ctas_per_cga", "CTAs per CGA, per dim (powers of two)"},
         {"cta_split_num", "distinct CTA tiles per dim, each at most ctas_per_cga's"},
         {"cta_order", "dims from fastest to slowest, a permutation of 0..rank-1"}},
        "layout",
        "Gluon's make_cga_layout: Triton's legacy CTA tiling as block -> dim0.. (its block bases "
        "are the cga_layout every family takes); per dim from cta_order[0], cta_split_num "
        "distinct CTAs, then the rest holding copies"},
       [](const Args& a) { return layoutJson(legacyCgaLayout(a, a.numbers("cta_order").size())); }},
  };
}

}  // namespace f2lay::oracle
