#include "tools/pictures/palette.h"

#include <algorithm>
#include <cmath>

namespace f2lay::tools::pictures {

namespace {

// HSL (hue in degrees, saturation and lightness in [0, 1]) to sRGB, the CSS
// Color 3 formula.
Rgb hsl(double hue, double saturation, double lightness) {
  double c = (1 - std::fabs(2 * lightness - 1)) * saturation;
  double h = std::fmod(hue, 360.0) / 60.0;
  double x = c * (1 - std::fabs(std::fmod(h, 2.0) - 1));
  double r = 0, g = 0, b = 0;
  if (h < 1)
    r = c, g = x;
  else if (h < 2)
    r = x, g = c;
  else if (h < 3)
    g = c, b = x;
  else if (h < 4)
    g = x, b = c;
  else if (h < 5)
    r = x, b = c;
  else
    r = c, b = x;
  double m = lightness - c / 2;
  auto byte = [&](double v) {
    return static_cast<uint8_t>(std::clamp(std::lround((v + m) * 255), 0L, 255L));
  };
  return {byte(r), byte(g), byte(b)};
}

}  // namespace

Rgb holderColor(uint64_t warp, uint64_t lane, uint64_t lanes) {
  double hue = std::fmod(static_cast<double>(warp) * 137.508, 360.0);
  double shade = lanes > 1 ? static_cast<double>(lane) / static_cast<double>(lanes - 1) : 0;
  return hsl(hue, 0.65, 0.88 - 0.5 * shade);
}

Rgb bankColor(uint64_t bank) {
  return hsl(static_cast<double>(bank / 2 % 16) * 22.5, 0.6, bank % 2 ? 0.55 : 0.75);
}

Rgb textColorOn(Rgb background) {
  // Relative luminance, roughly (Rec. 709 weights on the 8-bit values).
  double y = 0.2126 * background.r + 0.7152 * background.g + 0.0722 * background.b;
  return y > 140 ? Rgb{0, 0, 0} : Rgb{255, 255, 255};
}

}  // namespace f2lay::tools::pictures
