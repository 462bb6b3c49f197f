// The simulators' view of a layout: each input bit's image (its basis), and
// any other input as the XOR of those images (Def 4.1: a linear layout is
// fixed by its bases). The simulators (bank_simulator,
// shared_roundtrip, warp_simulator, gather_simulator) share it; the analyses
// they check never use it, so a simulator and its analysis share no algebra.
//
// An element is its tensor coordinate packed into one number: the out-dim
// values side by side, the first of outOrder in the lowest bits.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/error.h"
#include "reference/linear_layout.h"

namespace f2lay::ref::analysis {

class EvaluatedLayout {
 public:
  // inDims: the dims evaluated, in the order at() takes them (at most 4); a
  // dim the layout lacks has size 1. outOrder: the packing order, by default
  // the layout's own out dims; it must name every out dim of the layout.
  EvaluatedLayout(const LinearLayout& l, const std::vector<std::string>& inDims,
                  std::vector<std::string> outOrder = {}) {
    if (inDims.size() > kMaxDims) throw Error("evaluated layout: more than 4 in dims");
    if (outOrder.empty()) outOrder = l.getOutDimNames();
    for (const std::string& d : l.getOutDimNames()) {
      int shift = 0;
      bool found = false;
      for (const std::string& o : outOrder) {
        if (o == d) found = true;
        if (found) break;
        shift += l.getOutDimSizeLog2(o);
      }
      if (!found) throw Error("evaluated layout: out dim " + d + " has no place in the packing");
      shifts_.push_back(shift);
    }
    // Def 4.1: the image of bit i of an in dim alone is that dim's basis i.
    for (size_t k = 0; k < inDims.size(); ++k)
      for (const InDim& d : l.value().in_dims)
        if (d.name == inDims[k])
          for (const Basis& basis : d.bases) {
            uint64_t packed = 0;
            for (size_t i = 0; i < basis.size(); ++i) packed |= basis[i] << shifts_[i];
            images_[k].push_back(packed);
          }
  }

  int bits(size_t k) const { return static_cast<int>(images_[k].size()); }
  uint64_t size(size_t k) const { return uint64_t{1} << images_[k].size(); }
  uint64_t image(size_t k, int bit) const { return images_[k][bit]; }

  // The element at input (x0, x1, x2, x3), in the order of inDims.
  uint64_t at(uint64_t x0, uint64_t x1 = 0, uint64_t x2 = 0, uint64_t x3 = 0) const {
    const uint64_t xs[kMaxDims] = {x0, x1, x2, x3};
    uint64_t out = 0;
    for (size_t k = 0; k < kMaxDims; ++k)
      for (size_t i = 0; i < images_[k].size(); ++i)
        if (xs[k] >> i & 1) out ^= images_[k][i];
    return out;
  }

 private:
  static constexpr size_t kMaxDims = 4;
  std::vector<int> shifts_;  // of the layout's out dims, in its order
  std::vector<uint64_t> images_[kMaxDims];
};

}  // namespace f2lay::ref::analysis
