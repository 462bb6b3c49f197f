// Construction, inspection, apply and the dim operations of
// f2lay::opt::LinearLayout. The algebra is in algebra.cpp. Every check and
// message follows the reference (reference/linear_layout.cpp,
// reference/dim_ops.cpp), in the same order, so both fail alike.
#include "optimized/opt_linear_layout.h"

#include <algorithm>
#include <bit>

#include "formats/dim_names.h"
#include "formats/op_errors.h"
#include "formats/triton_text.h"

namespace f2lay::opt {

namespace {

// The reference re-validates every layout it makes. f2lay::opt checks the
// limits on packed parts, and where they are broken it unpacks the parts and
// lets validate() say why, so that the message is the reference's.
using DimBits = std::vector<std::pair<std::string, int>>;  // (name, bits)

DimBits listOf(const DimList& dims) {
  DimBits out;
  for (int k = 0; k < dims.count; ++k) out.push_back({nameOf(dims.id[k]), dims.bits[k]});
  return out;
}

LayoutValue unpack(const DimBits& ins, const DimBits& outs, const uint64_t* cols) {
  LayoutValue v;
  for (const auto& [name, bits] : outs) v.out_dims.push_back({name, uint64_t{1} << bits});
  size_t col = 0;
  for (const auto& [name, bits] : ins) {
    InDim d{name, {}};
    for (int i = 0; i < bits; ++i, ++col) {
      Basis b;
      int shift = 0;
      for (const auto& [outName, outBits] : outs) {
        b.push_back(col < kMaxInBits && shift < 64 ? cols[col] >> shift & core::lowMask(outBits)
                                                   : 0);
        shift += outBits;
      }
      d.bases.push_back(std::move(b));
    }
    v.in_dims.push_back(std::move(d));
  }
  return v;
}

// Throws validate()'s error, prefixed with `op` when given; returns when the
// parts are valid.
void validateParts(const DimBits& ins, const DimBits& outs, const uint64_t* cols, const char* op) {
  try {
    validate(unpack(ins, outs, cols));
  } catch (const Error& e) {
    throw Error(op ? std::string(op) + ": " + e.what() : std::string(e.what()));
  }
}

// Names in a DimList are identifiers already: they come from validated
// layouts or from reshape's checked names.
bool withinLimits(const DimList& ins, const DimList& outs) {
  if (ins.totalBits() > kMaxInBits || outs.totalBits() > kMaxOutBits) return false;
  for (const DimList* side : {&ins, &outs})
    for (int k = 0; k < side->count; ++k) {
      if (side->bits[k] > 63) return false;
      for (int i = 0; i < k; ++i)
        if (side->id[i] == side->id[k]) return false;
    }
  return true;
}

// The first kMaxDims of new dims; callers refuse more with validateParts.
DimList dimsOf(const DimBits& dims) {
  DimList out;
  for (size_t k = 0; k < dims.size() && k < kMaxDims; ++k)
    out.push(intern(dims[k].first), dims[k].second);
  return out;
}

}  // namespace

LinearLayout::LinearLayout(const LayoutValue& value) {
  validate(value);
  for (const OutDim& d : value.out_dims) outs_.push(intern(d.name), log2Exact(d.size));
  for (const InDim& d : value.in_dims) {
    ins_.push(intern(d.name), static_cast<int>(d.bases.size()));
    for (const Basis& b : d.bases) {
      uint64_t packed = 0;
      for (size_t k = 0; k < b.size(); ++k)
        packed |= core::shiftUp(b[k], outs_.offset(static_cast<int>(k)));
      cols_[inBits_++] = packed;
    }
  }
  outBits_ = outs_.totalBits();
}

LinearLayout LinearLayout::make(const DimList& ins, const DimList& outs, const uint64_t* cols,
                                const char* op) {
  if (!withinLimits(ins, outs)) validateParts(listOf(ins), listOf(outs), cols, op);
  LinearLayout l;
  l.ins_ = ins;
  l.outs_ = outs;
  l.inBits_ = ins.totalBits();
  l.outBits_ = outs.totalBits();
  std::copy(cols, cols + l.inBits_, l.cols_);
  return l;
}

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

LayoutValue LinearLayout::value() const { return unpack(listOf(ins_), listOf(outs_), cols_); }

int LinearLayout::inDimIndex(const std::string& name) const {
  int k = ins_.find(intern(name));
  if (k < 0) throw Error(op_errors::noSuchDim(true, name, getInDimNames()));
  return k;
}

int LinearLayout::outDimIndex(const std::string& name) const {
  int k = outs_.find(intern(name));
  if (k < 0) throw Error(op_errors::noSuchDim(false, name, getOutDimNames()));
  return k;
}

int LinearLayout::getInDimSizeLog2(const std::string& name) const {
  return ins_.bits[inDimIndex(name)];
}

int LinearLayout::getOutDimSizeLog2(const std::string& name) const {
  return outs_.bits[outDimIndex(name)];
}

void LinearLayout::moveOutBits(const DimList& to, uint64_t* moved) const {
  int from[kMaxDims], shiftTo[kMaxDims];
  uint64_t mask[kMaxDims];
  bool identity = true;
  for (int k = 0, f = 0; k < outs_.count; f += outs_.bits[k++]) {
    from[k] = f;
    shiftTo[k] = to.offset(to.find(outs_.id[k]));
    mask[k] = core::lowMask(outs_.bits[k]);
    identity = identity && shiftTo[k] == f;
  }
  for (int j = 0; j < inBits_; ++j) {
    uint64_t x = cols_[j], y = 0;
    if (identity)
      y = x;
    else
      for (int k = 0; k < outs_.count; ++k)
        y |= core::shiftUp(core::shiftDown(x, from[k]) & mask[k], shiftTo[k]);
    moved[j] = y;
  }
}

MatrixView LinearLayout::getMatrixView() const {
  MatrixView rows(outBits_, std::vector<int>(inBits_));
  for (int r = 0; r < outBits_; ++r)
    for (int c = 0; c < inBits_; ++c) rows[r][c] = static_cast<int>(cols_[c] >> r & 1);
  return rows;
}

DimValues LinearLayout::apply(const DimValues& inputs) const {
  uint64_t x = 0;
  uint32_t given = 0;
  for (const auto& [name, value] : inputs) {
    int d = ins_.find(intern(name));
    if (d < 0) throw Error(op_errors::applyUnknownDim(name, getInDimNames()));
    if (given >> d & 1) throw Error(op_errors::applyDimTwice(name));
    given |= uint32_t{1} << d;
    int bits = ins_.bits[d];
    if (bits < 64 && (value >> bits) != 0)
      throw Error(op_errors::applyValueTooLarge(value, name, bits));
    x |= core::shiftUp(value, ins_.offset(d));
  }
  for (int d = 0; d < ins_.count; ++d)
    if (!(given >> d & 1)) throw Error(op_errors::applyDimMissing(nameOf(ins_.id[d])));
  uint64_t y = applyFlat(x);
  DimValues out;
  for (int k = 0; k < outs_.count; ++k)
    out.push_back(
        {nameOf(outs_.id[k]), core::shiftDown(y, outs_.offset(k)) & core::lowMask(outs_.bits[k])});
  return out;
}

DimValues LinearLayout::getFreeVariableMasks() const {
  uint64_t independent = core::echelon(cols_, inBits_).independent;
  DimValues masks;
  for (int d = 0; d < ins_.count; ++d) {
    uint64_t mask = ~core::shiftDown(independent, ins_.offset(d)) & core::lowMask(ins_.bits[d]);
    masks.push_back({nameOf(ins_.id[d]), mask});
  }
  return masks;
}

uint64_t LinearLayout::getNumConsecutiveInOut() const {
  // The reference's rule (Triton's): leading bases of the first in dim that
  // are (2^i, 0, ...), limited by the lowest first-out-dim bit any other
  // basis touches.
  if (ins_.count == 0 || outs_.count == 0) return 1;
  int consecutive = 0;
  while (consecutive < ins_.bits[0] && consecutive < outs_.bits[0] &&
         cols_[consecutive] == uint64_t{1} << consecutive)
    ++consecutive;
  uint64_t otherBits = 0;
  for (int j = consecutive; j < inBits_; ++j) otherBits |= cols_[j];
  otherBits &= core::lowMask(outs_.bits[0]);
  int lowestOther = otherBits ? std::countr_zero(otherBits) : 64;
  return uint64_t{1} << std::min(consecutive, lowestOther);
}

std::string LinearLayout::toString() const { return writeTritonText(value()); }

bool operator==(const LinearLayout& a, const LinearLayout& b) {
  return a.ins_ == b.ins_ && a.outs_ == b.outs_ &&
         std::equal(a.cols_, a.cols_ + a.inBits_, b.cols_);
}

// Dim operations (reference/dim_ops.cpp).

LinearLayout LinearLayout::transposeIns(const std::vector<std::string>& newInDims) const {
  if (newInDims.size() != ins_.count || !sameNamesIgnoringOrder(newInDims, getInDimNames()))
    throw Error(op_errors::notAPermutation(true, newInDims, getInDimNames()));
  LinearLayout l;
  for (const std::string& name : newInDims) {
    int d = ins_.find(intern(name));
    l.ins_.push(ins_.id[d], ins_.bits[d]);
    std::copy(cols_ + ins_.offset(d), cols_ + ins_.offset(d) + ins_.bits[d], l.cols_ + l.inBits_);
    l.inBits_ += ins_.bits[d];
  }
  l.outs_ = outs_;
  l.outBits_ = outBits_;
  return l;
}

LinearLayout LinearLayout::transposeOuts(const std::vector<std::string>& newOutDims) const {
  if (newOutDims.size() != outs_.count || !sameNamesIgnoringOrder(newOutDims, getOutDimNames()))
    throw Error(op_errors::notAPermutation(false, newOutDims, getOutDimNames()));
  LinearLayout l = *this;
  l.outs_ = DimList{};
  for (const std::string& name : newOutDims) {
    int k = outs_.find(intern(name));
    l.outs_.push(outs_.id[k], outs_.bits[k]);
  }
  moveOutBits(l.outs_, l.cols_);
  return l;
}

LinearLayout LinearLayout::reshapeIns(const DimSizes& newInDims) const {
  std::vector<int> bits = reshapeBits("reshape_ins", newInDims, inBits_);
  DimBits ins;
  for (size_t i = 0; i < newInDims.size(); ++i) ins.push_back({newInDims[i].first, bits[i]});
  if (ins.size() > kMaxDims) validateParts(ins, listOf(outs_), cols_, nullptr);
  return make(dimsOf(ins), outs_, cols_, nullptr);
}

LinearLayout LinearLayout::reshapeOuts(const DimSizes& newOutDims) const {
  std::vector<int> bits = reshapeBits("reshape_outs", newOutDims, outBits_);
  DimBits outs;
  for (size_t i = 0; i < newOutDims.size(); ++i) outs.push_back({newOutDims[i].first, bits[i]});
  if (outs.size() > kMaxDims) validateParts(listOf(ins_), outs, cols_, nullptr);
  return make(ins_, dimsOf(outs), cols_, nullptr);
}

LinearLayout LinearLayout::flattenIns() const {
  if (ins_.count == 0) return *this;
  if (inBits_ > 63) throw Error(op_errors::flattenTooWide(true, inBits_));
  return reshapeIns({{nameOf(ins_.id[0]), uint64_t{1} << inBits_}});
}

LinearLayout LinearLayout::flattenOuts() const {
  if (outs_.count == 0) return *this;
  if (outBits_ > 63) throw Error(op_errors::flattenTooWide(false, outBits_));
  return reshapeOuts({{nameOf(outs_.id[0]), uint64_t{1} << outBits_}});
}

LinearLayout::KeptDims LinearLayout::keptDims(const std::vector<std::string>& inDims,
                                              const std::vector<std::string>& outDims) const {
  KeptDims kept;
  for (const std::string& n : inDims) {
    int d = ins_.find(intern(n));
    if (d < 0) throw Error(op_errors::sublayoutUnknownDim(true, n, getInDimNames()));
    kept.in |= uint32_t{1} << d;
  }
  for (const std::string& n : outDims) {
    int k = outs_.find(intern(n));
    if (k < 0) throw Error(op_errors::sublayoutUnknownDim(false, n, getOutDimNames()));
    kept.out |= uint32_t{1} << k;
    kept.rows |= core::shiftUp(core::lowMask(outs_.bits[k]), outs_.offset(k));
  }
  return kept;
}

bool LinearLayout::sublayoutIsZero(const std::vector<std::string>& inDims,
                                   const std::vector<std::string>& outDims) const {
  KeptDims kept = keptDims(inDims, outDims);
  // No kept column reaches a kept output bit.
  for (int d = 0; d < ins_.count; ++d)
    for (int i = 0; (kept.in >> d & 1) && i < ins_.bits[d]; ++i)
      if (cols_[ins_.offset(d) + i] & kept.rows) return false;
  return true;
}

LinearLayout LinearLayout::sublayout(const std::vector<std::string>& inDims,
                                     const std::vector<std::string>& outDims) const {
  KeptDims kept = keptDims(inDims, outDims);
  LinearLayout l;
  for (int k = 0; k < outs_.count; ++k)
    if (kept.out >> k & 1) l.outs_.push(outs_.id[k], outs_.bits[k]);
  l.outBits_ = l.outs_.totalBits();
  for (int d = 0; d < ins_.count; ++d) {
    if (!(kept.in >> d & 1)) continue;
    l.ins_.push(ins_.id[d], ins_.bits[d]);
    for (int i = 0; i < ins_.bits[d]; ++i) {
      // Gather the kept rows (a parallel bit extract), lowest first.
      uint64_t x = cols_[ins_.offset(d) + i], y = 0;
      int at = 0;
      for (uint64_t m = kept.rows; m; m &= m - 1, ++at) y |= (x >> std::countr_zero(m) & 1) << at;
      l.cols_[l.inBits_++] = y;
    }
  }
  return l;
}

LinearLayout LinearLayout::concatIns(const LinearLayout& other) const {
  if (!(outs_ == other.outs_)) throw Error(op_errors::concatSidesDiffer(true));
  for (int d = 0; d < other.ins_.count; ++d)
    if (ins_.find(other.ins_.id[d]) >= 0)
      throw Error(op_errors::concatDimInBoth(true, nameOf(other.ins_.id[d])));
  DimBits ins = listOf(ins_), more = listOf(other.ins_);
  ins.insert(ins.end(), more.begin(), more.end());
  uint64_t cols[2 * kMaxInBits];
  std::copy(cols_, cols_ + inBits_, cols);
  std::copy(other.cols_, other.cols_ + other.inBits_, cols + inBits_);
  if (ins.size() > kMaxDims) validateParts(ins, listOf(outs_), cols, "concat_ins");
  return make(dimsOf(ins), outs_, cols, "concat_ins");
}

LinearLayout LinearLayout::concatOuts(const LinearLayout& other) const {
  if (!(ins_ == other.ins_)) throw Error(op_errors::concatSidesDiffer(false));
  for (int k = 0; k < other.outs_.count; ++k)
    if (outs_.find(other.outs_.id[k]) >= 0)
      throw Error(op_errors::concatDimInBoth(false, nameOf(other.outs_.id[k])));
  DimBits outs = listOf(outs_), more = listOf(other.outs_);
  outs.insert(outs.end(), more.begin(), more.end());
  // validate() finds a broken limit on the out dims before it reads a basis.
  uint64_t cols[kMaxInBits] = {};
  if (outs.size() > kMaxDims || outBits_ + other.outBits_ > kMaxOutBits)
    validateParts(listOf(ins_), outs, cols, "concat_outs");
  for (int j = 0; j < inBits_; ++j)
    cols[j] = cols_[j] | (outBits_ < 64 ? other.cols_[j] << outBits_ : 0);
  return make(ins_, dimsOf(outs), cols, "concat_outs");
}

}  // namespace f2lay::opt
