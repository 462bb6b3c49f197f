// AMD's choice of a padded shared layout for a CDNA4 dot operand copied to
// LDS asynchronously (Gluon 3.9's ttgl.amd.cdna4.
// compute_efficient_padded_shared_layout, Triton's
// composePaddedLayoutForAsyncCopyCDNA4), written element by element from the
// rule Triton states in its comments, not from the constructor
// (padded_shared.h's amdEfficientPaddedShared), which builds a list of bases.
// Here the tile is a matrix of `rows` rows of `rowLength` elements (the
// contiguous dim), and the definition says at which linear offset each
// element (row r, column c) sits:
//   * a warp copies 64 lanes x 16 bytes = 1024 bytes, so padding may only
//     follow every 1024 bytes: the one pair is (1024 bytes, padding);
//   * rows r and r + wrap start on different banks, so the 1024 bytes after
//     each padding gather rows that share r mod wrap: r, r + wrap, r + 2 wrap,
//     ... in order; the next interval takes the next residue; once every
//     residue is placed, the next group of rows follows;
//   * Triton's two exchanges of rows (its "fix-ups"), as exchanges of two bits
//     of the row index.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "reference/catalog/padded_shared.h"

namespace f2lay::ref::catalog::amd_padded_definition {

// Where an element sits: column c of row r at linear offset
// c + rowLength * slot(r'), r' = r with the bits `exchange` (two powers of
// two, or {0, 0}) exchanged.
struct Arrangement {
  uint64_t intervalElems = 0, paddingElems = 0;
  size_t contigTensorDim = 0;  // the tensor dim along a row
  uint64_t rowLength = 0, rows = 0, wrap = 0;
  std::pair<uint64_t, uint64_t> exchange{0, 0};
  uint64_t conflictWays = 1;  // 2 where Triton tolerates 2-way conflicts
};

enum class Verdict { kNone, kAborts, kLayout };

struct Choice {
  Verdict verdict = Verdict::kNone;
  Arrangement arrangement;  // kLayout only
};

namespace detail {

inline uint64_t exchangeBits(uint64_t r, std::pair<uint64_t, uint64_t> bits) {
  auto [a, b] = bits;
  if (a == 0) return r;
  bool hasA = (r & a) != 0, hasB = (r & b) != 0;
  if (hasA != hasB) r ^= a | b;
  return r;
}

}  // namespace detail

// The linear offset of the element at tensor coordinates x.
inline uint64_t offsetOf(const Arrangement& a, const std::vector<uint64_t>& x) {
  uint64_t c = x[a.contigTensorDim], r = detail::exchangeBits(x[1 - a.contigTensorDim], a.exchange);
  // Rows per interval; a row longer than an interval fills intervals alone.
  uint64_t perInterval = std::max<uint64_t>(1, a.intervalElems / a.rowLength);
  uint64_t group = r / (a.wrap * perInterval), inGroup = r % (a.wrap * perInterval);
  uint64_t residue = inGroup % a.wrap, rank = inGroup / a.wrap;
  uint64_t slot = group * a.wrap * perInterval + residue * perInterval + rank;
  return c + a.rowLength * slot;
}

// Triton's choice, or None, or its abort, for a legal request (powers of two,
// rank 2).
inline Choice choose(const AmdPaddedParams& p) {
  Choice none;
  uint64_t elemBytes = p.dtypeBitwidth < 8 ? 1 : p.dtypeBitwidth / 8;
  if (elemBytes > 2) return none;                                     // 1 or 2 bytes only
  if (p.mfmaNonKDim != 16 && p.mfmaNonKDim != 32) return none;        // MFMA 16 or 32
  if (p.kWidth != 4 && p.kWidth != 8 && p.kWidth != 16) return none;  // k_width 4, 8, 16
  size_t kTensorDim = p.operandIndex == 0 ? 1 : 0;                    // A is [M, K], B is [K, N]
  Arrangement a;
  a.contigTensorDim = p.kContig ? kTensorDim : 1 - kTensorDim;
  a.rowLength = p.shape[a.contigTensorDim];
  a.rows = p.shape[1 - a.contigTensorDim];
  uint64_t rowBytes = a.rowLength * elemBytes, kBytes = p.kWidth * elemBytes;
  // The LDS read that feeds the MFMA: 16 bytes of K per lane (ds_read_b128)
  // or transposed 8-byte reads (ds_read_b64_tr) see 64 banks of 4 bytes; the
  // rest (ds_read2_b64 and narrower) see 32.
  enum {
    kB128,
    kB64Tr,
    kNarrow
  } read = p.kContig && kBytes == 16   ? kB128
           : !p.kContig && kBytes >= 8 ? kB64Tr
                                       : kNarrow;
  uint64_t bankRowBytes = read == kNarrow ? 128 : 256;
  // Padding: 32 bytes (MFMA 16) or 16 bytes (MFMA 32) for ds_read_b128;
  // 16 or 32 elements for ds_read_b64_tr; 8 bytes otherwise.
  uint64_t paddingBytes = read == kB128    ? (p.mfmaNonKDim == 16 ? 32 : 16)
                          : read == kB64Tr ? (p.mfmaNonKDim == 16 ? 16 : 32) * elemBytes
                                           : 8;
  // Rows staggered before the banks repeat: a bank row (or a row, if
  // shorter) over the padding.
  a.wrap = std::min(rowBytes, bankRowBytes) / paddingBytes;
  if (a.wrap == 0) return none;
  // The rows one warp's 1024 bytes cover (a row narrower than 16 bytes
  // counts as 16, one lane each): staggering needs that many rows times wrap.
  uint64_t rowsPerWarp = 1024 / std::max<uint64_t>(rowBytes, 16);
  uint64_t needed = rowsPerWarp * a.wrap;
  uint64_t shortBy = a.rows >= needed ? 1 : needed / a.rows;  // 2^k: 2^k-way conflicts
  if (shortBy > (read == kB128 ? 1u : 2u)) return none;
  a.wrap /= shortBy;
  a.conflictWays = shortBy;
  if (a.wrap == 0) return none;
  bool sixteenRows = a.rows >= rowsPerWarp * 16 && a.wrap < 16;
  if (sixteenRows) a.wrap = 16;
  a.intervalElems = 1024 / elemBytes;
  a.paddingElems = paddingBytes / elemBytes;
  // Triton stacks rows at wrap, 2 wrap, ... until an interval is full: they
  // must exist.
  uint64_t perInterval = std::max<uint64_t>(1, a.intervalElems / a.rowLength);
  if (a.wrap * perInterval > a.rows) return {Verdict::kAborts, {}};
  if (read == kB64Tr && p.mfmaNonKDim == 16 && kBytes == 16) {
    // A ds_read_b64_tr lane reads 8 bytes of K: the rows 8 bytes and 16 bytes
    // down K trade places. Triton asserts that both exist.
    a.exchange = {8 / elemBytes, 16 / elemBytes};
    if (16 / elemBytes >= a.rows) return {Verdict::kAborts, {}};
  }
  if (read == kB128 && p.mfmaNonKDim == 32 && sixteenRows && rowBytes < 256) {
    // Row 16 trades places with the row Triton finds at base index 8: the
    // one starting 256 elements in (slot 256 / rowLength, residue 0).
    a.exchange = {16, 16 * (256 / a.rowLength)};
  }
  return {Verdict::kLayout, a};
}

}  // namespace f2lay::ref::catalog::amd_padded_definition
