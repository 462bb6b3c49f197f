// The catalog fuzzer's memory layouts: swizzled and unswizzled shared, NVMMA
// shared, CuTe Swizzle<B,M,S> o shape:stride and CUTLASS
// TensorOpMultiplicand, each against its offset formula (shared_formulas.h,
// cute_formula.h, cutlass_formula.h).
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "definitions/cute_formula.h"
#include "definitions/cutlass_formula.h"
#include "definitions/elementwise_compare.h"
#include "definitions/shared_formulas.h"
#include "fuzz/catalog_decoder.h"
#include "fuzz/catalog_families.h"
#include "reference/catalog/cute.h"
#include "reference/catalog/cutlass.h"
#include "reference/catalog/nvmma_shared.h"
#include "reference/catalog/shared.h"

namespace f2lay::fuzz::catalog_fuzz {
// Def 4.11 (swizzledShared) or its vec = perPhase = maxPhase = 1 case
// (unswizzledShared), one CTA.
void fuzzSwizzledShared(Decoder& in) {
  size_t rank = in.rank(1, 3);
  Shape shape = in.sizes("shape", rank, 6);
  in.budget = 64;  // vec, per_phase, max_phase are not inputs
  bool swizzled = in.flag();
  SwizzledSharedParams p{1, 1, 1, in.order(rank), std::nullopt};
  if (swizzled) {
    p.vec = in.size("vec", 4);
    p.perPhase = in.size("per_phase", 4);
    p.maxPhase = in.size("max_phase", 5);
  }
  in.require(!shape.empty(), "shape = [] (rank 0)");
  in.requirePermutation("order", p.order, shape.size());
  Target t{swizzled ? "swizzled_shared" : "unswizzled_shared",
           "vec " + std::to_string(p.vec) + " per_phase " + std::to_string(p.perPhase) +
               " max_phase " + std::to_string(p.maxPhase) + " order " + list(p.order) + " shape " +
               list(shape),
           in};
  Built b = construct(
      t, [&] { return swizzled ? swizzledShared(p, shape) : unswizzledShared(p.order, shape); });
  if (!accepted(t, b, plainLegal(in))) return;
  expectSame(t, outDimMismatch(*b.answer, shape));
  expectSame(t, memoryMismatch(*b.answer, shape, [&](const shared_formulas::Coords& x) {
               return shared_formulas::def411Offset(p, shape, x);
             }));
}

// The TMA swizzles; shared_formulas.h covers rank 2 and rank >= 2 not
// transposed, without fp4 padding.
void fuzzNvmmaShared(Decoder& in) {
  NvmmaSharedParams p;
  const uint64_t widths[6] = {0, 32, 64, 128, 48, 256}, bits[6] = {8, 16, 32, 64, 4, 12};
  int w = in.oneIn16() ? in.pick(4, 5) : in.pick(0, 3),
      e = in.oneIn16() ? in.pick(4, 5) : in.pick(0, 3);
  p.swizzleByteWidth = widths[w];
  p.elementBitwidth = bits[e];
  in.require(w < 4, "swizzle_byte_width = " + std::to_string(p.swizzleByteWidth));
  in.require(e < 4, "element_bitwidth = " + std::to_string(p.elementBitwidth));
  p.transposed = in.flag();
  p.fp4Padded = in.pick(0, 7) == 7;
  // The shape alone gives the rank: no list can have the wrong length.
  Shape shape(in.rank(2, 3));
  for (size_t d = 0; d < shape.size(); ++d)
    shape[d] = in.size("shape[" + std::to_string(d) + "]", 9);
  Target t{"nvmma_shared",
           "swizzle_byte_width " + std::to_string(p.swizzleByteWidth) + " element_bitwidth " +
               std::to_string(p.elementBitwidth) + (p.transposed ? " transposed" : "") +
               (p.fp4Padded ? " fp4_padded" : "") + " shape " + list(shape),
           in};
  Built b = construct(t, [&] { return nvmmaShared(p, shape); });
  if (!accepted(t, b, false)) return;
  expectSame(t, outDimMismatch(*b.answer, shape));
  if (!p.fp4Padded && (shape.size() == 2 || !p.transposed))
    expectSame(t, memoryMismatch(*b.answer, shape, [&](const shared_formulas::Coords& x) {
                 return shared_formulas::nvmmaOffset(p, shape, x);
               }));
}

namespace {

// The smallest power of two above every value ("offset"'s size).
uint64_t sizeAbove(const std::vector<uint64_t>& values) {
  uint64_t size = 1;
  for (uint64_t v : values)
    while (size <= v) size *= 2;
  return size;
}

// Whether the offsets are exactly 0..n-1, each once.
bool isBijection(const std::vector<uint64_t>& offsets) {
  std::vector<bool> hit(offsets.size(), false);
  for (uint64_t o : offsets) {
    if (o >= hit.size() || hit[o]) return false;
    hit[o] = true;
  }
  return true;
}

// Checks a dim0.. -> offset layout (`toOffset`) and its inverse (`memory`)
// against `offsets`, the definition's offset of each flattened input (dim0
// fastest) of `shape`: the first must match at every input, its offset dim
// the smallest power of two above every offset; the second must exist
// exactly when the offsets are a bijection, and invert them.
void expectOffsets(const Target& t, const Built& toOffset, const Built& memory, const Shape& shape,
                   const std::vector<uint64_t>& offsets) {
  if (accepted(t, toOffset, false)) {
    expectSame(t, flatMismatch(*toOffset.answer,
                               [&](uint64_t x) { return std::vector<uint64_t>{offsets[x]}; }));
    if (toOffset.answer->getOutDimSize("offset") != sizeAbove(offsets))
      fail(t, "offset has size " + std::to_string(toOffset.answer->getOutDimSize("offset")) +
                  ", the offsets reach " +
                  std::to_string(*std::max_element(offsets.begin(), offsets.end())));
  }
  if (!accepted(t, memory, toOffset.answer && isBijection(offsets))) return;
  if (!toOffset.answer || !isBijection(offsets))
    fail(t, "the memory layout exists, the offsets are no bijection");
  expectSame(t, memoryMismatch(*memory.answer, shape, [&](const std::vector<uint64_t>& x) {
               uint64_t flat = 0;
               for (size_t d = shape.size(); d-- > 0;) flat = flat * shape[d] + x[d];
               return offsets[flat];
             }));
}

}  // namespace

// CuTe's Swizzle<B,M,S> o shape:stride, flat or with a nested mode, both
// directions (cute.h). Where the parameters are CuTe's and small, the
// definition (cute_formula.h, recursive over nested modes) decides whether
// the constructor must accept: exactly when it is linear over F2 (every
// offset the XOR of those of the input's bits) with no negative offset.
void fuzzCute(Decoder& in) {
  CuteSwizzle sw{in.pick(0, 3), in.pick(0, 4), in.pick(-4, 4)};
  if (in.oneIn16()) {
    in.wild = true;
    const int odd[4][3] = {{-1, 3, 1}, {0, -2, 1}, {20, 20, 30}, {3, 3, 60}};
    const int* o = odd[in.pick(0, 3)];
    sw = {o[0], o[1], o[2]};
  }
  int absShift = std::abs(sw.shift);
  bool cuteSwizzle =
      sw.bits >= 0 && sw.base >= 0 && absShift >= sw.bits && sw.bits + sw.base + absShift <= 62;
  in.require(cuteSwizzle, "a swizzle that is not CuTe's");
  in.budget = 10;
  size_t rank = in.rank(1, 3);
  std::vector<uint64_t> shape = in.sizes("shape", rank, 4);
  std::vector<int64_t> stride;
  const int64_t strides[16] = {0, 1, 2, 3, 4, 5, 6, 8, 12, 16, 32, 64, 128, -1, -2, -4};
  for (size_t i = 0; i < rank; ++i) {
    int64_t s = in.flag() ? strides[in.pick(0, 15)] : int64_t{1} << in.pick(0, 20);
    if (in.oneIn16()) {
      in.wild = true;
      s = (in.flag() ? 1 : -1) * (int64_t{1} << 61);
    }
    stride.push_back(s);
  }
  in.requireLength("stride", stride, shape.size());
  CuteLayout layout = flatCuteLayout(shape, stride);
  // A nested mode (cute.h): mode i of size n >= 2 becomes (2, n/2) with a
  // second stride of its own. Decoded last, so that inputs that end before
  // it decode as before.
  if (in.flag() && !shape.empty() && shape.size() == stride.size()) {
    size_t i = static_cast<size_t>(in.pick(0, static_cast<int>(shape.size()) - 1));
    int64_t second = strides[in.pick(0, 15)];
    if (shape[i] >= 2 && shape[i] % 2 == 0) {
      layout.shape[i] = {2, static_cast<int64_t>(shape[i] / 2)};
      layout.stride[i] = {stride[i], second};
    }
  }
  Target t{"cute", cuteToString(sw, layout), in};
  Built toOffset = construct(t, [&] { return cuteToLinear(sw, layout); });
  Built memory = construct(t, [&] { return cuteMemoryLayout(sw, layout); });
  if (!in.broken.empty() || in.wild || shape.empty()) {
    accepted(t, toOffset, false);  // only the refusal of broken rules is checked
    accepted(t, memory, false);
    return;
  }
  uint64_t n = 1;
  for (uint64_t s : shape) n *= s;
  std::vector<uint64_t> offsets(n);
  bool linear = true;
  for (uint64_t x = 0; x < n; ++x) {
    int64_t o = cuteOffset(sw, layout, x), xor_ = 0;
    for (uint64_t bit = 1; bit <= x; bit *= 2)
      if (x & bit) xor_ ^= cuteOffset(sw, layout, bit);
    linear = linear && o >= 0 && o == xor_;
    offsets[x] = static_cast<uint64_t>(o);
  }
  if (!linear) {
    if (toOffset.answer) fail(t, "accepted a layout that is not linear over F2 (cute_formula.h)");
    if (memory.answer) fail(t, "the memory direction accepted a layout that is not linear over F2");
    return;
  }
  if (!toOffset.answer) fail(t, "refused a layout that is linear over F2: " + toOffset.error);
  expectOffsets(t, toOffset, memory, shape, offsets);
}

// CUTLASS's TensorOpMultiplicand crosswise, both directions (cutlass.h):
// linear exactly when every parameter is a power of two, crosswise from
// kElementsPerAccess E = 128 / element_bits to 8E, and ldm at least the
// contiguous extent and crosswise.
void fuzzCutlass(Decoder& in) {
  TensorOpMultiplicandParams p;
  p.elementBits = in.size("element_bits", 7);
  in.require(p.elementBits <= 128, "element_bits = " + std::to_string(p.elementBits));
  uint64_t perAccess = p.elementBits && p.elementBits <= 128 ? 128 / p.elementBits : 1;
  p.crosswise = in.oneIn16() ? perAccess / 2 + 16 * in.pick(0, 1) : perAccess << in.pick(0, 3);
  in.require(isPowerOfTwo(p.crosswise) && p.crosswise >= perAccess && p.crosswise <= 8 * perAccess,
             "crosswise = " + std::to_string(p.crosswise));
  // The extents: mostly crosswise times 1, 2 or 4 by 2^0..2^5, within the budget.
  p.contiguous = in.oneIn16() ? p.crosswise / 2 : p.crosswise << in.pick(0, 2);
  in.budget = kMaxInputBits - (isPowerOfTwo(p.contiguous) ? f2lay::log2Exact(p.contiguous) : 0);
  p.strided = in.size("extent[1]", 5);
  uint64_t minLdm = std::max(p.contiguous, p.crosswise);
  p.ldm = in.oneIn16() ? minLdm / 2 + minLdm / 4 : in.pick(0, 2) * p.contiguous;
  p.rowMajor = in.flag();
  in.require(isPowerOfTwo(p.contiguous), "extent[0] = " + std::to_string(p.contiguous));
  uint64_t ldm = p.ldm ? p.ldm : p.contiguous;
  in.require(isPowerOfTwo(ldm) && ldm >= minLdm, "ldm = " + std::to_string(p.ldm));
  Target t{"cutlass_tensorop",
           "element_bits " + std::to_string(p.elementBits) + " crosswise " +
               std::to_string(p.crosswise) + " extent [" + std::to_string(p.contiguous) + ", " +
               std::to_string(p.strided) + "] ldm " + std::to_string(p.ldm) +
               (p.rowMajor ? " row_major" : ""),
           in};
  Built toOffset = construct(t, [&] { return tensorOpMultiplicandToOffset(p); });
  Built memory = construct(t, [&] { return tensorOpMultiplicand(p); });
  const uint64_t most = uint64_t{1} << kMaxInputBits;
  bool legal = in.broken.empty() && p.contiguous <= most && p.strided <= most &&
               p.contiguous * p.strided <= most;
  if (!accepted(t, toOffset, legal) || !legal) {
    accepted(t, memory, false);
    return;
  }
  // Flattened inputs run over dim0 first: contiguous, or strided for the
  // row-major view.
  Shape shape = p.rowMajor ? Shape{p.strided, p.contiguous} : Shape{p.contiguous, p.strided};
  std::vector<uint64_t> offsets;
  for (uint64_t x = 0; x < p.contiguous * p.strided; ++x)
    offsets.push_back(p.rowMajor ? cutlassOffset(p, x / p.strided, x % p.strided)
                                 : cutlassOffset(p, x % p.contiguous, x / p.contiguous));
  expectOffsets(t, toOffset, memory, shape, offsets);
}

}  // namespace f2lay::fuzz::catalog_fuzz
