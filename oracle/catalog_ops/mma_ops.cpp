// Oracle ops for NVIDIA tensor-core layouts: the accumulator (Gluon's
// NVMMADistributedLayout), its register operands (DotOperandLayout) and the
// ldmatrix / stmatrix tiles. Parameters follow Gluon in snake_case.
#include "oracle/catalog_ops/amd_params.h"
#include "oracle/catalog_ops/dot_operand_parent.h"
#include "reference/catalog/amd_dot_operand.h"
#include "reference/catalog/dot_operand.h"
#include "reference/catalog/ldmatrix.h"
#include "reference/catalog/nvidia_mma.h"

namespace f2lay::oracle {

namespace {

const OpArg kVersion{"version", "[2, 0] (Ampere mma.sync) or [3, 0] (Hopper wgmma)"};
const OpArg kInstr{"instr_shape", "[16, 8] for version 2 ([1, 16, 8] at rank 3), [16, N, K] for 3"};

ref::catalog::NvidiaMmaParams mmaParams(const Args& a) {
  std::vector<uint64_t> warps = a.numbers("warps_per_cta");
  return {a.numbers("version"), warps, a.numbers("instr_shape"), a.cgaLayout(warps.size())};
}

}  // namespace

DotOperandParent dotOperandParent(const Args& a) {
  const Json& parent = a.raw("parent");
  if (!parent.is_object())
    throw Error(
        "dot_operand: \"parent\" must be an object: an nvidia_mma, amd_mfma or amd_wmma "
        "request's keys without \"shape\"");
  std::string op = "nvidia_mma";
  if (parent.contains("op")) {
    const Json& name = parent["op"];
    if (!name.is_string() || (name != "nvidia_mma" && name != "amd_mfma" && name != "amd_wmma"))
      throw Error(
          "dot_operand: parent: \"op\" must be \"nvidia_mma\" (the default), \"amd_mfma\" or "
          "\"amd_wmma\"");
    op = name.get<std::string>();
  }
  const OpDoc* doc = nullptr;
  for (const Op& o : opTable())
    if (o.doc.name == op) doc = &o.doc;
  for (const auto& [key, value] : parent.items()) {
    if (key == "op") continue;
    bool known = false;
    for (const OpArg& arg : doc->args) known = known || (key == arg.key && key != kShapeArg.key);
    if (!known)
      throw Error("dot_operand: parent: unknown key \"" + key + "\" for " + op +
                  (key == "shape" ? " (the operand's \"shape\" lays the parent out)" : ""));
  }
  for (const OpArg& arg : doc->args)
    if (arg.required && std::string(arg.key) != kShapeArg.key && !parent.contains(arg.key))
      throw Error("dot_operand: parent: missing key \"" + std::string(arg.key) + "\" of " + op +
                  " (" + arg.description + ")");
  if (op == "amd_wmma" && (parent.contains("warps_per_cta") || parent.contains("tiles_per_warp")))
    throw Error(
        "dot_operand: parent: amd_wmma's warps_per_cta and tiles_per_warp are Gluon 3.6's "
        "keys, whose operands Triton 3.9 does not build: give warp_bases and reg_bases");
  return {op, parent};
}

DotOperandLayoutKeys dotOperandLayout(const Args& a, const std::string& op,
                                      const std::string& family) {
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

namespace {

// The operand's layout, its parent read by the parent family's reader.
Layout dotOperandLayout(const Args& a) {
  namespace rc = ref::catalog;
  DotOperandParent parent = dotOperandParent(a);
  rc::Shape shape = a.numbers("shape");
  uint64_t index = a.number("operand_index"), kWidth = a.number("k_width");
  Args p(parent.request);
  auto read = [&](auto reader) {
    try {
      return reader();
    } catch (const Error& e) {
      throw Error(std::string("dot_operand: parent: ") + e.what());
    }
  };
  if (parent.op == "amd_mfma")
    return rc::amdMfmaDotOperand(
        {index, read([&] { return amdMfmaParams(p, shape.size()); }), kWidth}, shape);
  if (parent.op == "amd_wmma")
    return rc::amdWmmaDotOperand({index, read([&] { return amdWmmaParams(p, shape); }), kWidth},
                                 shape);
  return rc::dotOperand({index, read([&] { return mmaParams(p); }), kWidth}, shape);
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
         {"parent",
          "the accumulator: an nvidia_mma (default), amd_mfma or amd_wmma request's keys without "
          "\"shape\", \"op\" naming the family; amd_wmma with Gluon 3.9's bases"},
         {"k_width",
          "consecutive K elements per thread (a power of two): 32 / element bits "
          "for mma.sync's own fragments; amd_wmma version 1 takes 8 or 16, version 2 4, 8 or "
          "16"},
         {"shape", "the operand's tensor shape (powers of two)"}},
        "layout",
        "Gluon's DotOperandLayout at `shape`, with an NVMMADistributedLayout (version 3 takes "
        "operand 0 only), AMDMFMALayout or AMDWMMALayout parent; warps along K are broadcast; a "
        "parent's cga_layout gives the operand's CTA tiling as Triton 3.9 builds it"},
       [](const Args& a) { return layoutJson(dotOperandLayout(a)); }},
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

}  // namespace f2lay::oracle
