#include "reference/catalog/amd_scale.h"

#include <algorithm>

#include "reference/catalog/dot_operand.h"

namespace f2lay::ref::catalog {

namespace {

// The scale tensor's dims: dim0 the operand's non-K dim, dim1 its K groups.
const std::string kNonK = "dim0", kK = "dim1";

void checkScaleShape(const Shape& shape) {
  if (shape.size() != 2)
    throw Error("shape: rank " + std::to_string(shape.size()) +
                " is unsupported: a scale tensor is [non-K, K / scale_factor] (rank 2; Triton "
                "3.9 has no rule for a batch dim, FINDINGS.md N3)");
  checkPowersOfTwo("shape", shape, 2);
}

void checkIndex(uint64_t operandIndex) { operandKDim(operandIndex, 2); }

bool isZero(const Basis& b) {
  return std::all_of(b.begin(), b.end(), [](uint64_t v) { return v == 0; });
}

// Bases given as [K, non-K] pairs, as a layout with out dims in standard
// order (sizes inferred).
LinearLayout kNonKLayout(const std::vector<Basis>& reg, const std::vector<Basis>& lane) {
  auto swap = [](std::vector<Basis> bases) {
    for (Basis& b : bases) std::swap(b[0], b[1]);
    return bases;
  };
  LayoutValue v{{{"register", swap(reg)}, {"lane", swap(lane)}}, {{kNonK, 1}, {kK, 1}}};
  inferOutDimSizes(v);
  return LinearLayout(std::move(v));
}

// A parent's bases (accumulator coordinates: M, N) in the scale's: the
// operand's non-K component, K 0. Registers that become 0 are removed when
// `dropZeroRegisters` (Triton removes broadcast register repeats).
LayoutValue inScaleCoordinates(LayoutValue v, bool isA, bool dropZeroRegisters) {
  for (InDim& in : v.in_dims) {
    std::vector<Basis> kept;
    for (const Basis& b : in.bases) {
      Basis s{isA ? b[0] : b[1], 0};
      if (!(dropZeroRegisters && in.name == "register" && isZero(s))) kept.push_back(s);
    }
    in.bases = kept;
  }
  v.out_dims = {{kNonK, 1}, {kK, 1}};
  inferOutDimSizes(v);
  return v;
}

}  // namespace

LinearLayout amdMfmaScale(const AmdMfmaDotOperandParams& operand, const Shape& shape,
                          uint64_t scaleFactor) {
  checkScaleShape(shape);
  checkIndex(operand.operandIndex);
  const AmdMfmaParams& parent = operand.parent;
  if (parent.warpsPerCta.size() != 2)
    throw Error("warps_per_cta = " + listText(parent.warpsPerCta) +
                ": a scale's parent has rank 2 (Triton reads its first two warp counts as M "
                "and N, FINDINGS.md N3)");
  std::vector<uint64_t> tiles = checkAmdMfmaParams(parent, shape);
  if (scaleFactor != 32)
    throw Error("scale_factor = " + std::to_string(scaleFactor) +
                ": scaled MFMA takes 32 (Gluon asserts)");
  uint64_t m = parent.instrShape[0];
  if (m != 16 && m != 32)
    throw Error("instr_shape = " + listText(parent.instrShape) +
                ": scaled MFMA is 16x16x128 or 32x32x64 (Triton asserts M is 16 or 32)");
  bool isA = operand.operandIndex == 0;
  uint64_t tilesNonK = tiles[isA ? 0 : 1];
  // Past 2^63 elements along non-K the tile's registers cannot be counted
  // (tilesNonK * M wraps: the catalog fuzzer drew 2^62 tiles of 16).
  if (tilesNonK > (uint64_t{1} << 63) / m)
    throw Error("tiles_per_warp = " + listText(tiles) + ": " + std::to_string(tilesNonK) +
                " tiles of " + std::to_string(m) + " rows are more than 2^63 along non-K");
  // [K, non-K] pairs. 64 / M lanes along K, registers for the rest of K,
  // then the tiles along non-K.
  uint64_t lanesAlongK = 64 / m;
  std::vector<Basis> reg, lane;
  for (uint64_t k = lanesAlongK; k < shape[1]; k *= 2) reg.push_back({k, 0});
  for (uint64_t r = m; r < tilesNonK * m; r *= 2) reg.push_back({0, r});
  for (uint64_t r = 1; r < m; r *= 2) lane.push_back({0, r});
  for (uint64_t k = 1; k < lanesAlongK; k *= 2) lane.push_back({k, 0});
  LinearLayout tile = kNonKLayout(reg, lane);
  // The accumulator's warps, row-major (N fastest): for A the warps along N
  // land on the scale's K (beyond it, broadcast); for B they come first,
  // along the scale's non-K.
  uint64_t warpsM = parent.warpsPerCta[0], warpsN = parent.warpsPerCta[1];
  LinearLayout warps = isA ? identityStandardND("warp", {warpsM, warpsN}, {1, 0})
                           : identityStandardND("warp", {warpsN, warpsM}, {0, 1});
  return combineCtaCgaWithShape(tile * warps.transposeOuts({kNonK, kK}), singleCtaLayout(2), shape);
}

LinearLayout amdWmmaScale(const AmdWmmaDotOperandParams& operand, const Shape& shape,
                          uint64_t scaleFactor) {
  checkScaleShape(shape);
  checkIndex(operand.operandIndex);
  const AmdWmmaParams& parent = operand.parent;
  // Gluon 3.9.0 asserts a rank-3 parent at a rank-2 shape ("basis rank
  // mismatch"); f2lay's parent check would name the bases' length instead.
  for (const auto* bases : {&parent.warpBases, &parent.regBases})
    for (const Basis& b : *bases)
      if (b.size() != 2)
        throw Error(std::string(bases == &parent.warpBases ? "warp_bases" : "reg_bases") +
                    ": a basis of rank " + std::to_string(b.size()) +
                    ": a scale's parent has rank 2 (FINDINGS.md N3)");
  std::vector<uint64_t> instr = checkAmdWmmaParams(parent, shape);
  if (scaleFactor != 16 && scaleFactor != 32)
    throw Error("scale_factor = " + std::to_string(scaleFactor) +
                ": scaled WMMA takes 16 or 32 (Gluon asserts)");
  bool isA = operand.operandIndex == 0;
  // The accumulator tile's extent along the operand's non-K dim (as for the
  // operand itself, amd_dot_operand.h).
  uint64_t nonK = (isA != parent.transposed) ? instr[0] : 16;
  uint64_t perLane = 128 / scaleFactor;  // one instruction's K of 128
  LinearLayout tile =
      LinearLayout::identity1D(perLane, "register", kK) *
      LinearLayout::identity1D(std::max<uint64_t>(1, shape[1] / perLane), "register", kK) *
      LinearLayout::identity1D(16, "lane", kNonK) *
      (nonK == 32 ? LinearLayout::identity1D(2, "lane", kNonK)
                  : LinearLayout::zeros1D(2, "lane", kNonK));
  LinearLayout grid(inScaleCoordinates(amdWmmaTileGrid(parent, 2).value(), isA, true));
  LinearLayout cta = tile.transposeOuts({kNonK, kK}) * grid;
  LinearLayout cga = parent.cgaLayout
                         ? LinearLayout(inScaleCoordinates(parent.cgaLayout->value(), isA, false))
                         : singleCtaLayout(2);
  // Triton repeats the tile up to each CTA's share of the shape; then, for
  // the 16x16 instructions only, lets lanes 16-31, which would duplicate
  // lanes 0-15, take the first register that moves along non-K (the next
  // tile) instead; and only then cuts the layout down to the shape (a cut
  // register so taken leaves no register). With a 32x16 instruction whose
  // 16-wide dim is the operand's non-K dim, lanes 16-31 stay copies.
  LinearLayout cgaCut = ensureLayoutNotLargerThan(cga, {{kNonK, shape[0]}, {kK, shape[1]}});
  std::vector<std::pair<std::string, uint64_t>> ctaShape;
  for (size_t d = 0; d < 2; ++d) {
    const std::string& name = d == 0 ? kNonK : kK;
    ctaShape.push_back({name, std::max<uint64_t>(1, shape[d] / cgaCut.getOutDimSize(name))});
  }
  LayoutValue v = ensureLayoutNotSmallerThan(cta, ctaShape).value();
  auto bases = [&v](const std::string& name) -> std::vector<Basis>& {
    return std::find_if(v.in_dims.begin(), v.in_dims.end(),
                        [&](const InDim& d) { return d.name == name; })
        ->bases;
  };
  std::vector<Basis>& regs = bases("register");
  std::vector<Basis>& lanes = bases("lane");
  if (instr[0] == 16 && isZero(lanes.back())) {
    auto next = std::find_if(regs.begin(), regs.end(), [](const Basis& b) { return b[0] != 0; });
    if (next != regs.end()) {
      lanes.back() = *next;
      regs.erase(next);
    }
  }
  return combineCtaCgaWithShape(LinearLayout(std::move(v)), cga, shape);
}

}  // namespace f2lay::ref::catalog
