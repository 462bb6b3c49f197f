#include "tools/pictures/svg.h"

#include <algorithm>
#include <cstdio>

#include "formats/error.h"

namespace f2lay::tools::pictures {

namespace {

constexpr double kMargin = 8;

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string attributeText(const Attributes& attributes) {
  std::string s;
  for (const auto& [name, value] : attributes) s += " " + name + "=\"" + xmlEscape(value) + "\"";
  return s;
}

}  // namespace

std::string Rgb::hex() const {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", r, g, b);
  return buf;
}

std::string xmlEscape(const std::string& s) {
  std::string out;
  for (char c : s) switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  return out;
}

void Svg::reach(double x, double y) {
  right_ = std::max(right_, x);
  bottom_ = std::max(bottom_, y);
}

void Svg::rect(double x, double y, double w, double h, Rgb fill, const Attributes& attributes,
               const std::string& tooltip, Rgb stroke) {
  body_ += "<rect x=\"" + number(x) + "\" y=\"" + number(y) + "\" width=\"" + number(w) +
           "\" height=\"" + number(h) + "\" fill=\"" + fill.hex() + "\" stroke=\"" + stroke.hex() +
           "\" stroke-width=\"0.5\"" + attributeText(attributes);
  body_ += tooltip.empty() ? "/>\n" : "><title>" + xmlEscape(tooltip) + "</title></rect>\n";
  reach(x + w, y + h);
}

void Svg::text(double x, double y, const std::string& content, double size, const char* anchor,
               Rgb fill, bool bold, const Attributes& attributes) {
  body_ += "<text x=\"" + number(x) + "\" y=\"" + number(y) + "\" font-size=\"" + number(size) +
           "\" text-anchor=\"" + anchor + "\" fill=\"" + fill.hex() + "\"" +
           (bold ? " font-weight=\"bold\"" : "") + attributeText(attributes) + ">" +
           xmlEscape(content) + "</text>\n";
  // An estimate of the text's extent (0.6 em a character), so that the
  // document is wide enough for it.
  double width = 0.6 * size * static_cast<double>(content.size());
  std::string a = anchor;
  reach(a == "start" ? x + width : a == "middle" ? x + width / 2 : x, y + 0.3 * size);
}

void Svg::group(const Attributes& attributes) {
  body_ += "<g" + attributeText(attributes) + ">\n";
  ++open_;
}

void Svg::close() {
  if (open_ == 0) throw Error("svg: close() without an open group");
  body_ += "</g>\n";
  --open_;
}

std::string Svg::document() const {
  if (open_ != 0) throw Error("svg: a group left open");
  double w = right_ + kMargin, h = bottom_ + kMargin;
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
         number(w) + "\" height=\"" + number(h) + "\" viewBox=\"0 0 " + number(w) + " " +
         number(h) +
         "\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n"
         "<rect x=\"0\" y=\"0\" width=\"" +
         number(w) + "\" height=\"" + number(h) + "\" fill=\"#ffffff\"/>\n" + body_ + "</svg>\n";
}

}  // namespace f2lay::tools::pictures
