#include "optimized/analysis/optimal_swizzle.h"

#include <algorithm>
#include <bit>

#include "formats/error.h"

namespace f2lay::opt::analysis {

namespace {

constexpr uint64_t kBankRowBytes = 128;   // 32 banks of 4 bytes
constexpr uint64_t kMaxVectorBytes = 16;  // ld/st.shared.v4.b32

int bitsOf(const LinearLayout& l, const char* dim) {
  int d = l.inDims().find(intern(dim));
  return d < 0 ? -1 : l.inDims().bits[d];
}

void checkDistributed(const LinearLayout& l, const char* which) {
  const DimList& ins = l.inDims();
  for (int d = 0; d < ins.count; ++d) {
    const std::string& name = nameOf(ins.id[d]);
    if (name == "register" || name == "lane" || name == "warp") continue;
    if (name == "block" && ins.bits[d] == 0) continue;
    throw Error(std::string("optimal_swizzle: ") + which + " has in dim '" + name +
                "'; expected register, lane, warp (and a block of size 1)");
  }
  if (bitsOf(l, "lane") != 5)
    throw Error(std::string("optimal_swizzle: ") + which +
                " must have a lane dim of 32 (the measured bank model is for 32-lane warps)");
  if (!l.isSurjective())
    throw Error(std::string("optimal_swizzle: ") + which +
                " does not hold every element of the tensor (not surjective)");
}

bool contains(const Vecs& v, Vec x) { return std::find(v.begin(), v.end(), x) != v.end(); }

struct Side {
  Vecs registers;  // nonzero register vectors
  Vecs lanes;      // the 5 lane vectors, zeros kept
  Instruction instruction;
  AccessKind kind;
  const char* name;
};

Vecs matrixRowLanes(const Side& s) {
  return s.instruction == Instruction::kMatrix ? Vecs{s.lanes[0], s.lanes[1]}
                                               : Vecs{s.lanes[2], s.lanes[3], s.lanes[4]};
}

Vecs chooseVec(const Side& a, const Side& b, uint64_t w) {
  Vecs common = intersectSpans(a.registers, b.registers);
  const Side* matrix = a.instruction != Instruction::kVector   ? &a
                       : b.instruction != Instruction::kVector ? &b
                                                               : nullptr;
  if (!matrix) {
    size_t maxBits = std::countr_zero(kMaxVectorBytes / w);
    if (common.size() > maxBits) common.resize(maxBits);
    return common;
  }
  if (w != 2)
    throw Error("optimal_swizzle: ldmatrix/stmatrix tiles are for 2-byte elements (b16), got " +
                std::to_string(w));
  Vecs vec;
  if (matrix->instruction == Instruction::kMatrix) {
    // The register half: one both sides hold in registers when there is one.
    Vec reg = 0;
    for (Vec r : matrix->registers)
      if (!reg || (contains(common, r) && !contains(common, reg))) reg = r;
    if (!reg)
      throw Error(std::string("optimal_swizzle: ") + matrix->name +
                  " has no register to fill a 32-bit ldmatrix/stmatrix register");
    vec.push_back(reg);
  }
  for (Vec x : matrixRowLanes(*matrix)) vec.push_back(x);
  if (contains(vec, 0) || rankOf(vec) != 3)
    throw Error(std::string("optimal_swizzle: ") + matrix->name +
                "'s ldmatrix/stmatrix row is not 8 distinct elements (a broadcast lane)");
  const Side& other = matrix == &a ? b : a;
  if (other.instruction != Instruction::kVector) {
    Vecs otherVec;
    if (other.instruction == Instruction::kMatrix) otherVec.push_back(vec[0]);
    for (Vec x : matrixRowLanes(other)) otherVec.push_back(x);
    if (otherVec != vec ||
        !(other.instruction == matrix->instruction ||
          matrix->instruction == Instruction::kMatrix) ||
        (other.instruction == Instruction::kMatrix && !contains(other.registers, vec[0])))
      throw Error("optimal_swizzle: the stmatrix and ldmatrix tiles of A and B are different rows");
  }
  return vec;
}

// The lanes of one phase (device_tests/HARDWARE.md#store-phases,
// #load-phases, #quad-merge; the reference spells it out).
Vecs phaseLanes(const Vecs& lanes, uint64_t bytes, AccessKind kind) {
  if (bytes <= 4) return nonzero(lanes);
  int phaseBits = bytes == 8 ? 4 : 3;
  size_t usable = bytes == 8 ? 5 : 4;
  Vecs phase;
  for (size_t i = 0; i < usable && static_cast<int>(phase.size()) < phaseBits; ++i)
    if (!(kind == AccessKind::kLoad && i < 2 && lanes[i] == 0)) phase.push_back(lanes[i]);
  return nonzero(phase);
}

Vecs bankThreads(const Side& s, const Vecs& vec, uint64_t w) {
  if (s.instruction == Instruction::kMatrix) return nonzero({s.lanes[2], s.lanes[3], s.lanes[4]});
  if (s.instruction == Instruction::kMatrixTrans) {
    if (s.registers.empty())
      throw Error(std::string("optimal_swizzle: ") + s.name +
                  " has no register to fill a 32-bit ldmatrix/stmatrix register");
    return nonzero({s.registers[0], s.lanes[0], s.lanes[1]});
  }
  size_t k = 0;
  while (k < vec.size() && contains(s.registers, vec[k])) ++k;
  return phaseLanes(s.lanes, (uint64_t{1} << k) * w, s.kind);
}

Vecs join(Vecs a, const Vecs& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

OptimalSwizzle optimalSwizzle(const LinearLayout& a, const LinearLayout& b, uint64_t w,
                              const SwizzleOptions& options) {
  if (w == 0 || w > kMaxVectorBytes || !isPowerOfTwo(w))
    throw Error("optimal_swizzle: element_bytes must be 1, 2, 4, 8 or 16 (got " +
                std::to_string(w) + ")");
  checkDistributed(a, "self (A, the writer)");
  checkDistributed(b, "other (B, the reader)");
  if (!(a.outDims() == b.outDims()))
    throw Error("optimal_swizzle: A and B map to different out dims (names, order or sizes)");

  const int d = a.getTotalOutDimSizeLog2();
  Side sa{nonzero(flatBases(a, "register")), flatBases(a, "lane"), options.write,
          AccessKind::kStore, "A"};
  Side sb{nonzero(flatBases(b, "register")), flatBases(b, "lane"), options.read, AccessKind::kLoad,
          "B"};

  OptimalSwizzle out;
  SwizzleSets& s = out.sets;
  s.V = chooseVec(sa, sb, w);
  const int v = static_cast<int>(s.V.size());
  out.vectorBytes = (uint64_t{1} << v) * w;
  out.bankBits = std::min(std::countr_zero(kBankRowBytes / out.vectorBytes), d - v);
  out.idxBits = d - v - out.bankBits;

  s.ABank = bankThreads(sa, s.V, w);
  s.BBank = bankThreads(sb, s.V, w);
  Vecs pa = join(s.V, s.ABank), pb = join(s.V, s.BBank);
  s.I = extendBasis(s.V, intersectSpans(pa, pb));
  Vecs vi = join(s.V, s.I);
  s.E = extendBasis(vi, s.ABank);
  s.F = extendBasis(vi, s.BBank);
  for (size_t i = 0; i < std::min(s.E.size(), s.F.size()); ++i) s.G.push_back(s.E[i] ^ s.F[i]);
  s.C = completeWithUnits(join(pa, s.BBank), d);

  // Idx: the first idxBits vectors of C then G that enlarge span(V ∪ Idx).
  Vecs vIdx = s.V;
  for (Vec x : join(s.C, s.G)) {
    if (static_cast<int>(s.Idx.size()) == out.idxBits) break;
    if (inSpan(vIdx, x)) continue;
    s.Idx.push_back(x);
    vIdx.push_back(x);
  }
  if (static_cast<int>(s.Idx.size()) != out.idxBits)
    throw Error("optimal_swizzle: internal: C and G give " + std::to_string(s.Idx.size()) +
                " index vectors, " + std::to_string(out.idxBits) + " needed");
  s.Bank = completeWithUnits(vIdx, d);

  // S: offset bits, lowest first, to V, Bank, Idx, as a layout over A's out
  // dims (the vectors are already in A's packing).
  LayoutValue memory{{{"offset", {}}}, a.value().out_dims};
  for (Vec x : join(join(s.V, s.Bank), s.Idx)) {
    Basis basis;
    int shift = 0;
    for (const OutDim& o : memory.out_dims) {
      int bits = std::countr_zero(o.size);
      basis.push_back(x >> shift & core::lowMask(bits));
      shift += bits;
    }
    memory.in_dims[0].bases.push_back(basis);
  }
  out.shared = LinearLayout(memory);
  out.writeConflictBits = static_cast<int>(intersectSpans(vIdx, pa).size()) - v;
  out.readConflictBits = static_cast<int>(intersectSpans(vIdx, pb).size()) - v;
  return out;
}

}  // namespace f2lay::opt::analysis
