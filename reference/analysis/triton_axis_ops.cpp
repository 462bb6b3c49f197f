#include "reference/analysis/triton_axis_ops.h"

#include <algorithm>
#include <bit>
#include <map>
#include <string>

#include "formats/error.h"

namespace f2lay::ref::analysis {

namespace {

bool isZero(const Basis& b) {
  return std::all_of(b.begin(), b.end(), [](uint64_t x) { return x == 0; });
}

const InDim* dimNamed(const LayoutValue& v, const std::string& name) {
  for (const InDim& d : v.in_dims)
    if (d.name == name) return &d;
  return nullptr;
}
InDim* dimNamed(LayoutValue& v, const std::string& name) {
  return const_cast<InDim*>(dimNamed(std::as_const(v), name));
}

void dropZeroRegisters(LayoutValue& v) {
  if (InDim* r = dimNamed(v, "register"))
    std::erase_if(r->bases, [](const Basis& b) { return isZero(b); });
}

// zeroBasesAlongDimAndReorder: the bases of in dim `name` no longer move
// along the axis (its values there are combined); the bits still along it
// are renumbered 1, 2, 4, ... in in-dim order, and the axis shrinks to them.
void combineAlong(LayoutValue& v, size_t axis, const std::string& name) {
  uint64_t next = 1;
  for (InDim& d : v.in_dims)
    for (Basis& b : d.bases) {
      if (d.name == name) b[axis] = 0;
      if (b[axis] != 0) b[axis] = next, next <<= 1;
    }
  v.out_dims[axis].size = next;
}

// getInterWarpReductionLayout: each warp basis along the axis trades places
// with a lane basis, the lanes holding copies first (then the result needs no
// further convert), else lanes 0, 1, ... in order.
LayoutValue interWarp(LayoutValue v, size_t axis) {
  InDim *lane = dimNamed(v, "lane"), *warp = dimNamed(v, "warp");
  std::vector<size_t> along, copies;
  for (size_t i = 0; i < warp->bases.size(); ++i)
    if (warp->bases[i][axis] != 0) along.push_back(i);
  for (size_t i = 0; i < lane->bases.size(); ++i)
    if (isZero(lane->bases[i])) copies.push_back(i);
  if (along.size() > lane->bases.size())
    throw Error("triton_reduce: " + std::to_string(along.size()) +
                " warp bits along the axis do not fit in the lanes");
  for (size_t k = 0; k < along.size(); ++k)
    std::swap(warp->bases[along[k]], lane->bases[copies.size() >= along.size() ? copies[k] : k]);
  return v;
}

// The layout without out dim `axis` (the dims after it move down).
LayoutValue withoutAxis(LayoutValue v, size_t axis) {
  for (InDim& d : v.in_dims)
    for (Basis& b : d.bases) b.erase(b.begin() + static_cast<long>(axis));
  v.out_dims.erase(v.out_dims.begin() + static_cast<long>(axis));
  return v;
}

// The result's layout without register copies: the given one, or else the
// operand's own slice (Triton's for a slice of a parent at size 1 along the
// axis: its bases off the axis).
LayoutValue resultOf(const LinearLayout& operand, size_t axis, const LinearLayout& result) {
  LayoutValue r =
      result.value().out_dims.empty() ? withoutAxis(operand.value(), axis) : result.value();
  dropZeroRegisters(r);
  return r;
}

}  // namespace

std::vector<std::pair<LinearLayout, LinearLayout>> tritonReduceConversions(
    const LinearLayout& operand, size_t axis, const LinearLayout& result) {
  LayoutValue v = operand.value();
  if (axis >= v.out_dims.size())
    throw Error("triton_reduce: axis " + std::to_string(axis) + " is not below the rank " +
                std::to_string(v.out_dims.size()));
  for (const char* name : {"register", "lane", "warp"})
    if (!dimNamed(v, name))
      throw Error(std::string("triton_reduce: the operand has no '") + name + "' in dim");
  dropZeroRegisters(v);
  // 1. In-thread: the registers along the axis are combined away.
  std::erase_if(dimNamed(v, "register")->bases, [&](const Basis& b) { return b[axis] != 0; });
  combineAlong(v, axis, "register");
  // 2. In-warp: butterfly shuffles over the lane bits along the axis.
  combineAlong(v, axis, "lane");
  // 3. Across warps: a convert moves the warp bits into lanes, then shuffles.
  std::vector<std::pair<LinearLayout, LinearLayout>> converts;
  while (v.out_dims[axis].size != 1) {
    LayoutValue t = interWarp(v, axis);
    converts.emplace_back(LinearLayout(v), LinearLayout(t));
    v = t;
    combineAlong(v, axis, "lane");
  }
  // 4. The axis dropped; a convert to the result's layout if it differs.
  if (v.out_dims.size() == 1) return converts;  // a scalar result
  v = withoutAxis(v, axis);
  LayoutValue r = resultOf(operand, axis, result);
  if (r.out_dims.size() != v.out_dims.size())
    throw Error("triton_reduce: the result has " + std::to_string(r.out_dims.size()) +
                " out dims, not the operand's rank less one");
  for (size_t k = 0; k < r.out_dims.size(); ++k) {
    if (r.out_dims[k].size != v.out_dims[k].size)
      throw Error("triton_reduce: the result's out dim " + std::to_string(k) + " has size " +
                  std::to_string(r.out_dims[k].size) + ", not the operand's " +
                  std::to_string(v.out_dims[k].size));
    v.out_dims[k].name = r.out_dims[k].name;  // the slice renumbers its dims
  }
  if (v != r) converts.emplace_back(LinearLayout(v), LinearLayout(r));
  return converts;
}

namespace {

// A thread's coordinates: the XOR of the bases of its set bits.
Basis coordinatesOf(const LayoutValue& v, const std::map<std::string, uint64_t>& at) {
  Basis c(v.out_dims.size(), 0);
  for (const InDim& d : v.in_dims) {
    uint64_t x = at.contains(d.name) ? at.at(d.name) : 0;
    for (size_t i = 0; i < d.bases.size(); ++i)
      if (x >> i & 1)
        for (size_t k = 0; k < c.size(); ++k) c[k] ^= d.bases[i][k];
  }
  return c;
}

// The bits of an in dim's index whose bases move along the axis, packed in
// basis order (Triton 3.6's delinearised axis index), and whether the bits of
// its zero bases are all 0 (the representative of its copies).
struct AxisBits {
  std::vector<size_t> along, copies;
  uint64_t index(uint64_t x) const {
    uint64_t out = 0;
    for (size_t i = 0; i < along.size(); ++i) out |= (x >> along[i] & 1) << i;
    return out;
  }
  bool representative(uint64_t x) const {
    return std::none_of(copies.begin(), copies.end(), [&](size_t i) { return x >> i & 1; });
  }
};

AxisBits axisBits(const InDim& d, size_t axis) {
  AxisBits b;
  for (size_t i = 0; i < d.bases.size(); ++i) {
    if (d.bases[i][axis] != 0) b.along.push_back(i);
    if (isZero(d.bases[i])) b.copies.push_back(i);
  }
  return b;
}

// Each operand's region of a scratch of `elements` per operand: the widest
// first, stable among equals (Triton's getSmemBases).
std::vector<uint64_t> regionsOf(const std::vector<uint64_t>& operandBytes, uint64_t elements) {
  std::vector<size_t> byWidth(operandBytes.size());
  for (size_t i = 0; i < byWidth.size(); ++i) byWidth[i] = i;
  std::stable_sort(byWidth.begin(), byWidth.end(),
                   [&](size_t a, size_t b) { return operandBytes[a] > operandBytes[b]; });
  std::vector<uint64_t> base(operandBytes.size());
  uint64_t next = 0;
  for (size_t i : byWidth) base[i] = next, next += elements * operandBytes[i];
  return base;
}

// Each operand's element bytes must be 1, 2, 4 or 8.
void checkBytes(const std::vector<uint64_t>& operandBytes, const char* op) {
  if (operandBytes.empty()) throw Error(std::string(op) + ": element_bytes names no operand");
  for (uint64_t b : operandBytes)
    if (b != 1 && b != 2 && b != 4 && b != 8)
      throw Error(std::string(op) + ": element bytes must be 1, 2, 4 or 8, got " +
                  std::to_string(b));
}

}  // namespace

std::vector<WarpAccess> tritonReduceAccesses36(const LinearLayout& operand, size_t axis,
                                               const LinearLayout& result,
                                               const std::vector<size_t>& order,
                                               const std::vector<uint64_t>& operandBytes) {
  checkBytes(operandBytes, "triton_reduce");
  LayoutValue v = operand.value();
  size_t rank = v.out_dims.size();
  if (axis >= rank)
    throw Error("triton_reduce: axis " + std::to_string(axis) + " is not below the rank " +
                std::to_string(rank));
  std::vector<size_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  if (sorted.size() != rank || std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end() ||
      sorted.back() >= rank)
    throw Error("triton_reduce: the order must list each of the " + std::to_string(rank) +
                " dims once");
  const InDim *lane = dimNamed(v, "lane"), *warp = dimNamed(v, "warp");
  if (!lane || !warp || !dimNamed(v, "register"))
    throw Error("triton_reduce: the operand needs 'register', 'lane' and 'warp' in dims");
  AxisBits lanes = axisBits(*lane, axis), warps = axisBits(*warp, axis);
  uint64_t w = uint64_t{1} << warps.along.size();
  if (w == 1) return {};
  uint64_t lanesPerWarp = uint64_t{1} << lane->bases.size();
  uint64_t numWarps = uint64_t{1} << warp->bases.size();
  // The scratch: the tensor with W in place of the axis, axis fastest.
  std::vector<uint64_t> shape;
  for (const OutDim& d : v.out_dims) shape.push_back(d.size);
  shape[axis] = w;
  std::vector<size_t> scratchOrder = {axis};
  for (size_t d : order)
    if (d != axis) scratchOrder.push_back(d);
  uint64_t elements = 1;
  for (uint64_t n : shape) elements *= n;
  auto offsetOf = [&](const Basis& c) {
    uint64_t off = 0, stride = 1;
    for (size_t d : scratchOrder) off += c[d] * stride, stride *= shape[d];
    return off;
  };
  // Each operand's region, the widest first (stable among equals).
  std::vector<uint64_t> base = regionsOf(operandBytes, elements);

  std::vector<WarpAccess> out;
  auto emit = [&](bool store, size_t k, auto laneAccess, bool result = false) {
    for (uint64_t wi = 0; wi < numWarps; ++wi) {
      WarpAccess a{store, operandBytes[k], {}, k, result};
      for (uint64_t l = 0; l < lanesPerWarp; ++l) a.lanes.push_back(laneAccess(l, wi));
      out.push_back(std::move(a));
    }
  };
  // 1. Each warp's partials: one store per register left after the thread's
  //    own combining (the registers not along the axis).
  std::vector<uint64_t> kept;  // those registers' indices
  const InDim& reg = *dimNamed(v, "register");
  {
    std::vector<size_t> bits;
    for (size_t i = 0; i < reg.bases.size(); ++i)
      if (reg.bases[i][axis] == 0 && !isZero(reg.bases[i])) bits.push_back(i);
    for (uint64_t x = 0; x < uint64_t{1} << bits.size(); ++x) {
      uint64_t r = 0;
      for (size_t i = 0; i < bits.size(); ++i) r |= (x >> i & 1) << bits[i];
      kept.push_back(r);
    }
  }
  for (uint64_t r : kept)
    for (size_t k = 0; k < operandBytes.size(); ++k)
      emit(true, k, [&](uint64_t l, uint64_t wi) {
        Basis c = coordinatesOf(v, {{"register", r}, {"lane", l}, {"warp", wi}});
        c[axis] = warps.index(wi);
        bool active = lanes.index(l) == 0 && lanes.representative(l) && warps.representative(wi);
        return LaneAccess{active, base[k] + operandBytes[k] * offsetOf(c)};
      });
  // 2. The partials combined across warps, one per thread per round.
  uint64_t threads = lanesPerWarp * numWarps;
  uint64_t rounds = std::max<uint64_t>(elements / threads, 1);
  for (size_t k = 0; k < operandBytes.size(); ++k)
    for (uint64_t round = 0; round < rounds; ++round)
      for (bool store : {false, true})
        emit(store, k, [&](uint64_t l, uint64_t wi) {
          uint64_t tid = wi * lanesPerWarp + l;
          bool active = tid < elements && (!store || l % w == 0);
          return LaneAccess{active, base[k] + operandBytes[k] * (tid + round * threads)};
        });
  // 3. The results, read from each row's first partial.
  for (size_t k = 0; k < operandBytes.size(); ++k) {
    if (rank == 1) {  // a scalar result
      emit(
          false, k,
          [&](uint64_t, uint64_t) {
            return LaneAccess{true, base[k]};
          },
          true);
      continue;
    }
    LayoutValue r = resultOf(operand, axis, result);
    const InDim* rreg = dimNamed(r, "register");
    uint64_t registers = rreg ? uint64_t{1} << rreg->bases.size() : 1;
    for (uint64_t j = 0; j < registers; ++j)
      emit(
          false, k,
          [&](uint64_t l, uint64_t wi) {
            Basis c = coordinatesOf(r, {{"register", j}, {"lane", l}, {"warp", wi}});
            c.insert(c.begin() + static_cast<long>(axis), 0);
            return LaneAccess{true, base[k] + operandBytes[k] * offsetOf(c)};
          },
          true);
  }
  return out;
}

namespace {

// The bits of an in dim's index whose bases lie off the axis and are not
// zero, packed in basis order: for a blocked layout the thread's
// coordinates off the axis linearised in the layout's order, copies left out.
uint64_t offAxisIndex(const InDim& d, size_t axis, uint64_t x) {
  uint64_t out = 0;
  int k = 0;
  for (size_t i = 0; i < d.bases.size(); ++i)
    if (d.bases[i][axis] == 0 && !isZero(d.bases[i])) out |= (x >> i & 1) << k++;
  return out;
}

int offAxisBits(const InDim& d, size_t axis) {
  int n = 0;
  for (const Basis& b : d.bases) n += b[axis] == 0 && !isZero(b);
  return n;
}

}  // namespace

std::vector<WarpAccess> tritonScanAccesses(const LinearLayout& operand, size_t axis,
                                           const std::vector<uint64_t>& operandBytes,
                                           TritonVersion triton) {
  checkBytes(operandBytes, "triton_scan");
  LayoutValue v = operand.value();
  size_t rank = v.out_dims.size();
  if (axis >= rank)
    throw Error("triton_scan: axis " + std::to_string(axis) + " is not below the rank " +
                std::to_string(rank));
  const InDim *lane = dimNamed(v, "lane"), *warp = dimNamed(v, "warp");
  if (!lane || !warp || !dimNamed(v, "register"))
    throw Error("triton_scan: the operand needs 'register', 'lane' and 'warp' in dims");
  dropZeroRegisters(v);
  const InDim& reg = *dimNamed(v, "register");
  AxisBits lanes = axisBits(*lane, axis), warps = axisBits(*warp, axis);
  uint64_t w = uint64_t{1} << warps.along.size();
  if (w == 1) return {};
  // The run of registers along the axis: bases 1, 2, 4, ... on it.
  size_t contigBits = 0;
  while (contigBits < reg.bases.size()) {
    Basis unit(rank, 0);
    unit[axis] = uint64_t{1} << contigBits;
    if (reg.bases[contigBits] != unit) break;
    ++contigBits;
  }
  uint64_t lanesPerWarp = uint64_t{1} << lane->bases.size();
  uint64_t numWarps = uint64_t{1} << warp->bases.size();
  uint64_t chunks = uint64_t{1} << (reg.bases.size() - contigBits);
  uint64_t lanesOnAxis = uint64_t{1} << lanes.along.size();
  uint64_t npl = uint64_t{1} << (offAxisBits(*lane, axis) + offAxisBits(*warp, axis));
  uint64_t laneParallel = uint64_t{1} << offAxisBits(*lane, axis);
  // A block along the axis: what the run, the lanes and the warps cover.
  uint64_t block = (uint64_t{1} << contigBits) * lanesOnAxis * w;
  uint64_t lastBlock = v.out_dims[axis].size / block - 1;
  auto par = [&](uint64_t l, uint64_t wi) {
    return offAxisIndex(*lane, axis, l) + offAxisIndex(*warp, axis, wi) * laneParallel;
  };
  auto chunkIsLast = [&](uint64_t c) {
    Basis at = coordinatesOf(v, {{"register", c << contigBits}});
    return at[axis] / block == lastBlock;
  };
  std::vector<uint64_t> base = regionsOf(operandBytes, npl * w * chunks);

  std::vector<WarpAccess> out;
  auto emit = [&](bool store, size_t k, uint64_t bytes, auto laneAccess) {
    for (uint64_t wi = 0; wi < numWarps; ++wi) {
      WarpAccess a{store, bytes, {}, k, false};
      for (uint64_t l = 0; l < lanesPerWarp; ++l) a.lanes.push_back(laneAccess(l, wi));
      out.push_back(std::move(a));
    }
  };
  // 1. Each warp's totals, from its last lane along the axis.
  for (uint64_t c = 0; c < chunks; ++c)
    for (size_t k = 0; k < operandBytes.size(); ++k)
      emit(true, k, operandBytes[k], [&](uint64_t l, uint64_t wi) {
        bool active = lanes.index(l) == lanesOnAxis - 1 && lanes.representative(l) &&
                      warps.representative(wi);
        uint64_t e = par(l, wi) + warps.index(wi) * npl + c * npl * w;
        return LaneAccess{active, base[k] + operandBytes[k] * e};
      });
  // 2. The totals of the warps along the axis, read back by every thread.
  for (uint64_t c = 0; c < chunks; ++c) {
    uint64_t live = chunkIsLast(c) ? w - 1 : w;
    for (size_t k = 0; k < operandBytes.size(); ++k) {
      uint64_t bytes = operandBytes[k];
      if (npl != 1) {
        for (uint64_t i = 0; i < live; ++i)
          emit(false, k, bytes, [&](uint64_t l, uint64_t wi) {
            return LaneAccess{true, base[k] + bytes * (par(l, wi) + npl * (i + c * w))};
          });
        continue;
      }
      // Every thread reads the same run of `live` totals: vector loads.
      uint64_t begin = base[k] + bytes * c * w, end = begin + bytes * live;
      std::vector<std::pair<uint64_t, uint64_t>> loads;  // (address, bytes)
      if (triton == TritonVersion::k3_9) {
        for (uint64_t window = begin & ~uint64_t{15}; window < end; window += 16) {
          uint64_t lo = std::max(begin, window), hi = std::min(end, window + 16);
          uint64_t size = std::bit_ceil(hi - lo);
          loads.push_back({lo & ~(size - 1), size});
        }
      } else {
        for (uint64_t at = begin; at < end;) {
          uint64_t size = std::min<uint64_t>(16, std::bit_floor(end - at));
          while (at % size) size /= 2;
          loads.push_back({at, size});
          at += size;
        }
      }
      for (const auto& load : loads)
        emit(false, k, load.second, [&](uint64_t, uint64_t) {
          return LaneAccess{true, load.first};
        });
    }
  }
  return out;
}

bool tritonGatherIsWarpLocal(const LinearLayout& src, const LinearLayout& index, size_t axis) {
  const LayoutValue &a = src.value(), &b = index.value();
  if (a.out_dims.size() != b.out_dims.size() || axis >= a.out_dims.size())
    throw Error("triton_gather: src and index need the same rank, above the axis " +
                std::to_string(axis));
  auto offAxis = [&](const LayoutValue& v, const char* name) {
    const InDim* d = dimNamed(v, name);
    std::vector<Basis> out;
    if (!d) return out;
    for (Basis x : d->bases) x[axis] = 0, out.push_back(x);
    return out;
  };
  for (const LayoutValue* v : {&a, &b})
    for (const char* name : {"warp", "block"})
      if (const InDim* d = dimNamed(*v, name))
        for (const Basis& x : d->bases)
          if (x[axis] != 0) return false;
  return offAxis(a, "warp") == offAxis(b, "warp") && offAxis(a, "lane") == offAxis(b, "lane");
}

}  // namespace f2lay::ref::analysis
