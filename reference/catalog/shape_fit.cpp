#include "reference/catalog/shape_fit.h"

#include <algorithm>

namespace f2lay::ref::catalog {

std::string listText(const std::vector<uint64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::vector<std::string> standardOutDimNames(size_t rank) {
  std::vector<std::string> names;
  for (size_t i = 0; i < rank; ++i) names.push_back("dim" + std::to_string(i));
  return names;
}

void checkPowersOfTwo(const std::string& what, const std::vector<uint64_t>& sizes, size_t rank) {
  if (sizes.size() != rank)
    throw Error(what + ": has " + std::to_string(sizes.size()) + " entries, expected " +
                std::to_string(rank));
  for (size_t i = 0; i < sizes.size(); ++i)
    if (!isPowerOfTwo(sizes[i]) || sizes[i] > (uint64_t{1} << 62))
      throw Error(what + "[" + std::to_string(i) + "] = " + std::to_string(sizes[i]) +
                  " is not a power of two (at most 2^62)");
}

void checkOrder(const std::string& what, const std::vector<unsigned>& order, size_t rank) {
  std::vector<unsigned> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  bool ok = sorted.size() == rank;
  for (size_t i = 0; ok && i < rank; ++i) ok = sorted[i] == i;
  if (!ok) throw Error(what + ": must be a permutation of 0.." + std::to_string(rank - 1));
}

LinearLayout identityStandardND(const std::string& inDim, const std::vector<uint64_t>& sizes,
                                const std::vector<unsigned>& order) {
  std::vector<std::string> names = standardOutDimNames(sizes.size());
  LinearLayout result;
  for (unsigned dim : order)
    result = result * LinearLayout::identity1D(sizes[dim], inDim, names[dim]);
  return result;
}

LinearLayout ensureLayoutNotSmallerThan(
    const LinearLayout& layout, const std::vector<std::pair<std::string, uint64_t>>& shape) {
  if (layout.value().in_dims.empty()) return layout;
  std::string first = layout.value().in_dims[0].name;
  LinearLayout result = layout;
  for (const OutDim& d : layout.value().out_dims) {
    uint64_t desired = 0;
    for (const auto& [name, size] : shape)
      if (name == d.name) desired = size;
    if (desired > d.size)
      result = result * LinearLayout::identity1D(desired / d.size, first, d.name);
  }
  return result;
}

LinearLayout ensureLayoutNotLargerThan(const LinearLayout& layout,
                                       const std::vector<std::pair<std::string, uint64_t>>& shape,
                                       bool broadcastRegisters) {
  LayoutValue v = layout.value();
  std::vector<uint64_t> desired;
  for (const OutDim& o : v.out_dims) {
    desired.push_back(o.size);
    for (const auto& [name, size] : shape)
      if (name == o.name) desired.back() = size;
  }
  auto cut = [&](const Basis& b) {
    for (size_t k = 0; k < b.size(); ++k)
      if (b[k] >= desired[k]) return true;
    return false;
  };
  for (InDim& d : v.in_dims) {
    if (!broadcastRegisters && d.name == "register")
      d.bases.erase(std::remove_if(d.bases.begin(), d.bases.end(), cut), d.bases.end());
    for (Basis& b : d.bases)
      for (size_t k = 0; k < b.size(); ++k)
        if (b[k] >= desired[k]) b[k] = 0;
  }
  // Sizes inferred from the largest remaining values, as Triton does.
  inferOutDimSizes(v);
  return LinearLayout(std::move(v));
}

LinearLayout makeCgaLayout(const std::vector<uint64_t>& ctasPerCga,
                           const std::vector<uint64_t>& ctaSplitNum,
                           const std::vector<unsigned>& ctaOrder) {
  size_t rank = ctaOrder.size();
  checkOrder("CTAOrder", ctaOrder, rank);
  checkPowersOfTwo("CTAsPerCGA", ctasPerCga, rank);
  checkPowersOfTwo("CTASplitNum", ctaSplitNum, rank);
  std::vector<std::string> names = standardOutDimNames(rank);
  LinearLayout result;
  for (unsigned dim : ctaOrder) {
    if (ctaSplitNum[dim] > ctasPerCga[dim])
      throw Error("CTASplitNum[" + std::to_string(dim) + "] = " + std::to_string(ctaSplitNum[dim]) +
                  " is larger than CTAsPerCGA[" + std::to_string(dim) +
                  "] = " + std::to_string(ctasPerCga[dim]));
    result = result * LinearLayout::identity1D(ctaSplitNum[dim], "block", names[dim]) *
             LinearLayout::zeros1D(ctasPerCga[dim] / ctaSplitNum[dim], "block", names[dim]);
  }
  return result.transposeOuts(names);
}

LinearLayout singleCtaLayout(size_t rank) {
  LayoutValue v;
  v.in_dims.push_back({"block", {}});
  for (const std::string& n : standardOutDimNames(rank)) v.out_dims.push_back({n, 1});
  return LinearLayout(std::move(v));
}

LinearLayout combineCtaCgaWithShape(const LinearLayout& ctaLayout, const LinearLayout& cgaLayout,
                                    const Shape& shape, bool broadcastRegisters) {
  std::vector<std::string> names = standardOutDimNames(shape.size());
  std::vector<std::pair<std::string, uint64_t>> labeled;
  for (size_t i = 0; i < shape.size(); ++i) labeled.push_back({names[i], shape[i]});
  LinearLayout cga =
      ensureLayoutNotLargerThan(cgaLayout, labeled).transposeOuts(ctaLayout.getOutDimNames());
  // Each CTA holds shape / (CTAs along the dim) of the tensor, at least 1.
  std::vector<std::pair<std::string, uint64_t>> ctaShape;
  for (const std::string& d : ctaLayout.getOutDimNames()) {
    uint64_t whole = labeled[std::stoul(d.substr(3))].second;
    ctaShape.push_back({d, std::max<uint64_t>(1, whole / cga.getOutDimSize(d))});
  }
  LinearLayout cta = ensureLayoutNotLargerThan(ensureLayoutNotSmallerThan(ctaLayout, ctaShape),
                                               ctaShape, broadcastRegisters);
  return (cta * cga).transposeOuts(names);
}

}  // namespace f2lay::ref::catalog
