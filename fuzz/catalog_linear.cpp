// The catalog fuzzer's layouts given by their bases: distributed_linear and
// shared_linear, against their definition (linear_definition.h): the
// constructor must accept exactly the bases Triton 3.9 takes, decided there
// by enumeration, and hold the XOR of the bases.
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/catalog_decoder.h"
#include "fuzz/catalog_families.h"
#include "reference/catalog/linear.h"
#include "reference/catalog/tests/elementwise_compare.h"
#include "reference/catalog/tests/linear_definition.h"

namespace f2lay::fuzz::catalog_fuzz {

namespace {

namespace def = f2lay::ref::catalog::linear_definition;

// One basis per bit of `shape` and a few zero bases, in a decoded order; now
// and then one of them changed (dropped, repeated, or one value replaced),
// which may or may not break a rule: the definition decides.
def::Bases decodeBases(Decoder& in, const Shape& shape) {
  def::Bases bases;
  for (size_t d = 0; d < shape.size(); ++d)
    for (uint64_t v = 1; v < shape[d]; v *= 2) {
      bases.emplace_back(shape.size(), 0);
      bases.back()[d] = v;
    }
  for (int z = in.pick(0, 2); z > 0; --z) bases.emplace_back(shape.size(), 0);
  for (size_t i = bases.size(); i > 1; --i)
    std::swap(bases[i - 1], bases[static_cast<size_t>(in.pick(0, static_cast<int>(i) - 1))]);
  if (!bases.empty() && in.oneIn16()) {
    size_t i = static_cast<size_t>(in.pick(0, static_cast<int>(bases.size()) - 1));
    switch (in.pick(0, 2)) {
      case 0:
        bases.erase(bases.begin() + static_cast<long>(i));
        break;
      case 1:
        bases.push_back(bases[i]);
        break;
      default:
        size_t d = static_cast<size_t>(in.pick(0, static_cast<int>(shape.size()) - 1));
        bases[i][d] = static_cast<uint64_t>(in.pick(0, 2 * static_cast<int>(shape[d])));
    }
  }
  return bases;
}

// The shape's bits, at most kMaxInputBits in all, so that every input is
// compared.
Shape decodeShape(Decoder& in, size_t rank) {
  Shape shape;
  int bits = 0;
  for (size_t d = 0; d < rank; ++d) {
    int k = std::min(in.pick(0, 5), kMaxInputBits - 2 - bits);
    shape.push_back(uint64_t{1} << k);
    bits += k;
  }
  return shape;
}

}  // namespace

void fuzzDistributedLinear(Decoder& in) {
  Shape shape = decodeShape(in, static_cast<size_t>(in.pick(1, 3)));
  def::Bases all = decodeBases(in, shape);
  DistributedLinearParams p;
  std::vector<def::Basis>* dims[] = {&p.regBases, &p.laneBases, &p.warpBases, &p.blockBases};
  for (const def::Basis& b : all) dims[in.pick(0, 3)]->push_back(b);
  in.require(def::distributedLegal(all, shape),
             "bases that are not a permutation matrix onto the shape");
  Target t{"distributed_linear",
           "bases of " + std::to_string(all.size()) + " at shape " + list(shape), in};
  Built b = construct(t, [&] { return distributedLinear(p, shape); });
  if (!accepted(t, b, plainLegal(in))) return;
  expectSame(t, outDimMismatch(*b.answer, shape));
  expectSame(t,
             distributedMismatch(*b.answer, def::Distributed{p.regBases, p.laneBases, p.warpBases,
                                                             p.blockBases, shape.size()}));
}

void fuzzSharedLinear(Decoder& in) {
  Shape shape = decodeShape(in, static_cast<size_t>(in.pick(1, 3)));
  def::Bases all = decodeBases(in, shape);
  // A swizzle: bases XORed into others keep a bijection one.
  for (int k = in.pick(0, 3); k > 0 && all.size() > 1; --k) {
    size_t a = static_cast<size_t>(in.pick(0, static_cast<int>(all.size()) - 1));
    size_t c = static_cast<size_t>(in.pick(0, static_cast<int>(all.size()) - 1));
    if (a != c)
      for (size_t d = 0; d < shape.size(); ++d) all[a][d] ^= all[c][d];
  }
  if (all.empty()) all.emplace_back(shape.size(), 0);
  size_t blocks =
      static_cast<size_t>(in.pick(0, static_cast<int>(std::min<size_t>(2, all.size() - 1))));
  SharedLinearParams p{def::Bases(all.begin(), all.end() - static_cast<long>(blocks)),
                       def::Bases(all.end() - static_cast<long>(blocks), all.end()),
                       in.size("alignment", 10)};
  Shape own = def::sharedShape(all, shape.size());
  in.require(def::nonZeroBasesBiject(all, own), "bases that are not a bijection onto their shape");
  Target t{"shared_linear", "bases of " + std::to_string(all.size()) + " at shape " + list(own),
           in};
  Built b = construct(t, [&] { return sharedLinear(p); });
  if (!accepted(t, b, plainLegal(in))) return;
  expectSame(t, outDimMismatch(*b.answer, own));
  f2lay::testing::Evaluator apply(b.answer->value());
  for (uint64_t x = 0; x < (uint64_t{1} << p.offsetBases.size()); ++x)
    if (apply(x) != def::xorOf(p.offsetBases, x, own.size()))
      fail(t, "offset " + std::to_string(x) + " is not the XOR of its bases");
}

}  // namespace f2lay::fuzz::catalog_fuzz
