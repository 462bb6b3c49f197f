#include "tools/pictures/tensor_grid.h"

#include <algorithm>
#include <bit>

#include "tools/pictures/palette.h"

namespace f2lay::tools::pictures {

namespace {

constexpr double kRuler = 22;  // room for the index rulers left of and above a grid

// Every `step`-th index is written on a ruler, so that numbers do not overlap.
uint64_t rulerStep(double cellSize, double fontSize, uint64_t count) {
  double digits = static_cast<double>(std::to_string(count).size());
  uint64_t step = 1;
  while (static_cast<double>(step) * cellSize < 0.65 * fontSize * digits + 2) step *= 2;
  return step;
}

}  // namespace

std::vector<uint64_t> coordinates(const std::vector<OutDim>& dims, uint64_t flat) {
  std::vector<uint64_t> c;
  for (const OutDim& d : dims) {
    c.push_back(flat % d.size);
    flat /= d.size;
  }
  return c;
}

std::string coordinateText(const std::vector<uint64_t>& c) {
  std::string s = "(";
  for (size_t i = 0; i < c.size(); ++i) s += (i ? ", " : "") + std::to_string(c[i]);
  return s + ")";
}

GridStyle gridStyle(const std::vector<OutDim>& dims, size_t labelChars) {
  uint64_t elements = 1;
  for (const OutDim& d : dims) elements *= d.size;
  uint64_t columns = dims.size() >= 2 ? dims[1].size : dims.empty() ? 1 : dims[0].size;
  GridStyle s;
  if (elements <= 1024 && columns <= 64) {
    s.labels = true;
    s.fontSize = 8.5;
    s.height = 20;
    s.width = std::max(20.0, 0.62 * s.fontSize * static_cast<double>(labelChars) + 6);
  } else {
    s.width = s.height = std::clamp(960.0 / static_cast<double>(columns), 3.0, 16.0);
  }
  return s;
}

double drawGrid(Svg& svg, double x, double y, const std::vector<OutDim>& dims,
                const std::function<Cell(uint64_t)>& cellAt, const GridStyle& style,
                const std::string& idPrefix) {
  uint64_t rows = dims.size() >= 2 ? dims[0].size : 1;
  uint64_t columns = dims.size() >= 2 ? dims[1].size : dims.empty() ? 1 : dims[0].size;
  uint64_t slice = rows * columns, elements = slice;
  for (size_t k = 2; k < dims.size(); ++k) elements *= dims[k].size;
  std::string rowName = dims.size() >= 2 ? dims[0].name : "";
  std::string columnName = dims.empty() ? "" : dims.size() >= 2 ? dims[1].name : dims[0].name;
  const double ruler = 8;
  uint64_t columnStep = rulerStep(style.width, ruler, columns);
  uint64_t rowStep = rulerStep(style.height, ruler * 1.6, rows);
  for (uint64_t base = 0; base < elements; base += slice) {
    if (dims.size() > 2) {
      std::string name = "slice";
      std::vector<uint64_t> c = coordinates(dims, base);
      for (size_t k = 2; k < dims.size(); ++k)
        name += " " + dims[k].name + " = " + std::to_string(c[k]);
      svg.text(x, y + 10, name, 10, "start", {0, 0, 0}, true);
      y += 14;
    }
    svg.text(x + kRuler, y + 8, columnName + " \u2192", ruler, "start", {90, 90, 90});
    if (!rowName.empty())
      svg.text(x + 2, y + 20, rowName + " \u2193", ruler, "start", {90, 90, 90});
    double top = y + kRuler, left = x + kRuler + (rowName.empty() ? 0 : 12);
    for (uint64_t j = 0; j < columns; j += columnStep)
      svg.text(left + (static_cast<double>(j) + 0.5) * style.width, top - 3, std::to_string(j),
               ruler, "middle", {90, 90, 90});
    for (uint64_t i = 0; i < rows; i += rowStep)
      svg.text(left - 3, top + (static_cast<double>(i) + 0.5) * style.height + 3, std::to_string(i),
               ruler, "end", {90, 90, 90});
    for (uint64_t i = 0; i < rows; ++i)
      for (uint64_t j = 0; j < columns; ++j) {
        uint64_t flat = base + (dims.size() >= 2 ? i + rows * j : j);
        Cell cell = cellAt(flat);
        std::vector<uint64_t> c = coordinates(dims, flat);
        std::string key, id = idPrefix + "e";
        for (size_t k = 0; k < c.size(); ++k) {
          key += (k ? "," : "") + std::to_string(c[k]);
          id += "-" + std::to_string(c[k]);
        }
        Attributes attributes = {{"class", "cell"}, {"id", id}, {"data-element", key}};
        attributes.insert(attributes.end(), cell.data.begin(), cell.data.end());
        double cx = left + static_cast<double>(j) * style.width;
        double cy = top + static_cast<double>(i) * style.height;
        svg.rect(cx, cy, style.width, style.height, cell.fill, attributes, cell.tooltip);
        if (style.labels && !cell.label.empty())
          svg.text(cx + style.width / 2, cy + style.height / 2 + style.fontSize * 0.35, cell.label,
                   style.fontSize, "middle", textColorOn(cell.fill));
      }
    y = top + static_cast<double>(rows) * style.height + 10;
  }
  return y;
}

}  // namespace f2lay::tools::pictures
