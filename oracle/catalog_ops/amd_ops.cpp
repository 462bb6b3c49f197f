// Oracle ops for AMD matrix-core accumulators: Gluon's ttgl.amd.AMDMFMALayout
// and AMDWMMALayout, parameters in snake_case, plus "shape".
#include "oracle/catalog_ops/amd_params.h"

namespace f2lay::oracle {

namespace {

const OpArg kShape{"shape", "the tensor shape (powers of two), rank 2 or 3 (a leading batch dim)"};
const OpArg kTransposed{"transposed", "true: each lane holds consecutive columns of a row"};
const OpArg kTiles{"tiles_per_warp", "instruction tiles per warp, per dim (default all 1)", false};

std::vector<uint64_t> optionalNumbers(const Args& a, const char* key) {
  return a.has(key) ? a.numbers(key) : std::vector<uint64_t>{};
}

}  // namespace

ref::catalog::AmdMfmaParams amdMfmaParams(const Args& a, size_t rank) {
  return {a.number("version"),
          a.numbers("instr_shape"),
          a.boolean("transposed"),
          a.numbers("warps_per_cta"),
          a.has("element_bitwidth") ? a.number("element_bitwidth") : 32,
          optionalNumbers(a, "tiles_per_warp"),
          a.cgaLayout(rank)};
}

// amd_wmma's tile grid: Gluon 3.9's bases as given, or the bases of the
// layout Gluon 3.6's warps_per_cta and tiles_per_warp named. The two sets
// describe the same thing, so a mix is refused rather than guessed at.
ref::catalog::AmdWmmaParams amdWmmaParams(const Args& a, const ref::catalog::Shape& shape) {
  std::string keys39, keys36;
  for (const char* key : {"warp_bases", "reg_bases", "rank"})
    if (a.has(key)) keys39 += std::string(keys39.empty() ? "" : ", ") + key;
  for (const char* key : {"warps_per_cta", "tiles_per_warp"})
    if (a.has(key)) keys36 += std::string(keys36.empty() ? "" : ", ") + key;
  if (!keys39.empty() && !keys36.empty())
    throw Error("amd_wmma: " + keys39 + " (Gluon 3.9) and " + keys36 +
                " (Gluon 3.6) both describe the warps and tiles: give warp_bases and reg_bases, "
                "or warps_per_cta and tiles_per_warp");
  ref::catalog::AmdWmmaParams p{
      a.number("version"),      a.boolean("transposed"), {}, {}, optionalNumbers(a, "instr_shape"),
      a.cgaLayout(shape.size())};
  if (!keys36.empty()) {
    if (!a.has("warps_per_cta"))
      throw Error("amd_wmma: missing key \"warps_per_cta\" (tiles_per_warp is Gluon 3.6's)");
    if (!p.instrShape.empty() && p.instrShape[0] != 16)
      throw Error("amd_wmma: instr_shape = " + ref::catalog::listText(p.instrShape) +
                  ": Gluon 3.6 had only 16x16 tiles for warps_per_cta to place; give warp_bases "
                  "and reg_bases (Gluon 3.9)");
    ref::catalog::AmdWmmaBases b = ref::catalog::gluon36WmmaBases(
        a.numbers("warps_per_cta"), optionalNumbers(a, "tiles_per_warp"), shape);
    p.warpBases = b.warpBases;
    p.regBases = b.regBases;
    return p;
  }
  if (!a.has("warp_bases"))
    throw Error(
        "amd_wmma: missing key \"warp_bases\" (Gluon 3.9) or \"warps_per_cta\" "
        "(Gluon 3.6)");
  if (a.has("rank") && a.number("rank") != shape.size())
    throw Error("amd_wmma: rank = " + std::to_string(a.number("rank")) +
                ", but the shape has rank " + std::to_string(shape.size()));
  p.warpBases = a.numberLists("warp_bases");
  if (a.has("reg_bases")) p.regBases = a.numberLists("reg_bases");
  return p;
}

std::vector<Op> amdOps() {
  return {
      {{"amd_mfma",
        {{"version", "1 (gfx908) to 4 (gfx950)"},
         {"instr_shape", "[M, N, K]: (M, N) one of (32, 32), (16, 16), (4, 64), (64, 4)"},
         kTransposed,
         kWarpsArg,
         {"element_bitwidth", "32 or 64, the result's element width (default 32)", false},
         kTiles,
         kCgaArg,
         kShape},
        "layout",
        "Gluon's AMDMFMALayout at `shape` (64-lane wavefronts): register, lane, warp, block -> "
        "dim0.."},
       [](const Args& a) {
         ref::catalog::Shape shape = a.numbers("shape");
         return layoutJson(ref::catalog::amdMfma(amdMfmaParams(a, shape.size()), shape));
       }},
      {{"amd_wmma",
        {{"version", "1 (RDNA3), 2 (RDNA4) or 3 (gfx1250)"},
         kTransposed,
         {"warp_bases",
          "Gluon 3.9: per warp bit, the instruction tiles it moves by, one value "
          "per dim (e.g. [[0, 1], [1, 0]]); each 0 or one power of two, distinct, "
          "per dim 1, 2, 4, ... Give it or warps_per_cta",
          false},
         {"reg_bases", "Gluon 3.9: the same per register bit above one instruction's (default [])",
          false},
         {"rank", "Gluon 3.9: the bases' rank (default the shape's, which it must equal)", false},
         {"warps_per_cta",
          "Gluon 3.6: warps per CTA, per dim (powers of two); instead of "
          "warp_bases",
          false},
         {"tiles_per_warp", "Gluon 3.6: instruction tiles per warp, per dim (default all 1)",
          false},
         {"instr_shape",
          "[M, N, K] (default [16, 16, 16]); version 2 also [16, 16, 32], version 3 "
          "[16, 16, K] with K 4, 32, 64 or 128, or [32, 16, K] with K 64 or 128 "
          "(Gluon 3.9 keys only)",
          false},
         kCgaArg,
         kShape},
        "layout",
        "Gluon 3.9's AMDWMMALayout at `shape` (32-lane wavefronts): register, lane, warp, block -> "
        "dim0..; with Gluon 3.6's keys, the layout Gluon 3.6 built (M and N extents 1 or at least "
        "16)"},
       [](const Args& a) {
         ref::catalog::Shape shape = a.numbers("shape");
         return layoutJson(ref::catalog::amdWmma(amdWmmaParams(a, shape), shape));
       }},
  };
}

}  // namespace f2lay::oracle
