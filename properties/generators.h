// RapidCheck generators of the layouts compilers see. Small and composable:
// each family is built from the smaller generators above it, and everything
// shrinks toward fewer dims, fewer bits and zero bases (RapidCheck's integer
// shrinking goes toward the low end of each range).
//
// genLayout and the families stay small (at most 12 bits a side) so that
// the laws can check by brute force over every input; genWideLayout covers
// the whole range (64 bits a side), for laws that check by sampled inputs
// (testkit/inputs.h).
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "formats/layout_value.h"
#include "properties/case.h"
#include "properties/choices.h"
#include "testkit/columns.h"
#include "testkit/dims.h"

namespace f2lay::properties {

// A layout's dims without its bases: (name, bits) per side.
struct Dims {
  testkit::DimBits ins, outs;
  int inBits() const;
  int outBits() const;
};

Dims dimsOf(const LayoutValue& l);
// The layout over `dims` whose flattened input bit j maps to cols[j]
// (flattened output, first out dim least significant).
LayoutValue layoutOf(const Dims& dims, const std::vector<uint64_t>& cols);
// Its columns, flattened likewise (testkit/columns.h).
using testkit::columnsOf;

// Catalog parameters, drawn inside rc::gen::exec (or any generator body):
// `bits` powers of two spread over `rank` dims (their product is 2^bits); a
// permutation of 0..rank-1; `rank` powers of two from 2^minBits to 2^maxBits.
std::vector<uint64_t> genSpread(int bits, size_t rank);
std::vector<unsigned> genOrder(size_t rank);
std::vector<uint64_t> genShape(size_t rank, int minBits, int maxBits);
// One basis per bit of `shape` (a single bit of one dim each) and up to two
// zero bases, shuffled: the bases of a distributed layout given by its bases.
std::vector<Basis> genUnitBases(const std::vector<uint64_t>& shape);

enum class RankKind { kAny, kInjective, kSurjective, kInvertible };

// Arbitrary labeled layouts: 1-3 out dims (dim0, dim1, ...), 1-4 in dims
// (register, lane, warp, block), 0-3 bits each, random bases; the variants
// fix the bit counts and replace dependent columns by unit vectors until
// the layout has the asked rank, so nothing is discarded.
rc::Gen<LayoutValue> genLayout(RankKind kind = RankKind::kAny);
// The whole range of the README's limits: each side's total is a boundary
// (0, 1, 32, 63 or 64 bits, within [lo, hi]) or any count in range, over
// 1-4 dims of at most 63 bits each (so one in dim of 63 bits, dims of 32
// bits and more, out dims of 2^32 and more). The columns have a rank known
// by construction (columnsOfRank), with no elimination: `kind` sets it as
// genLayout's does, kAny a random one. maxIn/maxOut bound the totals (for
// products, whose factors' bits add up).
rc::Gen<LayoutValue> genWideLayout(RankKind kind = RankKind::kAny, int maxIn = 64, int maxOut = 64);
// A wide layout whose in dims are exactly `ins`, out dims random, rank random.
rc::Gen<LayoutValue> genWideLayoutFrom(const std::vector<std::pair<std::string, int>>& ins);
// A wide layout onto exactly `outs`, surjective (so that it reaches any
// image: the outer layout of invertAndCompose), in dims random.
rc::Gen<LayoutValue> genWideSurjectionOnto(const std::vector<std::pair<std::string, int>>& outs);
// `inBits` columns over `outBits` output bits of rank exactly `rank`: that
// many unit vectors on distinct rows in distinct columns (the rest 0), then
// random column operations (col j ^= col k) and row operations (output bit
// t ^= output bit s in every column), which keep the rank (Def 4.5's
// invertible maps are products of such operations).
std::vector<uint64_t> columnsOfRank(int inBits, int outBits, int rank, uint64_t seed);
// The layout with one column replaced by the XOR of a random subset of the
// others (0 when empty): from an injective layout with input bits, one of
// rank exactly inBits - 1.
rc::Gen<LayoutValue> genWithDependentColumn(const LayoutValue& injective);

// A layout whose in dims are exactly `ins` (names and bits), out dims random.
rc::Gen<LayoutValue> genLayoutFrom(const std::vector<std::pair<std::string, int>>& ins);
// A layout from exactly `ins` onto exactly `outs` (names and bits), random
// columns.
rc::Gen<LayoutValue> genLayoutOnto(const std::vector<std::pair<std::string, int>>& ins,
                                   const std::vector<std::pair<std::string, int>>& outs);

// Def 4.10: a random injection of the tensor bits into register, lane, warp
// and block columns, every other column zero (interleaved broadcasts).
// Tensor of rank 1-3 (dim0, ...), up to 9 bits; lanes: 5 bits (32-lane
// warps) or 6 (64-lane).
struct DistributedShape {
  std::vector<int> tensorBits;  // per out dim
  int laneBits = 5, warpBits = 0, blockBits = 0;
};
rc::Gen<DistributedShape> genDistributedShape(bool allow64Lanes);
rc::Gen<LayoutValue> genDistributed(const DistributedShape& shape);
rc::Gen<LayoutValue> genDistributed(bool allow64Lanes = true);
// The same, from any source of choices (choices.h).
DistributedShape makeDistributedShape(Choices& c, bool allow64Lanes);
LayoutValue makeDistributed(Choices& c, const DistributedShape& shape);

// Def 4.14: offset -> tensor, invertible, every column one or two tensor
// bits (unit vectors, some xored with another's, then reordered).
rc::Gen<LayoutValue> genMemory(const std::vector<int>& tensorBits);
rc::Gen<LayoutValue> genMemory();
// The same, from any source of choices; offsets 1, 2, 4, ... hold the tensor
// bits `first` (distinct flat tensor bits), in order: a vector's or a matrix
// row's elements, so that an access can be lowered onto it.
LayoutValue makeMemory(Choices& c, const std::vector<int>& tensorBits,
                       const std::vector<int>& first = {});

// Catalog layouts with random legal parameters, by their reference
// constructors: blocked, NVIDIA mma v2/v3, dot operands, slices, tcgen05
// register layouts (Blackwell tensor memory loads), swizzled
// and NVMMA shared, CuTe swizzles. Distributed ones and memory ones apart.
rc::Gen<LayoutValue> genCatalogDistributed();
rc::Gen<LayoutValue> genCatalogMemory();
// Blackwell tensor memory (Gluon's TensorMemoryLayout and
// TensorMemoryScalesLayout, reference/catalog/tensor_memory.h): row, col,
// block -> dim0, dim1 with random legal parameters (col_stride, fp4_padded,
// a CGA of up to one CTA bit, two CTAs), at most 12 bits a side. Neither
// family: the in dims are TMEM lanes and columns, not register/lane/warp,
// and unused cells and copies make them non-invertible with no `offset` in
// dim, so the memory laws (Def 4.14) do not apply; they are surjective with
// single-bit columns (Def 4.10's shape) and take the laws over any layout.
rc::Gen<LayoutValue> genTensorMemory();

// Two distributed layouts over the same tensor with 32 lanes, the same
// warps and one block (a conversion A -> B), and an element width: as
// layouts[0], layouts[1] and params.element_bytes.
rc::Gen<Case> genConversionPair();
// A conversion pair and a padded memory layout for it (Gluon 3.9's
// PaddedSharedLayout with an identity linear part): params padding_interval
// and padding_amount (one pair, powers of two) and row_major (1: the last out
// dim fastest, 0: the first).
rc::Gen<Case> genPaddedConversion();
Case makeConversionPair(Choices& c);

// A distributed layout and a sequence of shape operations on it, as
// params.ops: [{"op": "trans", "order": [...]}, {"op": "reshape", "shape":
// [...]}, {"op": "join"}, {"op": "split"}, {"op": "expand_dims", "axis": a},
// {"op": "broadcast", "axis": a, "size": s}] (each legal where it applies).
rc::Gen<Case> genShapeOpSequence();

}  // namespace f2lay::properties
