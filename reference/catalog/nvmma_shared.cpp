#include "reference/catalog/nvmma_shared.h"

#include <algorithm>

namespace f2lay::ref::catalog {

namespace {

const std::string kOp = "nvmma_shared";

// A layout value with out-dim sizes inferred from the largest basis values,
// as Triton's LinearLayout(bases, outDimNames) constructor infers them.
LinearLayout withInferredSizes(std::vector<Basis> bases, size_t rank) {
  LayoutValue v{{{"offset", std::move(bases)}}, {}};
  for (const std::string& n : standardOutDimNames(rank)) v.out_dims.push_back({n, 1});
  inferOutDimSizes(v);
  return LinearLayout(std::move(v));
}

std::vector<std::pair<std::string, uint64_t>> labeled(const Shape& shape) {
  std::vector<std::string> names = standardOutDimNames(shape.size());
  std::vector<std::pair<std::string, uint64_t>> out;
  for (size_t i = 0; i < shape.size(); ++i) out.push_back({names[i], shape[i]});
  return out;
}

// The TMA box per CTA (Triton's getTMABlockShape with packedSize): every dim
// at most 256 elements, the contiguous dim exactly one swizzle width.
Shape tmaBlockShape(const NvmmaSharedParams& p, const Shape& cta) {
  Shape box = cta;
  size_t contig = p.transposed ? 0 : box.size() - 1;
  if (p.fp4Padded) box[contig] *= 2;
  for (uint64_t& size : box) size = std::min<uint64_t>(size, 256);
  if (p.swizzleByteWidth != 0) {
    uint64_t width = 8 * p.swizzleByteWidth / p.elementBitwidth;
    if (box[contig] < width)
      throw Error(kOp + ": swizzle_byte_width = " + std::to_string(p.swizzleByteWidth) + " spans " +
                  std::to_string(width) + " elements of " + std::to_string(p.elementBitwidth) +
                  " bits, wider than the contiguous dim dim" + std::to_string(contig) + " (" +
                  std::to_string(box[contig]) + (p.fp4Padded ? " padded" : "") +
                  " elements per CTA)");
    box[contig] = width;
  }
  if (p.fp4Padded) box[contig] /= 2;
  return box;
}

// The 8-row core matrix (Triton's getCoreMatrixLinearLayout): dim0 = row,
// dim1 = column in elements; row 2^t moves the 16-byte chunk by its phase.
LinearLayout coreMatrix(const NvmmaSharedParams& p) {
  uint64_t vec = p.fp4Padded ? 16 : 128 / p.elementBitwidth;  // 16 bytes
  uint64_t perPhase = 128 / p.swizzleByteWidth;
  uint64_t maxPhase = p.swizzleByteWidth / 16;
  uint64_t tileCols = 8 * std::max<uint64_t>(16, p.swizzleByteWidth) / p.elementBitwidth;
  // fp4 padding: of each 16 offsets, the upper 8 map onto the lower 8.
  auto packed = [&](uint64_t col) { return p.fp4Padded ? col / 16 * 8 + col % 8 : col; };
  std::vector<Basis> bases;
  for (uint64_t col = 1; col < tileCols; col *= 2) bases.push_back({0, packed(col)});
  for (uint64_t row = 1; row < 8; row *= 2)
    bases.push_back({row, packed(vec * ((row / perPhase) % maxPhase))});
  return withInferredSizes(std::move(bases), 2);
}

// Row-major reshape of the out dims (Triton's reshapeLayout): the last dim is
// the fastest, on both sides.
LinearLayout reshapeRowMajor(const LinearLayout& l, const Shape& shape) {
  std::vector<std::string> reversed = l.getOutDimNames();
  std::reverse(reversed.begin(), reversed.end());
  DimSizes newDims;
  std::vector<std::string> names = standardOutDimNames(shape.size());
  for (size_t i = shape.size(); i-- > 0;) newDims.push_back({names[i], shape[i]});
  return l.transposeOuts(reversed).reshapeOuts(newDims).transposeOuts(names);
}

// New dim i takes the values of old dim order[i] (Triton's
// transposeLinearLayout); dims keep their standard names.
LinearLayout permuteDims(const LinearLayout& l, const std::vector<size_t>& order) {
  LayoutValue v = l.value();
  for (InDim& d : v.in_dims)
    for (Basis& b : d.bases) {
      Basis nb;
      for (size_t i : order) nb.push_back(b[i]);
      b = nb;
    }
  std::vector<OutDim> outs;
  for (size_t i = 0; i < order.size(); ++i)
    outs.push_back({v.out_dims[i].name, l.value().out_dims[order[i]].size});
  v.out_dims = outs;
  return LinearLayout(std::move(v));
}

void checkParams(const NvmmaSharedParams& p, const Shape& shape) {
  if (shape.empty()) throw Error(kOp + ": shape must have at least one dim");
  checkPowersOfTwo(kOp + ": shape", shape, shape.size());
  const std::vector<uint64_t> widths = {0, 32, 64, 128}, bitwidths = {8, 16, 32, 64};
  if (std::find(widths.begin(), widths.end(), p.swizzleByteWidth) == widths.end())
    throw Error(kOp + ": swizzle_byte_width = " + std::to_string(p.swizzleByteWidth) +
                " must be 0, 32, 64 or 128");
  if (std::find(bitwidths.begin(), bitwidths.end(), p.elementBitwidth) == bitwidths.end())
    throw Error(kOp + ": element_bitwidth = " + std::to_string(p.elementBitwidth) +
                " must be 8, 16, 32 or 64");
  if (p.swizzleByteWidth != 0 && shape.size() < 2)
    throw Error(kOp + ": a swizzled layout (swizzle_byte_width = " +
                std::to_string(p.swizzleByteWidth) + ") needs a shape of rank 2 or more");
  if (p.fp4Padded && p.elementBitwidth != 8)
    throw Error(kOp + ": fp4_padded with element_bitwidth = " + std::to_string(p.elementBitwidth) +
                ": padded fp4 pairs are bytes (element_bitwidth 8; Gluon 3.9 asserts)");
  if (p.swizzleByteWidth == 0 && p.transposed && p.triton == TritonVersion::k3_9 &&
      shape.size() > 2)
    throw Error(kOp + ": swizzle_byte_width = 0 with transposed at rank " +
                std::to_string(shape.size()) +
                ": Triton 3.9 builds a layout here that holds "
                "elements at several offsets (Gluon 3.9.0 gives 4 offsets to shape [2, 1, 1]), "
                "taken for a Triton bug and not reproduced; \"triton\": \"3.6\" gives 3.6's "
                "layout, which ignored transposed");
}

}  // namespace

LinearLayout nvmmaShared(const NvmmaSharedParams& p, const Shape& shape) {
  checkParams(p, shape);
  size_t rank = shape.size();
  LinearLayout cga = p.cgaLayout ? *p.cgaLayout : singleCtaLayout(rank);
  if (cga.getOutDimNames() != standardOutDimNames(rank))
    throw Error(kOp + ": cga_layout must map block to the tensor's dims dim0..dim" +
                std::to_string(rank - 1));
  Shape cta = shapePerCta(cga, shape);
  Shape box = tmaBlockShape(p, cta);
  std::vector<std::string> names = standardOutDimNames(rank);

  if (p.swizzleByteWidth == 0) {
    // Row-major within the box (last dim fastest), or dim0 fastest when
    // transposed (Triton 3.9, rank 2); the boxes repeat the last dim first
    // either way.
    bool dim0First = p.transposed && p.triton == TritonVersion::k3_9;
    LinearLayout layout;
    for (size_t i = 0; i < rank; ++i) {
      size_t d = dim0First ? i : rank - 1 - i;
      layout = layout * LinearLayout::identity1D(box[d], "offset", names[d]);
    }
    std::vector<std::string> lastFirst(names.rbegin(), names.rend());
    layout = ensureLayoutNotSmallerThan(layout.transposeOuts(lastFirst), labeled(cta));
    return combineCtaCgaWithShape(layout, cga, shape);
  }

  // Collapse the box to 2-D: rows = the non-contiguous dims, row-major;
  // columns = the contiguous dim.
  Shape collapsed = {1, box[rank - 1]};
  for (size_t i = 0; i + 1 < rank; ++i) collapsed[0] *= box[i];
  if (p.transposed) std::swap(collapsed[0], collapsed[1]);

  LinearLayout tile = coreMatrix(p);
  uint64_t tileRows = tile.getOutDimSize("dim0"), tileCols = tile.getOutDimSize("dim1");
  uint64_t packing = p.fp4Padded ? 2 : 1;
  if (collapsed[0] < tileRows)
    throw Error(kOp + ": a CTA's box has " + std::to_string(collapsed[0]) +
                " rows (dims 0..rank-2, or the last dim when transposed), fewer than the " +
                std::to_string(tileRows) + " rows of one swizzle pattern");
  if (collapsed[1] * packing < tileCols)
    throw Error(kOp + ": the contiguous dim holds " + std::to_string(collapsed[1]) +
                " elements per CTA box, fewer than the " + std::to_string(tileCols / packing) +
                " of one swizzle row");
  LinearLayout layout = ensureLayoutNotSmallerThan(tile, labeled(collapsed));

  // Back to the N-D box; when transposed the contiguous dim0 was collapsed
  // last, so the box is rotated first and the dims permuted back after.
  Shape rotated = box;
  if (p.transposed) std::rotate(rotated.begin(), rotated.begin() + 1, rotated.end());
  layout = reshapeRowMajor(layout, rotated);
  if (p.transposed) {
    std::vector<size_t> order = {rank - 1};
    for (size_t i = 0; i + 1 < rank; ++i) order.push_back(i);
    layout = permuteDims(layout, order);
  }
  layout = ensureLayoutNotSmallerThan(layout, labeled(cta));
  return combineCtaCgaWithShape(layout, cga, shape);
}

}  // namespace f2lay::ref::catalog
