// Oracle ops for NVIDIA tensor-core layouts: the accumulator (Gluon's
// NVMMADistributedLayout), its register operands (DotOperandLayout) and the
// ldmatrix / stmatrix tiles. Parameters follow Gluon in snake_case.
#include "reference/catalog/dot_operand.h"
#include "reference/catalog/ldmatrix.h"
#include "reference/catalog/nvidia_mma.h"
#include "tools/op_table.h"

namespace f2lay::tools {

namespace {

const OpArg kVersion{"version", "[2, 0] (Ampere mma.sync) or [3, 0] (Hopper wgmma)"};
const OpArg kInstr{"instr_shape", "[16, 8] for version 2 ([1, 16, 8] at rank 3), [16, N, K] for 3"};

ref::catalog::NvidiaMmaParams mmaParams(const Args& a) {
  std::vector<uint64_t> warps = a.numbers("warps_per_cta");
  return {a.numbers("version"), warps, a.numbers("instr_shape"), a.cgaLayout(warps.size())};
}

// dot_operand's "parent": the keys of an nvidia_mma request without "shape"
// ("op", if given, must be nvidia_mma). Errors name the parent's key.
ref::catalog::NvidiaMmaParams parentParams(const Args& a) {
  const Json& parent = a.raw("parent");
  if (!parent.is_object())
    throw Error(
        "dot_operand: \"parent\" must be an object: an nvidia_mma request's keys "
        "without \"shape\"");
  for (const auto& [key, value] : parent.items()) {
    if (key == "op") {
      if (!value.is_string() || value.get<std::string>() != "nvidia_mma")
        throw Error(
            "dot_operand: parent: \"op\" must be \"nvidia_mma\" (the only parent "
            "supported)");
    } else if (key != kVersion.key && key != kWarpsArg.key && key != kInstr.key) {
      throw Error("dot_operand: parent: unknown key \"" + key + "\"");
    }
  }
  for (const OpArg* arg : {&kVersion, &kWarpsArg, &kInstr})
    if (!parent.contains(arg->key))
      throw Error(std::string("dot_operand: parent: missing key \"") + arg->key + "\" (" +
                  arg->description + ")");
  try {
    return mmaParams(Args(parent));
  } catch (const Error& e) {
    throw Error(std::string("dot_operand: parent: ") + e.what());
  }
}

}  // namespace

std::vector<Op> mmaOps() {
  return {
      {{"nvidia_mma",
        {kVersion, kWarpsArg, kInstr, kCgaArg, kShapeArg},
        "layout",
        "Gluon's NVMMADistributedLayout at `shape`: the mma.sync / wgmma accumulator, "
        "register, lane, warp, block -> dim0.."},
       [](const Args& a) {
         return layoutJson(ref::catalog::nvidiaMma(mmaParams(a), a.numbers("shape")));
       }},
      {{"dot_operand",
        {{"operand_index", "0 (A, K along the last dim) or 1 (B, K along the one before)"},
         {"parent", "the accumulator: an nvidia_mma request's keys without \"op\" and \"shape\""},
         {"k_width",
          "consecutive K elements per thread (a power of two): 32 / element bits "
          "for mma.sync's own fragments"},
         {"shape", "the operand's tensor shape (powers of two)"}},
        "layout",
        "Gluon's DotOperandLayout with an NVMMADistributedLayout parent at `shape`; warps along "
        "K are broadcast; version 3 takes operand 0 only"},
       [](const Args& a) {
         return layoutJson(ref::catalog::dotOperand(
             {a.number("operand_index"), parentParams(a), a.number("k_width")},
             a.numbers("shape")));
       }},
      {{"ldmatrix",
        {{"count", "matrices per instruction: 1, 2 or 4 (.x1, .x2, .x4)"},
         {"trans", "true for .trans (default false)", false}},
        "layout",
        "b16 m8n8 ldmatrix / stmatrix ownership: register (bit 0: the 16-bit half; above: the "
        "matrix), lane -> row, col, matrix"},
       [](const Args& a) {
         return layoutJson(ref::catalog::ldmatrix(
             {a.number("count"), a.has("trans") ? a.boolean("trans") : false}));
       }},
  };
}

}  // namespace f2lay::tools
