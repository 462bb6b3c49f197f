#include "python/src/py_values.h"

#include "formats/error.h"

namespace f2lay::python {

namespace {

// Where a value sits, e.g. "from_bases: bases[1][1][0]", written out only for
// an error: from_bases reads every value of a layout, and building each
// location's text would cost more than the layout itself.
struct Where {
  const char* prefix;
  size_t index[4];
  int depth = 0;
  Where at(size_t i) const {
    Where w = *this;
    w.index[w.depth++] = i;
    return w;
  }
  std::string str() const {
    std::string s = prefix;
    for (int k = 0; k < depth; ++k) s += "[" + std::to_string(index[k]) + "]";
    return s;
  }
};

[[noreturn]] void typeError(const std::string& where, const char* expected, nb::handle got) {
  throw nb::type_error(
      (where + ": expected " + expected + ", got " + nb::type_name(got.type()).c_str()).c_str());
}

// A list or tuple (or any other iterable but str, bytes and dict, copied to
// a list once) whose items are read with PySequence_Fast_GET_ITEM.
// Lists and tuples, what callers pass, are read in place, without a new
// reference (the caller's arguments hold them for the call).
class Items {
 public:
  Items(nb::handle value, const Where& where, const char* expected) : seq_(value.ptr()) {
    if (PyList_CheckExact(seq_) || PyTuple_CheckExact(seq_)) return;
    if (!PyUnicode_Check(seq_) && !PyBytes_Check(seq_) && !PyDict_Check(seq_))
      copy_ = nb::steal(PySequence_Fast(seq_, ""));
    if (!copy_.is_valid()) {
      PyErr_Clear();
      typeError(where.str(), expected, value);
    }
    seq_ = copy_.ptr();
  }
  size_t size() const { return static_cast<size_t>(PySequence_Fast_GET_SIZE(seq_)); }
  nb::handle operator[](size_t i) const {
    return PySequence_Fast_GET_ITEM(seq_, static_cast<Py_ssize_t>(i));
  }

 private:
  PyObject* seq_;
  nb::object copy_;
};

template <class Location>
uint64_t readUnsigned(nb::handle value, const Location& where) {
  PyObject* p = value.ptr();
  if (PyLong_Check(p)) {
    // The common case: an int that fits a long long.
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(p, &overflow);
    if (overflow == 0 && v >= 0) return static_cast<uint64_t>(v);
  } else if (!PyIndex_Check(p) || PyFloat_Check(p)) {
    typeError(where.str(), "an int", value);
  }
  nb::object index = nb::steal(PyNumber_Index(p));
  if (!index.is_valid()) throw nb::python_error();
  if (PyObject_RichCompareBool(index.ptr(), nb::int_(0).ptr(), Py_LT) == 1)
    throw Error(where.str() + ": " + nb::repr(value).c_str() + " is negative");
  unsigned long long v = PyLong_AsUnsignedLongLong(index.ptr());
  if (PyErr_Occurred()) {
    PyErr_Clear();
    throw Error(where.str() + ": " + nb::repr(value).c_str() + " does not fit 64 bits");
  }
  return v;
}

struct Named {
  const std::string& text;
  const std::string& str() const { return text; }
};

// Value k of a basis, named only for an error (no copy of the basis' Where
// per value).
struct Value {
  const Where& basis;
  size_t k;
  std::string str() const { return basis.at(k).str(); }
};

// {dim: value}'s entry, e.g. "apply: inputs['lane']".
struct Entry {
  const std::string& where;
  const std::string& key;
  std::string str() const { return where + "['" + key + "']"; }
};

std::string_view readName(nb::handle value, const Where& where) {
  if (!PyUnicode_Check(value.ptr())) typeError(where.str(), "a str", value);
  Py_ssize_t size = 0;
  const char* text = PyUnicode_AsUTF8AndSize(value.ptr(), &size);
  if (!text) throw nb::python_error();
  return std::string_view(text, static_cast<size_t>(size));
}

}  // namespace

uint64_t unsignedOf(nb::handle value, const std::string& where) {
  return readUnsigned(value, Named{where});
}

LayoutValue& BasesValue::reused() {
  static thread_local LayoutValue value;
  return value;
}

bool& BasesValue::busy() {
  static thread_local bool taken = false;
  return taken;
}

BasesValue::BasesValue(nb::handle bases, nb::handle outDimNames, nb::handle outDimSizes,
                       bool requireSurjective)
    : value_(busy() ? own_ : reused()) {
  bool taken = &value_ == &reused();
  if (taken) busy() = true;
  try {
    read(bases, outDimNames, outDimSizes, requireSurjective);
  } catch (...) {
    if (taken) busy() = false;  // no destructor runs for a constructor that throws
    throw;
  }
}

void BasesValue::read(nb::handle bases, nb::handle outDimNames, nb::handle outDimSizes,
                      bool requireSurjective) {
  LayoutValue& v = value_;
  Where outNames{"from_bases: out_dim_names", {}, 0};
  Items names(outDimNames, outNames, "a sequence of str");
  v.out_dims.resize(names.size());
  for (size_t k = 0; k < names.size(); ++k) {
    v.out_dims[k].name = readName(names[k], outNames.at(k));
    v.out_dims[k].size = 1;
  }
  if (!outDimSizes.is_none()) {
    Where where{"from_bases: out_dim_sizes", {}, 0};
    Items sizes(outDimSizes, where, "a sequence of int");
    if (sizes.size() != v.out_dims.size())
      throw Error("from_bases: out_dim_sizes has " + std::to_string(sizes.size()) + " sizes for " +
                  std::to_string(v.out_dims.size()) + " out_dim_names");
    for (size_t k = 0; k < sizes.size(); ++k)
      v.out_dims[k].size = readUnsigned(sizes[k], where.at(k));
  } else if (!requireSurjective) {
    // Without sizes they are inferred from the bases, which is only sound for
    // a surjective layout (Triton's binding refuses the same).
    throw Error("from_bases: require_surjective=False needs out_dim_sizes");
  }
  Where where{"from_bases: bases", {}, 0};
  Items dims(bases, where, "a sequence of (in dim name, bases) pairs");
  v.in_dims.resize(dims.size());
  for (size_t d = 0; d < dims.size(); ++d) {
    Items pair(dims[d], where.at(d), "an (in dim name, bases) pair");
    if (pair.size() != 2)
      throw nb::type_error((where.at(d).str() + ": expected an (in dim name, bases) pair, got " +
                            std::to_string(pair.size()) + " items")
                               .c_str());
    InDim& in = v.in_dims[d];
    in.name = readName(pair[0], where.at(d).at(0));
    Where list = where.at(d).at(1);
    Items items(pair[1], list, "a sequence of bases");
    in.bases.resize(items.size());
    for (size_t i = 0; i < items.size(); ++i) {
      Where at = list.at(i);
      Items basis(items[i], at, "a basis (a sequence of int, one per out dim)");
      Basis& b = in.bases[i];
      b.resize(basis.size());
      for (size_t k = 0; k < basis.size(); ++k) b[k] = readUnsigned(basis[k], Value{at, k});
    }
  }
  // Sizes inferred as Triton's LinearLayout(bases, outDimNames) does; a
  // basis of the wrong length is left for validate() to name.
  if (outDimSizes.is_none()) inferOutDimSizes(v);
}

std::vector<std::pair<std::string, uint64_t>> dimValuesOf(nb::handle dict,
                                                          const std::string& where) {
  if (!PyDict_Check(dict.ptr())) typeError(where, "a dict {in dim: value}", dict);
  std::vector<std::pair<std::string, uint64_t>> out;
  PyObject *key, *value;
  Py_ssize_t pos = 0;
  while (PyDict_Next(dict.ptr(), &pos, &key, &value)) {
    std::string name(readName(key, Where{where.c_str(), {}, 0}));
    uint64_t v = readUnsigned(value, Entry{where, name});
    out.emplace_back(std::move(name), v);
  }
  return out;
}

}  // namespace f2lay::python
