#include "formats/text_cursor.h"

#include "formats/error.h"

namespace f2lay {

void TextCursor::skipBlanks(bool newlines) {
  while (!atEnd()) {
    char c = text_[pos_];
    bool blank = c == ' ' || c == '\t' || c == '\r' || (newlines && c == '\n');
    if (!blank) return;
    ++pos_;
  }
}

bool TextCursor::accept(std::string_view s) {
  if (!startsWith(s)) return false;
  pos_ += s.size();
  return true;
}

void TextCursor::expect(std::string_view s, std::string_view what) {
  if (accept(s)) return;
  std::string want = what.empty() ? "'" + std::string(s) + "'" : std::string(what);
  std::string found = atEnd() ? "end of input" : "'" + std::string(text_.substr(pos_, 12)) + "'";
  fail("expected " + want + ", found " + found);
}

std::string TextCursor::identifier(std::string_view what) {
  size_t start = pos_;
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (atEnd() || !letter(text_[pos_])) fail("expected " + std::string(what) + " (an identifier)");
  while (!atEnd() &&
         (letter(text_[pos_]) || (text_[pos_] >= '0' && text_[pos_] <= '9') || text_[pos_] == '.'))
    ++pos_;
  return std::string(text_.substr(start, pos_ - start));
}

uint64_t TextCursor::unsignedInteger(std::string_view what) {
  if (atEnd() || text_[pos_] < '0' || text_[pos_] > '9')
    fail("expected " + std::string(what) + " (a non-negative integer)");
  uint64_t value = 0;
  while (!atEnd() && text_[pos_] >= '0' && text_[pos_] <= '9') {
    uint64_t digit = static_cast<uint64_t>(text_[pos_] - '0');
    if (value > (UINT64_MAX - digit) / 10) fail(std::string(what) + " does not fit in 64 bits");
    value = value * 10 + digit;
    ++pos_;
  }
  return value;
}

void TextCursor::fail(const std::string& message) const {
  size_t line = 1, column = 1;
  for (size_t i = 0; i < pos_ && i < text_.size(); ++i) {
    if (text_[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  throw Error(format_ + ": line " + std::to_string(line) + ", column " + std::to_string(column) +
              ": " + message);
}

}  // namespace f2lay
