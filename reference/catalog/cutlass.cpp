#include "reference/catalog/cutlass.h"

#include <algorithm>

namespace f2lay::ref::catalog {

namespace {

const std::string kOp = "cutlass_tensorop";

int log2Of(uint64_t x) {
  int k = 0;
  while ((uint64_t{1} << k) < x) ++k;
  return k;
}

void checkPowerOfTwo(const std::string& name, uint64_t value, const std::string& why) {
  if (!isPowerOfTwo(value) || value > (uint64_t{1} << 40))
    throw Error(kOp + ": " + name + " = " + std::to_string(value) +
                " is not a power of two (at most 2^40); " + why);
}

// The parameters with CUTLASS's static rules checked, ldm resolved.
TensorOpMultiplicandParams checked(TensorOpMultiplicandParams p) {
  if (!isPowerOfTwo(p.elementBits) || p.elementBits > 128)
    throw Error(kOp + ": element_bits = " + std::to_string(p.elementBits) +
                " must be a power of two from 1 to 128 (CUTLASS moves 128 bits per access, "
                "kElementsPerAccess = 128 / element_bits)");
  uint64_t e = 128 / p.elementBits;
  checkPowerOfTwo("crosswise", p.crosswise,
                  "kFactor = 8 * 128 / element_bits / crosswise "
                  "must divide exactly");
  if (p.crosswise > 8 * e)
    throw Error(kOp + ": crosswise = " + std::to_string(p.crosswise) +
                " is more than one 128-byte cache line (" + std::to_string(8 * e) +
                " elements of " + std::to_string(p.elementBits) +
                " bits): CUTLASS's kFactor would be 0");
  if (p.crosswise < e)
    throw Error(kOp + ": crosswise = " + std::to_string(p.crosswise) +
                " is less than one 128-bit access (" + std::to_string(e) + " elements of " +
                std::to_string(p.elementBits) +
                " bits): CUTLASS's kFactor would exceed 8 and "
                "TileShape::kContiguous / kFactor be 0");
  checkPowerOfTwo("extent[0]", p.contiguous, "linear layouts need power-of-two extents");
  checkPowerOfTwo("extent[1]", p.strided, "linear layouts need power-of-two extents");
  if (p.ldm == 0) p.ldm = p.contiguous;
  checkPowerOfTwo("ldm", p.ldm, "the strided dim steps by ldm * kFactor");
  if (p.ldm < p.contiguous)
    throw Error(kOp + ": ldm = " + std::to_string(p.ldm) +
                " is less than extent[0] = " + std::to_string(p.contiguous) +
                ": strided rows overlap, so offsets add with "
                "carries");
  if (p.ldm < p.crosswise)
    throw Error(kOp + ": ldm = " + std::to_string(p.ldm) +
                " is less than crosswise = " + std::to_string(p.crosswise) +
                ": the swizzled access slots of a row reach "
                "crosswise elements, so strided rows overlap and offsets add with carries");
  if (log2Of(p.ldm * (8 * e / p.crosswise)) + log2Of(p.strided) > 62 ||
      log2Of(p.contiguous) + log2Of(p.strided) > 62)
    throw Error(kOp + ": the layout spans more than 2^62 offsets");
  return p;
}

}  // namespace

LinearLayout tensorOpMultiplicandToOffset(const TensorOpMultiplicandParams& params) {
  TensorOpMultiplicandParams p = checked(params);
  int e = log2Of(128 / p.elementBits);                      // log2 kElementsPerAccess
  int f = log2Of(8 * (128 / p.elementBits) / p.crosswise);  // log2 kFactor
  int w = 3 - f;                                            // log2 (8 / kFactor)
  int t = std::max(w, 2);                                   // log2 kTileShapeStride
  int row = log2Of(p.ldm) + f;                              // log2 (ldm * kFactor)
  std::vector<Basis> c, s;                                  // the header comment's bit fields
  for (int j = 0; j < log2Of(p.contiguous); ++j)
    c.push_back({j < e + w ? uint64_t{1} << j : uint64_t{1} << (j + f)});
  for (int j = 0; j < log2Of(p.strided); ++j) {
    if (j < f) {
      s.push_back({uint64_t{1} << (e + w + j)});
      continue;
    }
    int k = j - f;  // bit k of vs
    s.push_back({(uint64_t{1} << (row + k)) ^ (k < t ? uint64_t{1} << (e + k) : 0)});
  }
  uint64_t reach = 0;
  for (const std::vector<Basis>* dim : {&c, &s})
    for (const Basis& b : *dim) reach |= b[0];
  uint64_t size = 1;
  while (size <= reach) size *= 2;
  // Pitch-linear: dim0 = contiguous. Row-major: dim0 = row = strided.
  LayoutValue v{{{p.rowMajor ? "dim1" : "dim0", c}, {p.rowMajor ? "dim0" : "dim1", s}},
                {{"offset", size}}};
  LinearLayout l(std::move(v));
  return p.rowMajor ? l.transposeIns({"dim0", "dim1"}) : l;
}

LinearLayout tensorOpMultiplicand(const TensorOpMultiplicandParams& params) {
  LinearLayout toOffset = tensorOpMultiplicandToOffset(params);
  if (!toOffset.isInvertible()) {
    TensorOpMultiplicandParams p = checked(params);
    throw Error(kOp + ": extent [" + std::to_string(p.contiguous) + ", " +
                std::to_string(p.strided) + "] with ldm = " + std::to_string(p.ldm) +
                " leaves offsets without an element, so there is no offset -> coordinate "
                "layout (there is when ldm = extent[0] >= crosswise = " +
                std::to_string(p.crosswise) + " and extent[1] >= kFactor = " +
                std::to_string(8 * (128 / p.elementBits) / p.crosswise) +
                "; or ask for the coordinate -> offset direction)");
  }
  return toOffset.invert();
}

}  // namespace f2lay::ref::catalog
