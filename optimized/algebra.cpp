// The algebra of f2lay::opt::LinearLayout on packed columns: composition
// (Def 4.2), product (Def 4.3), left division (Def 4.4), right inverse
// (Def 4.5) and Triton's invertAndCompose. Preconditions and messages follow
// reference/algebra.cpp, check for check.
#include <algorithm>
#include <bit>

#include "formats/dim_names.h"
#include "formats/op_errors.h"
#include "optimized/opt_linear_layout.h"

namespace f2lay::opt {

namespace {

// Triton's supremum of two dim orders on interned names (the reference's
// supremum on strings says what it is): x's dims in order, each preceded by
// the dims y puts before it. Returns false when the shared dims appear in
// different relative orders.
bool supremum(const DimList& x, const DimList& y, NameId* merged, int* count) {
  int n = 0, j = 0;
  auto has = [&](NameId id) { return std::find(merged, merged + n, id) != merged + n; };
  for (int i = 0; i < x.count; ++i) {
    if (y.find(x.id[i]) >= 0) {
      for (; j < y.count && y.id[j] != x.id[i]; ++j)
        if (!has(y.id[j])) merged[n++] = y.id[j];
      if (j < y.count) ++j;
    }
    if (!has(x.id[i])) merged[n++] = x.id[i];
  }
  for (; j < y.count; ++j)
    if (!has(y.id[j])) merged[n++] = y.id[j];
  *count = n;
  // Both orders are kept exactly when each side, read off the merge, is itself.
  for (const DimList* side : {&x, &y}) {
    int next = 0;
    for (int k = 0; k < n; ++k)
      if (side->find(merged[k]) >= 0 && merged[k] != side->id[next++]) return false;
  }
  return true;
}

}  // namespace

LinearLayout LinearLayout::compose(const LinearLayout& outer) const {
  bool sameNames = outs_.count == outer.ins_.count;
  for (int k = 0; sameNames && k < outs_.count; ++k) sameNames = outer.ins_.find(outs_.id[k]) >= 0;
  if (!sameNames) throw Error(op_errors::composeDims(getOutDimNames(), outer.getInDimNames()));
  bool aligned = true;  // self's output bits are already outer's input bits
  for (int k = 0; k < outs_.count; ++k) {
    int d = outer.ins_.find(outs_.id[k]);
    if (outs_.bits[k] > outer.ins_.bits[d])
      throw Error(op_errors::composeOutTooLarge(nameOf(outs_.id[k]), uint64_t{1} << outs_.bits[k],
                                                outer.ins_.bits[d]));
    aligned = aligned && d == k && outs_.bits[k] == outer.ins_.bits[d];
  }
  LinearLayout l;
  l.ins_ = ins_;
  l.inBits_ = inBits_;
  l.outs_ = outer.outs_;
  l.outBits_ = outer.outBits_;
  if (!aligned) moveOutBits(outer.ins_, l.cols_);
  core::compose(outer.cols_, outer.inBits_, aligned ? cols_ : l.cols_, inBits_, l.cols_);
  return l;
}

LinearLayout operator*(const LinearLayout& inner, const LinearLayout& outer) {
  NameId inNames[2 * kMaxDims], outNames[2 * kMaxDims];
  int nIn = 0, nOut = 0;
  if (!supremum(inner.ins_, outer.ins_, inNames, &nIn))
    throw Error("product: " +
                op_errors::dimsInDifferentOrders(inner.getInDimNames(), outer.getInDimNames()));
  if (!supremum(inner.outs_, outer.outs_, outNames, &nOut))
    throw Error("product: " +
                op_errors::dimsInDifferentOrders(inner.getOutDimNames(), outer.getOutDimNames()));
  auto bitsIn = [](const DimList& side, NameId id) {
    int k = side.find(id);
    return k < 0 ? 0 : side.bits[k];
  };
  int outBits[2 * kMaxDims], inBits[2 * kMaxDims];
  int totalIn = 0, totalOut = 0;
  for (int k = 0; k < nOut; ++k) {
    outBits[k] = bitsIn(inner.outs_, outNames[k]) + bitsIn(outer.outs_, outNames[k]);
    if (outBits[k] > 63) throw Error(op_errors::productOutTooWide(nameOf(outNames[k]), outBits[k]));
    totalOut += outBits[k];
  }
  for (int k = 0; k < nIn; ++k) {
    inBits[k] = bitsIn(inner.ins_, inNames[k]) + bitsIn(outer.ins_, inNames[k]);
    totalIn += inBits[k];
  }
  // Beyond the limits validate() says why, on the names.
  if (nIn > static_cast<int>(kMaxDims) || nOut > static_cast<int>(kMaxDims) ||
      totalIn > kMaxInBits || totalOut > kMaxOutBits) {
    LayoutValue v;
    for (int k = 0; k < nOut; ++k)
      v.out_dims.push_back({nameOf(outNames[k]), uint64_t{1} << outBits[k]});
    for (int k = 0; k < nIn; ++k)
      v.in_dims.push_back({nameOf(inNames[k]), std::vector<Basis>(inBits[k], Basis(nOut, 0))});
    try {
      validate(v);
    } catch (const Error& e) {
      throw Error(std::string("product: ") + e.what());
    }
  }
  // Def 4.3: block-diagonal. Per in dim, inner's columns, then outer's; each
  // out dim of the result holds inner's bits low and outer's above them.
  DimList resultIns, resultOuts;
  for (int k = 0; k < nIn; ++k) resultIns.push(inNames[k], inBits[k]);
  for (int k = 0; k < nOut; ++k) resultOuts.push(outNames[k], outBits[k]);
  // Where each part's out dim k lands in the result.
  int innerShift[kMaxDims], outerShift[kMaxDims];
  // (Outer is told by the shift table, not by address: L * L has inner and
  // outer at one address.)
  for (const auto& [part, shift] : {std::pair{&inner, innerShift}, std::pair{&outer, outerShift}})
    for (int k = 0; k < part->outs_.count; ++k) {
      int r = resultOuts.find(part->outs_.id[k]);
      shift[k] =
          resultOuts.offset(r) + (shift == outerShift ? bitsIn(inner.outs_, part->outs_.id[k]) : 0);
    }
  auto place = [](const LinearLayout& part, const int* shift, uint64_t x) {
    uint64_t y = 0;
    for (int k = 0, from = 0; k < part.outs_.count; from += part.outs_.bits[k++])
      y |= core::shiftUp(core::shiftDown(x, from) & core::lowMask(part.outs_.bits[k]), shift[k]);
    return y;
  };
  uint64_t cols[kMaxInBits];
  int col = 0;
  for (int k = 0; k < nIn; ++k)
    for (const auto& [part, shift] :
         {std::pair{&inner, innerShift}, std::pair{&outer, outerShift}}) {
      int d = part->ins_.find(inNames[k]);
      if (d < 0) continue;
      for (int i = 0; i < part->ins_.bits[d]; ++i)
        cols[col++] = place(*part, shift, part->cols_[part->ins_.offset(d) + i]);
    }
  return LinearLayout::make(resultIns, resultOuts, cols, "product");
}

LinearLayout LinearLayout::invertAndCompose(const LinearLayout& outer, TritonVersion triton) const {
  return invertAndComposeWith(outer, nullptr, triton);
}

namespace {

// Whether dim d's columns (of a layout's n dims, `cols` packed over one
// output space) share no output bit with the other dims' columns: the
// reference's outputBitsApart, on words (per out dim is per bit here).
bool bitsApart(const DimList& ins, const uint64_t* cols, int d) {
  uint64_t mine = 0, others = 0;
  for (int k = 0, j = 0; k < ins.count; ++k)
    for (int i = 0; i < ins.bits[k]; ++i, ++j) (k == d ? mine : others) |= cols[j];
  return (mine & others) == 0;
}

}  // namespace

LinearLayout LinearLayout::invertAndComposeWith(const LinearLayout& outer,
                                                const core::Echelon* known,
                                                TritonVersion triton) const {
  bool v36 = triton == TritonVersion::k3_6;
  bool sameNames = outs_.count == outer.outs_.count;
  for (int k = 0; sameNames && k < outs_.count; ++k) sameNames = outer.outs_.find(outs_.id[k]) >= 0;
  if (!sameNames)
    throw Error(op_errors::invertAndComposeOutDims(getOutDimNames(), outer.getOutDimNames()));
  for (int k = 0; k < outs_.count; ++k) {
    int o = outer.outs_.bits[outer.outs_.find(outs_.id[k])];
    if (outs_.bits[k] > o)
      throw Error(op_errors::invertAndComposeOutTooLarge(
          nameOf(outs_.id[k]), uint64_t{1} << outs_.bits[k], uint64_t{1} << o));
  }
  // Both layouts over one output space: outer's out dims in self's order,
  // with outer's sizes. Equal columns there are equal bases, out-dim sizes
  // ignored (Triton 3.9's test; 3.6 also wants the sizes equal).
  DimList outs;
  for (int k = 0; k < outs_.count; ++k)
    outs.push(outs_.id[k], outer.outs_.bits[outer.outs_.find(outs_.id[k])]);
  bool sameSizes = outs == outs_;
  uint64_t other[kMaxInBits], self[kMaxInBits];
  outer.moveOutBits(outs, other);
  moveOutBits(outs, self);
  core::Echelon computed;
  const core::Echelon* all = known;
  if (!all) {
    computed = core::echelon(other, outer.inBits_);
    all = &computed;
  }
  bool surjective = all->rank == outer.outBits_;
  uint32_t alike = 0;  // over outer's in dims
  for (int d = 0; d < outer.ins_.count; ++d) {
    int s = ins_.find(outer.ins_.id[d]);
    bool same =
        s >= 0 && ins_.bits[s] == outer.ins_.bits[d] &&
        std::equal(other + outer.ins_.offset(d), other + outer.ins_.offset(d) + outer.ins_.bits[d],
                   self + ins_.offset(s));
    same = same && (v36 ? sameSizes : bitsApart(ins_, self, s) && bitsApart(outer.ins_, other, d));
    alike |= uint32_t{same} << d;
  }
  auto selfAlike = [&](int s) {
    int d = outer.ins_.find(ins_.id[s]);
    return d >= 0 && (alike >> d & 1);
  };
  int otherRest = 0, selfRest = 0;  // dims not alike
  for (int d = 0; d < outer.ins_.count; ++d) otherRest += !(alike >> d & 1);
  for (int s = 0; s < ins_.count; ++s) selfRest += !selfAlike(s);
  // Their names, for the messages only.
  auto restNames = [&](bool ofOther) {
    std::vector<std::string> names;
    if (ofOther) {
      for (int d = 0; d < outer.ins_.count; ++d)
        if (!(alike >> d & 1)) names.push_back(nameOf(outer.ins_.id[d]));
    } else {
      for (int s = 0; s < ins_.count; ++s)
        if (!selfAlike(s)) names.push_back(nameOf(ins_.id[s]));
    }
    return names;
  };
  if (v36 && (otherRest == 0) != (selfRest == 0))
    throw Error(op_errors::invertAndComposeAlike(otherRest == 0, restNames(otherRest != 0)));
  // The result maps self's in dims (self's order) to outer's in dims
  // (outer's order).
  LinearLayout l;
  l.ins_ = ins_;
  l.inBits_ = inBits_;
  for (int d = 0; d < outer.ins_.count; ++d) l.outs_.push(outer.ins_.id[d], outer.ins_.bits[d]);
  l.outBits_ = outer.inBits_;
  if (alike == 0 && surjective) {
    // Triton's lstsq on every column. Every output bit is in outer's image,
    // so solve each once; a solution is already over outer's input bits.
    uint64_t solution[kMaxOutBits];
    core::combinations(*all, outer.outBits_, solution);
    core::compose(solution, outer.outBits_, self, inBits_, l.cols_);
    return l;
  }
  // Alike dims map to themselves; Triton's lstsq solves the rest, A =
  // outer's rest and B = self's rest, free bits zero.
  uint64_t a[kMaxInBits];
  int aIn = 0;
  int aPosition[kMaxInBits];  // A's column -> outer's flattened input bit
  for (int d = 0, offset = 0; d < outer.ins_.count; offset += outer.ins_.bits[d++])
    if (!(alike >> d & 1))
      for (int i = 0; i < outer.ins_.bits[d]; ++i) {
        aPosition[aIn] = offset + i;
        a[aIn++] = other[offset + i];
      }
  core::Echelon rest = alike == 0 ? *all : core::echelon(a, aIn);
  for (int s = 0, offset = 0; s < ins_.count; offset += ins_.bits[s++]) {
    int d = outer.ins_.find(ins_.id[s]);
    bool same = selfAlike(s);
    int outerOffset = same ? outer.ins_.offset(d) : 0;
    for (int i = 0; i < ins_.bits[s]; ++i) {
      uint64_t y = 0, x;
      if (same) {
        y = uint64_t{1} << (outerOffset + i);
      } else {
        if (rest.reduce(self[offset + i], &x) != 0)
          throw Error(op_errors::invertAndComposeImage(restNames(false), restNames(true)));
        for (; x; x &= x - 1) y |= uint64_t{1} << aPosition[std::countr_zero(x)];
      }
      l.cols_[offset + i] = y;
    }
  }
  return l;
}

LinearLayout LinearLayout::outIdentity() const {
  LinearLayout identity;
  identity.ins_ = outs_;
  identity.outs_ = outs_;
  identity.inBits_ = identity.outBits_ = outBits_;
  for (int j = 0; j < outBits_; ++j) identity.cols_[j] = uint64_t{1} << j;
  return identity;
}

LinearLayout LinearLayout::pseudoinvert(TritonVersion triton) const {
  core::Echelon e = core::echelon(cols_, inBits_);
  if (e.rank != outBits_) throw Error(op_errors::notSurjective(e.rank, outBits_));
  // As Triton (and the reference): the identity on the out dims, inverted
  // and composed with this layout; the identity's out dims are this
  // layout's, in its order, so the elimination above serves the solve.
  return outIdentity().invertAndComposeWith(*this, &e, triton);
}

LinearLayout LinearLayout::invert(TritonVersion triton) const {
  core::Echelon e = core::echelon(cols_, inBits_);
  if (e.rank != inBits_ || e.rank != outBits_)
    throw Error(op_errors::notInvertible(e.rank, inBits_, outBits_));
  return outIdentity().invertAndComposeWith(*this, &e, triton);
}

std::optional<LinearLayout> divideLeft(const LinearLayout& a, const LinearLayout& b) {
  // Def 4.4, as the reference reads it: C off A's bases above B's part, then
  // B * C == A confirms.
  for (int d = 0; d < b.ins_.count; ++d)
    if (a.ins_.find(b.ins_.id[d]) < 0) return std::nullopt;
  for (int k = 0; k < b.outs_.count; ++k)
    if (a.outs_.find(b.outs_.id[k]) < 0) return std::nullopt;
  auto bBits = [](const DimList& side, NameId id) {
    int k = side.find(id);
    return k < 0 ? 0 : side.bits[k];
  };
  DimList cIns, cOuts;
  uint64_t lowParts = 0;  // A's output bits that belong to B
  for (int k = 0; k < a.outs_.count; ++k) {
    int low = bBits(b.outs_, a.outs_.id[k]);
    if (a.outs_.bits[k] < low) return std::nullopt;
    cOuts.push(a.outs_.id[k], a.outs_.bits[k] - low);
    lowParts |= core::shiftUp(core::lowMask(low), a.outs_.offset(k));
  }
  uint64_t cols[kMaxInBits];
  int n = 0;
  for (int d = 0; d < a.ins_.count; ++d) {
    int skip = bBits(b.ins_, a.ins_.id[d]);
    if (a.ins_.bits[d] < skip) return std::nullopt;
    cIns.push(a.ins_.id[d], a.ins_.bits[d] - skip);
    for (int i = skip; i < a.ins_.bits[d]; ++i) {
      uint64_t x = a.cols_[a.ins_.offset(d) + i];
      if (x & lowParts) return std::nullopt;
      uint64_t y = 0;  // drop B's bits of every out dim
      for (int k = 0; k < a.outs_.count; ++k)
        y |= core::shiftUp(core::shiftDown(x, a.outs_.offset(k) + a.outs_.bits[k] - cOuts.bits[k]) &
                               core::lowMask(cOuts.bits[k]),
                           cOuts.offset(k));
      cols[n++] = y;
    }
  }
  try {
    LinearLayout quotient = LinearLayout::make(cIns, cOuts, cols, nullptr);
    if (b * quotient == a) return quotient;
  } catch (const Error&) {
  }
  return std::nullopt;
}

}  // namespace f2lay::opt
