// A compiled Triton kernel's TTGIR, as Triton prints it (`.asm["ttgir"]`),
// read for what an audit of its layouts needs: the module's warps and target,
// and each operation with its values' types, their layout attributes, and the
// Python line it came from.
//
// The reader is not an MLIR parser. It relies on how Triton prints a module:
//   - aliases first, one a line: "#blocked = #ttg.blocked<{...}>",
//     "#loc3 = loc(\"kernel.py\":9:53)";
//   - the module's attributes on the "module attributes {...}" line;
//   - one operation a line: "%r = ttg.convert_layout %x : tensor<...> ->
//     tensor<...> loc(#loc8)"; an operation with regions (scf.for,
//     tt.reduce) opens them at its line's end, and its body's operations come
//     on their own lines, so each is read all the same.
// Types are read from an operation's trailing signature (after the last " : "
// outside brackets): every tensor<...> and !ttg.memdesc<...>, those before
// "->" being operands' and those after it results' (a memdesc an op prints
// as a bare "<64x64xf16, #shared, ...>" too). Other types are skipped.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace f2lay {

// A tensor or shared/tensor-memory descriptor type.
struct TtgirType {
  std::string text;            // as printed: "tensor<32x32xi8, #blocked1>"
  bool memdesc = false;        // !ttg.memdesc<...>, else tensor<...>
  std::vector<int64_t> shape;  // the logical shape
  std::vector<int64_t> alloc;  // a memdesc's allocation shape (its shape when not printed)
  std::string element;         // f16, i8, !tt.ptr<f32>, ...
  std::string encodingText;    // the layout as printed: "#blocked1", "#ttg.slice<...>"
  nlohmann::json encoding;     // its value (mlir_text.h), null when there is none
  std::string encodingError;   // why the encoding could not be read ("" when it was)
  std::string memorySpace;     // a memdesc's: "ttg.shared_memory", "ttng.tensor_memory"
  bool mutableMemory = false;
};

struct TtgirLocation {
  std::string file;  // as printed (Triton prints the source's path)
  int line = 0, column = 0;
};

struct TtgirOp {
  std::string name;                   // "ttg.convert_layout"
  std::vector<std::string> results;   // "%5"
  std::vector<std::string> operands;  // "%0" (in order of appearance)
  std::vector<TtgirType> operandTypes, resultTypes;
  std::optional<TtgirLocation> location;
  int textLine = 0;  // the line of the TTGIR text (1-based)
  std::string text;  // the line, without its leading blanks and trailing loc(...)
  // The scf.for ops this op runs inside, outermost first (indices into
  // TtgirModule::ops): regions are read from the braces that end and start
  // lines, as Triton prints them.
  std::vector<size_t> loops;
};

struct TtgirModule {
  int numWarps = 0, threadsPerWarp = 0, numCtas = 1;
  std::string target;  // "cuda:90", "hip:gfx942"
  std::vector<TtgirOp> ops;
};

// Reads a TTGIR module.
//   Requires: text as Triton prints it (above).
//   Throws: f2lay::Error naming the line and what is wrong for a module it cannot
//     read: no "module attributes" line, an alias that cannot be read or is
//     defined twice, a type that does not close. A layout attribute that is
//     read but unknown to f2lay is no error here (TtgirType::encoding keeps it),
//     nor is one whose text cannot be read (encodingError says why), so that
//     the audit names it instead of dropping it.
TtgirModule readTtgir(std::string_view text);

}  // namespace f2lay
