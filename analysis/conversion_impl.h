// classifyConversion (paper §5.4): the hardware level a conversion A -> B
// must cross, read from pull = B.invertAndCompose(A), which gives each
// location of B the location of A its element comes from.
//
// Because pull is linear, a property "pull(x) keeps x's lane, warp and block"
// holds for every x exactly when it holds for every in bit of B, so the
// classification looks at one basis per in bit:
//   * no-op: every bit maps to itself. Then A(x) = A(pull(x)) = B(x) for every
//     x, so equal maps of different families are no-ops; and where B has zero
//     bases (broadcasts) A has the same zero bases, since A = B bit by bit.
//   * register permutation: every bit keeps its own lane, warp and block
//     components (a register bit maps to registers only; lane bit i maps to
//     lane 1 << i plus any registers). A lane bit that B broadcasts (basis 0)
//     but A uses for distinct data maps to A's location of element 0's
//     companions, i.e. lane 0: lane 1 << i then reads from another lane, as
//     it must (its registers in A hold other data).
//   * warp shuffle: warp and block bits map to themselves.
//   * otherwise shared memory.
// minimalKind asks the same per bit of the set of all A locations holding the
// element (an affine subspace), which pull's free-bits-zero choice may miss.
//
// Included only where an implementation instantiates the constructions
// (F2LAY_INSTANTIATE_CONVERSION).
#pragma once

#include "analysis/conversion.h"
#include "formats/error.h"

namespace f2lay::analysis {

namespace conversion_detail {

// Outer to inner: the first level at which a bit moves data says how far.
inline const char* const kLevels[] = {"block", "warp", "lane", "register"};

[[nodiscard]] inline bool isHardwareDim(const std::string& name) {
  for (const char* level : kLevels)
    if (name == level) return true;
  return false;
}

template <class L>
[[nodiscard]] std::string outDimsText(const L& l) {
  std::string s;
  for (const std::string& d : l.getOutDimNames())
    s += (s.empty() ? "" : ", ") + d + "=" + std::to_string(l.getOutDimSize(d));
  return "[" + s + "]";
}

template <class L>
void checkOperands(const L& a, const L& b) {
  for (const L* side : {&a, &b}) {
    const char* name = side == &a ? "A" : "B";
    for (const std::string& dim : side->getInDimNames())
      if (!isHardwareDim(dim))
        throw Error(std::string("conversion: ") + name + " has in dim '" + dim +
                    "'; a distributed layout maps register, lane, warp and block only");
  }
  if (outDimsText(a) != outDimsText(b))
    throw Error("conversion: A's out dims " + outDimsText(a) + " differ from B's " +
                outDimsText(b) + "; both must map to the same tensor (same names, sizes, order)");
  for (const char* level : {"lane", "warp", "block"})
    if (inBits(a, level) != inBits(b, level))
      throw Error(std::string("conversion: A has ") +
                  std::to_string(uint64_t{1} << inBits(a, level)) + " " + level + "s and B " +
                  std::to_string(uint64_t{1} << inBits(b, level)) +
                  "; a conversion keeps the threads, warps and CTAs");
  if (!a.isSurjective())
    throw Error("conversion: A is not surjective: it does not hold every element of the tensor");
  if (!b.isSurjective())
    throw Error("conversion: B is not surjective: it does not hold every element of the tensor");
}

// How far in bit `bit` of B's in dim `dim` reaches: the kind it forces, with
// the sentence that says why. `image` is pull's flattened image of the bit,
// over A's in dims, whose fields (kLevels' order) are `levels`.
struct BitVerdict {
  ConversionKind kind;
  std::string reason;
};

[[nodiscard]] inline BitVerdict judgeBit(const Field (&levels)[4], const std::string& dim, int bit,
                                         Vec image) {
  uint64_t own = uint64_t{1} << bit;
  std::string what = dim + " bit " + std::to_string(bit) + " of B";
  for (int k = 0; k < 4; ++k) {
    const std::string level = kLevels[k];
    uint64_t got = levels[k].of(image);
    uint64_t want = dim == level ? own : 0;
    if (got == want) continue;
    std::string reason = what + " reads from " + level + " " + std::to_string(got) +
                         " of A instead of " + level + " " + std::to_string(want);
    if (level == "block" || level == "warp")
      return {ConversionKind::kSharedMemory, reason + ": data crosses " + level + "s"};
    if (level == "lane")
      return {ConversionKind::kWarpShuffle, reason + ": data moves between lanes of a warp"};
    return {ConversionKind::kRegisterPermutation,
            reason + ": data moves between registers of a lane"};
  }
  return {ConversionKind::kNoOp, ""};
}

// The least movement any choice of sources allows, per bit of B: whether the
// element that bit adds is held by A at a location whose outer `kept` levels
// (block, warp, lane in that order) are B's own, i.e. B(e) ^ A(e's kept
// part) lies in the span of A's inner levels.
template <class L>
[[nodiscard]] ConversionKind minimalKindOf(const L& a, const L& b) {
  using S = Space<L>;
  Vecs inner[5];  // inner[k]: the bases of A's levels k and beyond
  for (int k = 3; k >= 0; --k) inner[k] = concat({S::flatBases(a, kLevels[k]), inner[k + 1]});
  ConversionKind worst = ConversionKind::kNoOp;
  for (int level = 0; level < 4; ++level) {
    Vecs aBases = S::flatBases(a, kLevels[level]), bBases = S::flatBases(b, kLevels[level]);
    for (size_t i = 0; i < bBases.size(); ++i) {
      bool aHas = i < aBases.size();  // A may have fewer registers
      auto foundWithin = [&](int kept) {
        Vec target = bBases[i] ^ (level < kept && aHas ? aBases[i] : 0);
        return S::inSpan(inner[kept], target);
      };
      ConversionKind k = ConversionKind::kSharedMemory;
      if (aHas && aBases[i] == bBases[i])
        k = ConversionKind::kNoOp;
      else if (foundWithin(3))
        k = ConversionKind::kRegisterPermutation;
      else if (foundWithin(2))
        k = ConversionKind::kWarpShuffle;
      if (k > worst) worst = k;
    }
  }
  return worst;
}

}  // namespace conversion_detail

template <LayoutApi L>
Classification<L> classifyConversion(const L& a, const L& b) {
  using namespace conversion_detail;
  checkOperands(a, b);
  // Both are surjective and of one tensor, so Triton 3.9's invertAndCompose
  // always answers: the dims it sets aside own their output bits in both
  // layouts, and the rest of A reaches every other bit.
  Classification<L> c{ConversionKind::kNoOp, a.invertAndCompose(b), b.invertAndCompose(a), "",
                      ConversionKind::kNoOp};
  Field levels[4];
  for (int k = 0; k < 4; ++k) levels[k] = outField(c.pull, kLevels[k]);
  for (const std::string& dim : c.pull.getInDimNames()) {
    Vecs images = Space<L>::flatBases(c.pull, dim);
    for (int i = 0; i < static_cast<int>(images.size()); ++i) {
      BitVerdict v = judgeBit(levels, dim, i, images[i]);
      if (v.kind > c.kind) {  // the first bit that reaches the worst level
        c.kind = v.kind;
        c.reason = v.reason;
      }
    }
  }
  if (c.kind == ConversionKind::kNoOp)
    c.reason = "every location of B reads the same location of A: the layouts are equal maps";
  c.minimalKind = minimalKindOf(a, b);
  if (c.minimalKind < c.kind)
    c.reason +=
        " (pull's minimum-norm choice; A also holds every element of B at a location "
        "of kind " +
        toString(c.minimalKind) + ", as A broadcasts)";
  return c;
}

}  // namespace f2lay::analysis

#define F2LAY_INSTANTIATE_CONVERSION(L) \
  template Classification<L> classifyConversion<L>(const L&, const L&);
