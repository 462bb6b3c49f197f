// The algebra of the reference LinearLayout: composition (Def 4.2), product
// (Def 4.3), left division (Def 4.4), right inverse (Def 4.5) and Triton's
// invertAndCompose. Linear algebra goes through the F2 matrices of
// f2_matrix.h; only the product, which is block placement, works on bases.
#include <algorithm>

#include "formats/dim_names.h"
#include "formats/op_errors.h"
#include "reference/linear_layout.h"

namespace f2lay::ref {

std::vector<std::string> supremum(const std::vector<std::string>& x,
                                  const std::vector<std::string>& y) {
  // Walk x; before each dim that y also has, emit the dims y puts before it.
  auto contains = [](const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
  };
  std::vector<std::string> merged;
  size_t j = 0;
  for (const std::string& dim : x) {
    if (contains(y, dim)) {
      for (; j < y.size() && y[j] != dim; ++j)
        if (!contains(merged, y[j])) merged.push_back(y[j]);
      if (j < y.size()) ++j;
    }
    if (!contains(merged, dim)) merged.push_back(dim);
  }
  for (; j < y.size(); ++j)
    if (!contains(merged, y[j])) merged.push_back(y[j]);
  // The merge keeps both orders exactly when they agree on their shared dims.
  auto restricted = [&](const std::vector<std::string>& to) {
    std::vector<std::string> r;
    for (const std::string& d : merged)
      if (contains(to, d)) r.push_back(d);
    return r;
  };
  if (restricted(x) != x || restricted(y) != y) throw Error(op_errors::dimsInDifferentOrders(x, y));
  return merged;
}

LinearLayout LinearLayout::compose(const LinearLayout& outer) const {
  if (!sameNamesIgnoringOrder(getOutDimNames(), outer.getInDimNames()))
    throw Error(op_errors::composeDims(getOutDimNames(), outer.getInDimNames()));
  // E embeds self's output bits into outer's input bits of the same names.
  F2Matrix embed = F2Matrix::Zero(outer.getTotalInDimSizeLog2(), getTotalOutDimSizeLog2());
  int row = 0;
  for (const OutDim& d : value_.out_dims) {
    int bits = log2Exact(d.size);
    if (bits > outer.getInDimSizeLog2(d.name))
      throw Error(op_errors::composeOutTooLarge(d.name, d.size, outer.getInDimSizeLog2(d.name)));
    int col = 0;
    for (const InDim& in : outer.value_.in_dims) {
      if (in.name == d.name) break;
      col += static_cast<int>(in.bases.size());
    }
    for (int j = 0; j < bits; ++j) embed(col + j, row + j) = 1;
    row += bits;
  }
  // Def 4.2: the matrix of outer o self is M_outer * M_self.
  F2Matrix m = multiplyMod2(outer.matrix(), multiplyMod2(embed, matrix()));
  return fromMatrix(m, inDimBits(), outer.value_.out_dims);
}

LinearLayout operator*(const LinearLayout& inner, const LinearLayout& outer) {
  std::vector<std::string> inNames, outNames;
  try {
    inNames = supremum(inner.getInDimNames(), outer.getInDimNames());
    outNames = supremum(inner.getOutDimNames(), outer.getOutDimNames());
  } catch (const Error& e) {
    throw Error(std::string("product: ") + e.what());
  }
  auto outBits = [](const LinearLayout& l, const std::string& name) {
    return l.hasOutDim(name) ? l.getOutDimSizeLog2(name) : 0;
  };
  LayoutValue v;
  for (const std::string& name : outNames) {
    int bits = outBits(inner, name) + outBits(outer, name);
    if (bits > 63) throw Error(op_errors::productOutTooWide(name, bits));
    v.out_dims.push_back({name, uint64_t{1} << bits});
  }
  // Def 4.3: block-diagonal. For each in dim, inner's bases come first; then
  // outer's, shifted above inner's part of every out dim. (Told apart by
  // position, not address: L * L has inner and outer at one address.)
  for (const std::string& name : inNames) {
    InDim dim{name, {}};
    for (bool isOuter : {false, true}) {
      const LinearLayout* part = isOuter ? &outer : &inner;
      if (!part->hasInDim(name)) continue;
      for (const Basis& b : part->inDim(name).bases) {
        Basis basis;
        for (const std::string& out : outNames) {
          uint64_t x = part->hasOutDim(out) ? b[part->outDimIndex(out)] : 0;
          basis.push_back(isOuter ? x << outBits(inner, out) : x);
        }
        dim.bases.push_back(std::move(basis));
      }
    }
    v.in_dims.push_back(std::move(dim));
  }
  try {
    return LinearLayout(std::move(v));
  } catch (const Error& e) {
    throw Error(std::string("product: ") + e.what());
  }
}

LinearLayout LinearLayout::leastSquares(const LinearLayout& a, const LinearLayout& b) {
  // b seen with a's out dims (same names and order, a's sizes >= b's).
  LayoutValue widened = b.value_;
  widened.out_dims = a.value_.out_dims;
  F2Matrix bMatrix = LinearLayout(std::move(widened)).matrix();
  // With T A = R in reduced row echelon form, A X = B becomes R X = T B: the
  // pivot variable of row r takes row r of T B, every free variable is 0.
  RowEchelon e = reducedRowEchelon(a.matrix());
  F2Matrix tb = multiplyMod2(e.transform, bMatrix);
  // With no columns (b has no input bits) there is nothing to solve. A row
  // of Eigen's empty matrix is an offset from a null pointer, which UBSan
  // reports (found twice by fuzz/differential_fuzzer.cpp).
  bool noColumns = tb.cols() == 0;
  for (int r = static_cast<int>(e.pivotColumns.size()); !noColumns && r < tb.rows(); ++r)
    if (!tb.row(r).isZero())
      throw Error(op_errors::invertAndComposeImage(b.getInDimNames(), a.getInDimNames()));
  F2Matrix x = F2Matrix::Zero(a.getTotalInDimSizeLog2(), b.getTotalInDimSizeLog2());
  if (!noColumns)
    for (size_t r = 0; r < e.pivotColumns.size(); ++r) x.row(e.pivotColumns[r]) = tb.row(r);
  std::vector<OutDim> aInAsOut;
  for (const InDim& d : a.value_.in_dims)
    aInAsOut.push_back({d.name, uint64_t{1} << d.bases.size()});
  return fromMatrix(x, b.inDimBits(), aInAsOut);
}

namespace {

// Whether in dim `d`'s output bits share none with the other in dims': per
// out dim, the OR of d's bases against the OR of every other in dim's
// (invertAndCompose's heuristic, Triton 3.9).
bool outputBitsApart(const LayoutValue& l, const std::string& d) {
  for (size_t o = 0; o < l.out_dims.size(); ++o) {
    uint64_t mine = 0, others = 0;
    for (const InDim& in : l.in_dims)
      for (const Basis& b : in.bases) (in.name == d ? mine : others) |= b[o];
    if (mine & others) return false;
  }
  return true;
}

}  // namespace

LinearLayout LinearLayout::invertAndCompose(const LinearLayout& outer, TritonVersion triton) const {
  bool v36 = triton == TritonVersion::k3_6;
  if (!sameNamesIgnoringOrder(getOutDimNames(), outer.getOutDimNames()))
    throw Error(op_errors::invertAndComposeOutDims(getOutDimNames(), outer.getOutDimNames()));
  for (const OutDim& d : value_.out_dims)
    if (d.size > outer.getOutDimSize(d.name))
      throw Error(
          op_errors::invertAndComposeOutTooLarge(d.name, d.size, outer.getOutDimSize(d.name)));
  // §5.4: the conversion is other^-1 o self. Triton's broadcasting heuristic
  // first sets aside the in dims that map to themselves (the header says
  // which, for each release), so that a broadcast dim stays put instead of
  // collapsing to 0. The rest is solved with free bits zero.
  std::vector<std::string> outs = getOutDimNames();
  LinearLayout other = outer.transposeOuts(outs);
  auto mapsAlike = [&](const std::string& d) {
    if (!hasInDim(d)) return false;
    LayoutValue mine = sublayout({d}, outs).value_, theirs = other.sublayout({d}, outs).value_;
    if (v36) return mine == theirs;  // bases and out-dim sizes
    return mine.in_dims == theirs.in_dims && outputBitsApart(value_, d) &&
           outputBitsApart(other.value_, d);
  };
  std::vector<std::string> alike, otherRest, selfRest;
  for (const std::string& d : other.getInDimNames())
    (mapsAlike(d) ? alike : otherRest).push_back(d);
  for (const std::string& d : getInDimNames())
    if (std::find(alike.begin(), alike.end(), d) == alike.end()) selfRest.push_back(d);
  if (v36 && otherRest.empty() != selfRest.empty())
    throw Error(op_errors::invertAndComposeAlike(otherRest.empty(),
                                                 otherRest.empty() ? selfRest : otherRest));
  LinearLayout result =
      otherRest.empty() && selfRest.empty()
          ? empty()
          : leastSquares(other.sublayout(otherRest, outs), sublayout(selfRest, outs));
  for (const std::string& d : alike)
    result = result * identity1D(uint64_t{1} << other.getInDimSizeLog2(d), d, d);
  return result.transposeIns(getInDimNames()).transposeOuts(other.getInDimNames());
}

LinearLayout LinearLayout::pseudoinvert(TritonVersion triton) const {
  if (!isSurjective()) throw Error(op_errors::notSurjective(rank(), getTotalOutDimSizeLog2()));
  // Def 4.5, as Triton computes it: the identity on the out dims, inverted
  // and composed with this layout. Each output bit maps to the combination of
  // the leftmost independent input bits, free input bits zero.
  LinearLayout identity;
  for (const OutDim& d : value_.out_dims) identity = identity * identity1D(d.size, d.name, d.name);
  return identity.invertAndCompose(*this, triton);
}

LinearLayout LinearLayout::invert(TritonVersion triton) const {
  if (!isInvertible())
    throw Error(
        op_errors::notInvertible(rank(), getTotalInDimSizeLog2(), getTotalOutDimSizeLog2()));
  return pseudoinvert(triton);
}

std::optional<LinearLayout> divideLeft(const LinearLayout& a, const LinearLayout& b) {
  // Def 4.4: A / B = C exists when A = B * C, i.e. A's matrix is
  // [[B, 0], [0, C]] label-wise. Read C off A's bases, then confirm.
  for (const std::string& d : b.getInDimNames())
    if (!a.hasInDim(d)) return std::nullopt;
  for (const std::string& d : b.getOutDimNames())
    if (!a.hasOutDim(d)) return std::nullopt;
  auto bOutBits = [&](const std::string& d) { return b.hasOutDim(d) ? b.getOutDimSizeLog2(d) : 0; };
  LayoutValue c;
  for (const OutDim& d : a.value_.out_dims) {
    if (log2Exact(d.size) < bOutBits(d.name)) return std::nullopt;
    c.out_dims.push_back({d.name, d.size >> bOutBits(d.name)});
  }
  for (const InDim& d : a.value_.in_dims) {
    size_t bBits = b.hasInDim(d.name) ? b.inDim(d.name).bases.size() : 0;
    if (d.bases.size() < bBits) return std::nullopt;
    InDim cDim{d.name, {}};
    for (size_t i = bBits; i < d.bases.size(); ++i) {
      Basis basis;
      for (size_t k = 0; k < a.value_.out_dims.size(); ++k) {
        uint64_t x = d.bases[i][k];
        int low = bOutBits(a.value_.out_dims[k].name);
        if (x & ((uint64_t{1} << low) - 1)) return std::nullopt;
        basis.push_back(x >> low);
      }
      cDim.bases.push_back(std::move(basis));
    }
    c.in_dims.push_back(std::move(cDim));
  }
  // B's part and the dim orders are checked by the product itself.
  try {
    LinearLayout quotient(std::move(c));
    if (b * quotient == a) return quotient;
  } catch (const Error&) {
  }
  return std::nullopt;
}

}  // namespace f2lay::ref
