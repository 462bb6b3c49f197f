#include "tools/pictures/picture.h"

#include "formats/error.h"
#include "oracle/op_table.h"
#include "oracle/oracle.h"
#include "tools/pictures/analysis_pictures.h"
#include "tools/pictures/layout_pictures.h"
#include "tools/pictures/svg.h"

namespace f2lay::tools::pictures {

namespace {

uint64_t memoryElementBytes(const Json& request, const PictureOptions& options) {
  if (options.elementBytes) return *options.elementBytes;
  if (request.contains("element_bitwidth") && request["element_bitwidth"].is_number_unsigned())
    return std::max<uint64_t>(1, request["element_bitwidth"].get<uint64_t>() / 8);
  if (request.contains("element_bytes") && request["element_bytes"].is_number_unsigned())
    return request["element_bytes"].get<uint64_t>();
  return 4;
}

// A layout (maybe padded) with a heading.
void drawLayout(Svg& svg, const Json& layout, const std::string& heading, uint64_t elementBytes) {
  const Json request = {{"layout", layout}};  // Args holds a reference
  oracle::Args a(request);
  auto [l, padding] = a.paddedLayoutAs<ref::LinearLayout>("layout");
  if (layoutKind(l) == LayoutKind::kDistributed)
    drawDistributed(svg, 0, 0, l, heading);
  else
    drawMemory(svg, 0, 0, l, padding, elementBytes, heading);
}

// "blocked size_per_thread=[2,2] ...": the request, short enough for a heading.
std::string requestHeading(const Json& request) {
  std::string s = request["op"].get<std::string>();
  for (const auto& [k, v] : request.items())
    if (k != "op" && k != "id") s += " " + k + "=" + v.dump();
  return s.size() > 110 ? s.substr(0, 107) + "..." : s;
}

}  // namespace

std::string svgPicture(const Json& input, const PictureOptions& options) {
  if (!input.is_object())
    throw Error("show --svg: expected a layout or a request (a JSON object), not " +
                std::string(input.type_name()));
  Svg svg;
  if (!input.contains("op")) {
    drawLayout(svg, input, "layout", memoryElementBytes(input, options));
    return svg.document();
  }
  if (!input["op"].is_string()) throw Error("show --svg: \"op\" must be a string");
  std::string op = input["op"].get<std::string>();
  if (op == "bank_conflicts") {
    drawBankScope(svg, 0, 0, input, options.warp, options.instruction);
  } else if (op == "optimal_swizzle") {
    drawOptimalSwizzle(svg, 0, 0, input);
  } else if (op == "classify_conversion" || op == "shuffle_plan" || op == "gather_plan") {
    drawConversion(svg, 0, 0, input);
  } else {
    Json response = oracle::answer(input);
    if (!response["ok"].get<bool>()) throw Error(response["error"].get<std::string>());
    const Json& result = response["result"];
    if (!result.is_object() || !result.contains("in_dims"))
      throw Error("show --svg: op \"" + op +
                  "\" does not answer with a layout; pictures are drawn of layouts, "
                  "bank_conflicts, optimal_swizzle and conversion requests");
    drawLayout(svg, result, requestHeading(input), memoryElementBytes(input, options));
  }
  return svg.document();
}

}  // namespace f2lay::tools::pictures
