#include "formats/triton_text.h"

#include "formats/error.h"
#include "formats/text_cursor.h"

namespace f2lay {

namespace {

std::string outDimsText(const LayoutValue& layout) {
  std::string s = "[";
  for (size_t k = 0; k < layout.out_dims.size(); ++k) {
    if (k) s += ", ";
    s += layout.out_dims[k].name + " (size " + std::to_string(layout.out_dims[k].size) + ")";
  }
  return s + "]";
}

std::vector<OutDim> readOutDims(TextCursor& in) {
  std::vector<OutDim> outs;
  in.expect("[");
  in.skipBlanks(false);
  if (in.accept("]")) return outs;
  do {
    in.skipBlanks(false);
    OutDim d;
    d.name = in.identifier("an out dim name");
    in.skipBlanks(false);
    in.expect("(size ");
    d.size = in.unsignedInteger("an out dim size");
    in.expect(")");
    outs.push_back(d);
    in.skipBlanks(false);
  } while (in.accept(","));
  in.expect("]", "',' or ']'");
  return outs;
}

}  // namespace

std::string writeTritonText(const LayoutValue& layout) {
  if (layout.in_dims.empty()) {
    if (layout.out_dims.empty()) return "\n(empty layout)";
    return "\n(empty layout with out-dims " + outDimsText(layout) + ")";
  }
  std::string s = "\n";
  for (const InDim& d : layout.in_dims) {
    if (d.bases.empty()) {
      s += " - " + d.name + " is a size 1 dimension\n";
      continue;
    }
    for (size_t i = 0; i < d.bases.size(); ++i) {
      s += i == 0 ? " - " : "   ";
      s += d.name + "=" + std::to_string(uint64_t{1} << i) + " -> (";
      for (size_t k = 0; k < d.bases[i].size(); ++k) {
        if (k) s += ", ";
        s += std::to_string(d.bases[i][k]);
      }
      s += ")\n";
    }
  }
  return s + "where out dims are: " + outDimsText(layout);
}

LayoutValue readTritonText(std::string_view text) {
  TextCursor in(text);
  in.setFormatName("Triton text");
  LayoutValue layout;
  in.skipBlanks();
  if (in.accept("(empty layout")) {
    if (in.accept(" with out-dims ")) layout.out_dims = readOutDims(in);
    in.expect(")");
  } else {
    // Items " - name=1 -> (...)" with continuation lines "name=2 -> (...)",
    // or " - name is a size 1 dimension", then the out-dims line.
    while (!in.startsWith("where out dims are: ")) {
      in.expect("- ", "'- <in dim>' or 'where out dims are: '");
      InDim dim{in.identifier("an in dim name"), {}};
      if (in.accept(" is a size 1 dimension")) {
        layout.in_dims.push_back(std::move(dim));
        in.skipBlanks();
        continue;
      }
      while (true) {
        uint64_t expected = uint64_t{1} << dim.bases.size();
        in.expect("=");
        if (in.unsignedInteger("an input value") != expected)
          in.fail("in dim '" + dim.name + "': the input value of basis " +
                  std::to_string(dim.bases.size()) + " must be " + std::to_string(expected));
        in.expect(" -> (");
        Basis basis;
        in.skipBlanks(false);
        if (!in.accept(")")) {
          do {
            in.skipBlanks(false);
            basis.push_back(in.unsignedInteger("a basis value"));
            in.skipBlanks(false);
          } while (in.accept(","));
          in.expect(")", "',' or ')'");
        }
        dim.bases.push_back(std::move(basis));
        // Stop at 63 bases: one dim has at most 63 bits, and the input value
        // of a 65th basis, 2^64, would overflow the shift above.
        if (dim.bases.size() > 63)
          in.fail("in dim '" + dim.name + "' has more than 63 bases; one dim has at most 63 bits");
        in.skipBlanks();
        // A continuation line repeats the dim name without a leading "- ".
        if (in.startsWith("- ") || in.startsWith("where out dims are: ")) break;
        std::string again = in.identifier("'" + dim.name + "=...' or '- '");
        if (again != dim.name)
          in.fail("expected '" + dim.name + "=...' (continuing in dim '" + dim.name +
                  "'), found '" + again + "'");
      }
      layout.in_dims.push_back(std::move(dim));
    }
    in.expect("where out dims are: ");
    layout.out_dims = readOutDims(in);
  }
  in.skipBlanks();
  if (!in.atEnd()) in.fail("unexpected text after the layout");
  try {
    validate(layout);
  } catch (const Error& e) {
    throw Error(std::string("Triton text: ") + e.what());
  }
  return layout;
}

}  // namespace f2lay
