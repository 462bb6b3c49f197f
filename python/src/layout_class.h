// The Python class of one implementation: f2lay.LinearLayout (f2lay::opt)
// and f2lay.ref.LinearLayout (f2lay::ref) are this template, so both have
// one API, which is Triton 3.9.0's binding
// (triton._C.libtriton.linear_layout.LinearLayout): the same constructors,
// methods, properties and operators, with the same argument names, result
// types and answers, so that code written for one runs with the other
// (python/README.md says where f2lay refuses what Triton accepts). Beyond it:
// the rest of the algebra, the formats, Triton conversions and pickling.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <string>

#include "formats/error.h"
#include "formats/formats.h"
#include "formats/triton_version.h"
#include "python/src/layout_access.h"
#include "python/src/py_values.h"
#include "tools/triton_views.h"

namespace f2lay::python {

namespace nb = nanobind;
using namespace nb::literals;

// A layout as the Python object holds it: with its rank, computed once, as
// Triton's LinearLayout keeps it, because the is_* predicates are called in
// loops (and f2lay's layouts compute it per call).
template <class L>
struct Held {
  L layout;
  mutable int rank = -1;
  int getRank() const {
    if (rank < 0) rank = layout.rank();
    return rank;
  }
};

// A layout read from a value, the error prefixed with the op that read it.
template <class L>
Held<L> layoutOf(const LayoutValue& value, const char* op) {
  try {
    return {L(value)};
  } catch (const Error& e) {
    throw Error(std::string(op) + ": " + e.what());
  }
}

template <class DimValues>
nb::dict dimValuesDict(const DimValues& values) {
  nb::dict out;
  for (const auto& [name, value] : values) out[nb::steal(strOf(name))] = nb::steal(intOf(value));
  return out;
}

inline Format formatNamed(const std::string& name) {
  if (auto f = formatFromName(name)) return *f;
  throw Error("format: expected \"json\", \"triton\" or \"mlir\", got \"" + name + "\"");
}

template <class L>
void bindLayout(nb::module_& m, const char* doc) {
  using H = Held<L>;
  nb::class_<H> c(m, "LinearLayout", doc);
  c.def(nb::init<>(), "The empty layout: no in dims, no out dims.");

  // Triton's constructors.
  c.def_static(
      "from_bases",
      [](nb::handle bases, nb::handle names, nb::handle sizes, bool requireSurjective) {
        H h = layoutOf<L>(BasesValue(bases, names, sizes, requireSurjective).value(), "from_bases");
        if (requireSurjective && h.getRank() != h.layout.getTotalOutDimSizeLog2())
          throw Error("from_bases: the layout is not surjective (rank " +
                      std::to_string(h.getRank()) + " of " +
                      std::to_string(h.layout.getTotalOutDimSizeLog2()) +
                      " output bits); give out_dim_sizes and require_surjective=False for a "
                      "layout that is not");
        return h;
      },
      "bases"_a, "out_dim_names"_a, "out_dim_sizes"_a = nb::none(), "require_surjective"_a = true,
      nb::sig("def from_bases(bases: collections.abc.Sequence[tuple[str, "
              "collections.abc.Sequence[collections.abc.Sequence[int]]]], out_dim_names: "
              "collections.abc.Sequence[str], out_dim_sizes: collections.abc.Sequence[int] | "
              "None = None, require_surjective: bool = True) -> LinearLayout"),
      "bases: [(in dim, [[value per out dim], ...]), ...]. Without out_dim_sizes each size is "
      "the smallest power of two above the dim's largest value, and the layout must be "
      "surjective.");
  c.def_static(
      "identity_1d",
      [](nb::handle size, const std::string& in, const std::string& out) {
        return H{L::identity1D(unsignedOf(size, "identity_1d: size"), in, out)};
      },
      "size"_a, "inDim"_a, "outDim"_a,
      nb::sig("def identity_1d(size: int, inDim: str, outDim: str) -> LinearLayout"),
      "in=2^i -> out=2^i; size 0 gives the empty layout");
  c.def_static(
      "zeros_1d",
      [](nb::handle size, const std::string& in, const std::string& out, nb::handle outSize) {
        return H{L::zeros1D(unsignedOf(size, "zeros_1d: size"), in, out,
                            unsignedOf(outSize, "zeros_1d: outDimSize"))};
      },
      "size"_a, "inDim"_a, "outDim"_a, "outDimSize"_a = 1,
      nb::sig("def zeros_1d(size: int, inDim: str, outDim: str, outDimSize: int = 1) -> "
              "LinearLayout"),
      "every input maps to 0, in an out dim of size outDimSize");
  c.def_static(
      "strided_1d",
      [](nb::handle size, nb::handle stride, const std::string& in, const std::string& out) {
        return H{L::strided1D(unsignedOf(size, "strided_1d: size"),
                              unsignedOf(stride, "strided_1d: stride"), in, out)};
      },
      "size"_a, "stride"_a, "inDim"_a, "outDim"_a,
      nb::sig("def strided_1d(size: int, stride: int, inDim: str, outDim: str) -> LinearLayout"),
      "in=2^i -> out=stride*2^i, in an out dim of size size*stride");

  // Triton's methods. The ops whose answer depends on Triton's release take
  // triton="3.6" for projects pinned to it (reference/linear_layout.h).
  c.def(
      "compose", [](const H& self, const H& outer) { return H{self.layout.compose(outer.layout)}; },
      "x -> arg(self(x)) (Def 4.2)");
  c.def(
      "invert_and_compose",
      [](const H& self, const H& outer, const std::string& triton) {
        return H{self.layout.invertAndCompose(outer.layout, parseTritonVersion(triton))};
      },
      nb::arg(), nb::kw_only(), "triton"_a = "3.9", "C with arg(C(x)) == self(x) (§5.4)");
  c.def(
      "invert",
      [](const H& self, const std::string& triton) {
        return H{self.layout.invert(parseTritonVersion(triton))};
      },
      nb::kw_only(), "triton"_a = "3.9", "the inverse of an invertible layout");
  c.def(
      "pseudoinvert",
      [](const H& self, const std::string& triton) {
        return H{self.layout.pseudoinvert(parseTritonVersion(triton))};
      },
      nb::kw_only(), "triton"_a = "3.9", "the right inverse of a surjective layout (Def 4.5)");
  c.def("is_surjective",
        [](const H& self) { return self.getRank() == self.layout.getTotalOutDimSizeLog2(); });
  c.def("is_injective",
        [](const H& self) { return self.getRank() == self.layout.getTotalInDimSizeLog2(); });
  c.def("is_invertible", [](const H& self) {
    return self.getRank() == self.layout.getTotalInDimSizeLog2() &&
           self.getRank() == self.layout.getTotalOutDimSizeLog2();
  });
  c.def(
      "get_in_dim_names", [](const H& self) { return inDimNamesList(self.layout); },
      nb::sig("def get_in_dim_names(self) -> list[str]"));
  c.def(
      "get_out_dim_names", [](const H& self) { return outDimNamesList(self.layout); },
      nb::sig("def get_out_dim_names(self) -> list[str]"));
  c.def_prop_ro(
      "bases", [](const H& self) { return basesList(self.layout); },
      nb::sig("def bases(self) -> list"), "[(in dim, [[value per out dim], ...]), ...]");
  c.def_prop_ro(
      "out_dims", [](const H& self) { return outDimsList(self.layout); },
      nb::sig("def out_dims(self) -> list"), "[(out dim, size), ...]");
  c.def_prop_ro("num_in_dims", [](const H& self) { return inDimCount(self.layout); });
  c.def_prop_ro("num_out_dims", [](const H& self) { return outDimCount(self.layout); });
  c.def(
      "apply",
      [](const H& self, nb::handle inputs) {
        return dimValuesDict(self.layout.apply(dimValuesOf(inputs, "apply: inputs")));
      },
      "inputs"_a, nb::sig("def apply(self, inputs: dict) -> dict"),
      "{in dim: value} for every in dim -> {out dim: value}");
  c.def(
      "get_matrix_view", [](const H& self) { return matrixList(self.layout); },
      nb::sig("def get_matrix_view(self) -> list[list[int]]"),
      "rows are output bits, columns input bits");
  c.def(
      "get_distributed_view",
      [](const H& self, bool hw) { return tools::distributedView(self.layout, hw); }, nb::arg(),
      "Triton's text of a distributed layout (register, lane, warp, block)");
  c.def(
      "get_shared_view", [](const H& self, bool hw) { return tools::sharedView(self.layout, hw); },
      nb::arg(), "Triton's text of a shared-memory layout (offset, block)");
  c.def(
      "__mul__", [](const H& inner, const H& outer) { return H{inner.layout * outer.layout}; },
      nb::is_operator(), "the product (Def 4.3)");
  c.def(
      "__imul__",
      [](nb::handle self, const H& outer) {
        H& inner = nb::cast<H&>(self);
        inner = H{inner.layout * outer.layout};
        return nb::borrow(self);
      },
      nb::is_operator());
  c.def(
      "__eq__", [](const H& a, const H& b) { return a.layout == b.layout; }, nb::is_operator());
  c.def(
      "__ne__", [](const H& a, const H& b) { return !(a.layout == b.layout); }, nb::is_operator());
  c.def("__repr__", [](const H& self) { return self.layout.toString(); });
  c.def("__str__", [](const H& self) { return self.layout.toString(); });

  // The rest of the algebra (reference/linear_layout.h), named as the
  // oracle's ops.
  c.def(
      "transpose_ins",
      [](const H& self, const std::vector<std::string>& dims) {
        return H{self.layout.transposeIns(dims)};
      },
      "new_in_dims"_a);
  c.def(
      "transpose_outs",
      [](const H& self, const std::vector<std::string>& dims) {
        return H{self.layout.transposeOuts(dims)};
      },
      "new_out_dims"_a);
  c.def(
      "reshape_ins",
      [](const H& self, const std::vector<std::pair<std::string, uint64_t>>& dims) {
        return H{self.layout.reshapeIns(dims)};
      },
      "new_in_dims"_a, "new_in_dims: [(name, size), ...]");
  c.def(
      "reshape_outs",
      [](const H& self, const std::vector<std::pair<std::string, uint64_t>>& dims) {
        return H{self.layout.reshapeOuts(dims)};
      },
      "new_out_dims"_a, "new_out_dims: [(name, size), ...]");
  c.def("flatten_ins", [](const H& self) { return H{self.layout.flattenIns()}; });
  c.def("flatten_outs", [](const H& self) { return H{self.layout.flattenOuts()}; });
  c.def(
      "sublayout",
      [](const H& self, const std::vector<std::string>& ins, const std::vector<std::string>& outs) {
        return H{self.layout.sublayout(ins, outs)};
      },
      "in_dim_names"_a, "out_dim_names"_a);
  c.def("concat_ins",
        [](const H& self, const H& other) { return H{self.layout.concatIns(other.layout)}; });
  c.def("concat_outs",
        [](const H& self, const H& other) { return H{self.layout.concatOuts(other.layout)}; });
  c.def(
      "divide_left",
      [](const H& self, const H& divisor) -> std::optional<H> {
        if (auto c = divideLeft(self.layout, divisor.layout)) return H{*c};
        return std::nullopt;
      },
      "C with arg * C == self (Def 4.4), or None");
  c.def("get_free_variable_masks",
        [](const H& self) { return dimValuesDict(self.layout.getFreeVariableMasks()); });
  c.def("get_num_consecutive_in_out",
        [](const H& self) { return self.layout.getNumConsecutiveInOut(); });
  c.def("rank", &H::getRank);

  // Formats (formats/formats.h) and Triton's own object.
  c.def_static(
      "from_text",
      [](const std::string& text, std::optional<std::string> format) {
        try {
          return H{L(format ? readLayout(text, formatNamed(*format)) : readLayout(text))};
        } catch (const Error& e) {
          throw Error(std::string("from_text: ") + e.what());
        }
      },
      "text"_a, "format"_a = nb::none(),
      "a layout in JSON, Triton's toString text or the MLIR attribute (format \"json\", "
      "\"triton\" or \"mlir\"; detected when None), as f2lay convert reads it");
  c.def(
      "to_text",
      [](const H& self, const std::string& format) {
        return writeLayout(self.layout.value(), formatNamed(format));
      },
      "format"_a = "json", "the layout as f2lay convert --to FORMAT writes it");
  c.def_static(
      "from_triton",
      [](nb::handle triton) {
        nb::list sizes;
        for (nb::handle d : triton.attr("out_dims")) sizes.append(d[1]);
        return layoutOf<L>(
            BasesValue(triton.attr("bases"), triton.attr("get_out_dim_names")(), sizes, false)
                .value(),
            "from_triton");
      },
      "layout"_a, "the same layout from Triton's LinearLayout (its bases and out dims)");
  c.def(
      "to_triton",
      [](const H& self) {
        // Triton keeps sizes in int32: it refuses an out dim above 2^30 and
        // takes an in dim of 31 bits or more but mishandles it
        // (adapters/FINDINGS.md, R3), so both are refused here.
        const LayoutValue& v = self.layout.value();
        for (const OutDim& d : v.out_dims)
          if (d.size > (uint64_t{1} << 30))
            throw Error("to_triton: out dim '" + d.name + "' of size " + std::to_string(d.size) +
                        " does not fit Triton's int32 sizes (at most 2^30)");
        for (const InDim& d : v.in_dims)
          if (d.bases.size() > 30)
            throw Error("to_triton: in dim '" + d.name + "' has " + std::to_string(d.bases.size()) +
                        " bits; Triton's int32 sizes hold at most 30");
        nb::object triton = nb::module_::import_("triton._C.libtriton.linear_layout");
        nb::list names, sizes;
        for (const OutDim& d : v.out_dims) {
          names.append(nb::str(d.name.c_str(), d.name.size()));
          sizes.append(nb::int_(d.size));
        }
        return triton.attr("LinearLayout")
            .attr("from_bases")(basesList(self.layout), names, sizes, false);
      },
      "the same layout as Triton's LinearLayout (Triton must be installed)");

  // Pickling (and so copy.copy), by the JSON text.
  c.def("__getstate__",
        [](const H& self) { return writeLayout(self.layout.value(), Format::Json); });
  c.def("__setstate__",
        [](H& self, const std::string& json) { new (&self) H{L(readLayout(json, Format::Json))}; });
}

}  // namespace f2lay::python
