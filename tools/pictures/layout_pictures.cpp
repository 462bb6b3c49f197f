#include "tools/pictures/layout_pictures.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <map>

#include "formats/error.h"
#include "optimized/batch_apply.h"
#include "tools/pictures/palette.h"
#include "tools/pictures/tensor_grid.h"

namespace f2lay::tools::pictures {

namespace {

constexpr int kMostInputBits = 22;
constexpr size_t kListedElements = 12, kListedHolders = 8;

std::string inDimNames(const LayoutValue& v) {
  std::string s;
  for (const InDim& d : v.in_dims) s += (s.empty() ? "" : ", ") + d.name;
  return s.empty() ? "none" : s;
}

// A flat input split into its in dims' values (0 for a dim the layout lacks).
struct Input {
  std::map<std::string, uint64_t> values;
  uint64_t operator[](const std::string& dim) const {
    auto it = values.find(dim);
    return it == values.end() ? 0 : it->second;
  }
};

Input splitInput(const LayoutValue& v, uint64_t x) {
  Input in;
  for (const InDim& d : v.in_dims) {
    in.values[d.name] = x & ((uint64_t{1} << d.bases.size()) - 1);
    x >>= d.bases.size();
  }
  return in;
}

uint64_t inSize(const LayoutValue& v, const std::string& dim) {
  for (const InDim& d : v.in_dims)
    if (d.name == dim) return uint64_t{1} << d.bases.size();
  return 1;
}

// Every input's element (flat indices), enumerated: image[x] = L(x).
std::vector<uint64_t> image(const ref::LinearLayout& layout) {
  const LayoutValue& v = layout.value();
  uint64_t elements = 1;
  for (const OutDim& d : v.out_dims) elements *= d.size;
  if (elements > kMostElements)
    throw Error("show --svg: the tensor has " + std::to_string(elements) +
                " elements; a picture draws at most " + std::to_string(kMostElements));
  int inBits = layout.getTotalInDimSizeLog2();
  if (inBits > kMostInputBits)
    throw Error("show --svg: the layout has 2^" + std::to_string(inBits) +
                " inputs; a picture enumerates at most 2^" + std::to_string(kMostInputBits));
  std::vector<uint64_t> out(size_t{1} << inBits);
  opt::BatchApply(opt::LinearLayout(v)).applyAll(out.data());
  return out;
}

// Each element's inputs, in increasing order (the first is the one drawn).
std::vector<std::vector<uint64_t>> holdersOf(const ref::LinearLayout& layout) {
  std::vector<uint64_t> img = image(layout);
  uint64_t elements = 1;
  for (const OutDim& d : layout.value().out_dims) elements *= d.size;
  std::vector<std::vector<uint64_t>> holders(elements);
  for (uint64_t x = 0; x < img.size(); ++x) holders[img[x]].push_back(x);
  return holders;
}

// The grid of a layout's elements (tensor_grid.h), each cell made by `cellOf`
// from the element's coordinates as text, its inputs and the first of them
// split into dims; an element no input reaches is drawn empty, `nobody` in its
// tooltip.
double drawElements(Svg& svg, double x, double y, const LayoutValue& v,
                    const std::vector<std::vector<uint64_t>>& holders, size_t labelChars,
                    const std::string& nobody, const std::string& idPrefix,
                    const std::function<Cell(const std::string&, const std::vector<uint64_t>&,
                                             const Input&)>& cellOf) {
  return drawGrid(
      svg, x, y, v.out_dims,
      [&](uint64_t e) {
        std::string at = coordinateText(coordinates(v.out_dims, e));
        const std::vector<uint64_t>& h = holders[e];
        if (h.empty()) return Cell{kEmpty, ".", at + ": " + nobody, {{"data-holders", "0"}}};
        return cellOf(at, h, splitInput(v, h[0]));
      },
      gridStyle(v.out_dims, labelChars), idPrefix);
}

double title(Svg& svg, double x, double y, const std::string& text, const std::string& detail) {
  svg.text(x, y + 14, text, 14, "start", {0, 0, 0}, true);
  svg.text(x, y + 30, detail, 10, "start", {60, 60, 60});
  return y + 38;
}

std::string shapeText(const LayoutValue& v) {
  std::string s;
  for (const OutDim& d : v.out_dims) s += (s.empty() ? "" : " x ") + std::to_string(d.size);
  return (s.empty() ? "1" : s) + " tensor";
}

// Lines of text under a picture, one per item, at most `most` and then a
// count of the rest.
double listLines(Svg& svg, double x, double y, const std::string& heading,
                 const std::vector<std::string>& items, size_t most) {
  svg.text(x, y + 12, heading, 10, "start", {0, 0, 0}, true);
  y += 14;
  for (size_t i = 0; i < items.size() && i < most; ++i, y += 12)
    svg.text(x + 8, y + 10, items[i], 9, "start", {40, 40, 40});
  if (items.size() > most)
    svg.text(x + 8, y + 10, "... and " + std::to_string(items.size() - most) + " more", 9, "start",
             {40, 40, 40}),
        y += 12;
  return y + 4;
}

}  // namespace

LayoutKind layoutKind(const ref::LinearLayout& layout) {
  const LayoutValue& v = layout.value();
  bool distributed = !v.in_dims.empty(), memory = false;
  for (const InDim& d : v.in_dims) {
    distributed &=
        d.name == "register" || d.name == "lane" || d.name == "warp" || d.name == "block";
    memory |= d.name == "offset";
  }
  for (const InDim& d : v.in_dims) memory &= d.name == "offset" || d.name == "block";
  if (distributed) return LayoutKind::kDistributed;
  if (memory) return LayoutKind::kMemory;
  throw Error(
      "show --svg: draws distributed layouts (in dims register, lane, warp, block) and memory "
      "layouts (offset, block); this layout's in dims are " +
      inDimNames(v));
}

double drawDistributed(Svg& svg, double x, double y, const ref::LinearLayout& layout,
                       const std::string& heading, const std::string& idPrefix) {
  const LayoutValue& v = layout.value();
  if (layoutKind(layout) != LayoutKind::kDistributed)
    throw Error("show --svg: not a distributed layout (in dims " + inDimNames(v) + ")");
  std::vector<std::vector<uint64_t>> holders = holdersOf(layout);
  uint64_t registers = inSize(v, "register"), lanes = inSize(v, "lane"), warps = inSize(v, "warp"),
           blocks = inSize(v, "block");
  auto holderText = [&](uint64_t x) {
    Input in = splitInput(v, x);
    std::string s = blocks > 1 ? "block " + std::to_string(in["block"]) + ", " : "";
    return s + "warp " + std::to_string(in["warp"]) + ", lane " + std::to_string(in["lane"]) +
           ", register " + std::to_string(in["register"]);
  };
  y = title(svg, x, y, heading,
            shapeText(v) + "; " + std::to_string(registers) + " registers, " +
                std::to_string(lanes) + " lanes, " + std::to_string(warps) + " warps" +
                (blocks > 1 ? ", " + std::to_string(blocks) + " blocks" : "") +
                "; cell: T<lane> R<register>, hue: warp, shade: lane");
  std::string widest = "T" + std::to_string(lanes - 1) + " R" + std::to_string(registers - 1);
  y = drawElements(
      svg, x, y, v, holders, widest.size(), "held by nobody", idPrefix,
      [&](const std::string& at, const std::vector<uint64_t>& h, const Input& in) {
        std::string tip = at + ": " + holderText(h[0]);
        for (size_t k = 1; k < h.size() && k <= kListedHolders; ++k)
          tip += (k == 1 ? "; also " : "; ") + holderText(h[k]);
        if (h.size() > kListedHolders + 1)
          tip += "; and " + std::to_string(h.size() - kListedHolders - 1) + " more";
        return Cell{
            holderColor(in["block"] * warps + in["warp"], in["lane"], lanes),
            "T" + std::to_string(in["lane"]) + " R" + std::to_string(in["register"]),
            tip,
            {{"data-holder", holderText(h[0])}, {"data-holders", std::to_string(h.size())}}};
      });

  // The legend: one row of lane swatches per warp (block-major).
  svg.text(x, y + 12, "Colors: warp (hue) and lane (shade, light = lane 0)", 10, "start", {0, 0, 0},
           true);
  y += 18;
  const double swatch = 10;
  uint64_t shown = std::min<uint64_t>(warps * blocks, 64);
  for (uint64_t w = 0; w < shown; ++w, y += swatch + 3) {
    std::string name =
        blocks > 1 ? "block " + std::to_string(w / warps) + " warp " + std::to_string(w % warps)
                   : "warp " + std::to_string(w);
    svg.text(x, y + swatch - 1, name, 9, "start", {40, 40, 40});
    for (uint64_t l = 0; l < lanes; ++l)
      svg.rect(x + 80 + static_cast<double>(l) * swatch, y, swatch, swatch,
               holderColor(w, l, lanes),
               {{"class", "legend-swatch"},
                {"id", idPrefix + "legend-w" + std::to_string(w) + "-t" + std::to_string(l)},
                {"data-warp", std::to_string(w)},
                {"data-lane", std::to_string(l)}},
               name + ", lane " + std::to_string(l), holderColor(w, l, lanes));
  }
  if (shown < warps * blocks)
    svg.text(x, y + 9, "... " + std::to_string(warps * blocks - shown) + " more warps", 9), y += 12;
  for (uint64_t l = 0; l < lanes; l += std::max<uint64_t>(1, lanes / 4))
    svg.text(x + 80 + (static_cast<double>(l) + 0.5) * swatch, y + 9, "lane " + std::to_string(l),
             8, "middle", {90, 90, 90});
  y += 16;

  std::vector<std::string> broadcast;
  uint64_t nobody = 0;
  for (uint64_t e = 0; e < holders.size(); ++e) {
    nobody += holders[e].empty();
    if (holders[e].size() < 2) continue;
    std::string s = coordinateText(coordinates(v.out_dims, e)) + ": ";
    for (size_t k = 0; k < holders[e].size() && k < kListedHolders; ++k) {
      Input in = splitInput(v, holders[e][k]);
      s += (k ? ", " : "") + std::string(blocks > 1 ? "B" + std::to_string(in["block"]) : "") +
           "W" + std::to_string(in["warp"]) + " T" + std::to_string(in["lane"]) + " R" +
           std::to_string(in["register"]);
    }
    if (holders[e].size() > kListedHolders)
      s += ", and " + std::to_string(holders[e].size() - kListedHolders) + " more";
    broadcast.push_back(s);
  }
  if (!broadcast.empty())
    y = listLines(svg, x, y,
                  "Held more than once (broadcast): " + std::to_string(broadcast.size()) +
                      " elements; the cell shows the first holder",
                  broadcast, kListedElements);
  if (nobody)
    y = listLines(svg, x, y,
                  "Held by nobody: " + std::to_string(nobody) + " elements (white, \".\")", {}, 0);
  return y;
}

double drawMemory(Svg& svg, double x, double y, const ref::LinearLayout& layout,
                  const analysis::Padding& padding, uint64_t elementBytes,
                  const std::string& heading, const std::string& idPrefix) {
  const LayoutValue& v = layout.value();
  if (layoutKind(layout) != LayoutKind::kMemory)
    throw Error("show --svg: not a memory layout (in dims " + inDimNames(v) + ")");
  if (!std::has_single_bit(elementBytes) || elementBytes > 16)
    throw Error("show --svg: element bytes must be 1, 2, 4, 8 or 16, not " +
                std::to_string(elementBytes));
  std::vector<std::vector<uint64_t>> holders = holdersOf(layout);
  uint64_t blocks = inSize(v, "block");
  auto address = [&](uint64_t offset) {
    return analysis::paddedOffset(padding, offset) * elementBytes;
  };
  std::string detail = shapeText(v) + "; " + std::to_string(elementBytes) +
                       "-byte elements; cell: offset" + (blocks > 1 ? " (block:offset)" : "") +
                       "; color: the bank of its first byte (32 banks of 4 bytes)";
  if (!padding.empty()) {
    detail += "; padded:";
    for (const analysis::PaddingPair& p : padding)
      detail += " [" + std::to_string(p.interval) + ":+" + std::to_string(p.padding) + "]";
  }
  y = title(svg, x, y, heading, detail);
  std::string widest = std::to_string(inSize(v, "offset") - 1);
  if (blocks > 1) widest = std::to_string(blocks - 1) + ":" + widest;
  y = drawElements(
      svg, x, y, v, holders, widest.size(), "at no offset", idPrefix,
      [&](const std::string& at, const std::vector<uint64_t>& h, const Input& in) {
        uint64_t offset = in["offset"], bytes = address(offset), bank = bytes / 4 % 32;
        std::string label =
            (blocks > 1 ? std::to_string(in["block"]) + ":" : "") + std::to_string(offset);
        std::string tip = at + ": offset " + std::to_string(offset) +
                          (blocks > 1 ? " of block " + std::to_string(in["block"]) : "") +
                          ", bytes " + std::to_string(bytes) + ".." +
                          std::to_string(bytes + elementBytes - 1) + ", bank " +
                          std::to_string(bank);
        if (h.size() > 1) tip += "; at " + std::to_string(h.size() - 1) + " more offsets";
        return Cell{bankColor(bank),
                    label,
                    tip,
                    {{"data-offset", std::to_string(offset)}, {"data-bank", std::to_string(bank)}}};
      });
  svg.text(x, y + 12, "Banks (hue: bank / 2; odd banks darker)", 10, "start", {0, 0, 0}, true);
  y += 18;
  for (uint64_t b = 0; b < 32; ++b) {
    double bx = x + static_cast<double>(b) * 18;
    svg.rect(bx, y, 16, 12, bankColor(b),
             {{"class", "legend-swatch"},
              {"id", idPrefix + "legend-bank-" + std::to_string(b)},
              {"data-bank", std::to_string(b)}},
             "bank " + std::to_string(b), bankColor(b));
    svg.text(bx + 8, y + 22, std::to_string(b), 7, "middle", {90, 90, 90});
  }
  return y + 30;
}

}  // namespace f2lay::tools::pictures
