// A layout as flat columns, and back: column j is the image of flattened
// input bit j, an output flattened with the first out dim in the low bits
// (the JSON format's order, and Triton's). The test side's own conversions,
// on the plain LayoutValue only: f2lay::ref and f2lay::opt flatten their own
// way, and the tests judge them by these.
#pragma once

#include <cstdint>
#include <vector>

#include "formats/dim_names.h"
#include "formats/layout_value.h"
#include "testkit/dims.h"

namespace f2lay::testkit {

// The low `bits` bits set (all 64 for 64).
inline uint64_t lowBits(int bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

// y, one value per out dim of l, as one integer. Past 64 bits only dims of
// size 1 remain, whose values are 0.
uint64_t flatOut(const LayoutValue& l, const std::vector<uint64_t>& y);
// flatOut's inverse: the value of each out dim of l in flat y.
std::vector<uint64_t> outValues(const LayoutValue& l, uint64_t y);
// Flat x as apply's input: one value per in dim of l, named, the first in
// dim in the low bits.
DimValues inputOf(const LayoutValue& l, uint64_t x);

// l's columns: each basis flattened.
std::vector<uint64_t> columnsOf(const LayoutValue& l);
// columnsOf's inverse: the layout from `ins` onto `outs` whose flattened
// input bit j maps to cols[j].
LayoutValue layoutOf(const DimBits& ins, const DimBits& outs, const std::vector<uint64_t>& cols);

}  // namespace f2lay::testkit
