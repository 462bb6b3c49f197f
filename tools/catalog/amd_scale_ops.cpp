// Oracle ops for the scale operands of AMD's scaled matrix instructions:
// Gluon's ttgl.amd.cdna4.get_mfma_scale_layout and
// ttgl.amd.cdna5.get_wmma_scale_layout, whose arguments are the operand's
// DotOperandLayout, the scale tensor's shape and the scale factor.
#include "reference/catalog/amd_scale.h"
#include "tools/catalog/amd_params.h"
#include "tools/catalog/dot_operand_parent.h"

namespace f2lay::tools {

namespace {

const OpArg kScaleShape{"shape",
                        "the scale tensor's shape [non-K, K / scale_factor] (powers of two)"};

// The operand of a scale request: "dot_operand_layout" holds a dot_operand
// request's keys without "shape" ("op", if given, dot_operand), its parent
// of the family `family`.
struct Operand {
  uint64_t index, kWidth;
  Json parent;
};

Operand operandOf(const Args& a, const std::string& op, const std::string& family) {
  const Json& d = a.raw("dot_operand_layout");
  std::string what = op + ": dot_operand_layout";
  if (!d.is_object())
    throw Error(what + " must be an object: a dot_operand request's keys without \"shape\"");
  for (const auto& [key, value] : d.items()) {
    if (key == "op" && value == "dot_operand") continue;
    if (key != "operand_index" && key != "parent" && key != "k_width")
      throw Error(what + ": unknown key \"" + key +
                  "\" (operand_index, parent and k_width; \"op\" may be dot_operand)");
  }
  for (const char* key : {"operand_index", "parent", "k_width"})
    if (!d.contains(key)) throw Error(what + ": missing key \"" + key + "\"");
  Args args(d);
  DotOperandParent parent = dotOperandParent(args);
  if (parent.op != family)
    throw Error(what + ": the parent must be " + family + " (\"op\": \"" + family + "\")");
  return {args.number("operand_index"), args.number("k_width"), parent.request};
}

uint64_t scaleFactor(const Args& a) {
  return a.has("scale_factor") ? a.number("scale_factor") : 32;
}

}  // namespace

std::vector<Op> amdScaleOps() {
  return {
      {{"amd_mfma_scale",
        {{"dot_operand_layout",
          "the scaled operand: a dot_operand request's keys without \"shape\", its parent an "
          "amd_mfma with instr_shape M 16 or 32, rank 2"},
         kScaleShape,
         {"scale_factor", "operand elements per scale: 32 (the default, the only one)", false}},
        "layout",
        "Gluon's get_mfma_scale_layout (CDNA4 scaled MFMA): the scale operand's register, lane, "
        "warp, block -> dim0 (non-K), dim1 (K groups)"},
       [](const Args& a) {
         Operand o = operandOf(a, "amd_mfma_scale", "amd_mfma");
         ref::catalog::Shape shape = a.numbers("shape");
         Args p(o.parent);
         return layoutJson(ref::catalog::amdMfmaScale(
             {o.index, amdMfmaParams(p, shape.size()), o.kWidth}, shape, scaleFactor(a)));
       }},
      {{"amd_wmma_scale",
        {{"dot_operand_layout",
          "the scaled operand: a dot_operand request's keys without \"shape\", its parent an "
          "amd_wmma (Gluon 3.9's bases), rank 2"},
         kScaleShape,
         {"scale_factor", "operand elements per scale: 16 or 32 (default 32)", false}},
        "layout",
        "Gluon's get_wmma_scale_layout (gfx1250 scaled WMMA): the scale operand's register, "
        "lane, warp, block -> dim0 (non-K), dim1 (K groups)"},
       [](const Args& a) {
         Operand o = operandOf(a, "amd_wmma_scale", "amd_wmma");
         ref::catalog::Shape shape = a.numbers("shape");
         Args p(o.parent);
         return layoutJson(ref::catalog::amdWmmaScale({o.index, amdWmmaParams(p, shape), o.kWidth},
                                                      shape, scaleFactor(a)));
       }},
  };
}

}  // namespace f2lay::tools
