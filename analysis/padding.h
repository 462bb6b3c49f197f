// Padded shared memory (Gluon 3.9's PaddedSharedLayout, Triton's
// PaddedSharedEncodingAttr): the rule that turns an element's linear offset
// into its padded address, written once for the catalog
// (reference/catalog/padded_shared.h) and for every model that costs an
// access at padded addresses (bank conflicts, the shared round trip).
//
// A padded memory layout is a linear layout (offset, block) -> dims plus a
// list of (interval, padding) pairs. After every `interval` elements,
// `padding` unused elements are inserted; where several intervals end at one
// position their paddings add up (Gluon's PaddedSharedLayout docstring). So
// the element at linear offset o lives at the padded address, in elements,
//   P(o) = o + sum over pairs of (o >> log2 interval) << log2 padding,
// which is Triton's emitPadding (lib/Conversion/TritonGPUToLLVM/Utility.cpp:
// padOffset += (offset >> log2(interval)) << log2(padding), added to the
// offset). P is strictly increasing but not linear over F2 (it adds with
// carries), so a padded layout is an affine-looking map, not a LinearLayout:
// the analyses that rest on a linear offset map (optimal swizzling, the
// conversion plans, Lemma 9.4) refuse it; those that enumerate addresses
// (bank_conflicts, the shared round trip) take it.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "formats/error.h"

namespace f2lay::analysis {

struct PaddingPair {
  uint64_t interval = 1;  // elements between paddings (a power of two)
  uint64_t padding = 1;   // elements inserted after each interval (a power of two)
  friend bool operator==(const PaddingPair&, const PaddingPair&) = default;
};

// Empty: no padding (a plain linear memory layout).
using Padding = std::vector<PaddingPair>;

// Triton stores intervals and paddings as unsigned (32-bit) powers of two.
inline constexpr uint64_t kMaxPaddingValue = uint64_t{1} << 31;

// P(o) above: the padded address of linear offset `offset`, in elements.
//   Requires: a padding that passes checkPadding (powers of two), and an
//     address below 2^64.
//   Ensures: P(o) >= o, and P is strictly increasing. Never throws.
[[nodiscard]] inline uint64_t paddedOffset(const Padding& padding, uint64_t offset) {
  uint64_t address = offset;
  for (const PaddingPair& p : padding)
    address += (offset >> std::countr_zero(p.interval)) << std::countr_zero(p.padding);
  return address;
}

// Checks the pairs of a padded memory layout.
//   Requires: what PaddedSharedEncodingAttr::verify and Gluon's
//     PaddedSharedLayout.verify accept: at least one pair, every interval and
//     padding a power of two (at most 2^31), no interval twice.
//   Throws f2lay::Error("<where>...") naming the pair and the rule
//     otherwise ("<where>: must have at least one [interval, padding] pair
//     (Gluon 3.9)", "<where>[i]: interval n is not a power of two ...",
//     "<where>[i]: interval n appears twice ..."); returns otherwise.
inline void checkPadding(const Padding& padding, const std::string& where) {
  if (padding.empty())
    throw Error(where + ": must have at least one [interval, padding] pair (Gluon 3.9)");
  for (size_t i = 0; i < padding.size(); ++i) {
    std::string at = where + "[" + std::to_string(i) + "]";
    const PaddingPair& p = padding[i];
    if (!std::has_single_bit(p.interval) || p.interval > kMaxPaddingValue)
      throw Error(at + ": interval " + std::to_string(p.interval) +
                  " is not a power of two (at most 2^31; Triton stores it as unsigned)");
    if (!std::has_single_bit(p.padding) || p.padding > kMaxPaddingValue)
      throw Error(at + ": padding " + std::to_string(p.padding) +
                  " is not a power of two (at most 2^31; Triton stores it as unsigned)");
    for (size_t j = 0; j < i; ++j)
      if (padding[j].interval == p.interval)
        throw Error(at + ": interval " + std::to_string(p.interval) + " appears twice (also at [" +
                    std::to_string(j) + "]); Triton refuses duplicate intervals");
  }
}

// The widest vector, in elements, whose 2^k elements at linear offsets
// o..o+2^k-1 (o a multiple of 2^k) stay consecutive and 2^k-aligned at padded
// addresses, on a layout of `offsets` offsets: the smallest interval and
// padding over the pairs that insert padding inside the layout (interval <
// offsets). A vector wider than an interval would straddle a padding; one
// wider than a padding would start misaligned after it. The maximum uint64_t
// when no pair pads inside the layout. Never throws.
[[nodiscard]] inline uint64_t paddedVectorLimit(const Padding& padding, uint64_t offsets) {
  uint64_t limit = std::numeric_limits<uint64_t>::max();
  for (const PaddingPair& p : padding)
    if (p.interval < offsets) limit = std::min({limit, p.interval, p.padding});
  return limit;
}

// Whether any pair pads inside a layout of `offsets` offsets (otherwise
// P(o) = o there and the layout is linear after all). Never throws.
[[nodiscard]] inline bool padsInside(const Padding& padding, uint64_t offsets) {
  return paddedVectorLimit(padding, offsets) != std::numeric_limits<uint64_t>::max();
}

}  // namespace f2lay::analysis
