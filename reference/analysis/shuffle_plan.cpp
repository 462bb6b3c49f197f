// shufflePlan: the paper's §5.4 "Intra-warp Data Exchange" construction.
//
// Everything happens inside one warp's space W = span(A_Reg ∪ A_Thr): warp
// and block bases are required equal in A and B, so every warp runs the same
// plan on its own data (warp w's elements are warp 0's XOR A_Wrp(w)).
//
// Broadcasting (zero bases, §5.1), which the paper sets aside:
//   * zero register bases: only registers with those bits clear take part
//     (in A they duplicate data; in B the duplicates are filled afterwards by
//     register copies, plan.copies);
//   * zero lane bases: the construction uses the nonzero lane vectors. When A
//     and B have as many (at the same lane bits or not), |E| = |F| and every
//     lane still holds one vector per coset (checked, lane by lane); a lane
//     that holds its data twice over in A is read by pull's choice. When the
//     counts differ, E and F cannot be paired: an error names the lane bit;
//   * non-zero bases that are combinations of other bases (duplication that
//     is not a zero column) are refused.
#include <bit>
#include <optional>

#include "formats/error.h"
#include "reference/analysis/conversion.h"
#include "reference/analysis/f2_coordinates.h"

namespace f2lay::ref::analysis {

namespace {

constexpr int kMaxRoundBits = 16;          // at most 2^16 rounds
constexpr int kMaxLocationBits = 22;       // lanes * registers enumerated per warp
constexpr uint64_t kShuffleUnitBytes = 4;  // the paper's 32 bits per shuffle

uint64_t dimSize(const LinearLayout& l, const std::string& dim) {
  return l.hasInDim(dim) ? uint64_t{1} << l.getInDimSizeLog2(dim) : 1;
}

// Every nonzero basis of l (all in dims) independent of the others: then the
// only duplication is by zero bases, which the plan handles.
void checkOnlyZeroBroadcasts(const LinearLayout& l, const char* name) {
  Vecs seen;
  for (const InDim& in : l.value().in_dims) {
    Vecs bases = flatBases(l, in.name);
    for (size_t i = 0; i < bases.size(); ++i) {
      if (bases[i] != 0 && inSpan(seen, bases[i]))
        throw Error(std::string("shuffle plan: ") + in.name + " bit " + std::to_string(i) + " of " +
                    name +
                    " is a combination of other bases without being zero; "
                    "only zero bases (broadcasts) are handled");
      seen.push_back(bases[i]);
    }
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
  for (const auto* l : {&a, &b}) {
    int bits = l->hasInDim("register") ? l->getInDimSizeLog2("register") : 0;
    bits += l->hasInDim("lane") ? l->getInDimSizeLog2("lane") : 0;
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
    uint64_t step = uint64_t{1} << j;
    return "shuffle plan: lane bit " + std::to_string(j) + " is a broadcast in " + zero +
           " but not in " + other + ": " + zero + "'s lanes t and t ^ " + std::to_string(step) +
           " hold the same data while " + other + "'s hold different data" + counts;
  }
  return "shuffle plan: A and B use different numbers of lane bits for distinct data" + counts;
}

// V: A register vectors that are B register vectors too, in A's register
// order, while a vector of them fits one 32-bit shuffle. Returns the register
// bits in A and B of each chosen vector.
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

// Register offsets of the 2^|V| elements of a vector: element k sits at
// first ^ (XOR of 1 << bits[j] over the set bits j of k).
std::vector<uint64_t> vectorOffsets(const std::vector<int>& bits) {
  std::vector<uint64_t> offsets(uint64_t{1} << bits.size(), 0);
  for (size_t k = 0; k < offsets.size(); ++k)
    for (size_t j = 0; j < bits.size(); ++j)
      if (k >> j & 1) offsets[k] ^= uint64_t{1} << bits[j];
  return offsets;
}

// The register bits that are not the first of a vector's or a duplicate's:
// zero register bases and the bits of V.
uint64_t skippedRegisterBits(const Vecs& reg, const std::vector<int>& vBits) {
  uint64_t mask = 0;
  for (size_t i = 0; i < reg.size(); ++i)
    if (reg[i] == 0) mask |= uint64_t{1} << i;
  for (int bit : vBits) mask |= uint64_t{1} << bit;
  return mask;
}

// For each lane and round, the one first register of l whose element lies in
// the round's coset. Throws when a lane holds none or two.
std::vector<std::vector<uint64_t>> vectorPerCoset(const LinearLayout& l, const char* name,
                                                  uint64_t skipped, const Coordinates& coords,
                                                  int cosetShift, uint64_t rounds) {
  uint64_t lanes = dimSize(l, "lane"), registers = dimSize(l, "register");
  const uint64_t kNone = ~uint64_t{0};
  std::vector<std::vector<uint64_t>> at(lanes, std::vector<uint64_t>(rounds, kNone));
  for (uint64_t t = 0; t < lanes; ++t) {
    for (uint64_t r = 0; r < registers; ++r) {
      if (r & skipped) continue;
      std::optional<uint64_t> c = coords.of(elementAt(l, r, t, 0, 0));
      if (!c)
        throw Error(std::string("shuffle plan: ") + name + "'s register " + std::to_string(r) +
                    " of lane " + std::to_string(t) +
                    " lies outside the warp space span(A_Reg ∪ A_Thr)");
      uint64_t i = *c >> cosetShift;
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

uint32_t pullLane(const LinearLayout& pull, uint64_t reg, uint64_t lane) {
  DimValues in;
  for (const std::string& dim : pull.getInDimNames())
    in.emplace_back(dim, dim == "register" ? reg : dim == "lane" ? lane : 0);
  for (const auto& [dim, value] : pull.apply(in))
    if (dim == "lane") return static_cast<uint32_t>(value);
  return 0;
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
  // A's register vectors first, then B's (then lanes, never needed for Def
  // 4.10 layouts), so that R is fixed by the layouts' orders.
  plan.R = extendBasis(exchanged, concat({aReg, bReg, aThr, bThr}));
  if (plan.R.size() > kMaxRoundBits)
    throw Error("shuffle plan: 2^" + std::to_string(plan.R.size()) + " rounds; at most 2^" +
                std::to_string(kMaxRoundBits) + " are planned");

  Coordinates coords(concat({exchanged, plan.R}));
  int shift = static_cast<int>(exchanged.size());
  uint64_t rounds = uint64_t{1} << plan.R.size();
  auto sendAt = vectorPerCoset(a, "A", skippedRegisterBits(aReg, x.aBits), coords, shift, rounds);
  auto recvAt = vectorPerCoset(b, "B", skippedRegisterBits(bReg, x.bBits), coords, shift, rounds);

  uint64_t lanes = dimSize(a, "lane");
  for (uint64_t i = 0; i < rounds; ++i) {
    std::vector<ShuffleStep> round;
    for (uint64_t t = 0; t < lanes; ++t) {
      uint64_t recv = recvAt[t][i];
      uint32_t src = pullLane(c.pull, recv, t);
      // The source lane's one vector in this coset holds the element pull
      // names; it must also start with it, element for element.
      for (size_t k = 0; k < plan.vectorElements; ++k)
        if (elementAt(a, sendAt[src][i] ^ plan.sendOffsets[k], src, 0, 0) !=
            elementAt(b, recv ^ plan.recvOffsets[k], t, 0, 0))
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
  for (uint64_t r = 0; r < dimSize(b, "register"); ++r)
    if (r & zeroB) plan.copies.push_back({r, r & ~zeroB});
  return plan;
}

}  // namespace f2lay::ref::analysis
