// The comparison of a constructor's layout with an element-wise definition,
// without gtest, so that the catalog tests (test_support.h, elementwise_test,
// shared_test) and the catalog fuzzer (fuzz/catalog_fuzzer.cpp) share it. Each
// function returns the first difference as text ("" when there is none): the
// in dims and their sizes first, then the first input whose output differs.
// Layouts are evaluated by testkit/evaluate.h (the bases XORed, no reference
// code).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "reference/linear_layout.h"
#include "testkit/evaluate.h"

namespace f2lay::ref::catalog {

// "(1, 2)".
inline std::string coordText(const std::vector<uint64_t>& c) {
  std::string s = "(";
  for (size_t i = 0; i < c.size(); ++i) s += (i ? ", " : "") + std::to_string(c[i]);
  return s + ")";
}

namespace compare_detail {

inline std::string inDimsText(const LinearLayout& layout) {
  std::string s;
  for (const InDim& d : layout.value().in_dims)
    s += (s.empty() ? "" : ", ") + d.name + " (2^" + std::to_string(d.bases.size()) + ")";
  return "[" + s + "]";
}

// "" when the in dims are exactly `names` with log2 sizes `bits`.
inline std::string inDimMismatch(const LinearLayout& layout, const std::vector<std::string>& names,
                                 const std::vector<int>& bits) {
  const std::vector<InDim>& dims = layout.value().in_dims;
  bool same = dims.size() == names.size();
  for (size_t i = 0; same && i < dims.size(); ++i)
    same = dims[i].name == names[i] && static_cast<int>(dims[i].bases.size()) == bits[i];
  if (same) return "";
  std::string want;
  for (size_t i = 0; i < names.size(); ++i)
    want += (i ? ", " : "") + names[i] + " (2^" + std::to_string(bits[i]) + ")";
  return "in dims " + inDimsText(layout) + ", the definition [" + want + "]";
}

// log2 of a power of two, or -1.
inline int log2Of(uint64_t n) {
  if (n == 0 || (n & (n - 1)) != 0) return -1;
  int k = 0;
  while ((uint64_t{1} << k) < n) ++k;
  return k;
}

}  // namespace compare_detail

// Distributed layouts. `model` has registers(), lanes(), warps(), blocks()
// and either at(reg, lane, warp, block) -> coordinate (one value per out dim)
// or thread(lane, warp, block) -> the coordinates of the thread's registers
// (elementwise.h's Slice). The layout's in dims must be `inDims` in order
// (register, lane, warp, block; ldmatrix has register and lane only, and the
// model's sizes of the dims left out must be 1) with the model's sizes.
template <typename Model>
std::string distributedMismatch(const LinearLayout& layout, const Model& model,
                                const std::vector<std::string>& inDims = {"register", "lane",
                                                                          "warp", "block"}) {
  const uint64_t sizes[4] = {model.registers(), model.lanes(), model.warps(), model.blocks()};
  std::vector<int> bits;
  for (size_t i = 0; i < 4; ++i) {
    int b = compare_detail::log2Of(sizes[i]);
    if (b < 0)
      return "the definition has " + std::to_string(sizes[i]) + " of in dim " + std::to_string(i) +
             ", not a power of two";
    if (i < inDims.size())
      bits.push_back(b);
    else if (b != 0)
      return "the definition has " + std::to_string(sizes[i]) + " of in dim " + std::to_string(i) +
             ", which the layout does not have";
  }
  if (std::string m = compare_detail::inDimMismatch(layout, inDims, bits); !m.empty()) return m;
  const int regBits = bits[0], laneBits = bits[1];
  const int warpBits = bits.size() > 2 ? bits[2] : 0;
  const f2lay::testkit::Evaluator apply(layout.value());
  for (uint64_t b = 0; b < sizes[3]; ++b)
    for (uint64_t w = 0; w < sizes[2]; ++w)
      for (uint64_t l = 0; l < sizes[1]; ++l) {
        std::vector<std::vector<uint64_t>> held;
        if constexpr (requires { model.thread(l, w, b); }) {
          held = model.thread(l, w, b);
          if (held.size() != sizes[0])
            return "lane " + std::to_string(l) + " warp " + std::to_string(w) + " block " +
                   std::to_string(b) + ": the definition holds " + std::to_string(held.size()) +
                   " elements, thread 0 " + std::to_string(sizes[0]);
        } else {
          for (uint64_t r = 0; r < sizes[0]; ++r) held.push_back(model.at(r, l, w, b));
        }
        for (uint64_t r = 0; r < sizes[0]; ++r) {
          uint64_t x =
              r | l << regBits | w << (regBits + laneBits) | b << (regBits + laneBits + warpBits);
          std::vector<uint64_t> got = apply(x);
          if (got != held[r])
            return "register " + std::to_string(r) + " lane " + std::to_string(l) + " warp " +
                   std::to_string(w) + " block " + std::to_string(b) + ": the layout gives " +
                   coordText(got) + ", the definition " + coordText(held[r]);
        }
      }
  return "";
}

// Memory layouts, given by the offset of each element: `offsetOf(x)` for a
// coordinate x of `shape` (powers of two). The layout maps offset (and a block
// without bases) to the coordinate; at offsetOf(x) it must give x back, for
// every element x, and its offset dim must have as many offsets as `shape`
// has elements, so that every offset is checked (the layout is offsetOf's
// inverse, a bijection).
template <typename OffsetOf>
std::string memoryMismatch(const LinearLayout& layout, const std::vector<uint64_t>& shape,
                           const OffsetOf& offsetOf) {
  int bits = 0;
  for (uint64_t s : shape) {
    int b = compare_detail::log2Of(s);
    if (b < 0) return "the shape " + coordText(shape) + " is not made of powers of two";
    bits += b;
  }
  const std::vector<InDim>& dims = layout.value().in_dims;
  bool ok =
      !dims.empty() && dims[0].name == "offset" && static_cast<int>(dims[0].bases.size()) == bits;
  for (size_t i = 1; ok && i < dims.size(); ++i) ok = dims[i].bases.empty();
  if (!ok)
    return "in dims " + compare_detail::inDimsText(layout) + ", the definition [offset (2^" +
           std::to_string(bits) + ")] and no other in dim with bases";
  if (layout.value().out_dims.size() != shape.size())
    return std::to_string(layout.value().out_dims.size()) + " out dims for a shape of rank " +
           std::to_string(shape.size());
  const f2lay::testkit::Evaluator apply(layout.value());
  std::vector<uint64_t> x(shape.size(), 0);
  for (uint64_t n = 0; n < (uint64_t{1} << bits); ++n) {
    // x runs over every element, the last dim fastest.
    uint64_t rest = n;
    for (size_t d = shape.size(); d-- > 0;) {
      x[d] = rest % shape[d];
      rest /= shape[d];
    }
    uint64_t offset = offsetOf(x);
    if (offset >= (uint64_t{1} << bits))
      return "the definition puts " + coordText(x) + " at offset " + std::to_string(offset) +
             ", past the " + std::to_string(uint64_t{1} << bits) + " elements";
    std::vector<uint64_t> got = apply(offset);
    if (got != x)
      return "offset " + std::to_string(offset) + ": the layout gives " + coordText(got) +
             ", the definition " + coordText(x);
  }
  return "";
}

// Any layout against `want(x)`, one value per out dim, at every input x
// (flattened: the first in dim in the low bits; for dim0.. -> offset layouts
// that is CuTe's colexicographic 1-D index).
template <typename Want>
std::string flatMismatch(const LinearLayout& layout, const Want& want) {
  int bits = totalInBits(layout.value());
  const f2lay::testkit::Evaluator apply(layout.value());
  for (uint64_t x = 0; x < (uint64_t{1} << bits); ++x) {
    std::vector<uint64_t> got = apply(x), expected = want(x);
    if (got != expected)
      return "input " + std::to_string(x) + ": the layout gives " + coordText(got) +
             ", the definition " + coordText(expected);
  }
  return "";
}

}  // namespace f2lay::ref::catalog
