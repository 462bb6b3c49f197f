// Oracle ops for AMD matrix-core accumulators: Gluon's ttgl.amd.AMDMFMALayout
// and AMDWMMALayout, parameters in snake_case, plus "shape".
#include "amd_mfma.h"
#include "amd_wmma.h"
#include "op_table.h"

namespace f2lay::tools {

namespace {

const OpArg kShape{"shape", "the tensor shape (powers of two), rank 2 or 3 (a leading batch dim)"};
const OpArg kTransposed{"transposed", "true: each lane holds consecutive columns of a row"};
const OpArg kTiles{"tiles_per_warp", "instruction tiles per warp, per dim (default all 1)", false};

std::vector<uint64_t> optionalNumbers(const Args& a, const char* key) {
  return a.has(key) ? a.numbers(key) : std::vector<uint64_t>{};
}

}  // namespace

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
         return layoutJson(ref::catalog::amdMfma(
             {a.number("version"), a.numbers("instr_shape"), a.boolean("transposed"),
              a.numbers("warps_per_cta"),
              a.has("element_bitwidth") ? a.number("element_bitwidth") : 32,
              optionalNumbers(a, "tiles_per_warp"), a.cgaLayout(shape.size())},
             shape));
       }},
      {{"amd_wmma",
        {{"version", "1 (RDNA3), 2 (RDNA4) or 3 (gfx1250)"},
         kTransposed,
         kWarpsArg,
         {"instr_shape", "[M, N, K] (default [16, 16, 16]); version 2 also [16, 16, 32], version 3 "
                         "[16, 16, K] with K 4, 32, 64 or 128", false},
         kTiles,
         kCgaArg,
         kShape},
        "layout",
        "Gluon's AMDWMMALayout at `shape` (32-lane wavefronts): register, lane, warp, block -> "
        "dim0..; M and N extents 1 or at least 16"},
       [](const Args& a) {
         ref::catalog::Shape shape = a.numbers("shape");
         return layoutJson(ref::catalog::amdWmma(
             {a.number("version"), a.boolean("transposed"), a.numbers("warps_per_cta"),
              optionalNumbers(a, "instr_shape"), optionalNumbers(a, "tiles_per_warp"),
              a.cgaLayout(shape.size())},
             shape));
       }},
  };
}

}  // namespace f2lay::tools
