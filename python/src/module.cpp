// The extension module f2lay._f2lay: the two implementations' classes, the
// error type, and the oracle's op table in process (f2lay.ask, written in
// python/f2lay/__init__.py over answer_line).
#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/string.h>

#include "audit/audit.h"
#include "optimized/opt_linear_layout.h"
#include "oracle/oracle.h"
#include "python/src/layout_class.h"
#include "reference/linear_layout.h"
#include "tools/pictures/picture.h"

namespace nb = nanobind;
using namespace nb::literals;

NB_MODULE(_f2lay, m) {
  // Every rule broken by input or by an op's arguments: f2lay::Error, raised
  // as f2lay.Error, a ValueError, with f2lay's message.
  nb::exception<f2lay::Error>(m, "Error", PyExc_ValueError);

  f2lay::python::bindLayout<f2lay::opt::LinearLayout>(
      m, "A linear layout on f2lay::opt (bit-packed), with the API of Triton's binding.");
  nb::module_ ref = m.def_submodule("ref", "The reference model, f2lay::ref.");
  f2lay::python::bindLayout<f2lay::ref::LinearLayout>(
      ref,
      "A linear layout on f2lay::ref (the reference model), with the API of Triton's binding.");

  // Nothing, with a layout argument: the floor of a call, for
  // bench/python_vs_triton.py.
  m.def(
      "call_floor", [](const f2lay::python::Held<f2lay::opt::LinearLayout>&) {}, "layout"_a);

  m.def(
      "answer_line",
      [](const std::string& line, const std::string& impl) {
        using f2lay::oracle::Impl;
        Impl which = impl == "opt" ? Impl::kOpt : impl == "ref" ? Impl::kRef : Impl::kCheck;
        if (impl != "opt" && impl != "ref" && impl != "check")
          throw f2lay::Error("impl: expected \"opt\", \"ref\" or \"check\", got \"" + impl + "\"");
        return f2lay::oracle::dumpLine(f2lay::oracle::answerLine(line, which));
      },
      "line"_a, "impl"_a = "opt",
      "One oracle request line answered as `f2lay oracle --impl IMPL` answers it (one line).");

  m.def(
      "audit_json",
      [](const std::string& ttgir, const std::string& triton,
         const std::map<std::string, int64_t>& arguments, const std::vector<int64_t>& grid,
         const std::vector<int64_t>& program) {
        return f2lay::audit::auditTtgir(
                   ttgir, {f2lay::parseTritonVersion(triton), arguments, grid, program})
            .dump();
      },
      "ttgir"_a, "triton"_a = "3.9", "arguments"_a = std::map<std::string, int64_t>{},
      "grid"_a = std::vector<int64_t>{}, "program"_a = std::vector<int64_t>{},
      "`f2lay audit --json` in process: the report of a TTGIR module, as JSON text.");

  m.def(
      "show_svg",
      [](const std::string& input, uint64_t elementBytes, uint64_t warp, uint64_t instruction) {
        f2lay::tools::pictures::PictureOptions options;
        if (elementBytes) options.elementBytes = elementBytes;
        options.warp = warp;
        options.instruction = instruction;
        return f2lay::tools::pictures::svgPicture(f2lay::parseJson(input), options);
      },
      "input"_a, "element_bytes"_a = 0, "warp"_a = 0, "instruction"_a = 0,
      "`f2lay show --svg` in process: the SVG picture of a layout or request (JSON text); "
      "element_bytes 0 means the request's own or 4.");
}
