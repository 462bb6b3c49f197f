#include "reference/catalog/shared.h"

#include <algorithm>

namespace f2lay::ref::catalog {

void checkPowerOfTwoParam(const std::string& op, const std::string& name, uint64_t value) {
  if (!isPowerOfTwo(value) || value > (uint64_t{1} << 62))
    throw Error(op + ": " + name + " = " + std::to_string(value) +
                " is not a power of two (at most 2^62); Def 4.11 needs powers of two for the "
                "map to be linear over F2");
}

Shape shapePerCta(const LinearLayout& cgaLayout, const Shape& shape) {
  std::vector<std::string> names = standardOutDimNames(shape.size());
  std::vector<std::pair<std::string, uint64_t>> labeled;
  for (size_t i = 0; i < shape.size(); ++i) labeled.push_back({names[i], shape[i]});
  // CTA bits that would step outside the tensor hold copies (broadcast).
  LinearLayout cga = ensureLayoutNotLargerThan(cgaLayout, labeled);
  Shape perCta;
  for (size_t i = 0; i < shape.size(); ++i)
    perCta.push_back(std::max<uint64_t>(1, shape[i] / cga.getOutDimSize(names[i])));
  return perCta;
}

namespace {

void checkShapeAndOrder(const std::string& op, const Shape& shape,
                        const std::vector<unsigned>& order) {
  if (shape.empty()) throw Error(op + ": shape must have at least one dim");
  checkPowersOfTwo(op + ": shape", shape, shape.size());
  checkOrder(op + ": order", order, shape.size());
}

// The CTA tile of Def 4.11: offset -> dims, out dims in standard order.
LinearLayout swizzledCtaTile(const SwizzledSharedParams& p, const Shape& cta) {
  size_t rank = cta.size();
  LayoutValue v{{{"offset", {}}}, {}};
  for (const std::string& n : standardOutDimNames(rank)) v.out_dims.push_back({n, 1});
  for (size_t i = 0; i < rank; ++i) v.out_dims[i].size = cta[i];
  auto unit = [rank](unsigned dim, uint64_t value) {
    Basis b(rank, 0);
    b[dim] = value;
    return b;
  };
  std::vector<Basis>& bases = v.in_dims[0].bases;
  if (rank == 1) {
    for (uint64_t x = 1; x < cta[0]; x *= 2) bases.push_back(unit(0, x));
    return LinearLayout(std::move(v));
  }
  unsigned colDim = p.order[0], rowDim = p.order[1];
  uint64_t numCols = cta[colDim], numRows = cta[rowDim];
  // Columns j: the identity block of [I C; 0 I].
  for (uint64_t col = 1; col < numCols; col *= 2) bases.push_back(unit(colDim, col));
  // Rows i: row 2^t also moves the column by c_t (§4.3). The product may wrap
  // in uint64_t; numCols is a power of two, so the value mod numCols is the
  // same as with unbounded integers.
  for (uint64_t row = 1; row < numRows; row *= 2) {
    Basis b = unit(rowDim, row);
    b[colDim] = (p.vec * ((row / p.perPhase) % p.maxPhase)) % numCols;
    bases.push_back(b);
  }
  // Further dims, from order[2] up, are stacked unswizzled.
  for (size_t k = 2; k < rank; ++k)
    for (uint64_t x = 1; x < cta[p.order[k]]; x *= 2) bases.push_back(unit(p.order[k], x));
  return LinearLayout(std::move(v));
}

// Both public constructors, errors naming the op that the caller asked for.
LinearLayout swizzledSharedAs(const std::string& op, const SwizzledSharedParams& p,
                              const Shape& shape) {
  checkShapeAndOrder(op, shape, p.order);
  checkPowerOfTwoParam(op, "vec", p.vec);
  checkPowerOfTwoParam(op, "per_phase", p.perPhase);
  checkPowerOfTwoParam(op, "max_phase", p.maxPhase);
  LinearLayout cga = p.cgaLayout ? *p.cgaLayout : singleCtaLayout(shape.size());
  if (cga.getOutDimNames() != standardOutDimNames(shape.size()))
    throw Error(op + ": cga_layout must map block to the tensor's dims dim0..dim" +
                std::to_string(shape.size() - 1));
  return combineCtaCgaWithShape(swizzledCtaTile(p, shapePerCta(cga, shape)), cga, shape);
}

}  // namespace

LinearLayout swizzledShared(const SwizzledSharedParams& p, const Shape& shape) {
  return swizzledSharedAs("swizzled_shared", p, shape);
}

LinearLayout unswizzledShared(const std::vector<unsigned>& order, const Shape& shape,
                              const std::optional<LinearLayout>& cgaLayout) {
  return swizzledSharedAs("unswizzled_shared", {1, 1, 1, order, cgaLayout}, shape);
}

}  // namespace f2lay::ref::catalog
