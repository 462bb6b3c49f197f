#include "testkit/columns.h"

namespace f2lay::testkit {

uint64_t flatOut(const LayoutValue& l, const std::vector<uint64_t>& y) {
  uint64_t flat = 0;
  int shift = 0;
  for (size_t k = 0; k < y.size(); ++k) {
    if (shift < 64) flat |= y[k] << shift;
    shift += log2Exact(l.out_dims[k].size);
  }
  return flat;
}

std::vector<uint64_t> outValues(const LayoutValue& l, uint64_t y) {
  std::vector<uint64_t> values;
  int shift = 0;
  for (const OutDim& d : l.out_dims) {
    int bits = log2Exact(d.size);
    values.push_back(shift < 64 ? y >> shift & lowBits(bits) : 0);
    shift += bits;
  }
  return values;
}

DimValues inputOf(const LayoutValue& l, uint64_t x) {
  DimValues values;
  int shift = 0;
  for (const InDim& d : l.in_dims) {
    int bits = static_cast<int>(d.bases.size());
    values.push_back({d.name, shift < 64 ? x >> shift & lowBits(bits) : 0});
    shift += bits;
  }
  return values;
}

std::vector<uint64_t> columnsOf(const LayoutValue& l) {
  std::vector<uint64_t> cols;
  for (const InDim& d : l.in_dims)
    for (const Basis& b : d.bases) cols.push_back(flatOut(l, b));
  return cols;
}

LayoutValue layoutOf(const DimBits& ins, const DimBits& outs, const std::vector<uint64_t>& cols) {
  LayoutValue v;
  for (const auto& [name, bits] : outs) v.out_dims.push_back({name, uint64_t{1} << bits});
  size_t j = 0;
  for (const auto& [name, bits] : ins) {
    InDim d{name, {}};
    for (int i = 0; i < bits; ++i) d.bases.push_back(outValues(v, cols[j++]));
    v.in_dims.push_back(d);
  }
  return v;
}

}  // namespace f2lay::testkit
