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
#include "reference/analysis/conversion.h"

#include <optional>

#include "formats/error.h"

namespace f2lay::ref::analysis {

namespace {

const char* const kLevels[] = {"block", "warp", "lane", "register"};

bool isHardwareDim(const std::string& name) {
  for (const char* level : kLevels)
    if (name == level) return true;
  return false;
}

uint64_t dimSize(const LinearLayout& l, const std::string& dim) {
  return l.hasInDim(dim) ? uint64_t{1} << l.getInDimSizeLog2(dim) : 1;
}

std::string outDimsText(const LinearLayout& l) {
  std::string s;
  for (const OutDim& d : l.value().out_dims)
    s += (s.empty() ? "" : ", ") + d.name + "=" + std::to_string(d.size);
  return "[" + s + "]";
}

void checkOperands(const LinearLayout& a, const LinearLayout& b) {
  for (const auto* side : {&a, &b}) {
    const char* name = side == &a ? "A" : "B";
    for (const std::string& dim : side->getInDimNames())
      if (!isHardwareDim(dim))
        throw Error(std::string("conversion: ") + name + " has in dim '" + dim +
                    "'; a distributed layout maps register, lane, warp and block only");
  }
  if (a.value().out_dims != b.value().out_dims)
    throw Error("conversion: A's out dims " + outDimsText(a) + " differ from B's " +
                outDimsText(b) + "; both must map to the same tensor (same names, sizes, order)");
  for (const char* level : {"lane", "warp", "block"})
    if (dimSize(a, level) != dimSize(b, level))
      throw Error(std::string("conversion: A has ") + std::to_string(dimSize(a, level)) + " " +
                  level + "s and B " + std::to_string(dimSize(b, level)) +
                  "; a conversion keeps the threads, warps and CTAs");
  if (!a.isSurjective())
    throw Error("conversion: A is not surjective: it does not hold every element of the tensor");
  if (!b.isSurjective())
    throw Error("conversion: B is not surjective: it does not hold every element of the tensor");
}

// The component along A's in dim `dim` of a basis of pull (0 when absent).
uint64_t component(const LinearLayout& pull, const Basis& basis, const std::string& dim) {
  const std::vector<OutDim>& outs = pull.value().out_dims;
  for (size_t k = 0; k < outs.size(); ++k)
    if (outs[k].name == dim) return basis[k];
  return 0;
}

// How far in bit `bit` of B's in dim `dim` reaches: the kind it forces, with
// the sentence that says why.
struct BitVerdict {
  ConversionKind kind;
  std::string reason;
};

BitVerdict judgeBit(const LinearLayout& pull, const std::string& dim, int bit, const Basis& image) {
  uint64_t own = uint64_t{1} << bit;
  std::string what = dim + " bit " + std::to_string(bit) + " of B";
  for (const char* level : {"block", "warp", "lane", "register"}) {
    uint64_t got = component(pull, image, level);
    uint64_t want = dim == level ? own : 0;
    if (got == want) continue;
    std::string from = std::string(level) + " " + std::to_string(got);
    std::string reason = what + " reads from " + from + " of A instead of " + std::string(level) +
                         " " + std::to_string(want);
    if (std::string(level) == "block" || std::string(level) == "warp")
      return {ConversionKind::kSharedMemory, reason + ": data crosses " + level + "s"};
    if (std::string(level) == "lane")
      return {ConversionKind::kWarpShuffle, reason + ": data moves between lanes of a warp"};
    return {ConversionKind::kRegisterPermutation,
            reason + ": data moves between registers of a lane"};
  }
  return {ConversionKind::kNoOp, ""};
}

// The element l holds where only bit `bit` of `dim` is set; nullopt when l
// has no such bit (fewer registers than the other layout).
std::optional<Vec> bitImage(const LinearLayout& l, const std::string& dim, int bit) {
  if (dimSize(l, dim) <= (uint64_t{1} << bit)) return std::nullopt;
  uint64_t v[4] = {0, 0, 0, 0};  // block, warp, lane, register
  for (int k = 0; k < 4; ++k)
    if (dim == kLevels[k]) v[k] = uint64_t{1} << bit;
  return elementAt(l, v[3], v[2], v[1], v[0]);
}

// Whether the element that bit `bit` of B's `dim` adds is held by A at a
// location whose outer `keptLevels` levels (block, warp, lane in that order)
// are B's own: B(e) ^ A(e's kept part) lies in the span of A's inner levels.
bool foundWithin(const LinearLayout& a, const LinearLayout& b, const std::string& dim, int bit,
                 int keptLevels) {
  Vec target = *bitImage(b, dim, bit);
  for (int k = 0; k < keptLevels; ++k)
    if (dim == kLevels[k]) target ^= *bitImage(a, dim, bit);  // same size: checked
  Vecs inner;
  for (int k = keptLevels; k < 4; ++k) {
    Vecs more = flatBases(a, kLevels[k]);
    inner.insert(inner.end(), more.begin(), more.end());
  }
  return inSpan(inner, target);
}

ConversionKind minimalKindOf(const LinearLayout& a, const LinearLayout& b) {
  ConversionKind worst = ConversionKind::kNoOp;
  for (const InDim& in : b.value().in_dims)
    for (int i = 0; i < static_cast<int>(in.bases.size()); ++i) {
      ConversionKind k = ConversionKind::kSharedMemory;
      if (bitImage(a, in.name, i) == bitImage(b, in.name, i))
        k = ConversionKind::kNoOp;
      else if (foundWithin(a, b, in.name, i, 3))
        k = ConversionKind::kRegisterPermutation;
      else if (foundWithin(a, b, in.name, i, 2))
        k = ConversionKind::kWarpShuffle;
      if (k > worst) worst = k;
    }
  return worst;
}

}  // namespace

std::string toString(ConversionKind kind) {
  switch (kind) {
    case ConversionKind::kNoOp:
      return "no_op";
    case ConversionKind::kRegisterPermutation:
      return "register_permutation";
    case ConversionKind::kWarpShuffle:
      return "warp_shuffle";
    case ConversionKind::kSharedMemory:
      return "shared_memory";
  }
  return "unknown";
}

Vec elementAt(const LinearLayout& l, uint64_t reg, uint64_t lane, uint64_t warp, uint64_t block) {
  DimValues in;
  const uint64_t values[4] = {block, warp, lane, reg};
  for (int k = 0; k < 4; ++k) {
    if (l.hasInDim(kLevels[k])) {
      in.emplace_back(kLevels[k], values[k]);
    } else if (values[k] != 0) {
      throw Error(std::string("elementAt: the layout has no ") + kLevels[k] + " dim, but " +
                  kLevels[k] + " " + std::to_string(values[k]) + " was asked for");
    }
  }
  return flatten(l, l.apply(in));
}

Classification classifyConversion(const LinearLayout& a, const LinearLayout& b) {
  checkOperands(a, b);
  // Both are surjective and of one tensor, so Triton 3.9's invertAndCompose
  // always answers: the dims it sets aside own their output bits in both
  // layouts, and the rest of A reaches every other bit.
  Classification c{ConversionKind::kNoOp, a.invertAndCompose(b), b.invertAndCompose(a), "",
                   ConversionKind::kNoOp};
  for (const InDim& in : c.pull.value().in_dims)
    for (int i = 0; i < static_cast<int>(in.bases.size()); ++i) {
      BitVerdict v = judgeBit(c.pull, in.name, i, in.bases[i]);
      if (v.kind > c.kind) {  // the first bit that reaches the worst level
        c.kind = v.kind;
        c.reason = v.reason;
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

}  // namespace f2lay::ref::analysis
