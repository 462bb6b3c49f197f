#include "reference/catalog/cute.h"

#include <algorithm>
#include <cstdlib>

namespace f2lay::ref::catalog {

namespace {

const std::string kOp = "cute_swizzle";

std::string tupleText(const std::vector<uint64_t>& v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + ")";
}

// A leaf of the shape with its stride: in top-level mode `dim`, at `path`
// ("[0][1]": shape[0][1], stride[0][1]).
struct Leaf {
  size_t dim;
  std::string path;
  uint64_t shape;
  int64_t stride;
};

// The leaves in CuTe's order (depth first, left to right: leaf 0 fastest in
// the 1-D coordinate), after the congruence rule.
void flatten(const CuteTuple& shape, const CuteTuple& stride, size_t dim, const std::string& path,
             std::vector<Leaf>& out) {
  if (shape.isTuple() != stride.isTuple() ||
      (shape.isTuple() && shape.items.size() != stride.items.size())) {
    auto what = [](const CuteTuple& t) {
      return t.isTuple() ? "a tuple of " + std::to_string(t.items.size())
                         : "the integer " + std::to_string(t.value);
    };
    throw Error(kOp + ": shape" + path + " is " + what(shape) + " but stride" + path + " is " +
                what(stride) + "; CuTe needs the stride congruent with the shape");
  }
  if (!shape.isTuple()) {
    if (shape.value <= 0)
      throw Error(kOp + ": shape" + path + " = " + std::to_string(shape.value) +
                  (shape.value == 0 ? " is empty" : " is negative"));
    out.push_back({dim, path, static_cast<uint64_t>(shape.value), stride.value});
    return;
  }
  for (size_t i = 0; i < shape.items.size(); ++i)
    flatten(shape.items[i], stride.items[i], dim, path + "[" + std::to_string(i) + "]", out);
}

std::vector<Leaf> leavesOf(const CuteLayout& l) {
  if (l.shape.empty()) throw Error(kOp + ": shape must have at least one mode");
  if (l.shape.size() != l.stride.size())
    throw Error(kOp + ": shape has " + std::to_string(l.shape.size()) + " modes but stride has " +
                std::to_string(l.stride.size()) + "; CuTe needs one stride per mode");
  std::vector<Leaf> leaves;
  for (size_t i = 0; i < l.shape.size(); ++i)
    flatten(l.shape[i], l.stride[i], i, "[" + std::to_string(i) + "]", leaves);
  return leaves;
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
int64_t indexOf1D(const std::vector<Leaf>& leaves, uint64_t x) {
  uint64_t index = 0;
  for (const Leaf& leaf : leaves) {
    index += (x % leaf.shape) * static_cast<uint64_t>(leaf.stride);
    x /= leaf.shape;
  }
  return static_cast<int64_t>(index);
}

// A shape that is not a power of two has no F2 coordinate space; where a
// small search finds one, name a pair of 1-D coordinates whose XOR is still
// inside the shape and that CuTe's carries make non-linear.
[[noreturn]] void throwNotPowerOfTwo(const CuteSwizzle& sw, const CuteLayout& l,
                                     const std::vector<Leaf>& leaves, const Leaf& bad) {
  std::string head = kOp + ": " + cuteToString(sw, l) + " is not linear over F2: shape" + bad.path +
                     " = " + std::to_string(bad.shape) + " is not a power of two";
  uint64_t size = 1;
  for (const Leaf& leaf : leaves) size = std::min<uint64_t>(size * leaf.shape, uint64_t{1} << 20);
  uint64_t limit = std::min<uint64_t>(size, 256);
  auto L = [&](uint64_t x) { return swizzle(sw, indexOf1D(leaves, x)); };
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

// One input bit: top-level mode `dim`, value 2^bit of the mode's 1-D
// coordinate; `image` = g(e) before the swizzle; `leaf` the leaf it is in.
struct InputBit {
  size_t dim;
  int bit;
  int64_t image;
  const Leaf* leaf;
};

std::string coordinateText(size_t rank, const InputBit& b) {
  std::vector<uint64_t> c(rank, 0);
  c[b.dim] = uint64_t{1} << b.bit;
  return tupleText(c);
}

// The input bits with their images, after the shape and stride rules.
std::vector<InputBit> inputBits(const CuteSwizzle& sw, const CuteLayout& l,
                                const std::vector<Leaf>& leaves) {
  // The range rules come before the power-of-two rule, whose witness
  // search evaluates the layout (found by fuzz/catalog_fuzzer.cpp: a stride
  // of 2^61 overflowed there).
  for (const Leaf& leaf : leaves) {
    // |stride| * (shape - 1) must stay below 2^62 so that sums of images fit.
    uint64_t magnitude = static_cast<uint64_t>(std::llabs(leaf.stride));
    if (leaf.stride == INT64_MIN ||
        (magnitude != 0 && magnitude > (uint64_t{1} << 62) / leaf.shape))
      throw Error(kOp + ": stride" + leaf.path + " = " + std::to_string(leaf.stride) +
                  " times shape" + leaf.path + " = " + std::to_string(leaf.shape) +
                  " goes beyond 2^62");
  }
  for (const Leaf& leaf : leaves)
    if (!isPowerOfTwo(leaf.shape)) throwNotPowerOfTwo(sw, l, leaves, leaf);
  std::vector<InputBit> bits;
  std::vector<int> dimBits(l.shape.size(), 0);
  for (const Leaf& leaf : leaves)
    for (int j = 0; (uint64_t{1} << j) < leaf.shape; ++j)
      bits.push_back({leaf.dim, dimBits[leaf.dim]++, leaf.stride * (int64_t{1} << j), &leaf});
  if (bits.size() > 62) {
    std::vector<uint64_t> sizes(l.shape.size(), 1);
    for (const Leaf& leaf : leaves) sizes[leaf.dim] *= leaf.shape;
    throw Error(kOp + ": the shape " + tupleText(sizes) + " has 2^" + std::to_string(bits.size()) +
                " elements, more than 2^62");
  }
  return bits;  // dim0's first: flatten visits the modes in order
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
      throw Error(kOp + ": " + cuteToString(sw, l) + ": stride" + b.leaf->path + " = " +
                  std::to_string(b.leaf->stride) + " gives the coordinate " +
                  coordinateText(l.shape.size(), b) + " the offset " + std::to_string(b.image) +
                  "; memory offsets must be non-negative");
}

}  // namespace

std::string cuteToString(const CuteSwizzle& sw, const CuteLayout& l) {
  return "Sw<" + std::to_string(sw.bits) + "," + std::to_string(sw.base) + "," +
         std::to_string(sw.shift) + "> o " + cuteTupleText(l.shape) + ":" + cuteTupleText(l.stride);
}

LinearLayout cuteToLinear(const CuteSwizzle& sw, const CuteLayout& l) {
  checkSwizzle(sw);
  std::vector<Leaf> leaves = leavesOf(l);
  std::vector<InputBit> bits = inputBits(sw, l, leaves);
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

// The runs of one dim's plain images (no swizzle): maximal stretches where
// each image doubles the last, a stretch of zeros being one run of stride 0.
// Each run is a leaf (2^len):(first image).
std::vector<std::pair<uint64_t, uint64_t>> runsOf(const std::vector<uint64_t>& dim) {
  std::vector<std::pair<uint64_t, uint64_t>> runs;  // (length, stride)
  for (size_t j = 0; j < dim.size(); ++j) {
    if (!runs.empty()) {
      auto& [length, stride] = runs.back();
      bool doubles = stride == 0 ? dim[j] == 0
                                 : length < 62 && (stride << length) >> length == stride &&
                                       dim[j] == stride << length;
      if (doubles) {
        ++length;
        continue;
      }
    }
    runs.push_back({1, dim[j]});
  }
  return runs;
}

// The shape:stride whose plain images (no swizzle) are `images`, per dim,
// when no two images share a bit (so that CuTe's sums are XORs: any stride,
// e.g. (2):(7), not only powers of two); nullopt otherwise. `nested` lets a
// mode be a tuple of runs; without it, every mode must be one run.
std::optional<CuteLayout> plainLayout(const std::vector<std::vector<uint64_t>>& images,
                                      bool nested) {
  uint64_t used = 0;
  for (const std::vector<uint64_t>& dim : images)
    for (uint64_t x : dim) {
      if (used & x) return std::nullopt;
      used |= x;
    }
  CuteLayout l;
  for (const std::vector<uint64_t>& dim : images) {
    std::vector<std::pair<uint64_t, uint64_t>> runs = runsOf(dim);
    if (runs.empty()) runs.push_back({0, 0});  // a mode of size 1: 1:0
    if (runs.size() > 1 && !nested) return std::nullopt;
    std::vector<CuteTuple> shape, stride;
    for (auto [length, first] : runs) {
      shape.emplace_back(int64_t{1} << length);
      stride.emplace_back(static_cast<int64_t>(first));
    }
    l.shape.push_back(runs.size() == 1 ? shape[0] : CuteTuple(shape));
    l.stride.push_back(runs.size() == 1 ? stride[0] : CuteTuple(stride));
  }
  return l;
}

// The swizzles linearToCute tries, in its order (B, then M, then S; S > 0
// first), for an offset of n bits; Swizzle<0,0,0> first.
std::vector<CuteSwizzle> candidateSwizzles(int n) {
  std::vector<CuteSwizzle> out{{0, 0, 0}};
  for (int b = 1; 2 * b <= n; ++b)
    for (int m = 0; m + 2 * b <= n; ++m)
      for (int sign : {1, -1})
        for (int s = b; m + s + b <= n; ++s) out.push_back({b, m, sign * s});
  return out;
}

// `layout` as dim0.. -> offset, or Error naming the dims rule.
LinearLayout towardOffset(const LinearLayout& layout, const std::string& op) {
  std::vector<std::string> ins = layout.getInDimNames(), outs = layout.getOutDimNames();
  if (ins == std::vector<std::string>{"offset"} && outs == standardOutDimNames(outs.size()) &&
      !outs.empty()) {
    if (!layout.isInvertible())
      throw Error(op +
                  ": an offset -> dim0.. layout must be invertible to be read as a CuTe layout");
    return layout.invert();
  }
  if (outs != std::vector<std::string>{"offset"} || ins != standardOutDimNames(ins.size()) ||
      ins.empty())
    throw Error(op + ": expects dim0.. -> offset or offset -> dim0..");
  return layout;
}

// Each in dim's images under the offset.
std::vector<std::vector<uint64_t>> imagesOf(const LinearLayout& toOffset) {
  std::vector<std::vector<uint64_t>> images;
  for (const InDim& d : toOffset.value().in_dims) {
    images.emplace_back();
    for (const Basis& b : d.bases) images.back().push_back(b[0]);
  }
  return images;
}

std::optional<CuteSwizzledLayout> search(const LinearLayout& toOffset) {
  std::vector<std::vector<uint64_t>> images = imagesOf(toOffset);
  std::vector<CuteSwizzle> swizzles = candidateSwizzles(toOffset.getOutDimSizeLog2("offset"));
  for (bool nested : {false, true})
    for (const CuteSwizzle& sw : swizzles) {
      // Sw is an involution (|S| >= B keeps YYY and ZZZ apart): the plain
      // images are Sw of the swizzled ones.
      std::vector<std::vector<uint64_t>> plain = images;
      for (std::vector<uint64_t>& dim : plain)
        for (uint64_t& x : dim) x = static_cast<uint64_t>(swizzle(sw, static_cast<int64_t>(x)));
      if (std::optional<CuteLayout> l = plainLayout(plain, nested))
        return CuteSwizzledLayout{sw, *l};
    }
  return std::nullopt;
}

}  // namespace

std::optional<CuteSwizzledLayout> linearToCute(const LinearLayout& layout) {
  return search(towardOffset(layout, "linear_to_cute"));
}

LinearLayout cuteTextLayout(const CuteText& text) {
  if (text.offset != 0)
    throw Error("CuTe text: the offset " + std::to_string(text.offset) +
                " makes the layout affine (offset 0 maps to it), not linear over F2; only _0 "
                "reads");
  LinearLayout toOffset = cuteToLinear(text.swizzle, text.layout);
  return toOffset.isInvertible() ? cuteMemoryLayout(text.swizzle, text.layout) : toOffset;
}

CuteText layoutCuteText(const LinearLayout& layout) {
  const std::string op = "CuTe text";
  LinearLayout toOffset = towardOffset(layout, op);
  if (std::optional<CuteSwizzledLayout> c = search(toOffset)) return {c->swizzle, 0, c->layout};
  // Name a pair of bases that overlap unswizzled (some pair does, since
  // Swizzle<0,0,0> was tried and any images that share no bit are a
  // nested layout).
  std::vector<std::vector<uint64_t>> images = imagesOf(toOffset);
  std::vector<std::pair<std::string, uint64_t>> all;
  for (size_t d = 0; d < images.size(); ++d)
    for (size_t j = 0; j < images[d].size(); ++j)
      all.push_back({"dim" + std::to_string(d) + " bit " + std::to_string(j), images[d][j]});
  for (size_t b = 0; b < all.size(); ++b)
    for (size_t a = 0; a < b; ++a)
      if (all[a].second & all[b].second)
        throw Error(op + ": no CuTe layout has these bases: " + all[a].first + " -> offset " +
                    std::to_string(all[a].second) + " and " + all[b].first + " -> offset " +
                    std::to_string(all[b].second) +
                    " share a bit, so CuTe's index (a sum) would carry, and no Swizzle<B,M,S> "
                    "makes every pair of bases disjoint");
  throw Error(op + ": no CuTe layout has these bases");
}

}  // namespace f2lay::ref::catalog
