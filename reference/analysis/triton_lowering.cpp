#include "reference/analysis/triton_lowering.h"

#include <algorithm>
#include <bit>
#include <set>

#include "analysis/conversion.h"
#include "formats/error.h"

namespace f2lay::ref::analysis {

namespace {

// Vectors of the flattened tensor space, one bit per tensor bit (dim0 in the
// low bits), as Triton's swizzling handles them.
using Vecs = std::vector<uint64_t>;

bool isZero(const Basis& b) {
  return std::all_of(b.begin(), b.end(), [](uint64_t x) { return x == 0; });
}
bool contains(const Vecs& v, uint64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }
uint64_t lowBit(uint64_t x) { return x & (~x + 1); }

// Reduced row echelon form whose pivot is each row's lowest set bit (the
// form Triton's f2reduce gives: unique for the row space).
Vecs rref(Vecs rows) {
  size_t placed = 0;
  for (int col = 0; col < 64; ++col) {
    auto it = std::find_if(rows.begin() + static_cast<long>(placed), rows.end(),
                           [&](uint64_t r) { return r >> col & 1; });
    if (it == rows.end()) continue;
    std::iter_swap(rows.begin() + static_cast<long>(placed), it);
    for (size_t j = 0; j < rows.size(); ++j)
      if (j != placed && (rows[j] >> col & 1)) rows[j] ^= rows[placed];
    ++placed;
  }
  rows.resize(placed);
  return rows;
}

uint64_t pivots(const Vecs& rows) {
  uint64_t mask = 0;
  for (uint64_t r : rref(rows)) mask |= lowBit(r);
  return mask;
}

// The unit vectors of the columns that are not pivots, lowest first.
Vecs complementBasis(const Vecs& x, int dim) {
  uint64_t p = pivots(x);
  Vecs out;
  for (int i = 0; i < dim; ++i)
    if (!(p >> i & 1)) out.push_back(uint64_t{1} << i);
  return out;
}

// The vectors orthogonal to all of `vectors`: one per free column, lowest
// first, that column plus the pivots of the rows holding it.
Vecs nullspaceBasis(const Vecs& vectors, int dim) {
  Vecs rows = rref(vectors);
  uint64_t p = 0;
  for (uint64_t r : rows) p |= lowBit(r);
  Vecs out;
  for (int free = 0; free < dim; ++free) {
    if (p >> free & 1) continue;
    uint64_t v = uint64_t{1} << free;
    for (uint64_t r : rows)
      if (r >> free & 1) v ^= lowBit(r);
    out.push_back(v);
  }
  return out;
}

// span(b1) ∩ span(b2) as Triton lists it: when every vector is a single bit,
// b1's vectors found in b2, in b1's order; otherwise the nullspace of the
// two nullspaces (whose order is its echelon form's).
Vecs intersectionBasis(const Vecs& b1, const Vecs& b2, int dim) {
  auto single = [](uint64_t x) { return std::has_single_bit(x); };
  if (std::all_of(b1.begin(), b1.end(), single) && std::all_of(b2.begin(), b2.end(), single)) {
    Vecs out;
    for (uint64_t b : b1)
      if (contains(b2, b)) out.push_back(b);
    return out;
  }
  Vecs joint = nullspaceBasis(b1, dim);
  Vecs n2 = nullspaceBasis(b2, dim);
  joint.insert(joint.end(), n2.begin(), n2.end());
  return nullspaceBasis(joint, dim);
}

// The coordinates of t in a basis of the whole space: bit i set when basis
// vector i is in t's combination.
uint64_t coordinates(const Vecs& basis, uint64_t t) {
  // Rows (vector, which basis vectors make it), reduced on the vectors.
  std::vector<std::pair<uint64_t, uint64_t>> rows;
  for (size_t i = 0; i < basis.size(); ++i) rows.push_back({basis[i], uint64_t{1} << i});
  for (size_t k = 0; k < rows.size(); ++k) {
    auto it = std::min_element(rows.begin() + static_cast<long>(k), rows.end(), [](auto x, auto y) {
      return (x.first ? std::countr_zero(x.first) : 64) <
             (y.first ? std::countr_zero(y.first) : 64);
    });
    std::iter_swap(rows.begin() + static_cast<long>(k), it);
    uint64_t bit = lowBit(rows[k].first);
    if (!bit) break;
    for (size_t j = 0; j < rows.size(); ++j)
      if (j != k && (rows[j].first & bit)) {
        rows[j].first ^= rows[k].first;
        rows[j].second ^= rows[k].second;
      }
  }
  uint64_t tag = 0;
  for (const auto& [v, which] : rows)
    if (v && (t & lowBit(v))) {
      t ^= v;
      tag ^= which;
    }
  if (t) throw Error("triton lowering: a tensor vector outside the memory layout's span");
  return tag;
}

// A distributed layout on the flattened tensor, its register copies removed
// (Triton's actionRemoveBroadcastedRegs), as the swizzling reads it.
struct Side {
  LayoutValue value;  // the layout without its zero register bases
  Vecs reg, lane, warp;
  uint64_t warps = 1;  // every warp executes the code, copies or not
};

struct Tensor {
  std::vector<int> shift;  // where each out dim's bits start in a flat index
  int bits = 0;
  uint64_t flat(const Basis& b) const {
    uint64_t f = 0;
    for (size_t k = 0; k < b.size(); ++k) f |= b[k] << shift[k];
    return f;
  }
  Basis unflat(uint64_t f, const std::vector<OutDim>& dims) const {
    Basis b;
    for (size_t k = 0; k < dims.size(); ++k) b.push_back(f >> shift[k] & (dims[k].size - 1));
    return b;
  }
};

Tensor tensorOf(const LayoutValue& v) {
  Tensor t;
  for (const OutDim& d : v.out_dims) {
    t.shift.push_back(t.bits);
    t.bits += std::countr_zero(d.size);
  }
  return t;
}

const InDim* findDim(const LayoutValue& v, const std::string& name) {
  for (const InDim& d : v.in_dims)
    if (d.name == name) return &d;
  return nullptr;
}

Side sideOf(const LinearLayout& l, const Tensor& t, const char* which) {
  const LayoutValue& v = l.value();
  for (const InDim& d : v.in_dims) {
    bool known = d.name == "register" || d.name == "lane" || d.name == "warp" || d.name == "block";
    if (!known)
      throw Error(std::string("triton lowering: ") + which + " has in dim '" + d.name + "'");
    if (d.name == "block")
      for (const Basis& b : d.bases)
        if (!isZero(b))
          throw Error(std::string("triton lowering: ") + which +
                      " spans several CTAs; one CTA is modelled");
  }
  const InDim* lane = findDim(v, "lane");
  if (!lane || lane->bases.size() != 5)
    throw Error(std::string("triton lowering: ") + which + " must have 32 lanes");
  Side s;
  s.value = v;
  for (InDim& d : s.value.in_dims) {
    if (d.name == "register") std::erase_if(d.bases, isZero);
    for (const Basis& b : d.bases) {
      uint64_t f = t.flat(b);
      if (d.name == "register") s.reg.push_back(f);
      if (d.name == "lane") s.lane.push_back(f);
      if (d.name == "warp") s.warp.push_back(f);
    }
    if (d.name == "warp") s.warps = uint64_t{1} << d.bases.size();
  }
  return s;
}

// An instruction's 16-byte tile (Triton's LocalMemOpTile): the lanes that
// continue a lane's contiguous bytes, and the lanes that address the rows one
// wavefront serves.
struct Tile {
  const char* store;
  const char* load;
  std::vector<int> laneContig, laneAddr;
};
const Tile kLdSt{"st.shared", "ld.shared", {}, {0, 1, 2}};
const Tile kMatrix{"stmatrix", "ldmatrix", {0, 1}, {2, 3, 4}};
const Tile kMatrixTrans{"stmatrix.trans", "ldmatrix.trans", {2, 3, 4}, {0, 1}};

// The image of b's lane `idx` in a's hardware: its register and lane parts.
struct LaneImage {
  uint64_t reg = 0, lane = 0;
};

std::vector<LaneImage> laneImages(const Side& b, const Side& a) {
  LinearLayout cvt = LinearLayout(b.value).invertAndCompose(LinearLayout(a.value));
  const LayoutValue& v = cvt.value();
  std::vector<LaneImage> out;
  for (const Basis& basis : findDim(v, "lane")->bases) {
    LaneImage image;
    for (size_t k = 0; k < v.out_dims.size(); ++k) {
      if (v.out_dims[k].name == "register") image.reg = basis[k];
      if (v.out_dims[k].name == "lane") image.lane = basis[k];
    }
    out.push_back(image);
  }
  return out;
}

// The vector basis a (store tile, load tile) pair can share, or none: the
// common registers, then the lanes of the side with fewer registers in its
// tile, which the other side must hold in registers (or in the same lanes).
std::optional<Vecs> tileVector(const Side& src, const Side& dst, const Tile& ts, const Tile& td,
                               int totalBases, int dim) {
  int nSrc = totalBases - static_cast<int>(ts.laneContig.size());
  int nDst = totalBases - static_cast<int>(td.laneContig.size());
  bool swap = nSrc < nDst;
  const Side& a = swap ? dst : src;
  const Side& b = swap ? src : dst;
  const std::vector<int>& contigA = swap ? td.laneContig : ts.laneContig;
  const std::vector<int>& contigB = swap ? ts.laneContig : td.laneContig;
  int nA = std::max(nSrc, nDst), nB = std::min(nSrc, nDst);
  Vecs v = intersectionBasis(a.reg, b.reg, dim);
  if (static_cast<int>(v.size()) < nB) return std::nullopt;
  v.resize(static_cast<size_t>(nB));
  for (int id : contigA)
    if (a.lane[static_cast<size_t>(id)] == 0) return std::nullopt;
  for (int id : contigB)
    if (b.lane[static_cast<size_t>(id)] == 0) return std::nullopt;
  std::vector<LaneImage> images = laneImages(b, a);
  for (int i = 0; i < nA - nB; ++i)
    if (images[static_cast<size_t>(contigB[static_cast<size_t>(i)])].reg == 0) return std::nullopt;
  size_t skip = contigB.size() - contigA.size();
  for (size_t k = 0; k < contigA.size(); ++k)
    if (images[static_cast<size_t>(contigB[skip + k])].lane != (uint64_t{1} << contigA[k]))
      return std::nullopt;
  for (int id : contigB) v.push_back(b.lane[static_cast<size_t>(id)]);
  return v;
}

// The lanes (and registers) one wavefront of a side serves.
std::optional<Vecs> phaseTile(const Tile& tile, const Side& s, const Vecs& vector) {
  Vecs out;
  size_t needed = 3 - tile.laneAddr.size();
  for (uint64_t r : s.reg) {
    if (out.size() == needed) break;
    if (!contains(vector, r)) out.push_back(r);
  }
  if (out.size() < needed) return std::nullopt;
  for (int id : tile.laneAddr) out.push_back(s.lane[static_cast<size_t>(id)]);
  return out;
}

struct Swizzle {
  Vecs vec, bank, segment, reps;
};

// The segment (row-selecting) vectors: free directions first, then pairs of
// one side's and the other's phase vectors XORed (conflict-free both ways),
// then, when short, single vectors that cost one side conflicts.
Vecs computeSegment(const Vecs& bankSrc, const Vecs& bankDst, int dim, int lenS) {
  Vecs joint = bankSrc;
  joint.insert(joint.end(), bankDst.begin(), bankDst.end());
  Vecs segment = complementBasis(joint, dim);
  if (static_cast<int>(segment.size()) >= lenS) {
    segment.resize(static_cast<size_t>(std::max(lenS, 0)));
    return segment;
  }
  Vecs outside = complementBasis(intersectionBasis(bankSrc, bankDst, dim), dim);
  Vecs a = intersectionBasis(outside, bankSrc, dim);
  Vecs b = intersectionBasis(outside, bankDst, dim);
  if (a.size() > b.size()) std::swap(a, b);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  int conflicts =
      std::min(std::max(0, lenS - static_cast<int>(a.size()) - static_cast<int>(segment.size())),
               static_cast<int>(a.size()));
  for (size_t i = static_cast<size_t>(conflicts); i < a.size(); ++i) segment.push_back(a[i] ^ b[i]);
  segment.insert(segment.end(), a.begin(), a.begin() + conflicts);
  segment.insert(segment.end(), b.begin(), b.begin() + conflicts);
  if (static_cast<int>(segment.size()) > lenS) segment.resize(static_cast<size_t>(lenS));
  return segment;
}

// The memory layout for a vector basis and the two sides' phase tiles:
// vector, then the banks of one 128-byte row, then the segment; segment
// vectors held in registers on both sides become rounds (reps), but for the
// first leaveReps, which matrix instructions need.
Swizzle swizzle(const Side& src, const Side& dst, int bw, const Vecs& vec, const Vecs& tileSrc,
                const Vecs& tileDst, int leaveReps, int dim) {
  int v = static_cast<int>(vec.size());
  int lenB = std::min(std::countr_zero(uint64_t{1024} / ((uint64_t{1} << v) * bw)), dim - v);
  int lenS = dim - lenB - v;
  Vecs bankSrc = vec, bankDst = vec;
  bankSrc.insert(bankSrc.end(), tileSrc.begin(), tileSrc.end());
  bankDst.insert(bankDst.end(), tileDst.begin(), tileDst.end());
  Vecs segment = computeSegment(bankSrc, bankDst, dim, lenS);
  Vecs used = vec;
  used.insert(used.end(), segment.begin(), segment.end());
  Swizzle s{vec, complementBasis(used, dim), {}, {}};
  for (uint64_t x : segment) {
    bool rep = contains(src.reg, x) && contains(dst.reg, x);
    if (rep && leaveReps > 0) --leaveReps, rep = false;
    (rep ? s.reps : s.segment).push_back(x);
  }
  return s;
}

int conflicts(const Vecs& segment, const Vecs& tile, int dim) {
  return (1 << intersectionBasis(segment, tile, dim).size()) - 1;
}

// The ld/st.shared vector (Triton's getVecBasisLdSt): the common registers up
// to 16 bytes; under 4 bytes, filled toward one 32-bit word with registers of
// one side that are warps of the other, then warps of both. fills: which side
// the filling vectorises (nullopt: none was needed).
Vecs ldStVector(const Side& src, const Side& dst, int bw, int dim, std::optional<bool>& srcFills) {
  Vecs v = intersectionBasis(src.reg, dst.reg, dim);
  size_t most = static_cast<size_t>(std::countr_zero(uint64_t{128} / bw));
  if (v.size() > most) v.resize(most);
  if ((uint64_t{1} << v.size()) * bw >= 32) return v;
  size_t perBank = static_cast<size_t>(std::countr_zero(uint64_t{32} / bw));
  Vecs warpSrc, warpDst;
  for (uint64_t w : src.warp)
    if (w) warpSrc.push_back(w);
  for (uint64_t w : dst.warp)
    if (w) warpDst.push_back(w);
  auto notInV = [&](const Vecs& regs) {
    Vecs out;
    for (uint64_t r : regs)
      if (!contains(v, r)) out.push_back(r);
    return out;
  };
  Vecs srcInDstWarps = intersectionBasis(notInV(src.reg), warpDst, dim);
  Vecs dstInSrcWarps = intersectionBasis(notInV(dst.reg), warpSrc, dim);
  Vecs fill;
  if (srcInDstWarps.size() == dstInSrcWarps.size() && !srcInDstWarps.empty()) {
    srcFills = *std::min_element(srcInDstWarps.begin(), srcInDstWarps.end()) <
               *std::min_element(dstInSrcWarps.begin(), dstInSrcWarps.end());
  } else {
    srcFills = srcInDstWarps.size() > dstInSrcWarps.size();
  }
  fill = *srcFills ? srcInDstWarps : dstInSrcWarps;
  v.insert(v.end(), fill.begin(), fill.end());
  if (v.size() < perBank) {
    Vecs common = intersectionBasis(warpSrc, warpDst, dim);
    v.insert(v.end(), common.begin(), common.end());
  }
  for (size_t i = 0; v.size() < perBank && (i < warpSrc.size() || i < warpDst.size()); ++i) {
    if (i < warpSrc.size() && !contains(v, warpSrc[i])) v.push_back(warpSrc[i]);
    if (v.size() < perBank && i < warpDst.size() && !contains(v, warpDst[i]))
      v.push_back(warpDst[i]);
  }
  if (v.size() > perBank) v.resize(perBank);
  return v;
}

// Both sides by ld/st.shared (no instruction pair fits): the vector filled
// toward a word, whole-warp phases up to 4 bytes (half and quarter warps for
// 8 and 16), and the banks reordered so that the filling side's registers
// come first (it then vectorises wider than the common vector).
Swizzle ldStSwizzle(const Side& src, const Side& dst, int bw, int dim) {
  std::optional<bool> srcFills;
  Vecs vec = ldStVector(src, dst, bw, dim, srcFills);
  int log2Vec = std::countr_zero(std::max<uint64_t>(1, ((uint64_t{1} << vec.size()) * bw) / 32));
  Vecs tileSrc(src.lane.begin(), src.lane.end() - log2Vec);
  Vecs tileDst(dst.lane.begin(), dst.lane.end() - log2Vec);
  Swizzle s = swizzle(src, dst, bw, vec, tileSrc, tileDst, 0, dim);
  if (log2Vec < 2) {
    Vecs inSrc, inDst, order;
    for (uint64_t b : s.bank) {
      if (contains(src.reg, b)) inSrc.push_back(b);
      if (contains(dst.reg, b)) inDst.push_back(b);
    }
    if (srcFills) {
      order = *srcFills ? inSrc : inDst;
    } else {
      order = inSrc.size() > inDst.size() ? inSrc : inDst;
    }
    for (uint64_t b : s.bank)
      if (!contains(order, b)) order.push_back(b);
    s.bank = order;
  }
  return s;
}

// Each hardware basis of a side as an offset into a memory layout's span
// (bit i: basis vector i of `memory`).
struct Offsets {
  Vecs reg, other;  // registers; lanes and warps
};

Offsets offsetsOf(const Side& s, const Vecs& memory) {
  Offsets o;
  for (uint64_t r : s.reg) o.reg.push_back(coordinates(memory, r));
  for (uint64_t l : s.lane) o.other.push_back(coordinates(memory, l));
  for (uint64_t w : s.warp) o.other.push_back(coordinates(memory, w));
  return o;
}

// Elements per ld/st.shared (Triton's largestVectorisation): the most, up to
// 16 bytes, such that registers hold offsets 1, 2, 4, ... below it and no
// other basis touches those offset bits.
uint64_t largestVector(const Offsets& o, int bw) {
  for (uint64_t v = 128 / static_cast<uint64_t>(bw); v > 1; v /= 2) {
    Vecs chosen;
    for (uint64_t bit = 1; bit < v; bit *= 2)
      if (contains(o.reg, bit)) chosen.push_back(bit);
    if (chosen.size() != static_cast<size_t>(std::countr_zero(v))) continue;
    bool clear =
        std::all_of(o.other.begin(), o.other.end(), [&](uint64_t x) { return (x & (v - 1)) == 0; });
    for (uint64_t r : o.reg) clear = clear && (contains(chosen, r) || (r & (v - 1)) == 0);
    if (clear) return v;
  }
  return 1;
}

TritonSide ldStSide(const Side& s, const Offsets& o, int bw, bool store) {
  uint64_t v = largestVector(o, bw);
  uint64_t regs = uint64_t{1} << s.reg.size();
  return {store ? "st.shared" : "ld.shared", v * bw / 8, s.warps * std::max<uint64_t>(1, regs / v)};
}

// ldmatrix / stmatrix: 4 bytes per lane per 8x8 matrix of b16, up to .x4.
TritonSide matrixSide(const Side& s, int bw, bool trans, bool store, uint64_t rounds) {
  uint64_t regs = uint64_t{1} << s.reg.size();
  uint64_t perRound = regs / rounds;
  uint64_t perTile = trans ? 2 : 32 / static_cast<uint64_t>(bw);
  uint64_t x = std::clamp<uint64_t>(std::min<uint64_t>(128 / bw, perRound) / perTile, 1, 4);
  std::string name = store ? "stmatrix" : "ldmatrix";
  return {trans ? name + ".trans" : name, 4 * x,
          s.warps * std::max<uint64_t>(1, regs / (perTile * x))};
}

// The number of register bits that trade places with lane bits: Triton
// exchanges lanes and registers by shuffles only when it is under two. Either
// side's registers may hold what the other's lanes do (where lanes broadcast,
// the two counts differ), so the larger count is the one.
size_t mixedTranspositions(const Side& a, const Side& b) {
  auto traded = [](const Vecs& regs, const Vecs& lanes) {
    Vecs nonzero, both = regs;
    for (uint64_t l : lanes)
      if (l) nonzero.push_back(l);
    both.insert(both.end(), nonzero.begin(), nonzero.end());
    // dim(span(regs) ∩ span(lanes)) = |regs| + dim(span(lanes)) - dim(span of both)
    return rref(regs).size() + rref(nonzero).size() - rref(both).size();
  };
  return std::max(traded(a.reg, b.lane), traded(b.reg, a.lane));
}

int bitwidthOf(uint64_t elementBytes) {
  if (elementBytes != 1 && elementBytes != 2 && elementBytes != 4 && elementBytes != 8)
    throw Error("triton lowering: element_bytes must be 1, 2, 4 or 8, got " +
                std::to_string(elementBytes));
  return static_cast<int>(elementBytes * 8);
}

void checkCapability(int cc) {
  if (cc < 80 || cc > 120)
    throw Error("triton lowering: compute_capability must be 80 to 120, got " + std::to_string(cc));
}

}  // namespace

TritonConvert tritonConvert(const LinearLayout& a, const LinearLayout& b, uint64_t elementBytes,
                            int cc) {
  int bw = bitwidthOf(elementBytes);
  checkCapability(cc);
  auto classified = ::f2lay::analysis::classifyConversion(a, b);
  Tensor t = tensorOf(a.value());
  int dim = t.bits;
  Side src = sideOf(a, t, "A"), dst = sideOf(b, t, "B");
  TritonConvert out;
  using ::f2lay::analysis::ConversionKind;
  if (classified.kind == ConversionKind::kNoOp) return out.path = "no_op", out;
  if (classified.kind == ConversionKind::kRegisterPermutation) return out.path = "registers", out;
  if (classified.kind == ConversionKind::kWarpShuffle && mixedTranspositions(src, dst) < 2)
    return out.path = "warp_shuffle", out;
  out.path = "shared_memory";

  // The instruction pairs Triton considers, stores outer, loads inner.
  std::vector<const Tile*> stores = {&kLdSt}, loads = {&kLdSt};
  if (cc >= 90 && bw <= 32) stores.push_back(&kMatrix);
  if (cc >= 90 && bw == 16) stores.push_back(&kMatrixTrans);
  if (bw <= 32) loads.push_back(&kMatrix);
  if (bw == 16) loads.push_back(&kMatrixTrans);
  int totalBases = std::countr_zero(uint64_t{128} / bw);
  std::optional<Swizzle> best;
  const Tile *bestStore = &kLdSt, *bestLoad = &kLdSt;
  int bestConflicts = 0;
  for (const Tile* ts : stores)
    for (const Tile* td : loads) {
      std::optional<Vecs> vec = tileVector(src, dst, *ts, *td, totalBases, dim);
      if (!vec) continue;
      std::optional<Vecs> tileSrc = phaseTile(*ts, src, *vec), tileDst = phaseTile(*td, dst, *vec);
      if (!tileSrc || !tileDst) continue;
      int leaveReps = (ts == &kLdSt || td == &kLdSt) ? 0 : 2;
      Swizzle s = swizzle(src, dst, bw, *vec, *tileSrc, *tileDst, leaveReps, dim);
      int c = conflicts(s.segment, *tileDst, dim) + conflicts(s.segment, *tileSrc, dim);
      if (!best || c < bestConflicts || (c == bestConflicts && s.reps.size() > best->reps.size())) {
        best = s;
        bestConflicts = c;
        bestStore = ts;
        bestLoad = td;
      }
    }
  Swizzle s = best ? *best : ldStSwizzle(src, dst, bw, dim);

  // The layout: offset (vector, bank, segment) then reps.
  Vecs memory = s.vec;
  memory.insert(memory.end(), s.bank.begin(), s.bank.end());
  memory.insert(memory.end(), s.segment.begin(), s.segment.end());
  size_t offsetBits = memory.size();
  memory.insert(memory.end(), s.reps.begin(), s.reps.end());
  LayoutValue shared;
  shared.in_dims = {{"offset", {}}, {"reps", {}}};
  for (size_t i = 0; i < memory.size(); ++i)
    shared.in_dims[i < offsetBits ? 0 : 1].bases.push_back(t.unflat(memory[i], a.value().out_dims));
  shared.out_dims = a.value().out_dims;
  out.shared = LinearLayout(shared);
  out.rounds = uint64_t{1} << s.reps.size();
  out.scratchElements = uint64_t{1} << offsetBits;

  Offsets storeAt = offsetsOf(src, memory), loadAt = offsetsOf(dst, memory);
  out.store = bestStore == &kLdSt
                  ? ldStSide(src, storeAt, bw, true)
                  : matrixSide(src, bw, bestStore == &kMatrixTrans, true, out.rounds);
  out.load = bestLoad == &kLdSt ? ldStSide(dst, loadAt, bw, false)
                                : matrixSide(dst, bw, bestLoad == &kMatrixTrans, false, out.rounds);
  return out;
}

namespace {

// A memory layout's offset bases on the flattened tensor, checked invertible.
Vecs memoryOf(const LinearLayout& dist, const LinearLayout& shared, const Tensor& t) {
  if (shared.value().out_dims != dist.value().out_dims)
    throw Error("triton lowering: the memory layout's out dims differ from the registers'");
  const InDim* offset = findDim(shared.value(), "offset");
  if (!offset) throw Error("triton lowering: the memory layout has no 'offset' in dim");
  Vecs memory;
  for (const Basis& b : offset->bases) memory.push_back(t.flat(b));
  if (rref(memory).size() != static_cast<size_t>(t.bits) ||
      memory.size() != static_cast<size_t>(t.bits))
    throw Error("triton lowering: the memory layout is not invertible onto the tensor");
  return memory;
}

}  // namespace

std::optional<uint64_t> tritonBankConflicts(const LinearLayout& dist, const LinearLayout& shared,
                                            uint64_t elementBytes) {
  int bw = bitwidthOf(elementBytes);
  Tensor t = tensorOf(dist.value());
  Vecs memory = memoryOf(dist, shared, t);
  Side s = sideOf(dist, t, "the registers");
  uint64_t v = largestVector(offsetsOf(s, memory), bw);
  // Offset bits: the vector, then one row of 32 banks of vectors, then the segment.
  int vecBits = std::countr_zero(v);
  // A row of banks is cut to the buffer; a buffer shorter than one vector of
  // the row leaves no whole segment, where Triton's reshape asserts.
  int bankBits = std::min(t.bits, std::countr_zero(std::max<uint64_t>(
                                      1, uint64_t{1024} / (v * static_cast<uint64_t>(bw)))));
  if (vecBits + bankBits > t.bits) return std::nullopt;
  Vecs segment(memory.begin() + vecBits + bankBits, memory.end());
  int phaseCut = std::countr_zero(std::max<uint64_t>(1, v * static_cast<uint64_t>(bw) / 32));
  Vecs phase(s.lane.begin(), s.lane.end() - phaseCut);
  return (uint64_t{1} << intersectionBasis(segment, phase, t.bits).size()) - 1;
}

TritonSide tritonLocal(const LinearLayout& dist, const LinearLayout& shared, bool store,
                       uint64_t elementBytes, int cc) {
  int bw = bitwidthOf(elementBytes);
  checkCapability(cc);
  Tensor t = tensorOf(dist.value());
  Vecs memory = memoryOf(dist, shared, t);
  Side s = sideOf(dist, t, "the registers");
  Offsets o = offsetsOf(s, memory);
  uint64_t regs = uint64_t{1} << s.reg.size();

  // stmatrix / ldmatrix: each lane's 4 bytes in registers, lanes 0 and 1 the
  // next two words of a 16-byte row, lanes 2-4 (and all else) other rows.
  bool matrixOk = store ? cc >= 90 : cc >= 75;
  uint64_t word = 32 / static_cast<uint64_t>(bw);
  if (matrixOk && bw <= 32) {
    Vecs chosen;
    for (uint64_t bit = 1; bit < word; bit *= 2)
      if (contains(o.reg, bit)) chosen.push_back(bit);
    bool fits = chosen.size() == static_cast<size_t>(std::countr_zero(word)) &&
                o.other[0] == word && o.other[1] == 2 * word;
    for (size_t i = 2; fits && i < o.other.size(); ++i) fits = (o.other[i] & (4 * word - 1)) == 0;
    for (uint64_t r : o.reg) fits = fits && (contains(chosen, r) || (r & (4 * word - 1)) == 0);
    if (fits) return matrixSide(s, bw, false, store, 1);
  }
  // The .trans forms (b16): lanes 2-4 the 8 elements of a row, registers and
  // lanes 0, 1 the rows.
  if (matrixOk && bw == 16 && regs >= 2) {
    bool fits = o.other[2] == 1 && o.other[3] == 2 && o.other[4] == 4;
    for (size_t i = 0; fits && i < o.other.size(); ++i)
      fits = (i >= 2 && i <= 4) || (o.other[i] & 7) == 0;
    for (uint64_t r : o.reg) fits = fits && (r & 7) == 0;
    if (fits) return matrixSide(s, bw, true, store, 1);
  }
  return ldStSide(s, o, bw, store);
}

}  // namespace f2lay::ref::analysis
