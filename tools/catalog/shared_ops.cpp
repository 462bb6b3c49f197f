// Oracle ops for memory layouts (paper §4.3). Parameters follow Gluon's
// SwizzledSharedLayout and NVMMASharedLayout in snake_case; "cga_layout"
// gives the CTA tiling as block bases, as Gluon does (omitted: one CTA).
// Results map offset and block to dim0...
#include "reference/catalog/nvmma_shared.h"
#include "reference/catalog/shared.h"
#include "tools/op_table.h"

namespace f2lay::tools {

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
  };
}

}  // namespace f2lay::tools
