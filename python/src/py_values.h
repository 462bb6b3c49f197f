// Python values read into f2lay's plain types, with f2lay's checks.
//
// The module takes what Triton's binding takes (sequences of (name, bases)
// pairs, lists of ints, dicts of {dim: value}) and reads it here, by hand
// rather than through nanobind's generic casters: a wrong value then raises
// f2lay.Error (a ValueError) naming where it is, e.g. "from_bases:
// bases[1][1][0]: -1 is negative", and a wrong type a TypeError saying what was
// expected, instead of an overload mismatch; and from_bases, called in inner
// loops, makes no intermediate containers.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "formats/layout_value.h"

namespace f2lay::python {

namespace nb = nanobind;

// A Python int (or anything with __index__, e.g. a numpy integer) in
// [0, 2^64); `where` names it in the error.
uint64_t unsignedOf(nb::handle value, const std::string& where);

// Triton's from_bases(bases, out_dim_names, out_dim_sizes=None,
// require_surjective=True) as a plain value: with sizes given, the out dims
// have them; without, each size is inferred as Triton's LinearLayout(bases,
// outDimNames) does (layout_value.h). Surjectivity is the caller's check.
//
// The value is this thread's, refilled in place, so that its vectors and
// names keep their storage and reading a layout of the same shape allocates
// nothing (from_bases is called in loops). A call made while another reads
// (Python code run by a sequence's __iter__ or an int's __index__ may call
// from_bases) reads into a value of its own.
class BasesValue {
 public:
  BasesValue(nb::handle bases, nb::handle outDimNames, nb::handle outDimSizes,
             bool requireSurjective);
  ~BasesValue() {
    if (&value_ == &reused()) busy() = false;
  }
  BasesValue(const BasesValue&) = delete;
  BasesValue& operator=(const BasesValue&) = delete;
  const LayoutValue& value() const { return value_; }

 private:
  void read(nb::handle bases, nb::handle outDimNames, nb::handle outDimSizes,
            bool requireSurjective);
  static LayoutValue& reused();
  static bool& busy();
  LayoutValue own_;
  LayoutValue& value_;
};

// {in dim: value} in the dict's order.
std::vector<std::pair<std::string, uint64_t>> dimValuesOf(nb::handle dict,
                                                          const std::string& where);

}  // namespace f2lay::python
