// f2lay::opt::LinearLayout — the bit-packed implementation of linear layouts.
//
// The same API as f2lay::ref::LinearLayout (reference/linear_layout.h, the
// contract: conventions, every operation, its preconditions and its error
// messages), with the same results and errors. Only the representation
// differs: each input bit's basis is one uint64 over the flattened output
// space (f2_core.h), and dims are interned names (names.h), so operations
// touch words, not vectors of vectors. Gaussian elimination runs on packed
// words (core::Echelon).
//
// Beyond the reference: the packed view (columns(), applyFlat) and batched
// evaluation (batch_apply.h) for the benchmarks and the simulators.
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
  LinearLayout() = default;
  // Copies read the columns in use only: the rest of cols_ is never
  // initialized (zeroing 512 bytes would cost compose a third of its time).
  LinearLayout(const LinearLayout& other) { *this = other; }
  LinearLayout& operator=(const LinearLayout& other) {
    ins_ = other.ins_;
    outs_ = other.outs_;
    inBits_ = other.inBits_;
    outBits_ = other.outBits_;
    for (int j = 0; j < inBits_; ++j) cols_[j] = other.cols_[j];
    return *this;
  }
  // Validates `value` (layout_value.h) and packs it.
  explicit LinearLayout(const LayoutValue& value);

  static LinearLayout empty() { return LinearLayout(); }
  static LinearLayout identity1D(uint64_t size, const std::string& inDim,
                                 const std::string& outDim);
  static LinearLayout zeros1D(uint64_t size, const std::string& inDim, const std::string& outDim,
                              uint64_t outDimSize = 1);
  static LinearLayout strided1D(uint64_t size, uint64_t stride, const std::string& inDim,
                                const std::string& outDim);

  // The plain value, unpacked.
  LayoutValue value() const;

  std::vector<std::string> getInDimNames() const { return ins_.names(); }
  std::vector<std::string> getOutDimNames() const { return outs_.names(); }
  bool hasInDim(const std::string& name) const { return ins_.find(intern(name)) >= 0; }
  bool hasOutDim(const std::string& name) const { return outs_.find(intern(name)) >= 0; }
  int getInDimSizeLog2(const std::string& name) const;
  int getOutDimSizeLog2(const std::string& name) const;
  uint64_t getOutDimSize(const std::string& name) const {
    return uint64_t{1} << getOutDimSizeLog2(name);
  }
  int getTotalInDimSizeLog2() const { return inBits_; }
  int getTotalOutDimSizeLog2() const { return outBits_; }

  MatrixView getMatrixView() const;

  DimValues apply(const DimValues& inputs) const;

  LinearLayout compose(const LinearLayout& outer) const;
  LinearLayout invertAndCompose(const LinearLayout& outer,
                                TritonVersion triton = kCurrentTriton) const;
  LinearLayout invert(TritonVersion triton = kCurrentTriton) const;
  LinearLayout pseudoinvert(TritonVersion triton = kCurrentTriton) const;

  LinearLayout transposeIns(const std::vector<std::string>& newInDims) const;
  LinearLayout transposeOuts(const std::vector<std::string>& newOutDims) const;
  LinearLayout reshapeIns(const DimSizes& newInDims) const;
  LinearLayout reshapeOuts(const DimSizes& newOutDims) const;
  LinearLayout flattenIns() const;
  LinearLayout flattenOuts() const;
  LinearLayout sublayout(const std::vector<std::string>& inDims,
                         const std::vector<std::string>& outDims) const;
  [[nodiscard]] bool sublayoutIsZero(const std::vector<std::string>& inDims,
                                     const std::vector<std::string>& outDims) const;
  LinearLayout concatIns(const LinearLayout& other) const;
  LinearLayout concatOuts(const LinearLayout& other) const;

  int rank() const { return core::rank(cols_, inBits_); }
  bool isInjective() const { return rank() == inBits_; }
  bool isSurjective() const { return rank() == outBits_; }
  bool isInvertible() const {
    int r = rank();
    return r == inBits_ && r == outBits_;
  }
  DimValues getFreeVariableMasks() const;
  uint64_t getNumConsecutiveInOut() const;

  std::string toString() const;

  // The packed view: column j is the image of flattened input bit j.
  const uint64_t* columns() const { return cols_; }
  // L(x) on flattened input and output bits.
  uint64_t applyFlat(uint64_t x) const { return core::apply(cols_, inBits_, x); }
  const DimList& inDims() const { return ins_; }
  const DimList& outDims() const { return outs_; }

  friend bool operator==(const LinearLayout& a, const LinearLayout& b);
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
  // sublayout's dims as masks (bit d: in dim d kept; bit k: out dim k), each
  // name checked.
  std::pair<uint32_t, uint32_t> keptDims(const std::vector<std::string>& inDims,
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

}  // namespace f2lay::opt
