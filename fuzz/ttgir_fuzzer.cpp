// libFuzzer target: the TTGIR reader (formats/ttgir.h), which `f2lay audit`
// runs on compiled kernels. The input is the module's text. Bad input must
// end in f2lay::Error; anything else escaping, or a sanitizer's report, is a
// crash. Of a module that reads, the reader's promises are checked (its ops
// in text order, each op's loops earlier scf.for ops, an encoding that could
// not be read without a value), and the same text one line lower must read
// to the same module with every op's text line one more. A target of its
// own, not a reader byte of `readers`: modules run to kilobytes, and beside
// the layout readers' inputs of a few bytes they would slow them twentyfold.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "formats/error.h"
#include "formats/ttgir.h"
#include "fuzz/fail.h"

namespace {

[[noreturn]] void fail(const char* what) { f2lay::fuzz::fail("ttgir", what); }

// The parts of a module that do not depend on where its text starts (an
// encoding's error names its line: only whether there is one).
std::string describe(const f2lay::TtgirModule& m) {
  std::string s = std::to_string(m.numWarps) + " " + std::to_string(m.threadsPerWarp) + " " +
                  std::to_string(m.numCtas) + " " + m.target + "\n";
  auto type = [&](const f2lay::TtgirType& t) {
    s += " " + t.text + "|" + t.element + "|" + t.encodingText + "|" + t.encoding.dump() + "|" +
         (t.encodingError.empty() ? "" : "unread") + "|" + t.memorySpace +
         (t.memdesc ? "|m" : "|t") + (t.mutableMemory ? "|mutable" : "");
    for (int64_t d : t.shape) s += " " + std::to_string(d);
    s += " /";
    for (int64_t d : t.alloc) s += " " + std::to_string(d);
  };
  for (const f2lay::TtgirOp& op : m.ops) {
    s += op.name + " " + op.text;
    for (const std::string& r : op.results) s += " " + r;
    for (const std::string& o : op.operands) s += " " + o;
    for (const auto& t : op.operandTypes) type(t);
    s += " ->";
    for (const auto& t : op.resultTypes) type(t);
    if (op.location)
      s += " @" + op.location->file + ":" + std::to_string(op.location->line) + ":" +
           std::to_string(op.location->column);
    for (size_t l : op.loops) s += " in " + std::to_string(l);
    s += "\n";
  }
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  f2lay::TtgirModule m;
  try {
    m = f2lay::readTtgir(text);
  } catch (const f2lay::Error&) {
    return 0;  // refused, with a message: what bad input must get
  }
  size_t lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  for (size_t k = 0; k < m.ops.size(); ++k) {
    const f2lay::TtgirOp& op = m.ops[k];
    if (op.textLine < 1 || static_cast<size_t>(op.textLine) > lines ||
        (k > 0 && op.textLine <= m.ops[k - 1].textLine))
      fail("an op's text line is out of order or out of the text");
    for (size_t l = 0; l < op.loops.size(); ++l)
      if (op.loops[l] >= k || (l > 0 && op.loops[l] <= op.loops[l - 1]) ||
          m.ops[op.loops[l]].name != "scf.for")
        fail("an op's loops are not earlier scf.for ops, outermost first");
    for (const auto* types : {&op.operandTypes, &op.resultTypes})
      for (const f2lay::TtgirType& t : *types)
        if (!t.encodingError.empty() && !t.encoding.is_null())
          fail("an encoding that could not be read has a value");
  }
  std::string lower = "\n" + std::string(text);
  f2lay::TtgirModule again;
  try {
    again = f2lay::readTtgir(lower);
  } catch (const f2lay::Error&) {
    fail("a module that reads does not read one line lower");
  }
  if (describe(again) != describe(m) || again.ops.size() != m.ops.size())
    fail("one line lower, the module read is another");
  for (size_t k = 0; k < m.ops.size(); ++k)
    if (again.ops[k].textLine != m.ops[k].textLine + 1)
      fail("one line lower, an op's text line did not move by one");
  return 0;
}
