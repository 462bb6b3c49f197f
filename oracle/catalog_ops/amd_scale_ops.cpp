// Oracle ops for the scale operands of AMD's scaled matrix instructions:
// Gluon's ttgl.amd.cdna4.get_mfma_scale_layout and
// ttgl.amd.cdna5.get_wmma_scale_layout, whose arguments are the operand's
// DotOperandLayout, the scale tensor's shape and the scale factor. Both ops
// read their keys the same way; a table row says what differs.
#include "oracle/catalog_ops/amd_params.h"
#include "oracle/catalog_ops/dot_operand_parent.h"
#include "reference/catalog/amd_scale.h"

namespace f2lay::oracle {

namespace {

// One scale op: its name, its parent's family, the help of its keys and
// result, and the constructor reading the parent's keys at the scale's shape.
struct ScaleOp {
  const char* name;
  const char* family;
  const char* operandHelp;
  const char* factorHelp;
  const char* meaning;
  ref::LinearLayout (*build)(const DotOperandLayoutKeys& o, const Args& parent,
                             const ref::catalog::Shape& shape, uint64_t factor);
};

const ScaleOp kScaleOps[] = {
    {"amd_mfma_scale", "amd_mfma",
     "the scaled operand: a dot_operand request's keys without \"shape\", its parent an amd_mfma "
     "with instr_shape M 16 or 32, rank 2",
     "operand elements per scale: 32 (the default, the only one)",
     "Gluon's get_mfma_scale_layout (CDNA4 scaled MFMA): the scale operand's register, lane, "
     "warp, block -> dim0 (non-K), dim1 (K groups)",
     [](const DotOperandLayoutKeys& o, const Args& p, const ref::catalog::Shape& shape,
        uint64_t factor) {
       return ref::catalog::amdMfmaScale({o.index, amdMfmaParams(p, shape.size()), o.kWidth}, shape,
                                         factor);
     }},
    {"amd_wmma_scale", "amd_wmma",
     "the scaled operand: a dot_operand request's keys without \"shape\", its parent an amd_wmma "
     "(Gluon 3.9's bases), rank 2",
     "operand elements per scale: 16 or 32 (default 32)",
     "Gluon's get_wmma_scale_layout (gfx1250 scaled WMMA): the scale operand's register, lane, "
     "warp, block -> dim0 (non-K), dim1 (K groups)",
     [](const DotOperandLayoutKeys& o, const Args& p, const ref::catalog::Shape& shape,
        uint64_t factor) {
       return ref::catalog::amdWmmaScale({o.index, amdWmmaParams(p, shape), o.kWidth}, shape,
                                         factor);
     }},
};

Op scaleOp(const ScaleOp& s) {
  return {{s.name,
           {{"dot_operand_layout", s.operandHelp},
            {"shape", "the scale tensor's shape [non-K, K / scale_factor] (powers of two)"},
            {"scale_factor", s.factorHelp, false}},
           "layout",
           s.meaning},
          [&s](const Args& a) {
            DotOperandLayoutKeys o = dotOperandLayout(a, s.name, s.family);
            ref::catalog::Shape shape = a.numbers("shape");
            uint64_t factor = a.has("scale_factor") ? a.number("scale_factor") : 32;
            return layoutJson(s.build(o, Args(o.parent), shape, factor));
          }};
}

}  // namespace

std::vector<Op> amdScaleOps() {
  std::vector<Op> ops;
  for (const ScaleOp& s : kScaleOps) ops.push_back(scaleOp(s));
  return ops;
}

}  // namespace f2lay::oracle
