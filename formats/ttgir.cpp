#include "formats/ttgir.h"

#include <cctype>
#include <set>

#include "formats/error.h"
#include "formats/mlir_text.h"
#include "formats/text_cursor.h"

namespace f2lay {

namespace {

using nlohmann::json;

struct Line {
  std::string_view text;  // without the leading blanks
  int number = 0;
};

std::vector<Line> splitLines(std::string_view text) {
  std::vector<Line> lines;
  int number = 0;
  while (!text.empty()) {
    size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    size_t start = line.find_first_not_of(" \t\r");
    lines.push_back(
        {start == std::string_view::npos ? std::string_view{} : line.substr(start), ++number});
  }
  return lines;
}

[[noreturn]] void failAt(int line, const std::string& message) {
  throw Error("TTGIR: line " + std::to_string(line) + ": " + message);
}

// A cursor over one line whose errors name the TTGIR line, not the cursor's.
TextCursor lineCursor(std::string_view text, int line) {
  TextCursor in(text);
  in.setFormatName("TTGIR line " + std::to_string(line));
  return in;
}

// The aliases ("#name = value" lines), each read when first used; locations
// ("#loc3 = loc(...)") are kept apart as text.
class Aliases {
 public:
  void define(const std::string& name, std::string_view value, int line) {
    if (text_.count(name)) failAt(line, "the alias #" + name + " is defined twice");
    text_[name] = {value, line};
  }
  bool has(const std::string& name) const { return text_.count(name) > 0; }
  std::string_view text(const std::string& name) const { return text_.at(name).first; }

  json value(const std::string& name) {
    if (auto it = values_.find(name); it != values_.end()) return it->second;
    auto it = text_.find(name);
    if (it == text_.end()) throw Error("the alias #" + name + " is not defined");
    if (!reading_.insert(name).second) throw Error("the alias #" + name + " refers to itself");
    TextCursor in = lineCursor(it->second.first, it->second.second);
    json v = readMlirValue(in, resolver());
    reading_.erase(name);
    return values_[name] = v;
  }
  MlirAliases resolver() {
    return [this](const std::string& n) { return value(n); };
  }

 private:
  std::map<std::string, std::pair<std::string_view, int>> text_;
  std::map<std::string, json> values_;
  std::set<std::string> reading_;
};

// loc(...)'s body: "file":line:col, "name"(inner), callsite(a at b),
// fused[a, b], #locN or unknown. The first file position found wins: for a
// named or fused location that is the Python line Triton attached; for a
// call site, the caller's.
std::optional<TtgirLocation> resolveLocation(std::string_view body, const Aliases& aliases,
                                             int depth = 0) {
  if (depth > 64) return std::nullopt;  // a cycle: no location
  TextCursor in(body);
  in.skipBlanks();
  if (in.accept("loc(")) return resolveLocation(in.rest(), aliases, depth + 1);
  if (in.accept("#")) {
    std::string name;
    while (!in.atEnd() && (std::isalnum(static_cast<unsigned char>(in.peek())) || in.peek() == '_'))
      name += in.peek(), in.skip(1);
    if (!aliases.has(name)) return std::nullopt;
    return resolveLocation(aliases.text(name), aliases, depth + 1);
  }
  if (in.accept("callsite(")) {
    // callsite(callee at caller): the caller's line is the kernel's (a
    // tl.max's reduce is called from the kernel into Triton's standard.py).
    std::string_view rest = in.rest();
    int open = 0;
    for (size_t i = 0; i < rest.size() && open >= 0; ++i) {
      char c = rest[i];
      open += (c == '(' || c == '[' || c == '<') - (c == ')' || c == ']' || c == '>');
      if (open == 0 && rest.substr(i).starts_with(" at "))
        if (auto caller = resolveLocation(rest.substr(i + 4), aliases, depth + 1)) return caller;
    }
    return resolveLocation(rest, aliases, depth + 1);
  }
  if (in.accept("fused[") || in.accept("fused<")) {
    if (in.startsWith("{")) readBalanced(in), in.accept(">"), in.accept("[");
    return resolveLocation(in.rest(), aliases, depth + 1);
  }
  if (in.peek() != '"') return std::nullopt;
  std::string file;
  in.skip(1);
  while (!in.atEnd() && in.peek() != '"') file += in.peek(), in.skip(1);
  in.skip(1);
  if (in.accept("(")) return resolveLocation(in.rest(), aliases, depth + 1);
  if (!in.accept(":") || !std::isdigit(static_cast<unsigned char>(in.peek()))) return std::nullopt;
  TtgirLocation loc{file, 0, 0};
  loc.line = static_cast<int>(in.unsignedInteger("a line"));
  if (in.accept(":") && std::isdigit(static_cast<unsigned char>(in.peek())))
    loc.column = static_cast<int>(in.unsignedInteger("a column"));
  return loc;
}

std::vector<int64_t> readDims(TextCursor& in) {
  std::vector<int64_t> dims;
  while (std::isdigit(static_cast<unsigned char>(in.peek()))) {
    TextCursor probe = in;
    uint64_t d = probe.unsignedInteger("a dimension");
    if (!probe.accept("x")) break;  // a number that is not a dimension
    dims.push_back(static_cast<int64_t>(d));
    in = probe;
  }
  return dims;
}

// tensor<...> or !ttg.memdesc<...>, its '<' at the cursor; the cursor ends
// after the closing '>'.
TtgirType readType(TextCursor& in, bool memdesc, Aliases& aliases, int line) {
  TextCursor body = lineCursor(readBalanced(in), line);
  body.expect("<");
  TtgirType t;
  t.memdesc = memdesc;
  t.shape = readDims(body);
  if (body.peek() == '!') {
    std::string_view start = body.rest();
    while (!body.atEnd() && body.peek() != '<' && body.peek() != ',' && body.peek() != '>')
      body.skip(1);
    if (body.startsWith("<")) readBalanced(body);
    t.element = std::string(start.substr(0, start.size() - body.rest().size()));
  } else {
    while (!body.atEnd() && std::isalnum(static_cast<unsigned char>(body.peek())))
      t.element += body.peek(), body.skip(1);
  }
  if (t.element.empty()) body.fail("expected an element type");
  t.alloc = t.shape;
  if (!body.accept(",")) return t;
  body.skipBlanks();
  std::string_view start = body.rest();
  try {
    t.encoding = readMlirValue(body, aliases.resolver());
    t.encodingText = std::string(start.substr(0, start.size() - body.rest().size()));
  } catch (const Error& e) {
    // Keep going without it: the audit names the attribute it cannot read.
    t.encodingError = e.what();
    t.encodingText = std::string(start.substr(0, start.find_first_of(",>")));
    return t;
  }
  while (body.accept(",")) {
    body.skipBlanks();
    if (body.accept("mutable")) {
      t.mutableMemory = true;
    } else if (std::isdigit(static_cast<unsigned char>(body.peek()))) {
      t.alloc = readDims(body);
      t.alloc.push_back(static_cast<int64_t>(body.unsignedInteger("a dimension")));
    } else {
      json space = readMlirValue(body, aliases.resolver());
      if (space.is_object() && space.contains("#")) t.memorySpace = space["#"];
    }
  }
  return t;
}

// Index of the last " : " outside brackets and strings, or npos.
size_t signatureStart(std::string_view text) {
  size_t found = std::string_view::npos;
  int depth = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') inString = !inString;
    if (inString) continue;
    if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
    if (c == ')' || c == ']' || c == '}' || (c == '>' && (i == 0 || text[i - 1] != '-'))) --depth;
    if (depth == 0 && c == ':' && i > 0 && text[i - 1] == ' ' && i + 1 < text.size() &&
        text[i + 1] == ' ')
      found = i;
  }
  return found;
}

void readSignature(std::string_view text, TtgirOp& op, Aliases& aliases) {
  TextCursor in = lineCursor(text, op.textLine);
  bool results = false;
  while (!in.atEnd()) {
    if (in.startsWith("->")) {
      results = true;
      in.skip(2);
    } else if (in.startsWith("tensor<") || in.startsWith("!ttg.memdesc<")) {
      bool memdesc = in.startsWith("!");
      std::string_view start = in.rest();
      in.skip(memdesc ? 12 : 6);
      TtgirType type = readType(in, memdesc, aliases, op.textLine);
      type.text = std::string(start.substr(0, start.size() - in.rest().size()));
      (results ? op.resultTypes : op.operandTypes).push_back(std::move(type));
    } else if (in.peek() == '!') {
      // Another dialect type (!tt.tensordesc<...>, !tt.ptr<...>): skipped whole.
      in.skip(1);
      while (!in.atEnd() && (std::isalnum(static_cast<unsigned char>(in.peek())) ||
                             in.peek() == '.' || in.peek() == '_'))
        in.skip(1);
      if (in.startsWith("<")) readBalanced(in);
    } else if (in.startsWith("<") && in.rest().size() > 1 &&
               std::isdigit(static_cast<unsigned char>(in.rest()[1]))) {
      // An op's own memory descriptor printed without its "!ttg.memdesc"
      // (async_copy_global_to_local's result: "-> <64x64xf16, #shared, ...>").
      std::string_view start = in.rest();
      TtgirType type = readType(in, true, aliases, op.textLine);
      type.text = "!ttg.memdesc" + std::string(start.substr(0, start.size() - in.rest().size()));
      (results ? op.resultTypes : op.operandTypes).push_back(std::move(type));
    } else if (in.peek() == '<') {
      readBalanced(in);  // another type's parameters
    } else {
      in.skip(1);
    }
  }
  // Without "->" the types are the results' (tt.make_range, arith ops: the
  // operands have the same types), or the operands' of an op without results
  // (tt.store).
  if (!results && !op.results.empty()) std::swap(op.operandTypes, op.resultTypes);
}

std::string valueName(TextCursor& in) {
  std::string name = "%";
  in.expect("%");
  while (!in.atEnd() && (std::isalnum(static_cast<unsigned char>(in.peek())) || in.peek() == '_' ||
                         in.peek() == '#'))
    name += in.peek(), in.skip(1);
  return name;
}

// "%a, %b:2 = name operands... : signature loc(...)", or without results.
std::optional<TtgirOp> readOp(const Line& line, Aliases& aliases) {
  std::string_view text = line.text;
  // The trailing loc(...) is split off first: its parentheses would hide the
  // signature's " : ".
  std::optional<TtgirLocation> location;
  if (size_t at = text.rfind(" loc("); at != std::string_view::npos) {
    location = resolveLocation(text.substr(at + 1), aliases);
    text = text.substr(0, at);
  }
  TtgirOp op;
  op.textLine = line.number;
  op.location = location;
  op.text = std::string(text);
  TextCursor in = lineCursor(text, line.number);
  if (in.startsWith("%")) {
    TextCursor probe = in;
    do {
      probe.skipBlanks();
      if (!probe.startsWith("%")) return std::nullopt;
      op.results.push_back(valueName(probe));
      if (probe.accept(":")) probe.unsignedInteger("a result count");
      probe.skipBlanks();
    } while (probe.accept(","));
    if (!probe.accept("=")) return std::nullopt;
    in = probe;
    in.skipBlanks();
  }
  bool generic = in.accept("\"");
  while (!in.atEnd() && (std::isalnum(static_cast<unsigned char>(in.peek())) || in.peek() == '_' ||
                         in.peek() == '.'))
    op.name += in.peek(), in.skip(1);
  if (generic) in.accept("\"");
  if (op.name.empty() || op.name.find('.') == std::string::npos) return std::nullopt;
  size_t colon = signatureStart(in.rest());
  std::string_view operands = in.rest().substr(0, colon);
  for (size_t at = operands.find('%'); at != std::string_view::npos;
       at = operands.find('%', at + 1)) {
    TextCursor name = lineCursor(operands.substr(at), line.number);
    op.operands.push_back(valueName(name));
  }
  if (colon != std::string_view::npos) readSignature(in.rest().substr(colon + 2), op, aliases);
  return op;
}

void readModuleAttributes(const Line& line, TtgirModule& module, Aliases& aliases) {
  TextCursor in = lineCursor(line.text, line.number);
  in.expect("module attributes");
  json attrs = readMlirValue(in, aliases.resolver());
  auto integer = [&](const char* key, int fallback) {
    if (!attrs.contains(key)) return fallback;
    if (!attrs[key].is_number_integer() || attrs[key].get<int64_t>() < 1 ||
        attrs[key].get<int64_t>() > 1 << 20)
      failAt(line.number, std::string("the module attribute \"") + key + "\" is not a count");
    return attrs[key].get<int>();
  };
  module.numWarps = integer("ttg.num-warps", 0);
  module.threadsPerWarp = integer("ttg.threads-per-warp", 0);
  module.numCtas = integer("ttg.num-ctas", 1);
  if (module.numWarps == 0 || module.threadsPerWarp == 0)
    failAt(line.number, "the module has no \"ttg.num-warps\" or \"ttg.threads-per-warp\"");
  if (attrs.contains("ttg.target") && attrs["ttg.target"].is_string())
    module.target = attrs["ttg.target"];
}

}  // namespace

TtgirModule readTtgir(std::string_view text) {
  std::vector<Line> lines = splitLines(text);
  Aliases aliases;
  for (const Line& line : lines) {
    if (!line.text.starts_with("#")) continue;
    size_t eq = line.text.find(" = ");
    if (eq == std::string_view::npos) failAt(line.number, "an alias line without ' = '");
    aliases.define(std::string(line.text.substr(1, eq - 1)), line.text.substr(eq + 3), line.number);
  }
  TtgirModule module;
  bool sawModule = false;
  // The open regions: the op that opened each (an index into module.ops), and
  // whether it is a loop (scf.for).
  struct Region {
    size_t op;
    bool loop;
  };
  std::vector<Region> regions;
  auto opens = [](std::string_view t) {
    size_t at = t.rfind(" loc(");
    if (at != std::string_view::npos) t = t.substr(0, at);
    return t.ends_with("{");
  };
  for (const Line& line : lines) {
    if (line.text.starts_with("module attributes")) {
      readModuleAttributes(line, module, aliases);
      sawModule = true;
    } else if (!sawModule || line.text.empty() || line.text[0] == '#' || line.text[0] == '^') {
      continue;
    } else if (line.text[0] == '}') {
      // "}", "} loc(...)", "} else {" (which opens another), or "}) : (...)
      // -> ... loc(...)": the end of an op printed in generic form (tt.reduce,
      // tt.scan), whose types and location come after its regions.
      if (regions.empty()) continue;
      Region closed = regions.back();
      regions.pop_back();
      if (opens(line.text)) regions.push_back({closed.op, false});
      if (line.text.starts_with("}) : ")) {
        // Read as the signature of an op of its own.
        std::string signature = "\"generic.tail\"" + std::string(line.text.substr(2));
        std::optional<TtgirOp> tail = readOp({signature, line.number}, aliases);
        TtgirOp& op = module.ops[closed.op];
        op.operandTypes = tail->operandTypes;
        op.resultTypes = tail->resultTypes;
        if (tail->location) op.location = tail->location;
      }
    } else if (std::optional<TtgirOp> op = readOp(line, aliases)) {
      for (const Region& r : regions)
        if (r.loop) op->loops.push_back(r.op);
      if (opens(line.text)) regions.push_back({module.ops.size(), op->name == "scf.for"});
      module.ops.push_back(std::move(*op));
    }
  }
  if (!sawModule)
    throw Error("TTGIR: no \"module attributes {...}\" line: is this Triton's TTGIR?");
  return module;
}

}  // namespace f2lay
