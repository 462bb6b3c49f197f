// The catalog fuzzer's padded shared layouts: padded_shared (Gluon 3.9's
// PaddedSharedLayout) against padded_definition.h and padded_walk.h, and
// AMD's choice of one (compute_amd_efficient_padded_shared_layout) against
// amd_padded_definition.h. The definitions decide legality: the constructor
// must accept exactly the parameters they take.
#include <optional>
#include <string>
#include <vector>

#include "analysis/padding.h"
#include "definitions/amd_padded_definition.h"
#include "definitions/elementwise_compare.h"
#include "definitions/padded_definition.h"
#include "definitions/padded_walk.h"
#include "fuzz/catalog_decoder.h"
#include "fuzz/catalog_families.h"
#include "reference/catalog/padded_shared.h"

namespace f2lay::fuzz::catalog_fuzz {

namespace {

size_t below(Decoder& in, size_t n) {
  return n <= 1 ? 0 : static_cast<size_t>(in.pick(0, static_cast<int>(n) - 1));
}

void shuffle(Decoder& in, std::vector<Basis>& v) {
  for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[below(in, i)]);
}

// Legal parameters: per dim the offset values 1, 2, 4, ... and the block
// values, in random order, a few zero block bases, at most kMaxInputBits
// bits in all; 1 to 3 pairs of distinct intervals.
PaddedSharedParams drawLegal(Decoder& in, size_t rank) {
  PaddedSharedParams p;
  p.shape.assign(rank, 1);
  int bits = 0;
  for (size_t d = 0; d < rank; ++d) {
    int offsetBits = std::min(in.pick(0, 5), kMaxInputBits - bits);
    int blockBits = std::min(in.pick(0, 2), kMaxInputBits - bits - offsetBits);
    bits += offsetBits + blockBits;
    for (int k = 0; k < offsetBits + blockBits; ++k) {
      Basis b(rank, 0);
      b[d] = uint64_t{1} << (k < offsetBits ? k : k - offsetBits);
      (k < offsetBits ? p.offsetBases : p.cgaBases).push_back(b);
    }
    p.shape[d] = uint64_t{1} << (offsetBits + blockBits);
  }
  for (int z = in.pick(0, 3); z > 0 && bits < kMaxInputBits; --z, ++bits)
    p.cgaBases.push_back(Basis(rank, 0));
  shuffle(in, p.offsetBases);
  shuffle(in, p.cgaBases);
  std::vector<uint64_t> intervals = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512};
  for (size_t n = 1 + below(in, 3); n > 0; --n) {
    size_t i = below(in, intervals.size());
    p.intervalPaddingPairs.push_back({intervals[i], uint64_t{1} << in.pick(0, 6)});
    intervals.erase(intervals.begin() + static_cast<long>(i));
  }
  return p;
}

// One change that may break a rule (the definition judges whether it does).
void change(Decoder& in, PaddedSharedParams& p) {
  in.wild = true;
  std::vector<Basis>& bases = in.flag() || p.cgaBases.empty() ? p.offsetBases : p.cgaBases;
  size_t rank = p.shape.size();
  switch (in.pick(0, 9)) {
    case 0:  // a value that is not a power of two
      if (!bases.empty()) bases[below(in, bases.size())][below(in, rank)] += 3;
      break;
    case 1:  // a basis twice
      if (bases.size() > 1) bases[below(in, bases.size())] = bases[below(in, bases.size())];
      break;
    case 2:  // a zero basis
      if (!bases.empty()) bases[below(in, bases.size())].assign(rank, 0);
      break;
    case 3:  // a basis moving in two dims
      if (!bases.empty()) bases[below(in, bases.size())][below(in, rank)] |= 1;
      break;
    case 4:  // a shape the bases do not span
      p.shape[below(in, rank)] *= in.flag() ? 2 : 0;
      break;
    case 5:  // a basis of the wrong length
      if (!bases.empty()) bases[below(in, bases.size())].push_back(in.flag());
      break;
    case 6:  // a value doubled: a gap in the powers
      if (!bases.empty()) bases[below(in, bases.size())][below(in, rank)] *= 2;
      break;
    case 7: {  // a pair Triton refuses, or no pair
      analysis::PaddingPair& pair =
          p.intervalPaddingPairs[below(in, p.intervalPaddingPairs.size())];
      int how = in.pick(0, 3);
      if (how == 0) pair.interval = 3;
      if (how == 1) pair.padding = in.flag() ? 0 : uint64_t{1} << 32;
      if (how == 2) p.intervalPaddingPairs.push_back(pair);
      if (how == 3) p.intervalPaddingPairs.clear();
      break;
    }
    case 8:  // rank 0
      p.shape.clear();
      break;
    default:  // a zero basis more: a broadcast, legal in cga_layout only
      bases.insert(bases.begin() + static_cast<long>(below(in, bases.size() + 1)), Basis(rank, 0));
  }
}

std::string pairsText(const analysis::Padding& pairs) {
  std::string s;
  for (const analysis::PaddingPair& p : pairs)
    s += "[" + std::to_string(p.interval) + "," + std::to_string(p.padding) + "]";
  return "[" + s + "]";
}

std::string basesText(const std::vector<Basis>& bases) {
  std::string s;
  for (const Basis& b : bases) s += list(b);
  return "[" + s + "]";
}

}  // namespace

void fuzzPaddedShared(Decoder& in) {
  PaddedSharedParams p = drawLegal(in, static_cast<size_t>(in.pick(1, 3)));
  if (in.oneIn16()) change(in, p);
  in.require(ref::catalog::padded_definition::legal(p),
             "parameters padded_definition.h finds illegal");
  Target t{"padded_shared",
           "interval_padding_pairs " + pairsText(p.intervalPaddingPairs) + " offset_bases " +
               basesText(p.offsetBases) + " cga_layout " + basesText(p.cgaBases) + " shape " +
               list(p.shape),
           in};
  std::optional<PaddedShared> got;
  Built b = construct(t, [&] {
    got = paddedShared(p);
    return got->linear;
  });
  if (!accepted(t, b, in.broken.empty())) return;
  expectSame(t, outDimMismatch(*b.answer, p.shape));
  if (got->padding != p.intervalPaddingPairs) fail(t, "padding " + pairsText(got->padding));
  f2lay::testkit::Evaluator apply(b.answer->value());
  size_t offsetBits = p.offsetBases.size();
  for (uint64_t block = 0; block < (uint64_t{1} << p.cgaBases.size()); ++block)
    for (uint64_t o = 0; o < (uint64_t{1} << offsetBits); ++o)
      if (apply(o | block << offsetBits) != ref::catalog::padded_definition::coords(p, o, block))
        fail(t, "offset " + std::to_string(o) + " block " + std::to_string(block) + ": " +
                    coordText(apply(o | block << offsetBits)) + ", the definition " +
                    coordText(ref::catalog::padded_definition::coords(p, o, block)));
  std::vector<uint64_t> cells =
      ref::catalog::cellsByWalking(p.intervalPaddingPairs, uint64_t{1} << offsetBits);
  for (uint64_t o = 0; o < cells.size(); ++o)
    if (analysis::paddedOffset(got->padding, o) != cells[o])
      fail(t, "offset " + std::to_string(o) + " at padded address " +
                  std::to_string(analysis::paddedOffset(got->padding, o)) + ", walked to " +
                  std::to_string(cells[o]));
}

// AMD's choice: the parameters Gluon passes on (operand index, k_width, the
// MFMA's non-K size, the tile, the element width, K contiguous), mostly
// within and around Triton's supported set, with 2 more input bits than the
// other families so that Triton's exchange of row 16 (2^13 elements and up)
// is reached.
void fuzzAmdPaddedShared(Decoder& in) {
  AmdPaddedParams p;
  p.operandIndex = in.oneIn16() ? 2 : static_cast<uint64_t>(in.pick(0, 1));
  in.budget = 64;  // k_width is no input
  p.kWidth = in.size("k_width", 5);
  p.mfmaNonKDim = uint64_t{4} << in.pick(0, 4);
  p.dtypeBitwidth = uint64_t{4} << in.pick(0, 3);
  p.kContig = in.flag();
  in.budget = kMaxInputBits + 2;
  p.shape = in.sizes("shape", 2, 10);
  p.warpSize = 64;
  in.require(p.operandIndex <= 1, "operand_index = 2");
  in.requireLength("shape", p.shape, 2);
  in.require(p.kWidth <= 1024, "k_width = " + std::to_string(p.kWidth) + " above 1024");
  for (uint64_t s : p.shape) in.require(s <= (uint64_t{1} << 62), "a shape past 2^62");
  Target t{"compute_amd_efficient_padded_shared_layout",
           "operand " + std::to_string(p.operandIndex) + " k_width " + std::to_string(p.kWidth) +
               " mfma " + std::to_string(p.mfmaNonKDim) + " bits " +
               std::to_string(p.dtypeBitwidth) + (p.kContig ? " K contiguous" : "") + " shape " +
               list(p.shape),
           in};
  auto got = construct(t, [&] { return amdEfficientPaddedShared(p); });
  if (!in.broken.empty()) {
    if (got.answer) fail(t, "accepted parameters that break a rule: " + in.broken);
    return;
  }
  namespace def = ref::catalog::amd_padded_definition;
  def::Choice want = def::choose(p);
  if (want.verdict == def::Verdict::kAborts) {
    if (got.answer) fail(t, "answered where Triton aborts");
    return;
  }
  if (!got.answer) {
    if (in.wild) return;  // a huge legal size may pass f2lay's limits
    fail(t, "refused: " + got.error);
  }
  if (want.verdict == def::Verdict::kNone) {
    if (got.answer->has_value()) fail(t, "a layout where Gluon gives None");
    return;
  }
  if (!got.answer->has_value()) fail(t, "None where the definition has a layout");
  const PaddedShared& l = **got.answer;
  const def::Arrangement& a = want.arrangement;
  if (l.padding != analysis::Padding{{a.intervalElems, a.paddingElems}})
    fail(t, "padding " + pairsText(l.padding));
  expectSame(t, outDimMismatch(l.linear, p.shape));
  if (totalInBits(l.linear.value()) > kMaxInputBits + 2)
    return;  // a wild size: too many to compare
  expectSame(t, memoryMismatch(l.linear, p.shape, [&](const std::vector<uint64_t>& x) {
               return def::offsetOf(a, x);
             }));
}

}  // namespace f2lay::fuzz::catalog_fuzz
