#include "formats/cute_text.h"

#include "formats/error.h"
#include "formats/text_cursor.h"

namespace f2lay {

namespace {

// Deeper nesting than any CuTe layout has; the bound keeps the recursive
// reader's stack small on malformed text.
constexpr int kMaxDepth = 32;

bool isDigit(char c) { return c >= '0' && c <= '9'; }

class CuteReader {
 public:
  explicit CuteReader(std::string_view text) : in_(text) { in_.setFormatName("CuTe text"); }

  CuteText read() {
    CuteText out;
    in_.skipBlanks();
    if (in_.startsWith("Sw<") || in_.startsWith("SW_")) {
      out.swizzle = swizzle();
      word("o", "'o' after the swizzle (Swizzle o offset o layout)");
      out.offset = integer("the offset (CuTe prints _0)");
      word("o", "'o' after the offset (Swizzle o offset o layout)");
    }
    out.layout = layout();
    in_.skipBlanks();
    if (!in_.atEnd()) fail("the end of the layout");
    return out;
  }

 private:
  [[noreturn]] void fail(const std::string& expected) {
    std::string_view r = in_.rest();
    in_.fail("expected " + expected + ", found " +
             (r.empty() ? "end of input" : "'" + std::string(r.substr(0, 12)) + "'"));
  }

  bool accept(std::string_view s) {
    in_.skipBlanks();
    return in_.accept(s);
  }
  void expect(std::string_view s, const std::string& what) {
    if (!accept(s)) fail(what);
  }
  // The word `w` standing alone, followed by a blank.
  void word(std::string_view w, const std::string& what) {
    in_.skipBlanks();
    std::string_view r = in_.rest();
    bool alone =
        r.substr(0, w.size()) == w && r.size() > w.size() &&
        (r[w.size()] == ' ' || r[w.size()] == '\t' || r[w.size()] == '\n' || r[w.size()] == '\r');
    if (!alone) fail(what);
    in_.skip(w.size());
  }

  int64_t integer(const std::string& what) {
    in_.skipBlanks();
    std::string_view r = in_.rest();
    size_t i = 0;
    if (i < r.size() && r[i] == '_') ++i;  // a static integer, _8
    bool negative = i < r.size() && r[i] == '-';
    if (negative) ++i;
    if (i >= r.size() || !isDigit(r[i])) fail(what + " (an integer)");
    uint64_t magnitude = 0;
    for (; i < r.size() && isDigit(r[i]); ++i) {
      uint64_t digit = static_cast<uint64_t>(r[i] - '0');
      if (magnitude > (uint64_t{1} << 63) / 10 ||
          magnitude * 10 + digit > (uint64_t{1} << 63) - (negative ? 0 : 1))
        in_.fail(what + ": the integer does not fit in 64 bits (signed)");
      magnitude = magnitude * 10 + digit;
    }
    in_.skip(i);
    return negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
  }

  int smallInteger(const std::string& what) {
    int64_t v = integer(what);
    if (v < -62 || v > 62) in_.fail(what + " = " + std::to_string(v) + " is beyond 62 bits");
    return static_cast<int>(v);
  }

  CuteSwizzle swizzle() {
    CuteSwizzle sw;
    if (accept("Sw<")) {  // C++: Sw<B,M,S>
      sw.bits = smallInteger("B of Sw<B,M,S>");
      expect(",", "',' after B in Sw<B,M,S>");
      sw.base = smallInteger("M of Sw<B,M,S>");
      expect(",", "',' after M in Sw<B,M,S>");
      sw.shift = smallInteger("S of Sw<B,M,S>");
      expect(">", "'>' closing Sw<B,M,S>");
    } else {  // pycute: SW_B_M_S
      expect("SW_", "Sw<B,M,S> or SW_B_M_S");
      sw.bits = smallInteger("B of SW_B_M_S");
      expect("_", "'_' after B in SW_B_M_S");
      sw.base = smallInteger("M of SW_B_M_S");
      expect("_", "'_' after M in SW_B_M_S");
      sw.shift = smallInteger("S of SW_B_M_S");
    }
    return sw;
  }

  CuteTuple tuple(const std::string& what, int depth) {
    if (!accept("(")) return CuteTuple(integer(what + ": an integer or '('"));
    if (depth >= kMaxDepth)
      in_.fail(what + ": tuples nested deeper than " + std::to_string(kMaxDepth));
    std::vector<CuteTuple> items;
    in_.skipBlanks();
    if (in_.startsWith(")")) in_.fail(what + ": an empty tuple () has no size");
    for (;;) {
      items.push_back(tuple(what, depth + 1));
      if (accept(")")) break;
      expect(",", "',' or ')' in the " + what);
      if (accept(")")) break;  // Python's 1-tuple (8,)
    }
    return CuteTuple(std::move(items));
  }

  CuteLayout layout() {
    CuteTuple shape = tuple("shape", 0);
    expect(":", "':' between the shape and the stride");
    CuteTuple stride = tuple("stride", 0);
    // A tuple's items are the modes; an integer is one mode.
    auto modes = [](CuteTuple t) {
      return t.isTuple() ? std::move(t.items) : std::vector<CuteTuple>{std::move(t)};
    };
    return {modes(std::move(shape)), modes(std::move(stride))};
  }

  TextCursor in_;
};

void writeTuple(const CuteTuple& t, CuteStyle style, std::string& out) {
  if (!t.isTuple()) {
    out += std::to_string(t.value);
    return;
  }
  out += '(';
  for (size_t i = 0; i < t.items.size(); ++i) {
    if (i) out += style == CuteStyle::Pycute ? ", " : ",";
    writeTuple(t.items[i], style, out);
  }
  if (style == CuteStyle::Pycute && t.items.size() == 1) out += ',';
  out += ')';
}

std::string modesText(const std::vector<CuteTuple>& modes, CuteStyle style) {
  std::string out;
  if (modes.size() == 1 && !modes[0].isTuple()) {
    writeTuple(modes[0], style, out);  // an integer shape: "8:1"
  } else {
    writeTuple(CuteTuple(modes), style, out);
  }
  return out;
}

}  // namespace

CuteLayout flatCuteLayout(const std::vector<uint64_t>& shape, const std::vector<int64_t>& stride) {
  CuteLayout l;
  for (uint64_t s : shape) l.shape.emplace_back(static_cast<int64_t>(s));
  for (int64_t d : stride) l.stride.emplace_back(d);
  return l;
}

CuteText readCuteText(std::string_view text) { return CuteReader(text).read(); }

std::string writeCuteText(const CuteText& t, CuteStyle style) {
  std::string layout = modesText(t.layout.shape, style) + ":" + modesText(t.layout.stride, style);
  if (t.swizzle == CuteSwizzle{} && t.offset == 0) return layout;
  const CuteSwizzle& sw = t.swizzle;
  if (style == CuteStyle::Pycute)
    return "SW_" + std::to_string(sw.bits) + "_" + std::to_string(sw.base) + "_" +
           std::to_string(sw.shift) + " o " + std::to_string(t.offset) + " o " + layout;
  return "Sw<" + std::to_string(sw.bits) + "," + std::to_string(sw.base) + "," +
         std::to_string(sw.shift) + "> o _" + std::to_string(t.offset) + " o " + layout;
}

std::string cuteTupleText(const std::vector<CuteTuple>& items) {
  std::string out;
  writeTuple(CuteTuple(items), CuteStyle::Cpp, out);
  return out;
}

bool looksLikeCuteText(std::string_view text) {
  size_t i = text.find_first_not_of(" \t\r\n");
  if (i == std::string_view::npos) return false;
  std::string_view t = text.substr(i);
  if (t.substr(0, 3) == "Sw<" || t.substr(0, 3) == "SW_") return true;
  if (t[0] == '(') return t.substr(0, 13) != "(empty layout";
  if (t[0] == '-') return t.size() > 1 && isDigit(t[1]);  // Triton's lines start "- "
  return isDigit(t[0]) || t[0] == '_';
}

}  // namespace f2lay
