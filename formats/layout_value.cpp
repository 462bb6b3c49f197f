#include "formats/layout_value.h"

#include <bit>

#include "formats/error.h"

namespace f2lay {

LayoutValue identity1DValue(uint64_t size, const std::string& inDim, const std::string& outDim) {
  if (size == 0) return {};
  if (!isPowerOfTwo(size))
    throw Error("identity1D: size " + std::to_string(size) + " is not a power of two");
  InDim in{inDim, {}};
  for (uint64_t v = 1; v < size; v *= 2) in.bases.push_back({v});
  return LayoutValue{{in}, {{outDim, size}}};
}

LayoutValue zeros1DValue(uint64_t size, const std::string& inDim, const std::string& outDim,
                         uint64_t outDimSize) {
  if (size == 0) return {};
  if (!isPowerOfTwo(size))
    throw Error("zeros1D: size " + std::to_string(size) + " is not a power of two");
  InDim in{inDim, std::vector<Basis>(log2Exact(size), Basis{0})};
  return LayoutValue{{in}, {{outDim, outDimSize}}};
}

LayoutValue strided1DValue(uint64_t size, uint64_t stride, const std::string& inDim,
                           const std::string& outDim) {
  if (size == 0) return {};
  if (!isPowerOfTwo(size) || !isPowerOfTwo(stride))
    throw Error("strided1D: size " + std::to_string(size) + " and stride " +
                std::to_string(stride) + " must both be powers of two");
  if (log2Exact(size) + log2Exact(stride) > 63)
    throw Error("strided1D: size * stride exceeds 2^63");
  InDim in{inDim, {}};
  for (uint64_t v = 1; v < size; v *= 2) in.bases.push_back({v * stride});
  return LayoutValue{{in}, {{outDim, size * stride}}};
}

bool isPowerOfTwo(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }

int log2Exact(uint64_t powerOfTwo) { return std::countr_zero(powerOfTwo); }

bool isIdentifier(const std::string& name) {
  if (name.empty()) return false;
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!letter(name[0])) return false;
  for (char c : name)
    if (!letter(c) && !(c >= '0' && c <= '9') && c != '.') return false;
  return true;
}

int totalInBits(const LayoutValue& layout) {
  size_t n = 0;
  for (const InDim& d : layout.in_dims) n += d.bases.size();
  return static_cast<int>(n);
}

int totalOutBits(const LayoutValue& layout) {
  int n = 0;
  for (const OutDim& d : layout.out_dims) n += log2Exact(d.size);
  return n;
}

void inferOutDimSizes(LayoutValue& layout) {
  for (size_t k = 0; k < layout.out_dims.size(); ++k) {
    uint64_t size = 1;
    for (const InDim& d : layout.in_dims)
      for (const Basis& b : d.bases)
        while (k < b.size() && size <= b[k]) {
          if (size == (uint64_t{1} << 63))
            throw Error("basis value " + std::to_string(b[k]) + " of out dim '" +
                        layout.out_dims[k].name + "' needs an out dim of 2^64 or more");
          size *= 2;
        }
    layout.out_dims[k].size = size;
  }
}

void validate(const LayoutValue& layout) {
  if (layout.out_dims.size() > kMaxDims || layout.in_dims.size() > kMaxDims)
    throw Error("the layout has " + std::to_string(layout.in_dims.size()) + " in dims and " +
                std::to_string(layout.out_dims.size()) + " out dims; the limit is " +
                std::to_string(kMaxDims) + " on each side");
  // At most kMaxDims names a side: an earlier one with the same name is
  // found by a scan (every layout an op builds passes here).
  auto appearsBefore = [](const auto& dims, const auto& d) {
    for (const auto* e = dims.data(); e != &d; ++e)
      if (e->name == d.name) return true;
    return false;
  };
  for (const OutDim& d : layout.out_dims) {
    if (!isIdentifier(d.name))
      throw Error("out dim name '" + d.name + "' is not an identifier ([A-Za-z_][A-Za-z0-9_.]*)");
    if (appearsBefore(layout.out_dims, d)) throw Error("out dim '" + d.name + "' appears twice");
    if (!isPowerOfTwo(d.size))
      throw Error("out dim '" + d.name + "' has size " + std::to_string(d.size) +
                  ", which is not a power of two");
  }
  if (totalOutBits(layout) > kMaxOutBits)
    throw Error("the out dims have " + std::to_string(totalOutBits(layout)) +
                " bits in total; the limit is " + std::to_string(kMaxOutBits));

  size_t inBits = 0;
  for (const InDim& d : layout.in_dims) {
    if (!isIdentifier(d.name))
      throw Error("in dim name '" + d.name + "' is not an identifier ([A-Za-z_][A-Za-z0-9_.]*)");
    if (appearsBefore(layout.in_dims, d)) throw Error("in dim '" + d.name + "' appears twice");
    if (d.bases.size() > 63)
      throw Error("in dim '" + d.name + "' has " + std::to_string(d.bases.size()) +
                  " bases; one dim has at most 63 bits");
    inBits += d.bases.size();
    if (inBits > static_cast<size_t>(kMaxInBits))
      throw Error("the in dims have more than " + std::to_string(kMaxInBits) + " bits in total");
    for (size_t i = 0; i < d.bases.size(); ++i) {
      const Basis& b = d.bases[i];
      auto where = [&] { return "basis " + std::to_string(i) + " of in dim '" + d.name + "'"; };
      if (b.size() != layout.out_dims.size())
        throw Error(where() + " has " + std::to_string(b.size()) + " values but there are " +
                    std::to_string(layout.out_dims.size()) + " out dims");
      for (size_t k = 0; k < b.size(); ++k)
        if (b[k] >= layout.out_dims[k].size)
          throw Error(where() + " has value " + std::to_string(b[k]) + " for out dim '" +
                      layout.out_dims[k].name + "', which is not below its size " +
                      std::to_string(layout.out_dims[k].size));
    }
  }
}

}  // namespace f2lay
