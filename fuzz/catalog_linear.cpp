// The catalog fuzzer's layouts given by their bases: distributed_linear and
// shared_linear, against their definition (linear_definition.h): the
// constructor must accept exactly the bases Triton 3.9 takes, decided there
// by enumeration, and hold the XOR of the bases.
#include <cstdint>
#include <string>
#include <vector>

#include "definitions/elementwise_compare.h"
#include "definitions/linear_definition.h"
#include "fuzz/catalog_decoder.h"
#include "fuzz/catalog_families.h"
#include "reference/catalog/linear.h"

namespace f2lay::fuzz::catalog_fuzz {

namespace {

namespace def = f2lay::ref::catalog::linear_definition;

// A number in 0..n-1.
size_t pickBelow(Decoder& in, size_t n) {
  return static_cast<size_t>(in.pick(0, static_cast<int>(n) - 1));
}

// Bases of `shape`, changed one time in 16 (linear_definition.h).
def::Bases decodeBases(Decoder& in, const Shape& shape) {
  bool change = in.oneIn16();
  return def::drawBases(shape, change, [&](size_t n) { return pickBelow(in, n); });
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
  def::xorSomeIntoOthers(all, pickBelow(in, 4), [&](size_t n) { return pickBelow(in, n); });
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
  f2lay::testkit::Evaluator apply(b.answer->value());
  for (uint64_t x = 0; x < (uint64_t{1} << p.offsetBases.size()); ++x)
    if (apply(x) != def::xorOf(p.offsetBases, x, own.size()))
      fail(t, "offset " + std::to_string(x) + " is not the XOR of its bases");
}

}  // namespace f2lay::fuzz::catalog_fuzz
