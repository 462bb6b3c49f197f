// The shared-memory path of a conversion (paper §5.4), simulated: every warp
// stores its registers per A into a memory laid out by S, with the vectors
// the layouts allow, then loads per B, and every register must end up holding
// the element B says. It uses only LinearLayout::apply, so it checks the
// swizzle, the vectorization and the instruction grouping without sharing
// their algebra.
#pragma once

#include <cstdint>
#include <string>

#include "analysis/padding.h"
#include "reference/linear_layout.h"

namespace f2lay::ref::analysis {

struct RoundTrip {
  uint64_t storeInstructions = 0, loadInstructions = 0;  // all warps
  uint64_t storeVectorElements = 0, loadVectorElements = 0;
  uint64_t wrongElements = 0;  // B locations holding anything but their element
  std::string firstWrong;      // the first of them, described
};

// Each side moves the widest vector its registers allow: registers whose
// elements lie at offsets 1, 2, 4, ... after the first (in that order), at
// most 16 bytes of elementBytes each. With `padding` (a padded memory
// layout, analysis/padding.h) the memory is addressed at padded offsets and
// no vector is wider than the padding allows (paddedVectorLimit); each
// vector's elements are written and read at consecutive padded addresses
// from its first element's, so a vector that straddled a padding would show
// as wrong elements. Throws f2lay::Error when S is not invertible or has
// more than 2^24 offsets, or the padding is not valid.
RoundTrip simulateSharedRoundTrip(const LinearLayout& a, const LinearLayout& b,
                                  const LinearLayout& shared, uint64_t elementBytes,
                                  const f2lay::analysis::Padding& padding = {});

}  // namespace f2lay::ref::analysis
