// What the Python class reads of a layout, written for each implementation:
// the reference through its plain value (simple), f2lay::opt from its packed
// columns and interned dims (no unpacking, so that the accessors cost no
// more than Triton's). Each returns Python objects, built with CPython's
// list calls: a layout's bases are tens of lists and ints.
#pragma once

#include <nanobind/nanobind.h>

#include "optimized/opt_linear_layout.h"
#include "reference/linear_layout.h"

namespace f2lay::python {

namespace nb = nanobind;

// A list of n items, item(i) a new reference each.
template <class Item>
nb::list listOf(size_t n, Item item) {
  nb::list out = nb::steal<nb::list>(PyList_New(static_cast<Py_ssize_t>(n)));
  for (size_t i = 0; i < n; ++i) PyList_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(i), item(i));
  return out;
}

inline PyObject* intOf(uint64_t v) { return PyLong_FromUnsignedLongLong(v); }
inline PyObject* strOf(const std::string& s) {
  return PyUnicode_FromStringAndSize(s.data(), static_cast<Py_ssize_t>(s.size()));
}
inline PyObject* pairOf(PyObject* a, PyObject* b) {
  PyObject* t = PyTuple_New(2);
  PyTuple_SET_ITEM(t, 0, a);
  PyTuple_SET_ITEM(t, 1, b);
  return t;
}

// The reference: its plain value.
inline size_t inDimCount(const ref::LinearLayout& l) { return l.value().in_dims.size(); }
inline size_t outDimCount(const ref::LinearLayout& l) { return l.value().out_dims.size(); }
template <class Dims>
nb::list namesList(const Dims& dims) {
  return listOf(dims.size(), [&](size_t k) { return strOf(dims[k].name); });
}
inline nb::list inDimNamesList(const ref::LinearLayout& l) { return namesList(l.value().in_dims); }
inline nb::list outDimNamesList(const ref::LinearLayout& l) {
  return namesList(l.value().out_dims);
}
inline nb::list outDimsList(const ref::LinearLayout& l) {
  const auto& dims = l.value().out_dims;
  return listOf(dims.size(),
                [&](size_t k) { return pairOf(strOf(dims[k].name), intOf(dims[k].size)); });
}
inline nb::list basesList(const ref::LinearLayout& l) {
  const auto& dims = l.value().in_dims;
  return listOf(dims.size(), [&](size_t d) {
    const auto& bases = dims[d].bases;
    nb::list list = listOf(bases.size(), [&](size_t i) {
      return listOf(bases[i].size(), [&](size_t k) { return intOf(bases[i][k]); }).release().ptr();
    });
    return pairOf(strOf(dims[d].name), list.release().ptr());
  });
}
inline nb::list matrixList(const ref::LinearLayout& l) {
  auto rows = l.getMatrixView();
  return listOf(rows.size(), [&](size_t r) {
    return listOf(rows[r].size(), [&](size_t c) { return intOf(rows[r][c]); }).release().ptr();
  });
}

// f2lay::opt: its packed columns (column j: the image of flattened input
// bit j, the first out dim in the low bits).
inline size_t inDimCount(const opt::LinearLayout& l) { return l.inDims().count; }
inline size_t outDimCount(const opt::LinearLayout& l) { return l.outDims().count; }
inline nb::list namesList(const opt::DimList& dims) {
  return listOf(dims.count, [&](size_t k) { return strOf(opt::nameOf(dims.id[k])); });
}
inline nb::list inDimNamesList(const opt::LinearLayout& l) { return namesList(l.inDims()); }
inline nb::list outDimNamesList(const opt::LinearLayout& l) { return namesList(l.outDims()); }
inline nb::list outDimsList(const opt::LinearLayout& l) {
  const opt::DimList& outs = l.outDims();
  return listOf(outs.count, [&](size_t k) {
    return pairOf(strOf(opt::nameOf(outs.id[k])), intOf(uint64_t{1} << outs.bits[k]));
  });
}
inline nb::list basesList(const opt::LinearLayout& l) {
  const opt::DimList &ins = l.inDims(), &outs = l.outDims();
  return listOf(ins.count, [&](size_t d) {
    nb::list list = listOf(ins.bits[d], [&](size_t i) {
      uint64_t column = l.columns()[ins.offset(static_cast<int>(d)) + i];
      return listOf(outs.count,
                    [&](size_t k) {
                      int at = outs.offset(static_cast<int>(k));
                      return intOf(opt::core::shiftDown(column, at) &
                                   opt::core::lowMask(outs.bits[k]));
                    })
          .release()
          .ptr();
    });
    return pairOf(strOf(opt::nameOf(ins.id[d])), list.release().ptr());
  });
}
inline nb::list matrixList(const opt::LinearLayout& l) {
  int inBits = l.getTotalInDimSizeLog2();
  return listOf(l.getTotalOutDimSizeLog2(), [&](size_t r) {
    return listOf(inBits, [&](size_t c) { return intOf(l.columns()[c] >> r & 1); }).release().ptr();
  });
}

}  // namespace f2lay::python
