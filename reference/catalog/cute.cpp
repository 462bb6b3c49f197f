#include "reference/catalog/cute.h"

#include <algorithm>
#include <cstdlib>

namespace f2lay::ref::catalog {

namespace {

const std::string kOp = "cute_swizzle";

template <typename T>
std::string tupleText(const std::vector<T>& v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + ")";
}

// CuTe's Swizzle::apply: ZZZ ^= YYY (include/cute/swizzle.hpp).
int64_t swizzle(const CuteSwizzle& sw, int64_t x) {
  if (sw.bits == 0) return x;
  int64_t yyy = ((int64_t{1} << sw.bits) - 1) << (sw.base + std::max(0, sw.shift));
  int64_t moved = x & yyy;  // non-negative: yyy is
  return x ^ (sw.shift >= 0 ? moved >> sw.shift : moved << -sw.shift);
}

void checkSwizzle(const CuteSwizzle& sw) {
  if (sw.bits < 0) throw Error(kOp + ": b = " + std::to_string(sw.bits) + " must be at least 0");
  if (sw.base < 0) throw Error(kOp + ": m = " + std::to_string(sw.base) + " must be at least 0");
  if (std::abs(sw.shift) < sw.bits)
    throw Error(kOp + ": |s| = " + std::to_string(std::abs(sw.shift)) +
                " must be at least b = " + std::to_string(sw.bits) +
                " (CuTe: abs(SShift) >= BBits, so that YYY and ZZZ are "
                "disjoint)");
  if (sw.bits + sw.base + std::abs(sw.shift) > 62)
    throw Error(kOp + ": b + m + |s| = " + std::to_string(sw.bits + sw.base + std::abs(sw.shift)) +
                " puts the swizzle masks beyond 62 bits");
}

// CuTe's index of the 1-D coordinate x: split colexicographically (mode 0
// fastest), then sum c_i * stride_i. Only for the non-power-of-two witness.
// Each term is below 2^62 (inputBits checks strides first), but several
// can overflow int64: the sum wraps modulo 2^64, as CuTe's own would.
int64_t indexOf1D(const CuteLayout& l, uint64_t x) {
  uint64_t index = 0;
  for (size_t i = 0; i < l.shape.size(); ++i) {
    index += (x % l.shape[i]) * static_cast<uint64_t>(l.stride[i]);
    x /= l.shape[i];
  }
  return static_cast<int64_t>(index);
}

// A shape that is not a power of two has no F2 coordinate space; where a
// small search finds one, name a pair of 1-D coordinates whose XOR is still
// inside the shape and that CuTe's carries make non-linear.
[[noreturn]] void throwNotPowerOfTwo(const CuteSwizzle& sw, const CuteLayout& l, size_t dim) {
  std::string head = kOp + ": " + cuteToString(sw, l) + " is not linear over F2: shape[" +
                     std::to_string(dim) + "] = " + std::to_string(l.shape[dim]) +
                     " is not a power of two";
  uint64_t size = 1;
  for (uint64_t s : l.shape) size = std::min<uint64_t>(size * s, uint64_t{1} << 20);
  uint64_t limit = std::min<uint64_t>(size, 256);
  auto L = [&](uint64_t x) { return swizzle(sw, indexOf1D(l, x)); };
  for (uint64_t y = 1; y < limit; ++y)
    for (uint64_t x = 1; x < y; ++x)
      if ((x ^ y) < size && L(x ^ y) != (L(x) ^ L(y)))
        throw Error(
            head + ", so CuTe's 1-D coordinates carry between modes: x = " + std::to_string(x) +
            ", y = " + std::to_string(y) + " give L(x xor y) = L(" + std::to_string(x ^ y) +
            ") = " + std::to_string(L(x ^ y)) + " but L(x) xor L(y) = " + std::to_string(L(x)) +
            " xor " + std::to_string(L(y)) + " = " + std::to_string(L(x) ^ L(y)));
  throw Error(head + "; linear layouts need power-of-two shapes");
}

// One input bit: mode `dim`, value 2^bit there; `image` = g(e) before the
// swizzle.
struct InputBit {
  size_t dim;
  int bit;
  int64_t image;
};

std::string coordinateText(size_t rank, const InputBit& b) {
  std::vector<uint64_t> c(rank, 0);
  c[b.dim] = uint64_t{1} << b.bit;
  return tupleText(c);
}

// The input bits with their images, after the shape and stride rules.
std::vector<InputBit> inputBits(const CuteSwizzle& sw, const CuteLayout& l) {
  checkSwizzle(sw);
  if (l.shape.empty()) throw Error(kOp + ": shape must have at least one mode");
  if (l.shape.size() != l.stride.size())
    throw Error(kOp + ": shape has " + std::to_string(l.shape.size()) + " modes but stride has " +
                std::to_string(l.stride.size()) + "; CuTe needs one stride per mode");
  // The range rules come before the power-of-two rule, whose witness
  // search evaluates the layout (found by fuzz/catalog_fuzzer.cpp: a stride
  // of 2^61 overflowed there).
  for (size_t i = 0; i < l.shape.size(); ++i) {
    if (l.shape[i] == 0) throw Error(kOp + ": shape[" + std::to_string(i) + "] = 0 is empty");
    // |stride| * (shape - 1) must stay below 2^62 so that sums of images fit.
    uint64_t magnitude = static_cast<uint64_t>(std::llabs(l.stride[i]));
    if (l.stride[i] == INT64_MIN ||
        (magnitude != 0 && magnitude > (uint64_t{1} << 62) / l.shape[i]))
      throw Error(kOp + ": stride[" + std::to_string(i) + "] = " + std::to_string(l.stride[i]) +
                  " times shape[" + std::to_string(i) + "] = " + std::to_string(l.shape[i]) +
                  " goes beyond 2^62");
  }
  for (size_t i = 0; i < l.shape.size(); ++i)
    if (!isPowerOfTwo(l.shape[i])) throwNotPowerOfTwo(sw, l, i);
  std::vector<InputBit> bits;
  for (size_t i = 0; i < l.shape.size(); ++i) {
    for (int j = 0; (uint64_t{1} << j) < l.shape[i]; ++j)
      bits.push_back({i, j, l.stride[i] * (int64_t{1} << j)});
  }
  if (bits.size() > 62)
    throw Error(kOp + ": the shape " + tupleText(l.shape) + " has 2^" +
                std::to_string(bits.size()) + " elements, more than 2^62");
  return bits;
}

// The pair search of the header comment: the first pair of input bits (by
// the later bit, then the earlier) whose images share a bit.
void checkLinear(const CuteSwizzle& sw, const CuteLayout& l, const std::vector<InputBit>& bits) {
  for (size_t b = 0; b < bits.size(); ++b)
    for (size_t a = 0; a < b; ++a) {
      if ((bits[a].image & bits[b].image) == 0) continue;
      int64_t lx = swizzle(sw, bits[a].image), ly = swizzle(sw, bits[b].image);
      int64_t lxy = swizzle(sw, bits[a].image + bits[b].image);
      std::vector<uint64_t> xy(l.shape.size(), 0);
      xy[bits[a].dim] += uint64_t{1} << bits[a].bit;
      xy[bits[b].dim] += uint64_t{1} << bits[b].bit;
      throw Error(kOp + ": " + cuteToString(sw, l) +
                  " is not linear over F2: x = " + coordinateText(l.shape.size(), bits[a]) +
                  ", y = " + coordinateText(l.shape.size(), bits[b]) + " give L(x xor y) = L" +
                  tupleText(xy) + " = " + std::to_string(lxy) +
                  " but L(x) xor L(y) = " + std::to_string(lx) + " xor " + std::to_string(ly) +
                  " = " + std::to_string(lx ^ ly) +
                  " (strides that are not powers of two, and modes whose offsets overlap, add "
                  "with carries)");
    }
  for (const InputBit& b : bits)
    if (b.image < 0)
      throw Error(kOp + ": " + cuteToString(sw, l) + ": stride[" + std::to_string(b.dim) +
                  "] = " + std::to_string(l.stride[b.dim]) + " gives the coordinate " +
                  coordinateText(l.shape.size(), b) + " the offset " + std::to_string(b.image) +
                  "; memory offsets must be non-negative");
}

}  // namespace

std::string cuteToString(const CuteSwizzle& sw, const CuteLayout& l) {
  return "Sw<" + std::to_string(sw.bits) + "," + std::to_string(sw.base) + "," +
         std::to_string(sw.shift) + "> o " + tupleText(l.shape) + ":" + tupleText(l.stride);
}

LinearLayout cuteToLinear(const CuteSwizzle& sw, const CuteLayout& l) {
  std::vector<InputBit> bits = inputBits(sw, l);
  checkLinear(sw, l, bits);
  LayoutValue v;
  uint64_t reach = 0;  // OR of every offset bit that some input bit sets
  for (size_t i = 0; i < l.shape.size(); ++i) v.in_dims.push_back({"dim" + std::to_string(i), {}});
  for (const InputBit& b : bits) {
    uint64_t offset = static_cast<uint64_t>(swizzle(sw, b.image));
    v.in_dims[b.dim].bases.push_back({offset});
    reach |= offset;
  }
  uint64_t size = 1;
  while (size <= reach) size *= 2;
  v.out_dims.push_back({"offset", size});
  return LinearLayout(std::move(v));
}

LinearLayout cuteMemoryLayout(const CuteSwizzle& sw, const CuteLayout& l) {
  LinearLayout toOffset = cuteToLinear(sw, l);
  if (!toOffset.isInvertible())
    throw Error(kOp + ": " + cuteToString(sw, l) + " is not invertible: its " +
                std::to_string(uint64_t{1} << toOffset.getTotalInDimSizeLog2()) +
                " coordinates do not fill the offsets 0.." +
                std::to_string(toOffset.getOutDimSize("offset") - 1) +
                " one to one, so there is no offset -> coordinate layout (ask for the "
                "coordinate -> offset direction)");
  return toOffset.invert();
}

namespace {

// The flat shape:stride whose plain images (no swizzle) are `images`, per
// dim: bit j of a dim maps to stride * 2^j, and no two images share a bit
// (so that CuTe's sums are XORs: any stride, e.g. (2):(7), not only powers
// of two). nullopt otherwise.
std::optional<CuteLayout> plainLayout(const std::vector<std::vector<uint64_t>>& images) {
  CuteLayout l;
  uint64_t used = 0;
  for (const std::vector<uint64_t>& dim : images) {
    uint64_t stride = dim.empty() ? 0 : dim[0];
    for (size_t j = 0; j < dim.size(); ++j) {
      bool doubling =
          stride == 0 ? dim[j] == 0 : (dim[j] >> j) == stride && dim[j] == (stride << j);
      if (!doubling) return std::nullopt;
      if (used & dim[j]) return std::nullopt;
      used |= dim[j];
    }
    l.shape.push_back(uint64_t{1} << dim.size());
    l.stride.push_back(static_cast<int64_t>(stride));
  }
  return l;
}

}  // namespace

std::optional<CuteSwizzledLayout> linearToCute(const LinearLayout& layout) {
  LinearLayout toOffset = layout;
  std::vector<std::string> ins = layout.getInDimNames(), outs = layout.getOutDimNames();
  if (ins == std::vector<std::string>{"offset"} && outs == standardOutDimNames(outs.size())) {
    if (!layout.isInvertible())
      throw Error(
          "linear_to_cute: an offset -> dim0.. layout must be invertible to be read as "
          "a CuTe layout");
    toOffset = layout.invert();
  } else if (outs != std::vector<std::string>{"offset"} || ins != standardOutDimNames(ins.size()) ||
             ins.empty()) {
    throw Error("linear_to_cute: expects dim0.. -> offset or offset -> dim0..");
  }
  std::vector<std::vector<uint64_t>> images;
  for (const InDim& d : toOffset.value().in_dims) {
    images.emplace_back();
    for (const Basis& b : d.bases) images.back().push_back(b[0]);
  }
  int n = toOffset.getOutDimSizeLog2("offset");
  auto tryWith = [&](const CuteSwizzle& sw) -> std::optional<CuteSwizzledLayout> {
    // Sw is an involution (|S| >= B keeps YYY and ZZZ apart): the plain
    // images are Sw of the swizzled ones.
    std::vector<std::vector<uint64_t>> plain = images;
    for (std::vector<uint64_t>& dim : plain)
      for (uint64_t& x : dim) x = static_cast<uint64_t>(swizzle(sw, static_cast<int64_t>(x)));
    std::optional<CuteLayout> l = plainLayout(plain);
    if (!l) return std::nullopt;
    return CuteSwizzledLayout{sw, *l};
  };
  if (auto found = tryWith({0, 0, 0})) return found;
  for (int b = 1; 2 * b <= n; ++b)
    for (int m = 0; m + 2 * b <= n; ++m)
      for (int sign : {1, -1})
        for (int s = b; m + s + b <= n; ++s)
          if (auto found = tryWith({b, m, sign * s})) return found;
  return std::nullopt;
}

}  // namespace f2lay::ref::catalog
