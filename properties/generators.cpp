#include "generators.h"

#include <algorithm>

#include "f2_core.h"

namespace f2lay::properties {

namespace {

const char* const kInNames[] = {"register", "lane", "warp", "block"};

std::string outName(size_t i) { return "dim" + std::to_string(i); }

// Full-range values: RapidCheck scales integer ranges by the size, so that
// early cases would only use low bits.
rc::Gen<uint64_t> genBits(int bits) {
  return rc::gen::resize(100, rc::gen::inRange<uint64_t>(0, uint64_t{1} << bits));
}

// Independent columns stay; a dependent one is replaced by the lowest unit
// vector outside the span while the rank is short of `outBits`.
void repairRank(std::vector<uint64_t>& cols, int outBits) {
  opt::core::Echelon basis;
  for (size_t j = 0; j < cols.size(); ++j) {
    if (basis.insert(cols[j], static_cast<int>(j))) continue;
    for (int k = 0; k < outBits && basis.rank < outBits; ++k)
      if (basis.insert(uint64_t{1} << k, static_cast<int>(j))) {
        cols[j] = uint64_t{1} << k;
        break;
      }
  }
}

}  // namespace

int Dims::inBits() const {
  int n = 0;
  for (const auto& d : ins) n += d.second;
  return n;
}

int Dims::outBits() const {
  int n = 0;
  for (const auto& d : outs) n += d.second;
  return n;
}

LayoutValue layoutOf(const Dims& dims, const std::vector<uint64_t>& cols) {
  LayoutValue v;
  for (const auto& [name, bits] : dims.outs) v.out_dims.push_back({name, uint64_t{1} << bits});
  size_t j = 0;
  for (const auto& [name, bits] : dims.ins) {
    InDim d{name, {}};
    for (int i = 0; i < bits; ++i, ++j) {
      Basis b;
      int shift = 0;
      for (const auto& o : dims.outs) {
        b.push_back(cols[j] >> shift & opt::core::lowMask(o.second));
        shift += o.second;
      }
      d.bases.push_back(b);
    }
    v.in_dims.push_back(d);
  }
  return v;
}

std::vector<uint64_t> columnsOf(const LayoutValue& l) {
  std::vector<uint64_t> cols;
  for (const InDim& d : l.in_dims)
    for (const Basis& b : d.bases) {
      uint64_t x = 0;
      int shift = 0;
      for (size_t k = 0; k < b.size(); ++k) {
        x |= b[k] << shift;
        shift += log2Exact(l.out_dims[k].size);
      }
      cols.push_back(x);
    }
  return cols;
}

rc::Gen<LayoutValue> genLayoutFrom(const std::vector<std::pair<std::string, int>>& ins) {
  return rc::gen::exec([ins] {
    std::vector<std::pair<std::string, int>> outs;
    int nOut = *rc::gen::inRange(1, 4);
    for (int k = 0; k < nOut; ++k) outs.push_back({outName(k), *rc::gen::inRange(0, 4)});
    return *genLayoutOnto(ins, outs);
  });
}

rc::Gen<LayoutValue> genLayoutOnto(const std::vector<std::pair<std::string, int>>& ins,
                                   const std::vector<std::pair<std::string, int>>& outs) {
  return rc::gen::exec([ins, outs] {
    Dims dims{ins, outs};
    std::vector<uint64_t> cols;
    for (int j = 0; j < dims.inBits(); ++j) cols.push_back(*genBits(dims.outBits()));
    return layoutOf(dims, cols);
  });
}

rc::Gen<LayoutValue> genLayout(RankKind kind) {
  return rc::gen::exec([kind] {
    Dims dims;
    int nOut = *rc::gen::inRange(1, 4), nIn = *rc::gen::inRange(1, 5);
    for (int k = 0; k < nOut; ++k) dims.outs.push_back({outName(k), *rc::gen::inRange(0, 4)});
    for (int k = 0; k < nIn; ++k) dims.ins.push_back({kInNames[k], *rc::gen::inRange(0, 4)});
    // The bit counts the rank asks for: trim the last in dims, or grow the
    // first.
    int out = dims.outBits();
    bool atMost = kind == RankKind::kInjective || kind == RankKind::kInvertible;
    bool atLeast = kind == RankKind::kSurjective || kind == RankKind::kInvertible;
    for (int k = nIn - 1; atMost && k >= 0 && dims.inBits() > out; --k)
      dims.ins[k].second -= std::min(dims.ins[k].second, dims.inBits() - out);
    if (atLeast && dims.inBits() < out) dims.ins[0].second += out - dims.inBits();
    std::vector<uint64_t> cols;
    for (int j = 0; j < dims.inBits(); ++j) cols.push_back(*genBits(out));
    if (kind != RankKind::kAny) repairRank(cols, out);
    return layoutOf(dims, cols);
  });
}

DistributedShape makeDistributedShape(Choices& c, bool allow64Lanes) {
  DistributedShape s;
  int rank = c.inRange(1, 4);
  for (int k = 0; k < rank; ++k) s.tensorBits.push_back(c.inRange(0, 4));
  s.laneBits = allow64Lanes && c.inRange(0, 4) == 0 ? 6 : 5;
  s.warpBits = c.inRange(0, 3);
  s.blockBits = c.inRange(0, 2);
  return s;
}

LayoutValue makeDistributed(Choices& c, const DistributedShape& shape) {
  Dims dims;
  for (size_t k = 0; k < shape.tensorBits.size(); ++k)
    dims.outs.push_back({outName(k), shape.tensorBits[k]});
  int t = dims.outBits();
  int fixed = shape.laneBits + shape.warpBits + shape.blockBits;
  int registers = std::max(c.inRange(0, 4), t - fixed);
  dims.ins = {{"register", registers}, {"lane", shape.laneBits}, {"warp", shape.warpBits},
              {"block", shape.blockBits}};
  // Tensor bit k goes to the free column picked among those left, so the
  // smallest choice fills the registers first.
  std::vector<uint64_t> cols(dims.inBits(), 0);
  std::vector<int> free(cols.size());
  for (size_t j = 0; j < free.size(); ++j) free[j] = static_cast<int>(j);
  for (int k = 0; k < t; ++k) {
    size_t pick = c.inRange(0, static_cast<int>(free.size()));
    cols[free[pick]] = uint64_t{1} << k;
    free.erase(free.begin() + static_cast<long>(pick));
  }
  return layoutOf(dims, cols);
}

rc::Gen<DistributedShape> genDistributedShape(bool allow64Lanes) {
  return rc::gen::exec([allow64Lanes] {
    RcChoices c;
    return makeDistributedShape(c, allow64Lanes);
  });
}

rc::Gen<LayoutValue> genDistributed(const DistributedShape& shape) {
  return rc::gen::exec([shape] {
    RcChoices c;
    return makeDistributed(c, shape);
  });
}

rc::Gen<LayoutValue> genDistributed(bool allow64Lanes) {
  return rc::gen::mapcat(genDistributedShape(allow64Lanes),
                         [](const DistributedShape& s) { return genDistributed(s); });
}

rc::Gen<LayoutValue> genMemory(const std::vector<int>& tensorBits) {
  return rc::gen::exec([tensorBits] {
    Dims dims;
    for (size_t k = 0; k < tensorBits.size(); ++k) dims.outs.push_back({outName(k), tensorBits[k]});
    int t = dims.outBits();
    dims.ins = {{"offset", t}};
    // Triangular in a random order of the tensor bits (so invertible), then
    // the columns reordered: still invertible, still one or two bits each.
    std::vector<int> left, order;
    for (int k = 0; k < t; ++k) left.push_back(k);
    for (int k = 0; k < t; ++k) {
      size_t pick = *rc::gen::inRange<size_t>(0, left.size());
      order.push_back(left[pick]);
      left.erase(left.begin() + static_cast<long>(pick));
    }
    std::vector<uint64_t> cols;
    for (int i = 0; i < t; ++i) {
      uint64_t c = uint64_t{1} << order[i];
      if (i > 0 && *rc::gen::inRange(0, 2)) c |= uint64_t{1} << order[*rc::gen::inRange(0, i)];
      cols.push_back(c);
    }
    for (int i = t - 1; i > 0; --i) std::swap(cols[i], cols[*rc::gen::inRange(0, i + 1)]);
    return layoutOf(dims, cols);
  });
}

rc::Gen<LayoutValue> genMemory() {
  return rc::gen::exec([] {
    int rank = *rc::gen::inRange(1, 4);
    std::vector<int> bits;
    for (int k = 0; k < rank; ++k) bits.push_back(*rc::gen::inRange(0, 5));
    return *genMemory(bits);
  });
}

}  // namespace f2lay::properties
