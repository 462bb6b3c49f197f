#include "formats/mlir_attr.h"

#include <algorithm>
#include <array>
#include <map>

#include "formats/error.h"
#include "formats/text_cursor.h"

namespace f2lay {

namespace {

constexpr std::array<const char*, 4> kInDims = {"register", "lane", "warp", "block"};

// Out dims dim0..dim(rank-1) sized as Triton infers them (inferOutDimSizes).
std::vector<OutDim> inferOutDims(const std::vector<InDim>& inDims, size_t rank) {
  LayoutValue v{inDims, {}};
  for (size_t k = 0; k < rank; ++k) v.out_dims.push_back({"dim" + std::to_string(k), 1});
  try {
    inferOutDimSizes(v);
  } catch (const Error& e) {
    throw Error(std::string("MLIR attribute: ") + e.what());
  }
  return v.out_dims;
}

size_t inferRank(const std::vector<InDim>& inDims) {
  for (const InDim& d : inDims)
    if (!d.bases.empty()) return d.bases[0].size();
  return 0;
}

}  // namespace

std::string writeMlirAttr(const LayoutValue& layout) {
  bool namesOk = layout.in_dims.size() == kInDims.size();
  for (size_t i = 0; namesOk && i < kInDims.size(); ++i)
    namesOk = layout.in_dims[i].name == kInDims[i];
  if (!namesOk)
    throw Error(
        "MLIR attribute: #ttg.linear needs exactly the in dims register, lane, "
        "warp, block in that order; write this layout as JSON instead");
  size_t rank = inferRank(layout.in_dims);
  if (rank == 0)
    throw Error(
        "MLIR attribute: a layout without bases has no rank in "
        "#ttg.linear; write it as JSON instead");
  if (layout.out_dims != inferOutDims(layout.in_dims, layout.out_dims.size()) ||
      layout.out_dims.size() != rank)
    throw Error(
        "MLIR attribute: #ttg.linear carries no out-dim sizes, so the out dims "
        "must be dim0..dim" +
        std::to_string(rank - 1) +
        " sized by their largest basis value (a surjective layout); write this "
        "layout as JSON instead");
  std::string s = "#ttg.linear<{";
  for (size_t i = 0; i < layout.in_dims.size(); ++i) {
    const InDim& d = layout.in_dims[i];
    s += (i ? ", " : "") + d.name + " = [";
    for (size_t j = 0; j < d.bases.size(); ++j) {
      s += j ? ", [" : "[";
      for (size_t k = 0; k < d.bases[j].size(); ++k)
        s += (k ? ", " : "") + std::to_string(d.bases[j][k]);
      s += "]";
    }
    s += "]";
  }
  return s + "}>";
}

LayoutValue readMlirAttr(std::string_view text) {
  TextCursor in(text);
  in.setFormatName("MLIR attribute");
  in.skipBlanks();
  in.expect("#ttg.linear<{");
  std::map<std::string, InDim> dims;
  in.skipBlanks();
  if (!in.startsWith("}")) {
    do {
      in.skipBlanks();
      std::string name = in.identifier("an in dim name");
      if (std::find(kInDims.begin(), kInDims.end(), name) == kInDims.end())
        in.fail("in dim '" + name + "' is not one of register, lane, warp, block");
      if (dims.count(name)) in.fail("in dim '" + name + "' appears twice");
      InDim dim{name, {}};
      in.skipBlanks();
      in.expect("=");
      in.skipBlanks();
      in.expect("[");
      in.skipBlanks();
      if (!in.accept("]")) {
        do {
          in.skipBlanks();
          in.expect("[", "'[' (a basis)");
          Basis basis;
          in.skipBlanks();
          if (!in.accept("]")) {
            do {
              in.skipBlanks();
              basis.push_back(in.unsignedInteger("a basis value"));
              in.skipBlanks();
            } while (in.accept(","));
            in.expect("]", "',' or ']'");
          }
          dim.bases.push_back(std::move(basis));
          if (dim.bases.size() > static_cast<size_t>(kMaxInBits))
            in.fail("in dim '" + name + "' has more than " + std::to_string(kMaxInBits) + " bases");
          in.skipBlanks();
        } while (in.accept(","));
        in.expect("]", "',' or ']'");
      }
      dims[name] = std::move(dim);
      in.skipBlanks();
    } while (in.accept(","));
  }
  in.expect("}>", "',' or '}>'");
  in.skipBlanks();
  if (!in.atEnd()) in.fail("unexpected text after the attribute");

  LayoutValue layout;
  for (const char* name : kInDims) {
    if (!dims.count(name))
      throw Error(std::string("MLIR attribute: in dim '") + name +
                  "' is missing (#ttg.linear needs register, lane, warp, block)");
    layout.in_dims.push_back(dims[name]);
  }
  size_t rank = inferRank(layout.in_dims);
  if (rank == 0)
    throw Error(
        "MLIR attribute: the first basis has no values (or there is no "
        "basis), so the layout has no out dims; Triton rejects this too");
  for (const InDim& d : layout.in_dims)
    for (size_t i = 0; i < d.bases.size(); ++i)
      if (d.bases[i].size() != rank)
        throw Error("MLIR attribute: basis " + std::to_string(i) + " of in dim '" + d.name +
                    "' has " + std::to_string(d.bases[i].size()) +
                    " values but the first basis has " + std::to_string(rank));
  layout.out_dims = inferOutDims(layout.in_dims, rank);
  try {
    validate(layout);
  } catch (const Error& e) {
    throw Error(std::string("MLIR attribute: ") + e.what());
  }
  return layout;
}

}  // namespace f2lay
