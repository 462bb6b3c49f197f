// A small SVG writer for `f2lay show --svg`: rectangles and text in absolute
// pixel coordinates, the document's size taken from what was drawn. Text stays
// text (<text> elements), so a browser can select and search it; every
// attribute value and text is XML-escaped here, once.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace f2lay::tools::pictures {

// An sRGB color, written #rrggbb.
struct Rgb {
  uint8_t r = 0, g = 0, b = 0;
  std::string hex() const;
  bool operator==(const Rgb&) const = default;
};

// Extra attributes of an element: name, value (escaped when written).
using Attributes = std::vector<std::pair<std::string, std::string>>;

class Svg {
 public:
  // A filled rectangle with a thin border; `tooltip` becomes its <title>
  // (what a viewer shows on hover), omitted when empty.
  void rect(double x, double y, double w, double h, Rgb fill, const Attributes& attributes = {},
            const std::string& tooltip = "", Rgb stroke = {160, 160, 160});
  // Text whose baseline starts (anchor "start"), centers ("middle") or ends
  // ("end") at x.
  void text(double x, double y, const std::string& content, double size = 12,
            const char* anchor = "start", Rgb fill = {0, 0, 0}, bool bold = false,
            const Attributes& attributes = {});
  // Opens <g> with these attributes; close() ends it.
  void group(const Attributes& attributes);
  void close();
  // The whole document: width and height reach what was drawn, plus a margin.
  std::string document() const;

  double right() const { return right_; }
  double bottom() const { return bottom_; }

 private:
  void reach(double x, double y);
  std::string body_;
  double right_ = 0, bottom_ = 0;
  int open_ = 0;
};

// Text and attribute values with &, <, >, " and ' escaped.
std::string xmlEscape(const std::string& s);

}  // namespace f2lay::tools::pictures
