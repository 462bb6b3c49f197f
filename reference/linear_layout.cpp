// Construction, inspection and apply of the reference LinearLayout. The
// algebra is in algebra.cpp, the dim operations (transpose, reshape, flatten,
// sublayout, concat) in dim_ops.cpp.
#include "reference/linear_layout.h"

#include <algorithm>
#include <bit>

#include "formats/dim_names.h"
#include "formats/op_errors.h"
#include "formats/triton_text.h"

namespace f2lay::ref {

LinearLayout::LinearLayout(LayoutValue value) : value_(std::move(value)) { validate(value_); }

LinearLayout LinearLayout::identity1D(uint64_t size, const std::string& inDim,
                                      const std::string& outDim) {
  return LinearLayout(identity1DValue(size, inDim, outDim));
}

LinearLayout LinearLayout::zeros1D(uint64_t size, const std::string& inDim,
                                   const std::string& outDim, uint64_t outDimSize) {
  return LinearLayout(zeros1DValue(size, inDim, outDim, outDimSize));
}

LinearLayout LinearLayout::strided1D(uint64_t size, uint64_t stride, const std::string& inDim,
                                     const std::string& outDim) {
  return LinearLayout(strided1DValue(size, stride, inDim, outDim));
}

std::vector<std::string> LinearLayout::getInDimNames() const {
  std::vector<std::string> names;
  for (const InDim& d : value_.in_dims) names.push_back(d.name);
  return names;
}

std::vector<std::string> LinearLayout::getOutDimNames() const {
  std::vector<std::string> names;
  for (const OutDim& d : value_.out_dims) names.push_back(d.name);
  return names;
}

bool LinearLayout::hasInDim(const std::string& name) const {
  for (const InDim& d : value_.in_dims)
    if (d.name == name) return true;
  return false;
}

bool LinearLayout::hasOutDim(const std::string& name) const {
  for (const OutDim& d : value_.out_dims)
    if (d.name == name) return true;
  return false;
}

const InDim& LinearLayout::inDim(const std::string& name) const {
  for (const InDim& d : value_.in_dims)
    if (d.name == name) return d;
  throw Error(op_errors::noSuchDim(true, name, getInDimNames()));
}

size_t LinearLayout::outDimIndex(const std::string& name) const {
  for (size_t k = 0; k < value_.out_dims.size(); ++k)
    if (value_.out_dims[k].name == name) return k;
  throw Error(op_errors::noSuchDim(false, name, getOutDimNames()));
}

const OutDim& LinearLayout::outDim(const std::string& name) const {
  return value_.out_dims[outDimIndex(name)];
}

int LinearLayout::getInDimSizeLog2(const std::string& name) const {
  return static_cast<int>(inDim(name).bases.size());
}

int LinearLayout::getOutDimSizeLog2(const std::string& name) const {
  return log2Exact(outDim(name).size);
}

uint64_t LinearLayout::getOutDimSize(const std::string& name) const { return outDim(name).size; }

int LinearLayout::getTotalInDimSizeLog2() const { return totalInBits(value_); }
int LinearLayout::getTotalOutDimSizeLog2() const { return totalOutBits(value_); }

std::vector<std::pair<std::string, int>> LinearLayout::inDimBits() const {
  std::vector<std::pair<std::string, int>> bits;
  for (const InDim& d : value_.in_dims) bits.push_back({d.name, static_cast<int>(d.bases.size())});
  return bits;
}

F2Matrix LinearLayout::matrix() const {
  F2Matrix m = F2Matrix::Zero(getTotalOutDimSizeLog2(), getTotalInDimSizeLog2());
  int col = 0;
  for (const InDim& d : value_.in_dims) {
    for (const Basis& basis : d.bases) {
      int row = 0;
      for (size_t k = 0; k < value_.out_dims.size(); ++k) {
        int bits = log2Exact(value_.out_dims[k].size);
        for (int j = 0; j < bits; ++j) m(row + j, col) = (basis[k] >> j) & 1;
        row += bits;
      }
      ++col;
    }
  }
  return m;
}

LinearLayout LinearLayout::fromMatrix(const F2Matrix& m,
                                      const std::vector<std::pair<std::string, int>>& inDimBits,
                                      const std::vector<OutDim>& outDims) {
  LayoutValue v;
  v.out_dims = outDims;
  int col = 0;
  for (const auto& [name, bits] : inDimBits) {
    InDim d{name, {}};
    for (int i = 0; i < bits; ++i, ++col) {
      Basis basis;
      int row = 0;
      for (const OutDim& out : outDims) {
        uint64_t x = 0;
        for (int j = 0; j < log2Exact(out.size); ++j)
          x |= static_cast<uint64_t>(m(row + j, col)) << j;
        basis.push_back(x);
        row += log2Exact(out.size);
      }
      d.bases.push_back(std::move(basis));
    }
    v.in_dims.push_back(std::move(d));
  }
  return LinearLayout(std::move(v));
}

MatrixView LinearLayout::getMatrixView() const {
  F2Matrix m = matrix();
  MatrixView rows(m.rows(), std::vector<int>(m.cols()));
  for (int r = 0; r < m.rows(); ++r)
    for (int c = 0; c < m.cols(); ++c) rows[r][c] = m(r, c);
  return rows;
}

DimValues LinearLayout::apply(const DimValues& inputs) const {
  // Gather the input bits in column order, then multiply by the matrix.
  Eigen::VectorXi x = Eigen::VectorXi::Zero(getTotalInDimSizeLog2());
  std::vector<bool> given(value_.in_dims.size(), false);
  for (const auto& [name, value] : inputs) {
    size_t d = 0, col = 0;
    while (d < value_.in_dims.size() && value_.in_dims[d].name != name)
      col += value_.in_dims[d++].bases.size();
    if (d == value_.in_dims.size()) throw Error(op_errors::applyUnknownDim(name, getInDimNames()));
    if (given[d]) throw Error(op_errors::applyDimTwice(name));
    given[d] = true;
    size_t bits = value_.in_dims[d].bases.size();
    if (bits < 64 && (value >> bits) != 0)
      throw Error(op_errors::applyValueTooLarge(value, name, static_cast<int>(bits)));
    for (size_t i = 0; i < bits; ++i) x(col + i) = (value >> i) & 1;
  }
  for (size_t d = 0; d < given.size(); ++d)
    if (!given[d]) throw Error(op_errors::applyDimMissing(value_.in_dims[d].name));
  F2Matrix y = multiplyMod2(matrix(), x);
  DimValues out;
  int row = 0;
  for (const OutDim& d : value_.out_dims) {
    uint64_t v = 0;
    for (int j = 0; j < log2Exact(d.size); ++j) v |= static_cast<uint64_t>(y(row + j, 0)) << j;
    out.push_back({d.name, v});
    row += log2Exact(d.size);
  }
  return out;
}

int LinearLayout::rank() const { return rankOf(matrix()); }
bool LinearLayout::isInjective() const { return rank() == getTotalInDimSizeLog2(); }
bool LinearLayout::isSurjective() const { return rank() == getTotalOutDimSizeLog2(); }
bool LinearLayout::isInvertible() const { return isInjective() && isSurjective(); }

DimValues LinearLayout::getFreeVariableMasks() const {
  // An input bit is free when its column is not a pivot: its basis is a
  // combination of the bases before it.
  std::vector<int> pivots = reducedRowEchelon(matrix(), false).pivotColumns;
  std::vector<bool> isPivot(getTotalInDimSizeLog2(), false);
  for (int c : pivots) isPivot[c] = true;
  DimValues masks;
  size_t col = 0;
  for (const InDim& d : value_.in_dims) {
    uint64_t mask = 0;
    for (size_t i = 0; i < d.bases.size(); ++i, ++col)
      if (!isPivot[col]) mask |= uint64_t{1} << i;
    masks.push_back({d.name, mask});
  }
  return masks;
}

uint64_t LinearLayout::getNumConsecutiveInOut() const {
  // Triton's rule: count the leading bases of the first in dim that are
  // (2^i, 0, ..., 0); no other basis may touch the first out dim below that.
  if (value_.in_dims.empty() || value_.out_dims.empty()) return 1;
  const std::vector<Basis>& first = value_.in_dims[0].bases;
  int consecutive = 0;
  while (consecutive < static_cast<int>(first.size())) {
    const Basis& b = first[consecutive];
    bool unit = b[0] == (uint64_t{1} << consecutive);
    for (size_t k = 1; k < b.size(); ++k) unit = unit && b[k] == 0;
    if (!unit) break;
    ++consecutive;
  }
  uint64_t otherBits = 0;
  for (size_t d = 0; d < value_.in_dims.size(); ++d)
    for (size_t i = 0; i < value_.in_dims[d].bases.size(); ++i)
      if (d != 0 || static_cast<int>(i) >= consecutive) otherBits |= value_.in_dims[d].bases[i][0];
  int lowestOther = otherBits ? std::countr_zero(otherBits) : 64;
  return uint64_t{1} << std::min(consecutive, lowestOther);
}

std::string LinearLayout::toString() const { return writeTritonText(value_); }

}  // namespace f2lay::ref
