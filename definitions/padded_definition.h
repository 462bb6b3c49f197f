// Gluon 3.9's PaddedSharedLayout written from its docstring and Triton's
// verifier, not from the constructor (padded_shared.h): which parameters are
// legal, and where each (offset, block) sits, by integer sums. Together with
// padded_walk.h (the padded address of each offset, cell by cell) it is the
// element-wise definition that padded_shared_test.cpp and the catalog fuzzer
// (fuzz/catalog_memory.cpp) hold the constructor to.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "reference/catalog/padded_shared.h"

namespace f2lay::ref::catalog::padded_definition {

// Coordinates of (offset, block): the sum of the offset bases of the
// offset's set bits, plus each set block bit's cga_layout basis times the CTA
// tile (one more than the sum of every offset basis, per dim).
inline std::vector<uint64_t> coords(const PaddedSharedParams& p, uint64_t offset, uint64_t block) {
  size_t rank = p.shape.size();
  std::vector<uint64_t> tile(rank, 1), x(rank, 0);
  for (const Basis& b : p.offsetBases)
    for (size_t d = 0; d < rank; ++d) tile[d] += b[d];
  for (size_t i = 0; i < p.offsetBases.size(); ++i)
    if (offset >> i & 1)
      for (size_t d = 0; d < rank; ++d) x[d] += p.offsetBases[i][d];
  for (size_t j = 0; j < p.cgaBases.size(); ++j)
    if (block >> j & 1)
      for (size_t d = 0; d < rank; ++d) x[d] += p.cgaBases[j][d] * tile[d];
  return x;
}

namespace detail {

inline bool isPow2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

// The values each dim's bases take, or false where a basis has the wrong
// length, moves in more than one dim, by a value that is not a power of two,
// or (unless `zeros`) not at all. Zero bases are dropped.
inline bool valuesPerDim(const std::vector<Basis>& bases, size_t rank, bool zeros,
                         std::vector<std::vector<uint64_t>>& perDim) {
  perDim.assign(rank, {});
  for (const Basis& b : bases) {
    if (b.size() != rank) return false;
    size_t moving =
        static_cast<size_t>(std::count_if(b.begin(), b.end(), [](uint64_t v) { return v != 0; }));
    if (moving == 0 && zeros) continue;
    if (moving != 1) return false;
    size_t d = static_cast<size_t>(
        std::find_if(b.begin(), b.end(), [](uint64_t v) { return v != 0; }) - b.begin());
    if (!isPow2(b[d])) return false;
    perDim[d].push_back(b[d]);
  }
  return true;
}

// Whether sorted `values` are 1, 2, 4, ..., each once.
inline bool powersFromOne(std::vector<uint64_t> values) {
  std::sort(values.begin(), values.end());
  for (size_t k = 0; k < values.size(); ++k)
    if (k >= 62 || values[k] != uint64_t{1} << k) return false;
  return true;
}

}  // namespace detail

// Whether Gluon 3.9 and Triton take the parameters and f2lay's contract
// (padded_shared.h: shape is the size the bases span) holds: at least one
// pair, intervals and paddings powers of two up to 2^31, no interval twice;
// a rank of at least one; each offset basis moves in exactly one dim by a
// power of two, each cga_layout basis in at most one; per dim the offset
// values are 1, 2, 4, ... each once, and so are the nonzero block values;
// each dim of `shape` is 2 to the number of both, at most 2^62.
inline bool legal(const PaddedSharedParams& p) {
  if (p.intervalPaddingPairs.empty()) return false;
  for (size_t i = 0; i < p.intervalPaddingPairs.size(); ++i) {
    const analysis::PaddingPair& pair = p.intervalPaddingPairs[i];
    if (!detail::isPow2(pair.interval) || !detail::isPow2(pair.padding) ||
        pair.interval > (uint64_t{1} << 31) || pair.padding > (uint64_t{1} << 31))
      return false;
    for (size_t j = 0; j < i; ++j)
      if (p.intervalPaddingPairs[j].interval == pair.interval) return false;
  }
  size_t rank = p.shape.size();
  if (rank == 0) return false;
  std::vector<std::vector<uint64_t>> offsets, blocks;
  if (!detail::valuesPerDim(p.offsetBases, rank, false, offsets) ||
      !detail::valuesPerDim(p.cgaBases, rank, true, blocks))
    return false;
  for (size_t d = 0; d < rank; ++d) {
    size_t bits = offsets[d].size() + blocks[d].size();
    if (!detail::powersFromOne(offsets[d]) || !detail::powersFromOne(blocks[d]) || bits > 62 ||
        p.shape[d] != uint64_t{1} << bits)
      return false;
  }
  return true;
}

}  // namespace f2lay::ref::catalog::padded_definition
