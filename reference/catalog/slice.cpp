#include "reference/catalog/slice.h"

namespace f2lay::ref::catalog {

Shape sliceParentShape(const Shape& shape, unsigned dim) {
  if (dim > shape.size())
    throw Error("slice: dim = " + std::to_string(dim) +
                " must be at most the rank of the sliced "
                "shape (" +
                std::to_string(shape.size()) + ")");
  Shape parent = shape;
  parent.insert(parent.begin() + dim, 1);
  return parent;
}

LinearLayout slice(const LinearLayout& parent, unsigned dim) {
  std::vector<std::string> parentDims = parent.getOutDimNames();
  if (parentDims != standardOutDimNames(parentDims.size()))
    throw Error(
        "slice: the parent's out dims must be dim0, dim1, ... in order (a catalog "
        "layout)");
  if (dim >= parentDims.size())
    throw Error("slice: dim = " + std::to_string(dim) + " must be below the parent's rank (" +
                std::to_string(parentDims.size()) + ")");
  // Proposition 4.8: drop the coordinate of out dim `dim` from every basis;
  // the dims after it move down one name.
  const LayoutValue& p = parent.value();
  std::vector<std::string> names = standardOutDimNames(parentDims.size() - 1);
  LayoutValue v;
  for (const std::string& n : names) v.out_dims.push_back({n, 1});
  for (const InDim& d : p.in_dims) {
    InDim sliced{d.name, {}};
    for (const Basis& b : d.bases) {
      Basis kept;
      for (size_t k = 0; k < b.size(); ++k)
        if (k != dim) kept.push_back(b[k]);
      bool zero = true;
      for (uint64_t x : kept) zero = zero && x == 0;
      // Triton drops registers that now only repeat an element.
      if (d.name == "register" && zero) continue;
      sliced.bases.push_back(std::move(kept));
    }
    v.in_dims.push_back(std::move(sliced));
  }
  // Out-dim sizes are inferred from the largest values, as Triton's
  // LinearLayout(bases, outDimNames) constructor does.
  inferOutDimSizes(v);
  return LinearLayout(std::move(v));
}

}  // namespace f2lay::ref::catalog
