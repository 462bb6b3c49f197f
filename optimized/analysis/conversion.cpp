#include "optimized/analysis/conversion.h"

#include "formats/error.h"

namespace f2lay::opt::analysis {

namespace {

// Outer to inner; a pull's column is read level by level in this order.
const char* const kLevels[] = {"block", "warp", "lane", "register"};

int levelOf(NameId id) {
  for (int k = 0; k < 4; ++k)
    if (id == intern(kLevels[k])) return k;
  return -1;
}

uint64_t countOf(const LinearLayout& l, int level) {
  int d = l.inDims().find(intern(kLevels[level]));
  return d < 0 ? 1 : uint64_t{1} << l.inDims().bits[d];
}

std::string outDimsText(const LinearLayout& l) {
  std::string s;
  const DimList& outs = l.outDims();
  for (int k = 0; k < outs.count; ++k)
    s += (k ? ", " : "") + nameOf(outs.id[k]) + "=" + std::to_string(uint64_t{1} << outs.bits[k]);
  return "[" + s + "]";
}

void checkOperands(const LinearLayout& a, const LinearLayout& b) {
  for (const LinearLayout* side : {&a, &b}) {
    const DimList& ins = side->inDims();
    for (int d = 0; d < ins.count; ++d)
      if (levelOf(ins.id[d]) < 0)
        throw Error(std::string("conversion: ") + (side == &a ? "A" : "B") + " has in dim '" +
                    nameOf(ins.id[d]) +
                    "'; a distributed layout maps register, lane, warp and block only");
  }
  if (!(a.outDims() == b.outDims()))
    throw Error("conversion: A's out dims " + outDimsText(a) + " differ from B's " +
                outDimsText(b) + "; both must map to the same tensor (same names, sizes, order)");
  for (int level : {2, 1, 0})
    if (countOf(a, level) != countOf(b, level))
      throw Error(std::string("conversion: A has ") + std::to_string(countOf(a, level)) + " " +
                  kLevels[level] + "s and B " + std::to_string(countOf(b, level)) +
                  "; a conversion keeps the threads, warps and CTAs");
  if (!a.isSurjective())
    throw Error("conversion: A is not surjective: it does not hold every element of the tensor");
  if (!b.isSurjective())
    throw Error("conversion: B is not surjective: it does not hold every element of the tensor");
}

// The column of `l` for bit `bit` of its dim at `level`; false when l has
// no such bit.
bool bitImage(const LinearLayout& l, int level, int bit, uint64_t* image) {
  int d = l.inDims().find(intern(kLevels[level]));
  if (d < 0 || bit >= l.inDims().bits[d]) return false;
  *image = l.columns()[l.inDims().offset(d) + bit];
  return true;
}

ConversionKind minimalKindOf(const LinearLayout& a, const LinearLayout& b) {
  // span(A's levels >= k), for k = 2 (lane, register) and 3 (register).
  core::Echelon inner[4];
  for (int k = 2; k < 4; ++k)
    for (int level = k; level < 4; ++level) {
      int d = a.inDims().find(intern(kLevels[level]));
      if (d < 0) continue;
      for (int i = 0; i < a.inDims().bits[d]; ++i)
        inner[k].insert(a.columns()[a.inDims().offset(d) + i], 0);
    }
  ConversionKind worst = ConversionKind::kNoOp;
  const DimList& ins = b.inDims();
  for (int d = 0; d < ins.count; ++d) {
    int level = levelOf(ins.id[d]);
    for (int i = 0; i < ins.bits[d]; ++i) {
      uint64_t bImage = b.columns()[ins.offset(d) + i], aImage = 0;
      bool aHas = bitImage(a, level, i, &aImage);
      // B's element found in A with the outer `kept` levels B's own: B's
      // image, minus A's image of the same bit where that bit is kept.
      auto within = [&](int kept) {
        uint64_t target = bImage ^ (level < kept ? aImage : 0), unused;
        return inner[kept].reduce(target, &unused) == 0;
      };
      ConversionKind k = ConversionKind::kSharedMemory;
      if (aHas && aImage == bImage)
        k = ConversionKind::kNoOp;
      else if (within(3))
        k = ConversionKind::kRegisterPermutation;
      else if (within(2))
        k = ConversionKind::kWarpShuffle;
      if (k > worst) worst = k;
    }
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

Classification classifyConversion(const LinearLayout& a, const LinearLayout& b) {
  checkOperands(a, b);
  // Both are surjective and of one tensor, so Triton 3.9's invertAndCompose
  // always answers: the dims it sets aside own their output bits in both
  // layouts, and the rest of A reaches every other bit.
  Classification c{ConversionKind::kNoOp, a.invertAndCompose(b), b.invertAndCompose(a), "",
                   ConversionKind::kNoOp};
  // Each in bit of pull (B's in dims) against its own position: the first
  // level, outermost first, where it moves says how far data travels.
  const DimList& ins = c.pull.inDims();
  const DimList& outs = c.pull.outDims();  // A's in dims
  for (int d = 0; d < ins.count; ++d)
    for (int i = 0; i < ins.bits[d]; ++i) {
      uint64_t image = c.pull.columns()[ins.offset(d) + i];
      for (int level = 0; level < 4; ++level) {
        int o = outs.find(intern(kLevels[level]));
        uint64_t got = o < 0 ? 0 : image >> outs.offset(o) & core::lowMask(outs.bits[o]);
        uint64_t want = levelOf(ins.id[d]) == level ? uint64_t{1} << i : 0;
        if (got == want) continue;
        ConversionKind kind = level < 2    ? ConversionKind::kSharedMemory
                              : level == 2 ? ConversionKind::kWarpShuffle
                                           : ConversionKind::kRegisterPermutation;
        if (kind > c.kind) {
          std::string reason = nameOf(ins.id[d]) + " bit " + std::to_string(i) +
                               " of B reads from " + kLevels[level] + " " + std::to_string(got) +
                               " of A instead of " + kLevels[level] + " " + std::to_string(want);
          c.kind = kind;
          c.reason = reason + (level < 2    ? std::string(": data crosses ") + kLevels[level] + "s"
                               : level == 2 ? ": data moves between lanes of a warp"
                                            : ": data moves between registers of a lane");
        }
        break;
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

}  // namespace f2lay::opt::analysis
