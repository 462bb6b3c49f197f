// Oracle ops for memory layouts (paper §4.3). Parameters follow Gluon's
// SwizzledSharedLayout and NVMMASharedLayout in snake_case; "cga_layout"
// gives the CTA tiling as block bases, as Gluon does (omitted: one CTA).
// Results map offset and block to dim0...
#include "oracle/catalog_ops/amd_params.h"
#include "oracle/catalog_ops/dot_operand_parent.h"
#include "oracle/op_table.h"
#include "reference/catalog/nvmma_shared.h"
#include "reference/catalog/padded_shared.h"
#include "reference/catalog/shared.h"

namespace f2lay::oracle {

namespace {

// padded_shared's answer (reference/catalog/padded_shared.h): the linear
// layout's JSON and "padding": [[interval, padding], ...].
Json paddedJson(const ref::catalog::PaddedShared& p) {
  Json out = layoutJson(p.linear);
  Json pairs = Json::array();
  for (const analysis::PaddingPair& q : p.padding) pairs.push_back({q.interval, q.padding});
  out["padding"] = pairs;
  return out;
}

}  // namespace

std::vector<Op> sharedOps() {
  return {
      {{"unswizzled_shared",
        {kOrderArg, kCgaArg, kShapeArg},
        "layout",
        "the paper's unswizzled memory layout (SwizzledSharedLayout with vec = per_phase = "
        "max_phase = 1) at `shape`: offset, block -> dim0.."},
       [](const Args& a) {
         ref::catalog::Shape shape = a.numbers("shape");
         return layoutJson(ref::catalog::unswizzledShared(a.order("order", shape.size()), shape,
                                                          a.cgaLayout(shape.size())));
       }},
      {{"swizzled_shared",
        {{"vec", "elements per swizzled group (power of two)"},
         {"per_phase", "rows sharing one phase (power of two)"},
         {"max_phase", "number of distinct phases (power of two)"},
         kOrderArg,
         kCgaArg,
         kShapeArg},
        "layout",
        "Gluon's SwizzledSharedLayout (Def 4.11 mma swizzling) at `shape`: offset, block -> "
        "dim0.."},
       [](const Args& a) {
         ref::catalog::Shape shape = a.numbers("shape");
         return layoutJson(ref::catalog::swizzledShared(
             {a.number("vec"), a.number("per_phase"), a.number("max_phase"),
              a.order("order", shape.size()), a.cgaLayout(shape.size())},
             shape));
       }},
      {{"nvmma_shared",
        {{"swizzle_byte_width", "0, 32, 64 or 128"},
         {"element_bitwidth", "8, 16, 32 or 64"},
         {"transposed", "the contiguous dim is dim0 (default false)", false},
         {"fp4_padded", "fp4 pairs padded to 16-byte groups (default false)", false},
         kCgaArg,
         kShapeArg,
         {"triton", "\"3.9\" (default) or \"3.6\": 3.6 ignored transposed without a swizzle",
          false}},
        "layout",
        "Gluon's NVMMASharedLayout (rank = the shape's) at `shape`: offset, block -> dim0.."},
       [](const Args& a) {
         ref::catalog::Shape shape = a.numbers("shape");
         return layoutJson(ref::catalog::nvmmaShared(
             {a.number("swizzle_byte_width"), a.number("element_bitwidth"),
              a.has("transposed") && a.boolean("transposed"),
              a.has("fp4_padded") && a.boolean("fp4_padded"), a.cgaLayout(shape.size()),
              a.triton()},
             shape));
       }},
      {{"padded_shared",
        {{"interval_padding_pairs",
          "[[interval, padding], ...]: after every interval elements, padding elements are "
          "inserted (powers of two, intervals distinct)"},
         {"offset_bases",
          "the offset bases, one value per dim each: each a power of two in one dim, per dim "
          "1, 2, 4, ... each once"},
         {"cga_layout",
          "block bases in CTA tiles, one value per dim each (zero or a power of two in one dim; "
          "default: one CTA)",
          false},
         {"shape", "the tensor shape: the size the offset and block bases span"}},
        "layout with \"padding\"",
        "Gluon's PaddedSharedLayout: the linear layout offset, block -> dim0.. (Triton's "
        "linear component) and \"padding\": the element at linear offset o is stored at "
        "o + sum of (o / interval) * padding (Triton's emitPadding)"},
       [](const Args& a) {
         std::vector<Basis> cga;
         if (a.has("cga_layout")) cga = a.numberLists("cga_layout");
         return paddedJson(
             ref::catalog::paddedShared({a.paddingPairs("interval_padding_pairs"),
                                         a.numberLists("offset_bases"), cga, a.numbers("shape")}));
       }},
      {{"padded_shared_identity",
        {{"interval_padding_pairs", "[[interval, padding], ...] (powers of two)"},
         kOrderArg,
         {"cga_layout", "block bases in CTA tiles (default: one CTA)", false},
         kShapeArg},
        "layout with \"padding\"",
        "Gluon's PaddedSharedLayout.with_identity_for(interval_padding_pairs, shape, order, "
        "cga_layout): offsets walk each CTA's part of `shape` along `order`"},
       [](const Args& a) {
         std::vector<Basis> cga;
         if (a.has("cga_layout")) cga = a.numberLists("cga_layout");
         ref::catalog::Shape shape = a.numbers("shape");
         return paddedJson(ref::catalog::paddedShared(
             ref::catalog::paddedSharedIdentityFor(a.paddingPairs("interval_padding_pairs"), shape,
                                                   a.order("order", shape.size()), cga)));
       }},
      {{"compute_amd_efficient_padded_shared_layout",
        {{"dot_operand_layout",
          "the operand: a dot_operand request's keys without \"shape\", its parent an amd_mfma "
          "of version 4 (CDNA4), one CTA"},
         {"shape", "the shared tile: [BM, BK] for operand A, [BK, BN] for B (powers of two)"},
         {"element_bitwidth", "bits per element in shared memory (Gluon's dtype; 4, 8 or 16)"},
         {"is_k_contig", "K is the contiguous dim in shared memory (default true)", false}},
        "layout with \"padding\", or null",
        "AMD's padded layout for a CDNA4 dot operand (Gluon's "
        "ttgl.amd.cdna4.compute_efficient_padded_shared_layout, Triton's "
        "composePaddedLayoutForAsyncCopyCDNA4); null where Gluon returns None"},
       [](const Args& a) {
         const char* op = "compute_amd_efficient_padded_shared_layout";
         DotOperandLayoutKeys o = dotOperandLayout(a, op, "amd_mfma");
         Args parentArgs(o.parent);
         ref::catalog::AmdMfmaParams parent = amdMfmaParams(parentArgs, 2);
         if (parent.version != 4)
           throw Error(std::string(op) + ": dot_operand_layout: the parent's version is " +
                       std::to_string(parent.version) + "; Gluon takes MFMA v4 (CDNA4) only");
         if (parent.cgaLayout)
           throw Error(std::string(op) +
                       ": dot_operand_layout: a parent with a cga_layout; f2lay builds this "
                       "layout for one CTA");
         if (o.index > 1)
           throw Error(std::string(op) + ": dot_operand_layout: operand_index = " +
                       std::to_string(o.index) + " is out of range: 0 (A) or 1 (B)");
         // The rule reads only the instruction's non-K size of this operand.
         auto p = ref::catalog::amdEfficientPaddedShared(
             {o.index, o.kWidth, parent.instrShape[o.index], a.numbers("shape"),
              a.number("element_bitwidth"), !a.has("is_k_contig") || a.boolean("is_k_contig")});
         return p ? paddedJson(*p) : Json(nullptr);
       }},
      {{"padded_address",
        {{"shared", "a padded memory layout, as padded_shared answers it (or a plain one)"},
         {"element", "the element's coordinates, e.g. {\"dim0\": 3, \"dim1\": 1}"}},
        "{offset, block, address}",
        "where a padded memory layout stores an element: its linear offset and block "
        "(shared^-1) and its padded address in elements, offset + sum of (offset / interval) "
        "* padding"},
       [](const Args& a) {
         auto [shared, padding] = a.paddedLayoutAs<Layout>("shared");
         if (!shared.isSurjective())
           throw Error("shared: is not surjective, so some element has no offset");
         // A broadcast block bit (a zero cga_layout basis) is taken as 0.
         ref::DimValues at = shared.pseudoinvert().apply(a.dimValues("element"));
         Json out = dimValuesJson(at);
         uint64_t offset = 0;
         for (const auto& [d, v] : at)
           if (d == "offset") offset = v;
         out["address"] = analysis::paddedOffset(padding, offset);
         return out;
       }},
  };
}

}  // namespace f2lay::oracle
