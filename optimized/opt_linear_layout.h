// f2lay::opt::LinearLayout — the bit-packed implementation of linear layouts.
//
// The same API as f2lay::ref::LinearLayout (reference/linear_layout.h, the
// contract: conventions, every operation, its preconditions and its error
// messages), with the same results and errors: each declaration below says
// "as ref::LinearLayout::X" and adds only what is f2lay::opt's own. Both meet
// the concept f2lay::analysis::SharedLayoutApi (analysis/layout_api.h). Only
// the representation differs: each input bit's basis is one uint64 over the
// flattened output space (f2_core.h), and dims are interned names (names.h),
// so operations touch words, not vectors of vectors. Gaussian elimination
// runs on packed words (core::Echelon).
//
// The packing rests on layout_value.h's limits, which both implementations
// enforce alike: at most kMaxOutBits = 64 output bits (one word a column),
// kMaxInBits = 64 input bits (the columns are stored inline) and kMaxDims
// dims a side (inline DimLists). An operation whose result would break one
// throws the reference's error for it.
//
// Beyond the reference: the packed view (columns(), applyFlat, inDims(),
// outDims()) and batched evaluation (batch_apply.h) for the benchmarks and the
// simulators. There is no matrix(): getMatrixView gives the same matrix.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "formats/dim_names.h"
#include "formats/error.h"
#include "formats/layout_value.h"
#include "formats/triton_version.h"
#include "optimized/f2_core.h"
#include "optimized/names.h"

namespace f2lay::opt {

using f2lay::DimSizes;
using f2lay::DimValues;
using MatrixView = std::vector<std::vector<int>>;

class LinearLayout {
 public:
  // As ref::LinearLayout(): the empty layout.
  LinearLayout() = default;
  // Copies read the columns in use only: the rest of cols_ is never
  // initialized (zeroing 512 bytes would cost compose a third of its time).
  // Ensures: *this == other.
  LinearLayout(const LinearLayout& other) { *this = other; }
  LinearLayout& operator=(const LinearLayout& other) {
    ins_ = other.ins_;
    outs_ = other.outs_;
    inBits_ = other.inBits_;
    outBits_ = other.outBits_;
    for (int j = 0; j < inBits_; ++j) cols_[j] = other.cols_[j];
    return *this;
  }
  // As ref::LinearLayout(LayoutValue): validates `value` (layout_value.h),
  // throwing the same f2lay::Error, and packs it. Ensures: value() == value.
  explicit LinearLayout(const LayoutValue& value);

  // As ref::LinearLayout::empty, identity1D, zeros1D and strided1D: the same
  // requirements, errors and results.
  [[nodiscard]] static LinearLayout empty() { return LinearLayout(); }
  [[nodiscard]] static LinearLayout identity1D(uint64_t size, const std::string& inDim,
                                               const std::string& outDim);
  [[nodiscard]] static LinearLayout zeros1D(uint64_t size, const std::string& inDim,
                                            const std::string& outDim, uint64_t outDimSize = 1);
  [[nodiscard]] static LinearLayout strided1D(uint64_t size, uint64_t stride,
                                              const std::string& inDim, const std::string& outDim);

  // As ref::LinearLayout::value, but unpacked into a new value (by value,
  // not a reference): equal to the reference's for the same layout. Never
  // throws.
  [[nodiscard]] LayoutValue value() const;

  // As ref::LinearLayout's queries of the same names: the same results and
  // errors ("in dim 'x' is not in the layout ...", "out dim 'x' ..."). The
  // queries of the whole layout never throw.
  [[nodiscard]] std::vector<std::string> getInDimNames() const { return ins_.names(); }
  [[nodiscard]] std::vector<std::string> getOutDimNames() const { return outs_.names(); }
  [[nodiscard]] bool hasInDim(const std::string& name) const {
    return ins_.find(intern(name)) >= 0;
  }
  [[nodiscard]] bool hasOutDim(const std::string& name) const {
    return outs_.find(intern(name)) >= 0;
  }
  [[nodiscard]] int getInDimSizeLog2(const std::string& name) const;
  [[nodiscard]] int getOutDimSizeLog2(const std::string& name) const;
  [[nodiscard]] uint64_t getOutDimSize(const std::string& name) const {
    return uint64_t{1} << getOutDimSizeLog2(name);
  }
  [[nodiscard]] int getTotalInDimSizeLog2() const { return inBits_; }
  [[nodiscard]] int getTotalOutDimSizeLog2() const { return outBits_; }

  // As ref::LinearLayout::getMatrixView. Never throws.
  [[nodiscard]] MatrixView getMatrixView() const;

  // As ref::LinearLayout::apply: the same requirements and errors.
  [[nodiscard]] DimValues apply(const DimValues& inputs) const;

  // As ref::LinearLayout::compose, invertAndCompose, invert and
  // pseudoinvert (Def 4.2, §5.4, Def 4.5): the same requirements, errors
  // and results (for both Triton releases).
  [[nodiscard]] LinearLayout compose(const LinearLayout& outer) const;
  [[nodiscard]] LinearLayout invertAndCompose(const LinearLayout& outer,
                                              TritonVersion triton = kCurrentTriton) const;
  [[nodiscard]] LinearLayout invert(TritonVersion triton = kCurrentTriton) const;
  [[nodiscard]] LinearLayout pseudoinvert(TritonVersion triton = kCurrentTriton) const;

  // As ref::LinearLayout's dim operations of the same names: the same
  // requirements, errors and results.
  [[nodiscard]] LinearLayout transposeIns(const std::vector<std::string>& newInDims) const;
  [[nodiscard]] LinearLayout transposeOuts(const std::vector<std::string>& newOutDims) const;
  [[nodiscard]] LinearLayout reshapeIns(const DimSizes& newInDims) const;
  [[nodiscard]] LinearLayout reshapeOuts(const DimSizes& newOutDims) const;
  [[nodiscard]] LinearLayout flattenIns() const;
  [[nodiscard]] LinearLayout flattenOuts() const;
  [[nodiscard]] LinearLayout sublayout(const std::vector<std::string>& inDims,
                                       const std::vector<std::string>& outDims) const;
  // As ref::LinearLayout::sublayoutIsZero, without building the sublayout.
  [[nodiscard]] bool sublayoutIsZero(const std::vector<std::string>& inDims,
                                     const std::vector<std::string>& outDims) const;
  [[nodiscard]] LinearLayout concatIns(const LinearLayout& other) const;
  [[nodiscard]] LinearLayout concatOuts(const LinearLayout& other) const;

  // As ref::LinearLayout's rank queries (rank on packed words). Never throw.
  [[nodiscard]] int rank() const { return core::rank(cols_, inBits_); }
  [[nodiscard]] bool isInjective() const { return rank() == inBits_; }
  [[nodiscard]] bool isSurjective() const { return rank() == outBits_; }
  [[nodiscard]] bool isInvertible() const {
    int r = rank();
    return r == inBits_ && r == outBits_;
  }
  // As ref::LinearLayout::getFreeVariableMasks and getNumConsecutiveInOut.
  // Never throw.
  [[nodiscard]] DimValues getFreeVariableMasks() const;
  [[nodiscard]] uint64_t getNumConsecutiveInOut() const;

  // As ref::LinearLayout::toString: the same text. Never throws.
  [[nodiscard]] std::string toString() const;

  // The packed view (f2lay::opt's own).
  // Column j is the image of flattened input bit j: the flattened output
  // bits (first out dim lowest), below 2^getTotalOutDimSizeLog2(). Ensures
  // getTotalInDimSizeLog2() columns, valid while this layout lives and is
  // not assigned to; those past them are not initialized.
  [[nodiscard]] const uint64_t* columns() const { return cols_; }
  // L(x) on flattened input and output bits: the XOR of the columns of the
  // set bits of x. Bits of x at or above getTotalInDimSizeLog2() are
  // ignored; no check, no throw.
  [[nodiscard]] uint64_t applyFlat(uint64_t x) const { return core::apply(cols_, inBits_, x); }
  // The dims of each side, interned (names.h), valid while this layout lives
  // and is not assigned to.
  [[nodiscard]] const DimList& inDims() const { return ins_; }
  [[nodiscard]] const DimList& outDims() const { return outs_; }

  // As ref::LinearLayout's: equal when the dims (names, order, sizes) and
  // the used columns are. Declared below the class (with operator* and
  // divideLeft, as ref::LinearLayout's).
  friend bool operator==(const LinearLayout& a, const LinearLayout& b);
  // Prints toString(), as ref::LinearLayout's.
  friend std::ostream& operator<<(std::ostream& os, const LinearLayout& l) {
    return os << l.toString();
  }
  friend LinearLayout operator*(const LinearLayout& inner, const LinearLayout& outer);
  friend std::optional<LinearLayout> divideLeft(const LinearLayout& a, const LinearLayout& b);

 private:
  // A layout from packed parts, checked against the limits; `op` prefixes
  // the error (as the reference's re-validation does), or nothing when empty.
  static LinearLayout make(const DimList& ins, const DimList& outs, const uint64_t* cols,
                           const char* op);
  // invertAndCompose, given (when not null) the elimination of outer's
  // columns as they are packed in this layout's out-dim order, so that
  // pseudoinvert and invert eliminate once.
  LinearLayout invertAndComposeWith(const LinearLayout& outer, const core::Echelon* known,
                                    TritonVersion triton) const;
  // The identity on this layout's out dims (in dims named as the out dims).
  LinearLayout outIdentity() const;
  int inDimIndex(const std::string& name) const;
  // sublayout's dims, each name checked: in dims as a mask (bit d: in dim d
  // kept), out dims as a mask (bit k: out dim k) and as the output bits they
  // own in a column (rows).
  struct KeptDims {
    uint32_t in = 0, out = 0;
    uint64_t rows = 0;
  };
  KeptDims keptDims(const std::vector<std::string>& inDims,
                    const std::vector<std::string>& outDims) const;
  int outDimIndex(const std::string& name) const;
  // This layout's columns with their output bits moved to the positions
  // they have in `to` (a side naming every out dim of this layout, each at
  // least as wide), into moved[0, inBits).
  void moveOutBits(const DimList& to, uint64_t* moved) const;

  DimList ins_, outs_;
  int inBits_ = 0, outBits_ = 0;
  uint64_t cols_[kMaxInBits];  // [0, inBits_) in use
};

// As ref::operator==: the same dims in the same order, the same bases.
[[nodiscard]] bool operator==(const LinearLayout& a, const LinearLayout& b);
// As ref::operator* (the product, Def 4.3): the same requirements, errors
// and result.
[[nodiscard]] LinearLayout operator*(const LinearLayout& inner, const LinearLayout& outer);
// As ref::divideLeft (Def 4.4): the same quotient, or nullopt; never throws.
[[nodiscard]] std::optional<LinearLayout> divideLeft(const LinearLayout& a, const LinearLayout& b);

}  // namespace f2lay::opt
