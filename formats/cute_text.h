// CuTe's layouts as plain values, and CuTe's own text for them: syntax only.
// What a layout means (offsets, linearity over F2) is the catalog's
// (reference/catalog/cute.h); `f2lay convert` joins the two.
//
// A CuTe layout is shape:stride, two congruent IntTuples
// (include/cute/int_tuple.hpp): an integer, or a tuple of IntTuples. Its
// top-level modes are the tensor's dims (dim0 first); a mode that is a tuple
// is hierarchical, its leaves split the mode's 1-D coordinate
// colexicographically, leaf 0 fastest (include/cute/layout.hpp). A swizzled
// layout is CuTe's ComposedLayout Swizzle<B,M,S> o offset o layout.
//
// The text, in the two spellings CuTe's tools print:
//   C++ `print` (include/cute/layout.hpp, layout_composed.hpp, swizzle.hpp):
//     ((8,2),64):((64,4096),1)
//     Sw<3,4,3> o _0 o ((8,2),64):((64,4096),1)
//   pycute's str (nvidia-cutlass python/pycute/layout.py, swizzle.py):
//     ((8, 2), 64):((64, 4096), 1)
//     SW_3_4_3 o 0 o ((8, 2), 64):((64, 4096), 1)
// The reader takes either, blanks between any two tokens, CuTe's static
// integers (_8, _-1) as integers, a trailing comma in a tuple (Python's 1-tuple
// "(8,)"), and an integer shape ("8:1", one mode). The grammar:
//   text     := composed | layout
//   composed := swizzle "o" integer "o" layout
//   swizzle  := "Sw<" integer "," integer "," integer ">"
//             | "SW_" integer "_" integer "_" integer
//   layout   := tuple ":" tuple
//   tuple    := integer | "(" tuple ("," tuple)* [","] ")"
//   integer  := ["_"] ["-"] digits        (within int64)
// Every error names the line, the column and what was expected there.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace f2lay {

// CuTe's IntTuple: a leaf integer, or a non-empty tuple of IntTuples.
// Braces make a tuple: CuteTuple{8, 2} is (8,2) and CuteTuple{8} the
// 1-tuple (8); CuteTuple(8) and a bare 8 in a list are the leaf 8, so
// CuteLayout{{{8, 2}, 64}, {{64, 4096}, 1}} is ((8,2),64):((64,4096),1).
struct CuteTuple {
  int64_t value = 0;                            // a leaf's integer (0 for a tuple)
  std::vector<CuteTuple> items;                 // a tuple's items; empty for a leaf
  CuteTuple(int64_t leaf = 0) : value(leaf) {}  // NOLINT: a leaf reads as its integer
  CuteTuple(std::initializer_list<CuteTuple> tuple) : items(tuple) {}
  explicit CuteTuple(std::vector<CuteTuple> tuple) : items(std::move(tuple)) {}
  bool isTuple() const { return !items.empty(); }
  bool operator==(const CuteTuple& o) const { return value == o.value && items == o.items; }
};

// Swizzle<B,M,S>: B bits, base M, shift S (negative S shifts YYY left).
// CuTe asserts B >= 0, M >= 0, |S| >= B; Swizzle<0,0,0> is the identity.
struct CuteSwizzle {
  int bits = 0;
  int base = 0;
  int shift = 0;
  bool operator==(const CuteSwizzle& o) const {
    return bits == o.bits && base == o.base && shift == o.shift;
  }
};

// shape:stride by top-level modes, one per tensor dim (dim0 first); each mode
// a leaf or a nested tuple, the stride's congruent with the shape's.
struct CuteLayout {
  std::vector<CuteTuple> shape;
  std::vector<CuteTuple> stride;
  bool operator==(const CuteLayout& o) const { return shape == o.shape && stride == o.stride; }
};

// A flat layout: one leaf per mode.
CuteLayout flatCuteLayout(const std::vector<uint64_t>& shape, const std::vector<int64_t>& stride);

// What the text says: Swizzle o offset o layout (a plain layout has
// Swizzle<0,0,0> and offset 0).
struct CuteText {
  CuteSwizzle swizzle;
  int64_t offset = 0;
  CuteLayout layout;
  bool operator==(const CuteText& o) const {
    return swizzle == o.swizzle && offset == o.offset && layout == o.layout;
  }
};

enum class CuteStyle { Cpp, Pycute };

// Throws f2lay::Error("CuTe text: line L, column C: expected ..., found ...").
CuteText readCuteText(std::string_view text);
// A plain layout when the swizzle is Swizzle<0,0,0> and the offset 0, else the
// composed form. A layout of one leaf mode is written "8:1" (an integer
// shape), one of one tuple mode "((8,2)):((1,8))" (C++) or "((8, 2),):((1,
// 8),)" (pycute). No newline at the end.
std::string writeCuteText(const CuteText& text, CuteStyle style);
// "(a,b,(c,d))", as CuTe's C++ printer writes a tuple of the items.
std::string cuteTupleText(const std::vector<CuteTuple>& items);
// Whether `text` looks like CuTe's (starts, after blanks, with "Sw<", "SW_",
// a digit, '_', '-' and a digit, or '(' other than Triton's "(empty layout"): what
// `f2lay convert` detects.
bool looksLikeCuteText(std::string_view text);

}  // namespace f2lay
