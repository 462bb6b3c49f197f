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
//
// Included only where an implementation instantiates the constructions
// (F2LAY_INSTANTIATE_SHUFFLE_PLAN).
#pragma once

#include <optional>

#include "analysis/conversion_impl.h"

namespace f2lay::analysis {

namespace shuffle_detail {

constexpr int kMaxRoundBits = 16;          // at most 2^16 rounds
constexpr int kMaxLocationBits = 22;       // lanes * registers enumerated per warp
constexpr uint64_t kShuffleUnitBytes = 4;  // the paper's 32 bits per shuffle

// Every nonzero basis of l (all in dims) independent of the others: then the
// only duplication is by zero bases, which the plan handles.
template <class L>
void checkOnlyZeroBroadcasts(const L& l, const char* name) {
  Vecs seen;
  for (const std::string& dim : l.getInDimNames()) {
    Vecs bases = Space<L>::flatBases(l, dim);
    for (size_t i = 0; i < bases.size(); ++i) {
      if (bases[i] != 0 && Space<L>::inSpan(seen, bases[i]))
        throw Error(std::string("shuffle plan: ") + dim + " bit " + std::to_string(i) + " of " +
                    name +
                    " is a combination of other bases without being zero; "
                    "only zero bases (broadcasts) are handled");
      seen.push_back(bases[i]);
    }
  }
}

template <class L>
void checkSameOuterBases(const L& a, const L& b) {
  for (const char* dim : {"warp", "block"}) {
    Vecs x = Space<L>::flatBases(a, dim), y = Space<L>::flatBases(b, dim);
    for (size_t i = 0; i < x.size() && i < y.size(); ++i)
      if (x[i] != y[i])
        throw Error(std::string("shuffle plan: ") + dim + " bit " + std::to_string(i) +
                    " holds other data in A than in B; the plan is made once for every " + dim +
                    ", so A's and B's " + dim + " bases must be equal");
  }
}

template <class L>
void checkLimits(const L& a, const L& b) {
  for (const L* l : {&a, &b}) {
    int bits = inBits(*l, "register") + inBits(*l, "lane");
    if (bits > kMaxLocationBits)
      throw Error("shuffle plan: " + std::string(l == &a ? "A" : "B") + " has 2^" +
                  std::to_string(bits) + " (register, lane) locations per warp; the plan " +
                  "enumerates at most 2^" + std::to_string(kMaxLocationBits));
  }
}

// Why E and F cannot be paired: UnpairedBroadcast when a lane bit is a
// broadcast on one side only, else a plain Error.
[[noreturn]] inline void refusePairing(const Vecs& aThr, const Vecs& bThr, size_t e, size_t f) {
  std::string counts = " (|E| = " + std::to_string(e) + ", |F| = " + std::to_string(f) +
                       "): the §5.4 construction pairs E with F one to one and cannot";
  for (size_t j = 0; j < aThr.size() && j < bThr.size(); ++j) {
    if ((aThr[j] == 0) == (bThr[j] == 0)) continue;
    const char* zero = aThr[j] == 0 ? "A" : "B";
    const char* other = aThr[j] == 0 ? "B" : "A";
    uint64_t step = uint64_t{1} << j;
    throw UnpairedBroadcast(
        static_cast<int>(j),
        "shuffle plan: lane bit " + std::to_string(j) + " is a broadcast in " + zero +
            " but not in " + other + ": " + zero + "'s lanes t and t ^ " + std::to_string(step) +
            " hold the same data while " + other + "'s hold different data" + counts);
  }
  throw Error("shuffle plan: A and B use different numbers of lane bits for distinct data" +
              counts);
}

// V: A register vectors that are B register vectors too, in A's register
// order, while a vector of them fits one 32-bit shuffle. Returns the register
// bits in A and B of each chosen vector.
struct Exchange {
  Vecs V;
  std::vector<int> aBits, bBits;
};
[[nodiscard]] inline Exchange chooseV(const Vecs& aReg, const Vecs& bReg, uint64_t elementBytes) {
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
[[nodiscard]] inline std::vector<uint64_t> vectorOffsets(const std::vector<int>& bits) {
  std::vector<uint64_t> offsets(uint64_t{1} << bits.size(), 0);
  for (size_t k = 0; k < offsets.size(); ++k)
    for (size_t j = 0; j < bits.size(); ++j)
      if (k >> j & 1) offsets[k] ^= uint64_t{1} << bits[j];
  return offsets;
}

// The register bits that are not the first of a vector's or a duplicate's:
// zero register bases and the bits of V.
[[nodiscard]] inline uint64_t skippedRegisterBits(const Vecs& reg, const std::vector<int>& vBits) {
  uint64_t mask = 0;
  for (size_t i = 0; i < reg.size(); ++i)
    if (reg[i] == 0) mask |= uint64_t{1} << i;
  for (int bit : vBits) mask |= uint64_t{1} << bit;
  return mask;
}

// The elements of one warp (warp 0, block 0) of a layout, by their register
// and lane: the XOR of the bases of their set bits (Def 4.1).
struct WarpElements {
  Vecs reg, lane;
  template <class L>
  explicit WarpElements(const L& l)
      : reg(Space<L>::flatBases(l, "register")), lane(Space<L>::flatBases(l, "lane")) {}
  [[nodiscard]] uint64_t registers() const { return uint64_t{1} << reg.size(); }
  [[nodiscard]] uint64_t lanes() const { return uint64_t{1} << lane.size(); }
  [[nodiscard]] Vec at(uint64_t r, uint64_t t) const {
    return xorOfBits(reg, r) ^ xorOfBits(lane, t);
  }
};

// For each lane and round, the one first register of l whose element lies in
// the round's coset. Throws when a lane holds none or two.
template <class Coordinates>
[[nodiscard]] std::vector<std::vector<uint64_t>> vectorPerCoset(const WarpElements& l,
                                                                const char* name, uint64_t skipped,
                                                                const Coordinates& coords,
                                                                int cosetShift, uint64_t rounds) {
  const uint64_t kNone = ~uint64_t{0};
  std::vector<std::vector<uint64_t>> at(l.lanes(), std::vector<uint64_t>(rounds, kNone));
  for (uint64_t t = 0; t < l.lanes(); ++t) {
    for (uint64_t r = 0; r < l.registers(); ++r) {
      if (r & skipped) continue;
      std::optional<uint64_t> c = coords.of(l.at(r, t));
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

// A shuffle moves 4 or 8 bytes a lane: elements of 1 to 8 bytes.
inline void checkElementBytes(uint64_t elementBytes) {
  if (elementBytes != 1 && elementBytes != 2 && elementBytes != 4 && elementBytes != 8)
    throw Error("shuffle plan: element_bytes " + std::to_string(elementBytes) +
                " must be 1, 2, 4 or 8 (a shuffle moves 4 or 8 bytes)");
}

}  // namespace shuffle_detail

template <LayoutApi L>
ShufflePlan shufflePlan(const L& a, const L& b, uint64_t elementBytes) {
  shuffle_detail::checkElementBytes(elementBytes);
  return shufflePlan(a, b, classifyConversion(a, b), elementBytes);
}

template <LayoutApi L>
ShufflePlan shufflePlan(const L& a, const L& b, const Classification<L>& c, uint64_t elementBytes) {
  using namespace shuffle_detail;
  using S = Space<L>;
  checkElementBytes(elementBytes);
  if (c.kind == ConversionKind::kSharedMemory)
    throw Error("shuffle plan: the conversion needs shared memory, not shuffles: " + c.reason);
  checkLimits(a, b);
  checkOnlyZeroBroadcasts(a, "A");
  checkOnlyZeroBroadcasts(b, "B");
  checkSameOuterBases(a, b);

  Vecs aReg = S::flatBases(a, "register"), bReg = S::flatBases(b, "register");
  Vecs aThr = S::flatBases(a, "lane"), bThr = S::flatBases(b, "lane");
  ShufflePlan plan;
  plan.kind = c.kind;
  Exchange x = chooseV(aReg, bReg, elementBytes);
  plan.V = x.V;
  plan.vectorElements = uint64_t{1} << x.V.size();
  plan.sendOffsets = vectorOffsets(x.aBits);
  plan.recvOffsets = vectorOffsets(x.bBits);

  plan.I = S::intersectSpans(nonzero(aThr), nonzero(bThr));
  plan.E = S::extendBasis(plan.I, nonzero(aThr));
  plan.F = S::extendBasis(plan.I, nonzero(bThr));
  if (plan.E.size() != plan.F.size()) refusePairing(aThr, bThr, plan.E.size(), plan.F.size());
  for (size_t i = 0; i < plan.E.size(); ++i) plan.G.push_back(plan.E[i] ^ plan.F[i]);

  Vecs exchanged = concat({plan.V, plan.I, plan.G});
  if (S::rankOf(exchanged) != static_cast<int>(exchanged.size()))
    throw Error(
        "shuffle plan: V ∪ I ∪ G is not independent, so a round's coset would hold "
        "an element twice");
  Vecs warpSpace = concat({nonzero(aReg), nonzero(aThr)});
  if (S::rankOf(concat({warpSpace, bReg, bThr})) != S::rankOf(warpSpace) ||
      S::rankOf(concat({bReg, bThr})) != S::rankOf(warpSpace))
    throw Error("shuffle plan: B's registers and lanes hold other elements than A's in a warp");
  // A's register vectors first, then B's (then lanes, never needed for Def
  // 4.10 layouts), so that R is fixed by the layouts' orders.
  plan.R = S::extendBasis(exchanged, concat({aReg, bReg, aThr, bThr}));
  if (plan.R.size() > kMaxRoundBits)
    throw Error("shuffle plan: 2^" + std::to_string(plan.R.size()) + " rounds; at most 2^" +
                std::to_string(kMaxRoundBits) + " are planned");

  typename S::Coordinates coords(concat({exchanged, plan.R}));
  int shift = static_cast<int>(exchanged.size());
  uint64_t rounds = uint64_t{1} << plan.R.size();
  WarpElements inA(a), inB(b);
  auto sendAt = vectorPerCoset(inA, "A", skippedRegisterBits(aReg, x.aBits), coords, shift, rounds);
  auto recvAt = vectorPerCoset(inB, "B", skippedRegisterBits(bReg, x.bBits), coords, shift, rounds);

  // pull's lane for B's (register, lane): which lane each lane reads from.
  WarpElements pull(c.pull);
  Field pullLane = outField(c.pull, "lane");
  for (uint64_t i = 0; i < rounds; ++i) {
    std::vector<ShuffleStep> round;
    for (uint64_t t = 0; t < inA.lanes(); ++t) {
      uint64_t recv = recvAt[t][i];
      uint32_t src = static_cast<uint32_t>(pullLane.of(pull.at(recv, t)));
      // The source lane's one vector in this coset holds the element pull
      // names; it must also start with it, element for element.
      for (size_t k = 0; k < plan.vectorElements; ++k)
        if (inA.at(sendAt[src][i] ^ plan.sendOffsets[k], src) !=
            inB.at(recv ^ plan.recvOffsets[k], t))
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
  for (uint64_t r = 0; r < inB.registers(); ++r)
    if (r & zeroB) plan.copies.push_back({r, r & ~zeroB});
  return plan;
}

}  // namespace f2lay::analysis

#define F2LAY_INSTANTIATE_SHUFFLE_PLAN(L)                            \
  template ShufflePlan shufflePlan<L>(const L&, const L&, uint64_t); \
  template ShufflePlan shufflePlan<L>(const L&, const L&, const Classification<L>&, uint64_t);
