// The catalog fuzzer's AMD scale layouts (amd_mfma_scale, amd_wmma_scale),
// each against its element-wise definition (amd_operand_fragments.h's
// MfmaScale and WmmaScale): the scaled operand's parent drawn as the
// accumulators' own families draw theirs, the scale's shape [non-K, K
// groups], the scale factor; one time in 16 a rule broken (an instruction
// the scaled form lacks, a factor Gluon asserts against, rank 3).
#include <string>
#include <vector>

#include "definitions/amd_operand_fragments.h"
#include "definitions/elementwise_compare.h"
#include "fuzz/catalog_decoder.h"
#include "fuzz/catalog_families.h"
#include "reference/catalog/amd_scale.h"

namespace f2lay::fuzz::catalog_fuzz {

namespace {

// The scale tensor's shape: rank 2, or one in 16 rank 3 (every scale op
// refuses it: Gluon 3.9.0 aborts or answers by rank-2 index rules,
// FINDINGS.md).
Shape decodeScaleShape(Decoder& in) {
  Shape shape = in.shape(in.oneIn16() ? 3 : 2, 7);
  in.require(shape.size() == 2, "shape = " + list(shape) + ": rank 2");
  return shape;
}

uint64_t decodeFactor(Decoder& in, const std::vector<uint64_t>& legal) {
  uint64_t factor = in.oneIn16() ? 8 : legal[in.pick(0, static_cast<int>(legal.size()) - 1)];
  in.require(factor != 8, "scale_factor = 8");
  return factor;
}

}  // namespace

void fuzzAmdMfmaScale(Decoder& in) {
  uint64_t index = in.pick(0, 1);
  AmdMfmaParams p;
  p.version = in.pick(1, 4);
  // Scaled MFMA: 16x16x128 or 32x32x64; one in 16 the 4x64 instruction.
  const std::vector<uint64_t> instrs[3] = {{16, 16, 128}, {32, 32, 64}, {4, 64, 4}};
  int i = in.oneIn16() ? 2 : in.pick(0, 1);
  in.require(i < 2, "instr_shape = " + list(instrs[i]));
  p.instrShape = instrs[i];
  p.transposed = in.flag();
  // One in 16 a rank-3 parent; sizes() may also give a list one entry off,
  // so the rule is judged on the lists drawn.
  size_t parentRank = in.oneIn16() ? 3 : 2;
  p.warpsPerCta = in.sizes("warps_per_cta", parentRank, 2);
  in.requireLength("warps_per_cta", p.warpsPerCta, 2);
  if (in.flag()) {
    p.tilesPerWarp = in.sizes("tiles_per_warp", parentRank, 2);
    in.requireLength("tiles_per_warp", p.tilesPerWarp, 2);
  }
  in.budget -= 6;  // the lanes
  Shape shape = decodeScaleShape(in);
  uint64_t factor = decodeFactor(in, {32});
  Target t{"amd_mfma_scale",
           "operand_index " + std::to_string(index) + " version " + std::to_string(p.version) +
               " instr_shape " + list(p.instrShape) + (p.transposed ? " transposed" : "") +
               " warps_per_cta " + list(p.warpsPerCta) + " tiles_per_warp " + list(p.tilesPerWarp) +
               " shape " + list(shape) + " scale_factor " + std::to_string(factor),
           in};
  Built b = construct(t, [&] { return amdMfmaScale({index, p, 16}, shape, factor); });
  if (!accepted(t, b, plainLegal(in))) return;
  expectSame(t, outDimMismatch(*b.answer, shape));
  uint64_t tiles = p.tilesPerWarp.empty() ? 1 : p.tilesPerWarp[index];
  expectSame(
      t, distributedMismatch(*b.answer, amd::MfmaScale{index == 0, p.instrShape[0], tiles,
                                                       p.warpsPerCta[0], p.warpsPerCta[1], shape}));
}

void fuzzAmdWmmaScale(Decoder& in) {
  uint64_t index = in.pick(0, 1);
  AmdWmmaParams p;
  p.version = 3;
  // gfx1250's scaled forms: 16x16x128 and 32x16x128; 16x16x32 too (the
  // scale's placement reads only M).
  const std::vector<uint64_t> instrs[3] = {{16, 16, 128}, {32, 16, 128}, {16, 16, 32}};
  p.instrShape = instrs[in.pick(0, 2)];
  p.transposed = in.flag();
  in.budget -= 5;  // the lanes
  size_t parentRank = in.oneIn16() ? 3 : 2;
  WmmaBases bases = decodeWmmaBases(in, parentRank);
  in.require(parentRank == 2 || (bases.warp.empty() && bases.reg.empty()), "tile bases of rank 3");
  p.warpBases = bases.warp;
  p.regBases = bases.reg;
  Shape shape = decodeScaleShape(in);
  uint64_t factor = decodeFactor(in, {16, 32});
  Target t{"amd_wmma_scale",
           "operand_index " + std::to_string(index) + " instr_shape " + list(p.instrShape) +
               (p.transposed ? " transposed " : " ") + bases.describe() + " shape " + list(shape) +
               " scale_factor " + std::to_string(factor),
           in};
  Built b = construct(t, [&] { return amdWmmaScale({index, p, 8}, shape, factor); });
  if (!accepted(t, b, plainLegal(in))) return;
  expectSame(t, outDimMismatch(*b.answer, shape));
  // The tile grid's moves along the operand's non-K dim, in tiles; a
  // register moving along K alone is no tile register.
  bool isA = index == 0;
  size_t nonKDim = isA ? 0 : 1;
  amd::WmmaScale model{
      p.instrShape[0], (isA != p.transposed) ? p.instrShape[0] : 16, 128 / factor, {}, {}, shape};
  for (const f2lay::Basis& r : bases.reg)
    if (r[nonKDim] != 0) model.gridRegNonK.push_back(r[nonKDim]);
  for (const f2lay::Basis& w : bases.warp) model.gridWarpNonK.push_back(w[nonKDim]);
  expectSame(t, distributedMismatch(*b.answer, model));
}

}  // namespace f2lay::fuzz::catalog_fuzz
