// Oracle ops for Blackwell tensor memory: Gluon's TensorMemoryLayout and
// TensorMemoryScalesLayout (row, col, block -> dim0, dim1) and the register
// layouts of tcgen05.ld/st (Gluon's get_reg_layout, compute_tmem_reg_layout:
// register, lane, warp, block -> dim0, dim1). Keys are Gluon's in snake_case;
// tmem_reg_layout takes the tensor memory layout's keys flat, beside its own
// (Gluon's argument "layout": "layout" is a layout's JSON in every other op
// and in vectors/schema.json), and the element type as its bit width.
#include "oracle/op_table.h"
#include "reference/catalog/tensor_memory.h"
#include "reference/catalog/tmem_reg_layout.h"

namespace f2lay::oracle {

namespace {

const OpArg kBlock{"block", "[blockM, blockN]: TMEM rows of the MMA tile (64 or 128) and columns"};
const OpArg kColStride{"col_stride",
                       "32-bit columns between adjacent elements: 1 packed, 32 / bits unpacked"};
const OpArg kTwoCtas{"two_ctas",
                     "two-CTA MMA (the first cga_layout basis is [1, 0]; default false)", false};
const OpArg kFp4Padded{"fp4_padded", "padded fp4 operand A, one byte per element (default false)",
                       false};

ref::catalog::TensorMemoryParams tmemParams(const Args& a) {
  std::vector<uint64_t> block = a.numbers("block");
  if (block.size() != 2)
    throw Error("block: must hold 2 values [blockM, blockN], got " + std::to_string(block.size()));
  return {{block[0], block[1]},
          a.number("col_stride"),
          a.cgaLayout(2),
          a.has("two_ctas") && a.boolean("two_ctas"),
          a.has("fp4_padded") && a.boolean("fp4_padded")};
}

}  // namespace

std::vector<Op> tmemOps() {
  return {
      {{"tensor_memory",
        {kBlock, kColStride, kCgaArg, kTwoCtas, kFp4Padded, kShapeArg},
        "layout",
        "Gluon's TensorMemoryLayout (Blackwell TMEM) at `shape` (rank 2): row (TMEM lane), col "
        "(32-bit column), block -> dim0, dim1"},
       [](const Args& a) {
         return layoutJson(ref::catalog::tensorMemory(tmemParams(a), a.numbers("shape")));
       }},
      {{"tensor_memory_scales",
        {kCgaArg, kShapeArg},
        "layout",
        "Gluon's TensorMemoryScalesLayout (MMA scale factors in TMEM) at `shape` (rank 2): row, "
        "col, block -> dim0, dim1"},
       [](const Args& a) {
         std::vector<uint64_t> shape = a.numbers("shape");
         return layoutJson(ref::catalog::tensorMemoryScales(a.cgaLayout(2), shape));
       }},
      {{"tmem_reg_layout",
        {{"element_bitwidth", "bits of the element type: 8, 16 or 32"},
         kShapeArg,
         {"alloc_shape", "the allocation's shape (default: shape); its last two dims hold shape",
          false},
         kBlock,
         kColStride,
         kCgaArg,
         kTwoCtas,
         kFp4Padded,
         {"num_warps", "warps of the CTA: a power of two, at least 4"},
         {"instr_variant",
          "tcgen05.ld/st shape: 32x32b (default), 16x64b, 16x128b, 16x256b or 32x32b_splitn",
          false}},
        "layout",
        "Gluon's compute_tmem_reg_layout (tensor_memory_descriptor.get_reg_layout): the register "
        "layout of a tcgen05.ld/st of the tensor in the tensor memory layout given by block .. "
        "fp4_padded (tensor_memory's keys), register, lane, warp, block -> dim0, dim1"},
       [](const Args& a) {
         std::vector<uint64_t> shape = a.numbers("shape");
         ref::catalog::TmemRegParams p;
         p.elementBitwidth = a.number("element_bitwidth");
         p.shape = shape;
         p.allocShape = a.has("alloc_shape") ? a.numbers("alloc_shape") : shape;
         p.layout = tmemParams(a);
         p.numWarps = a.number("num_warps");
         if (a.has("instr_variant")) {
           // Not an identifier ("32x32b"): read as a plain string.
           const Json& v = a.raw("instr_variant");
           if (!v.is_string()) throw Error("instr_variant: expected a string");
           p.instrVariant = v.get<std::string>();
         }
         return layoutJson(ref::catalog::tmemRegLayout(p));
       }},
  };
}

}  // namespace f2lay::oracle
