// Operations that rearrange a layout's dims without changing the map it
// stands for: transpose, reshape and flatten (in and out), sublayout, concat.
#include <algorithm>

#include "formats/dim_names.h"
#include "formats/op_errors.h"
#include "reference/linear_layout.h"

namespace f2lay::ref {

namespace {}  // namespace

LinearLayout LinearLayout::transposeIns(const std::vector<std::string>& newInDims) const {
  if (newInDims.size() != value_.in_dims.size() ||
      !sameNamesIgnoringOrder(newInDims, getInDimNames()))
    throw Error(op_errors::notAPermutation(true, newInDims, getInDimNames()));
  LayoutValue v{{}, value_.out_dims};
  for (const std::string& name : newInDims) v.in_dims.push_back(inDim(name));
  return LinearLayout(std::move(v));
}

LinearLayout LinearLayout::transposeOuts(const std::vector<std::string>& newOutDims) const {
  if (newOutDims.size() != value_.out_dims.size() ||
      !sameNamesIgnoringOrder(newOutDims, getOutDimNames()))
    throw Error(op_errors::notAPermutation(false, newOutDims, getOutDimNames()));
  LayoutValue v{{}, {}};
  for (const std::string& name : newOutDims) v.out_dims.push_back(outDim(name));
  for (const InDim& d : value_.in_dims) {
    InDim moved{d.name, {}};
    for (const Basis& b : d.bases) {
      Basis permuted;
      for (const std::string& name : newOutDims) permuted.push_back(b[outDimIndex(name)]);
      moved.bases.push_back(std::move(permuted));
    }
    v.in_dims.push_back(std::move(moved));
  }
  return LinearLayout(std::move(v));
}

LinearLayout LinearLayout::reshapeIns(const DimSizes& newInDims) const {
  // Flatten the input bits in order, then deal them out to the new dims.
  std::vector<int> bits = reshapeBits("reshape_ins", newInDims, getTotalInDimSizeLog2());
  std::vector<Basis> flat;
  for (const InDim& d : value_.in_dims) flat.insert(flat.end(), d.bases.begin(), d.bases.end());
  LayoutValue v{{}, value_.out_dims};
  size_t next = 0;
  for (size_t i = 0; i < newInDims.size(); ++i) {
    InDim d{newInDims[i].first, {}};
    for (int j = 0; j < bits[i]; ++j) d.bases.push_back(flat[next++]);
    v.in_dims.push_back(std::move(d));
  }
  return LinearLayout(std::move(v));
}

LinearLayout LinearLayout::reshapeOuts(const DimSizes& newOutDims) const {
  // The matrix rows are the flattened output bits, minor to major; regrouping
  // them into new out dims leaves the matrix unchanged.
  reshapeBits("reshape_outs", newOutDims, getTotalOutDimSizeLog2());
  std::vector<OutDim> outs;
  for (const auto& [name, size] : newOutDims) outs.push_back({name, size});
  return fromMatrix(matrix(), inDimBits(), outs);
}

LinearLayout LinearLayout::flattenIns() const {
  if (value_.in_dims.empty()) return *this;
  int bits = getTotalInDimSizeLog2();
  if (bits > 63) throw Error(op_errors::flattenTooWide(true, bits));
  return reshapeIns({{value_.in_dims[0].name, uint64_t{1} << bits}});
}

LinearLayout LinearLayout::flattenOuts() const {
  if (value_.out_dims.empty()) return *this;
  int bits = getTotalOutDimSizeLog2();
  if (bits > 63) throw Error(op_errors::flattenTooWide(false, bits));
  return reshapeOuts({{value_.out_dims[0].name, uint64_t{1} << bits}});
}

LinearLayout LinearLayout::sublayout(const std::vector<std::string>& inDims,
                                     const std::vector<std::string>& outDims) const {
  auto keep = [](const std::vector<std::string>& names, const std::string& n) {
    return std::find(names.begin(), names.end(), n) != names.end();
  };
  for (const std::string& n : inDims)
    if (!hasInDim(n)) throw Error(op_errors::sublayoutUnknownDim(true, n, getInDimNames()));
  for (const std::string& n : outDims)
    if (!hasOutDim(n)) throw Error(op_errors::sublayoutUnknownDim(false, n, getOutDimNames()));
  LayoutValue v;
  for (const OutDim& d : value_.out_dims)
    if (keep(outDims, d.name)) v.out_dims.push_back(d);
  for (const InDim& d : value_.in_dims) {
    if (!keep(inDims, d.name)) continue;
    InDim kept{d.name, {}};
    for (const Basis& b : d.bases) {
      Basis part;
      for (size_t k = 0; k < b.size(); ++k)
        if (keep(outDims, value_.out_dims[k].name)) part.push_back(b[k]);
      kept.bases.push_back(std::move(part));
    }
    v.in_dims.push_back(std::move(kept));
  }
  return LinearLayout(std::move(v));
}

bool LinearLayout::sublayoutIsZero(const std::vector<std::string>& inDims,
                                   const std::vector<std::string>& outDims) const {
  const LayoutValue sub = sublayout(inDims, outDims).value();
  for (const InDim& d : sub.in_dims)
    for (const Basis& b : d.bases)
      for (uint64_t v : b)
        if (v != 0) return false;
  return true;
}

LinearLayout LinearLayout::concatIns(const LinearLayout& other) const {
  if (value_.out_dims != other.value_.out_dims) throw Error(op_errors::concatSidesDiffer(true));
  LayoutValue v = value_;
  for (const InDim& d : other.value_.in_dims) {
    if (hasInDim(d.name)) throw Error(op_errors::concatDimInBoth(true, d.name));
    v.in_dims.push_back(d);
  }
  try {
    return LinearLayout(std::move(v));
  } catch (const Error& e) {
    throw Error(std::string("concat_ins: ") + e.what());
  }
}

LinearLayout LinearLayout::concatOuts(const LinearLayout& other) const {
  bool sameIns = value_.in_dims.size() == other.value_.in_dims.size();
  for (size_t d = 0; sameIns && d < value_.in_dims.size(); ++d)
    sameIns = value_.in_dims[d].name == other.value_.in_dims[d].name &&
              value_.in_dims[d].bases.size() == other.value_.in_dims[d].bases.size();
  if (!sameIns) throw Error(op_errors::concatSidesDiffer(false));
  LayoutValue v = value_;
  for (const OutDim& d : other.value_.out_dims) {
    if (hasOutDim(d.name)) throw Error(op_errors::concatDimInBoth(false, d.name));
    v.out_dims.push_back(d);
  }
  for (size_t d = 0; d < v.in_dims.size(); ++d)
    for (size_t i = 0; i < v.in_dims[d].bases.size(); ++i) {
      const Basis& more = other.value_.in_dims[d].bases[i];
      v.in_dims[d].bases[i].insert(v.in_dims[d].bases[i].end(), more.begin(), more.end());
    }
  try {
    return LinearLayout(std::move(v));
  } catch (const Error& e) {
    throw Error(std::string("concat_outs: ") + e.what());
  }
}

}  // namespace f2lay::ref
