// Random layouts of a 2-D tensor for the tests of the §5 analyses, in the
// reference's and in opt's: Def 4.10 distributed layouts (each in bit a
// distinct tensor bit or zero) and invertible memory layouts (Def 4.14).
// Deterministic for a given engine.
#pragma once

#include <random>
#include <utility>
#include <vector>

#include "formats/layout_value.h"

namespace f2lay::testkit {

struct TensorShape {
  int rowBits, colBits;  // out dims dim0 (2^rowBits), dim1 (2^colBits)
  int bits() const { return rowBits + colBits; }
  std::vector<OutDim> outDims() const;
};

// Unit vector k of the tensor as a basis [dim0, dim1] (dim0 in the low bits).
Basis unit(const TensorShape& t, int k);

// The tensor's bits 0..bits()-1 in a random order.
std::vector<int> shuffledBits(std::mt19937_64& rng, const TensorShape& t);

// `zeros` zero bases (broadcasts) inserted at random places among `bases`.
void insertZeros(std::mt19937_64& rng, std::vector<Basis>& bases, int zeros);

// register, lane (32), warp (2^warpBits) -> the tensor, every tensor bit used
// once, with `zeroLanes` lanes and `zeroRegisters` registers broadcasting.
// Needs bits() >= 5 - zeroLanes + warpBits.
LayoutValue randomDistributed(std::mt19937_64& rng, const TensorShape& t, int warpBits,
                              int zeroLanes = 0, int zeroRegisters = 0);

// offset -> the tensor: a random invertible map whose columns are unit
// vectors, some xored with one lower-offset column's target (a swizzle).
LayoutValue randomMemory(std::mt19937_64& rng, const TensorShape& t);

// The swizzle certificates' pairs: two random distributed layouts of one
// tensor of minBits + (0 .. bitSpan - 1) bits with 2^(0 .. warpSpan - 1)
// warps, each with a broadcasting lane a quarter of the time and a
// broadcasting register half of the time.
std::pair<LayoutValue, LayoutValue> randomDistributedPair(std::mt19937_64& rng, int minBits,
                                                          int bitSpan, int warpSpan);

// Both layouts through one random invertible change T of the tensor's basis:
// a memory layout S of the pair becomes T S at the same cost, but the bases
// are no longer unit vectors (as in linear and swizzled layouts), so that a
// sum or intersection of their spans no longer splits by coordinates.
std::pair<LayoutValue, LayoutValue> throughBasisChange(std::mt19937_64& rng, const LayoutValue& a,
                                                       const LayoutValue& b);

}  // namespace f2lay::testkit
