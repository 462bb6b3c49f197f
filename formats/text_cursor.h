// A small scanner for the two text formats (Triton's toString text and the
// MLIR attribute). It tracks line and column so that every error names the
// position and the problem, and it never reads past the end of its input.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

namespace f2lay {

class TextCursor {
 public:
  explicit TextCursor(std::string_view text) : text_(text) {}

  bool atEnd() const { return pos_ >= text_.size(); }
  char peek() const { return atEnd() ? '\0' : text_[pos_]; }
  bool startsWith(std::string_view s) const { return text_.substr(pos_, s.size()) == s; }
  // What is left to read, and a step over `n` of its characters.
  std::string_view rest() const { return text_.substr(pos_); }
  void skip(size_t n) { pos_ += std::min(n, text_.size() - pos_); }
  // Skips spaces and tabs, and newlines too when `newlines` is set.
  void skipBlanks(bool newlines = true);
  // Consumes `s` if it is next; otherwise leaves the cursor and returns false.
  bool accept(std::string_view s);
  // Consumes `s` or throws "expected <what>".
  void expect(std::string_view s, std::string_view what = {});
  std::string identifier(std::string_view what);
  // A decimal integer in [0, 2^64).
  uint64_t unsignedInteger(std::string_view what);
  // Throws f2lay::Error("<format>: line L, column C: message").
  [[noreturn]] void fail(const std::string& message) const;
  void setFormatName(std::string name) { format_ = std::move(name); }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  std::string format_ = "text";
};

}  // namespace f2lay
