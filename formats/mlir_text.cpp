#include "formats/mlir_text.h"

#include "formats/error.h"

namespace f2lay {

namespace {

using nlohmann::json;

bool isWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '$' || c == '-';
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// A run of word characters: an alias, dialect attribute, key or type name.
std::string word(TextCursor& in, std::string_view what) {
  std::string w;
  while (!in.atEnd() && isWordChar(in.peek()) && !(w.empty() && in.peek() == '-')) {
    w += in.peek();
    in.skip(1);
  }
  if (w.empty()) in.fail("expected " + std::string(what));
  return w;
}

int64_t integer(TextCursor& in) {
  bool negative = in.accept("-");
  uint64_t magnitude = in.unsignedInteger("an integer");
  if (magnitude > static_cast<uint64_t>(INT64_MAX)) in.fail("the integer does not fit in 64 bits");
  return negative ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
}

// An integer's ": i32" annotation, which says nothing the audit needs.
void skipTypeAnnotation(TextCursor& in) {
  TextCursor probe = in;
  probe.skipBlanks();
  if (!probe.accept(":") || probe.startsWith(":")) return;
  probe.skipBlanks();
  if (probe.peek() != 'i' && probe.peek() != 'u' && probe.peek() != 's') return;
  word(probe, "a type");
  in = probe;
}

std::string quoted(TextCursor& in) {
  in.expect("\"");
  std::string s;
  while (!in.atEnd() && in.peek() != '"') {
    if (in.peek() == '\\') {
      in.skip(1);
      if (in.atEnd()) break;
    }
    s += in.peek();
    in.skip(1);
  }
  in.expect("\"", "a closing '\"'");
  return s;
}

// "key = value" or a unit key; the key is a word or a string.
void keyValue(TextCursor& in, const MlirAliases& aliases, json& into) {
  in.skipBlanks();
  std::string key = in.peek() == '"' ? quoted(in) : word(in, "a key");
  in.skipBlanks();
  if (in.accept("=")) {
    into[key] = readMlirValue(in, aliases);
  } else {
    into[key] = true;  // a unit attribute
  }
}

json dictionary(TextCursor& in, const MlirAliases& aliases) {
  in.expect("{");
  json d = json::object();
  in.skipBlanks();
  if (in.accept("}")) return d;
  do {
    keyValue(in, aliases, d);
    in.skipBlanks();
  } while (in.accept(","));
  in.expect("}", "',' or '}'");
  return d;
}

// One item of an array: a value, or padded_shared's "interval:+padding".
json arrayItem(TextCursor& in, const MlirAliases& aliases) {
  in.skipBlanks();
  if (isDigit(in.peek())) {
    TextCursor probe = in;
    int64_t interval = integer(probe);
    if (probe.accept(":+")) {
      int64_t padding = integer(probe);
      in = probe;
      return {{"interval", interval}, {"padding", padding}};
    }
  }
  return readMlirValue(in, aliases);
}

json array(TextCursor& in, const MlirAliases& aliases) {
  in.expect("[");
  json a = json::array();
  in.skipBlanks();
  if (in.accept("]")) return a;
  do {
    a.push_back(arrayItem(in, aliases));
    in.skipBlanks();
  } while (in.accept(","));
  in.expect("]", "',' or ']'");
  return a;
}

// array<i32: 1, 0>
json denseArray(TextCursor& in) {
  in.expect("array<");
  word(in, "the element type of array<...>");
  json a = json::array();
  in.skipBlanks();
  if (in.accept(":")) {
    do {
      in.skipBlanks();
      a.push_back(integer(in));
      in.skipBlanks();
    } while (in.accept(","));
  }
  in.expect(">", "',' or '>'");
  return a;
}

// True when the next item of a dialect attribute's body is "key = value".
bool atKeyValue(const TextCursor& in) {
  TextCursor probe = in;
  probe.skipBlanks();
  if (probe.atEnd() || !isWordChar(probe.peek()) || isDigit(probe.peek())) return false;
  word(probe, "a key");
  probe.skipBlanks();
  return probe.startsWith("=");
}

json dialectAttribute(TextCursor& in, const MlirAliases& aliases, const std::string& name) {
  json attr = {{"#", name}};
  if (!in.accept("<")) return attr;
  json args = json::array();
  in.skipBlanks();
  if (!in.accept(">")) {
    do {
      in.skipBlanks();
      if (atKeyValue(in)) {
        keyValue(in, aliases, attr);
      } else if (in.startsWith("{")) {
        json d = dictionary(in, aliases);
        attr.update(d);
      } else {
        args.push_back(arrayItem(in, aliases));
      }
      in.skipBlanks();
      // padded_shared prints its "{...}" after the intervals without a comma.
    } while (in.accept(",") || in.startsWith("{"));
    in.expect(">", "',' or '>'");
  }
  if (!args.empty()) attr["#args"] = args;
  return attr;
}

}  // namespace

std::string_view readBalanced(TextCursor& in) {
  std::string_view start = in.rest();
  std::string stack;
  do {
    if (in.atEnd())
      in.fail(std::string("a bracket is never closed (expected '") + stack.back() + "')");
    char c = in.peek();
    if (c == '"') {
      quoted(in);
      continue;
    }
    if (c == '<' || c == '(' || c == '[' || c == '{')
      stack += c == '<' ? '>' : c == '(' ? ')' : c == '[' ? ']' : '}';
    else if (!stack.empty() && c == stack.back())
      stack.pop_back();
    // "->" inside a group is an arrow, not a closing '>'.
    if (c == '-' && in.startsWith("->")) in.skip(1);
    in.skip(1);
  } while (!stack.empty());
  return start.substr(0, start.size() - in.rest().size());
}

json readMlirValue(TextCursor& in, const MlirAliases& aliases) {
  in.skipBlanks();
  char c = in.peek();
  if (c == '[') return array(in, aliases);
  if (c == '{') return dictionary(in, aliases);
  if (c == '"') return quoted(in);
  if (isDigit(c) || c == '-') {
    json n = integer(in);
    skipTypeAnnotation(in);
    return n;
  }
  if (c == '#') {
    in.skip(1);
    std::string name = word(in, "an attribute or alias name after '#'");
    // Dialect attributes are qualified (ttg.blocked); aliases are not.
    if (name.find('.') != std::string::npos) return dialectAttribute(in, aliases, name);
    return aliases(name);
  }
  if (in.startsWith("array<")) return denseArray(in);
  if (c == '!') {
    std::string_view start = in.rest();
    in.skip(1);
    word(in, "a type name after '!'");
    if (in.startsWith("<")) readBalanced(in);
    return std::string(start.substr(0, start.size() - in.rest().size()));
  }
  if (in.atEnd() || !isWordChar(c)) in.fail("expected an attribute value");
  std::string w = word(in, "an attribute value");
  if (w == "true") return true;
  if (w == "false") return false;
  if (in.startsWith("<"))
    in.fail("cannot read the attribute '" + w + "<...>' (not a layout's value)");
  return w;
}

}  // namespace f2lay
