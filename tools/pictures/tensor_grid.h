// The tensor drawn as a grid of cells, shared by the distributed and the
// memory pictures: dim0 down (rows), dim1 across (columns), as in the paper's
// Figure 1 and Triton's (row, column); a rank-1 tensor is one row; each value
// of the dims past the second is its own grid ("slice dim2 = k"), stacked.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "formats/layout_value.h"
#include "tools/pictures/svg.h"

namespace f2lay::tools::pictures {

struct Cell {
  Rgb fill;
  std::string label;    // drawn inside the cell when the grid has labels
  std::string tooltip;  // the cell's <title>
  Attributes data;      // more attributes of the cell's <rect> (data-*)
};

// Cells big enough for labels of `labelChars` characters while the tensor is
// small (at most 1,024 elements, 64 columns); past that, colored squares that
// shrink with the width (16 to 3 pixels), without labels.
struct GridStyle {
  double width = 16, height = 16;
  bool labels = false;
  double fontSize = 8;
};
GridStyle gridStyle(const std::vector<OutDim>& dims, size_t labelChars);

// The most elements a picture draws (a 256 x 256 tensor).
inline constexpr uint64_t kMostElements = uint64_t{1} << 16;

// Draws every element (flat index: dim0 in the lowest bits, as f2lay's
// layouts flatten their out dims) at (x, y), with index rulers, and returns
// the bottom edge. Each cell's <rect> has class "cell", data-element "i,j,..."
// and id "<idPrefix>e-i-j-...".
double drawGrid(Svg& svg, double x, double y, const std::vector<OutDim>& dims,
                const std::function<Cell(uint64_t)>& cellAt, const GridStyle& style,
                const std::string& idPrefix);

// The coordinates of flat index `flat`: one value per dim.
std::vector<uint64_t> coordinates(const std::vector<OutDim>& dims, uint64_t flat);
// "(2, 3)".
std::string coordinateText(const std::vector<uint64_t>& c);

}  // namespace f2lay::tools::pictures
