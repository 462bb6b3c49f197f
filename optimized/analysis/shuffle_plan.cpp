#include "optimized/analysis/shuffle_plan.h"

#include <bit>

#include "formats/error.h"

namespace f2lay::opt::analysis {

namespace {

constexpr int kMaxRoundBits = 16;
constexpr int kMaxLocationBits = 22;
constexpr uint64_t kShuffleUnitBytes = 4;

int bitsOf(const LinearLayout& l, const char* dim) {
  int d = l.inDims().find(intern(dim));
  return d < 0 ? 0 : l.inDims().bits[d];
}

// The element l holds in register `reg` of lane `lane` of warp 0, block 0.
Vec elementAt(const LinearLayout& l, uint64_t reg, uint64_t lane) {
  Vec x = 0;
  for (const auto& [dim, value] : {std::pair{"register", reg}, std::pair{"lane", lane}}) {
    int d = l.inDims().find(intern(dim));
    if (d < 0) continue;
    const uint64_t* cols = l.columns() + l.inDims().offset(d);
    for (uint64_t v = value; v; v &= v - 1) x ^= cols[std::countr_zero(v)];
  }
  return x;
}

void checkOnlyZeroBroadcasts(const LinearLayout& l, const char* name) {
  core::Echelon seen;
  const DimList& ins = l.inDims();
  for (int d = 0; d < ins.count; ++d)
    for (int i = 0; i < ins.bits[d]; ++i) {
      Vec x = l.columns()[ins.offset(d) + i];
      if (x != 0 && !seen.insert(x, 0))
        throw Error(std::string("shuffle plan: ") + nameOf(ins.id[d]) + " bit " +
                    std::to_string(i) + " of " + name +
                    " is a combination of other bases without being zero; "
                    "only zero bases (broadcasts) are handled");
    }
}

void checkSameOuterBases(const LinearLayout& a, const LinearLayout& b) {
  for (const char* dim : {"warp", "block"}) {
    Vecs x = flatBases(a, dim), y = flatBases(b, dim);
    for (size_t i = 0; i < x.size() && i < y.size(); ++i)
      if (x[i] != y[i])
        throw Error(std::string("shuffle plan: ") + dim + " bit " + std::to_string(i) +
                    " holds other data in A than in B; the plan is made once for every " + dim +
                    ", so A's and B's " + dim + " bases must be equal");
  }
}

void checkLimits(const LinearLayout& a, const LinearLayout& b) {
  for (const LinearLayout* l : {&a, &b}) {
    int bits = bitsOf(*l, "register") + bitsOf(*l, "lane");
    if (bits > kMaxLocationBits)
      throw Error("shuffle plan: " + std::string(l == &a ? "A" : "B") + " has 2^" +
                  std::to_string(bits) + " (register, lane) locations per warp; the plan " +
                  "enumerates at most 2^" + std::to_string(kMaxLocationBits));
  }
}

std::string pairingError(const Vecs& aThr, const Vecs& bThr, size_t e, size_t f) {
  std::string counts = " (|E| = " + std::to_string(e) + ", |F| = " + std::to_string(f) +
                       "): the §5.4 construction pairs E with F one to one and cannot";
  for (size_t j = 0; j < aThr.size() && j < bThr.size(); ++j) {
    if ((aThr[j] == 0) == (bThr[j] == 0)) continue;
    const char* zero = aThr[j] == 0 ? "A" : "B";
    const char* other = aThr[j] == 0 ? "B" : "A";
    return "shuffle plan: lane bit " + std::to_string(j) + " is a broadcast in " + zero +
           " but not in " + other + ": " + zero + "'s lanes t and t ^ " +
           std::to_string(uint64_t{1} << j) + " hold the same data while " + other +
           "'s hold different data" + counts;
  }
  return "shuffle plan: A and B use different numbers of lane bits for distinct data" + counts;
}

// Register bits, in A and in B, of each vector of V (A's register order,
// while 2^|V| elements fit one 32-bit shuffle).
struct Exchange {
  Vecs V;
  std::vector<int> aBits, bBits;
};
Exchange chooseV(const Vecs& aReg, const Vecs& bReg, uint64_t elementBytes) {
  Exchange x;
  for (size_t i = 0; i < aReg.size(); ++i) {
    if (aReg[i] == 0) continue;
    if ((elementBytes << (x.V.size() + 1)) > kShuffleUnitBytes) break;
    for (size_t j = 0; j < bReg.size(); ++j)
      if (bReg[j] == aReg[i]) {
        x.V.push_back(aReg[i]);
        x.aBits.push_back(static_cast<int>(i));
        x.bBits.push_back(static_cast<int>(j));
      }
  }
  return x;
}

std::vector<uint64_t> vectorOffsets(const std::vector<int>& bits) {
  std::vector<uint64_t> offsets(uint64_t{1} << bits.size(), 0);
  for (size_t k = 0; k < offsets.size(); ++k)
    for (size_t j = 0; j < bits.size(); ++j)
      if (k >> j & 1) offsets[k] ^= uint64_t{1} << bits[j];
  return offsets;
}

uint64_t skippedRegisterBits(const Vecs& reg, const std::vector<int>& vBits) {
  uint64_t mask = 0;
  for (size_t i = 0; i < reg.size(); ++i)
    if (reg[i] == 0) mask |= uint64_t{1} << i;
  for (int bit : vBits) mask |= uint64_t{1} << bit;
  return mask;
}

// For each lane and round, l's one first register in the round's coset.
std::vector<std::vector<uint64_t>> vectorPerCoset(const LinearLayout& l, const char* name,
                                                  uint64_t skipped, const core::Echelon& coords,
                                                  int cosetShift, uint64_t rounds) {
  uint64_t lanes = uint64_t{1} << bitsOf(l, "lane"),
           registers = uint64_t{1} << bitsOf(l, "register");
  const uint64_t kNone = ~uint64_t{0};
  std::vector<std::vector<uint64_t>> at(lanes, std::vector<uint64_t>(rounds, kNone));
  for (uint64_t t = 0; t < lanes; ++t) {
    for (uint64_t r = 0; r < registers; ++r) {
      if (r & skipped) continue;
      uint64_t c;
      if (coords.reduce(elementAt(l, r, t), &c) != 0)
        throw Error(std::string("shuffle plan: ") + name + "'s register " + std::to_string(r) +
                    " of lane " + std::to_string(t) +
                    " lies outside the warp space span(A_Reg ∪ A_Thr)");
      uint64_t i = c >> cosetShift;
      if (at[t][i] != kNone)
        throw Error(std::string("shuffle plan: lane ") + std::to_string(t) + " of " + name +
                    " holds two vectors (registers " + std::to_string(at[t][i]) + " and " +
                    std::to_string(r) + ") in the coset of round " + std::to_string(i));
      at[t][i] = r;
    }
    for (uint64_t i = 0; i < rounds; ++i)
      if (at[t][i] == kNone)
        throw Error(std::string("shuffle plan: lane ") + std::to_string(t) + " of " + name +
                    " holds no vector in the coset of round " + std::to_string(i));
  }
  return at;
}

// The lane of A that pull names for B's register `reg` of lane `lane`.
uint32_t pullLane(const LinearLayout& pull, uint64_t reg, uint64_t lane) {
  uint64_t x = 0;
  const DimList& ins = pull.inDims();
  for (const auto& [dim, value] : {std::pair{"register", reg}, std::pair{"lane", lane}}) {
    int d = ins.find(intern(dim));
    if (d >= 0) x |= value << ins.offset(d);
  }
  uint64_t y = pull.applyFlat(x);
  int o = pull.outDims().find(intern("lane"));
  return o < 0 ? 0
               : static_cast<uint32_t>(y >> pull.outDims().offset(o) &
                                       core::lowMask(pull.outDims().bits[o]));
}

Vecs concat(std::initializer_list<Vecs> parts) {
  Vecs all;
  for (const Vecs& p : parts) all.insert(all.end(), p.begin(), p.end());
  return all;
}

}  // namespace

ShufflePlan shufflePlan(const LinearLayout& a, const LinearLayout& b, uint64_t elementBytes) {
  if (elementBytes != 1 && elementBytes != 2 && elementBytes != 4 && elementBytes != 8)
    throw Error("shuffle plan: element_bytes " + std::to_string(elementBytes) +
                " must be 1, 2, 4 or 8 (a shuffle moves 4 or 8 bytes)");
  Classification c = classifyConversion(a, b);
  if (c.kind == ConversionKind::kSharedMemory)
    throw Error("shuffle plan: the conversion needs shared memory, not shuffles: " + c.reason);
  checkLimits(a, b);
  checkOnlyZeroBroadcasts(a, "A");
  checkOnlyZeroBroadcasts(b, "B");
  checkSameOuterBases(a, b);

  Vecs aReg = flatBases(a, "register"), bReg = flatBases(b, "register");
  Vecs aThr = flatBases(a, "lane"), bThr = flatBases(b, "lane");
  ShufflePlan plan;
  plan.kind = c.kind;
  Exchange x = chooseV(aReg, bReg, elementBytes);
  plan.V = x.V;
  plan.vectorElements = uint64_t{1} << x.V.size();
  plan.sendOffsets = vectorOffsets(x.aBits);
  plan.recvOffsets = vectorOffsets(x.bBits);

  plan.I = intersectSpans(nonzero(aThr), nonzero(bThr));
  plan.E = extendBasis(plan.I, nonzero(aThr));
  plan.F = extendBasis(plan.I, nonzero(bThr));
  if (plan.E.size() != plan.F.size())
    throw Error(pairingError(aThr, bThr, plan.E.size(), plan.F.size()));
  for (size_t i = 0; i < plan.E.size(); ++i) plan.G.push_back(plan.E[i] ^ plan.F[i]);

  Vecs exchanged = concat({plan.V, plan.I, plan.G});
  if (rankOf(exchanged) != static_cast<int>(exchanged.size()))
    throw Error(
        "shuffle plan: V ∪ I ∪ G is not independent, so a round's coset would hold "
        "an element twice");
  Vecs warpSpace = concat({nonzero(aReg), nonzero(aThr)});
  if (rankOf(concat({warpSpace, bReg, bThr})) != rankOf(warpSpace) ||
      rankOf(concat({bReg, bThr})) != rankOf(warpSpace))
    throw Error("shuffle plan: B's registers and lanes hold other elements than A's in a warp");
  plan.R = extendBasis(exchanged, concat({aReg, bReg, aThr, bThr}));
  if (plan.R.size() > kMaxRoundBits)
    throw Error("shuffle plan: 2^" + std::to_string(plan.R.size()) + " rounds; at most 2^" +
                std::to_string(kMaxRoundBits) + " are planned");

  // Coordinates over V ∪ I ∪ G ∪ R (independent, as checked): an element's
  // round is its coordinates past the exchanged ones.
  core::Echelon coords;
  Vecs basis = concat({exchanged, plan.R});
  for (size_t j = 0; j < basis.size(); ++j) coords.insert(basis[j], static_cast<int>(j));
  int shift = static_cast<int>(exchanged.size());
  uint64_t rounds = uint64_t{1} << plan.R.size();
  auto sendAt = vectorPerCoset(a, "A", skippedRegisterBits(aReg, x.aBits), coords, shift, rounds);
  auto recvAt = vectorPerCoset(b, "B", skippedRegisterBits(bReg, x.bBits), coords, shift, rounds);

  uint64_t lanes = uint64_t{1} << bitsOf(a, "lane");
  for (uint64_t i = 0; i < rounds; ++i) {
    std::vector<ShuffleStep> round;
    for (uint64_t t = 0; t < lanes; ++t) {
      uint64_t recv = recvAt[t][i];
      uint32_t src = pullLane(c.pull, recv, t);
      for (size_t k = 0; k < plan.vectorElements; ++k)
        if (elementAt(a, sendAt[src][i] ^ plan.sendOffsets[k], src) !=
            elementAt(b, recv ^ plan.recvOffsets[k], t))
          throw Error("shuffle plan: in round " + std::to_string(i) + ", lane " +
                      std::to_string(src) + "'s vector does not match the one lane " +
                      std::to_string(t) + " needs, element for element");
      round.push_back({static_cast<uint32_t>(t), sendAt[t][i], src, recv});
    }
    plan.rounds.push_back(std::move(round));
  }

  uint64_t zeroB = 0;
  for (size_t i = 0; i < bReg.size(); ++i)
    if (bReg[i] == 0) zeroB |= uint64_t{1} << i;
  for (uint64_t r = 0; r < uint64_t{1} << bitsOf(b, "register"); ++r)
    if (r & zeroB) plan.copies.push_back({r, r & ~zeroB});
  return plan;
}

}  // namespace f2lay::opt::analysis
