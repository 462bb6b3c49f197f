// Oracle ops for CuTe's swizzled layouts and CUTLASS's TensorOpMultiplicand
// (reference/catalog/cute.h, cutlass.h). Both answer in Triton's direction,
// offset -> dim0.., unless "direction" asks for CuTe's and CUTLASS's own,
// coordinate -> offset (in dims dim0.., out dim "offset").
#include <limits>

#include "oracle/op_table.h"
#include "reference/catalog/cute.h"
#include "reference/catalog/cutlass.h"

namespace f2lay::oracle {

namespace {

using ref::catalog::CuteTuple;

const OpArg kDirectionArg = {
    "direction",
    "\"offset_to_coordinate\" (default: offset -> dim0.., as Triton's memory layouts) or "
    "\"coordinate_to_offset\" (dim0.. -> offset, as CuTe and CUTLASS)",
    false};

// True for coordinate -> offset.
bool coordinateToOffset(const Args& a) {
  if (!a.has("direction")) return false;
  std::string d = a.name("direction");
  if (d == "coordinate_to_offset") return true;
  if (d == "offset_to_coordinate") return false;
  throw Error("direction: \"" + d +
              "\" must be \"offset_to_coordinate\" or \"coordinate_to_offset\"");
}

int64_t signedFromJson(const Json& j, const std::string& where) {
  if (j.is_number_unsigned() &&
      j.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
    throw Error(where + ": " + j.dump() + " is beyond 2^63");
  if (!j.is_number_integer()) throw Error(where + ": expected an integer, found " + j.dump());
  return j.get<int64_t>();
}

// b, m: non-negative; s: signed (CuTe shifts YYY left when negative),
// default b as in CuTe's Swizzle<B,M,S = B>. Bounded here so that they fit
// an int; cute.h checks CuTe's rules.
ref::catalog::CuteSwizzle swizzleArgs(const Args& a) {
  auto small = [&a](const char* key) {
    uint64_t v = a.number(key);
    if (v > 62) throw Error(std::string(key) + ": " + std::to_string(v) + " is beyond 62 bits");
    return static_cast<int>(v);
  };
  int b = a.has("b") ? small("b") : 0;
  int m = a.has("m") ? small("m") : 0;
  int s = b;
  if (a.has("s")) {
    int64_t v = signedFromJson(a.raw("s"), "s");
    if (v > 62 || v < -62) throw Error("s: " + std::to_string(v) + " is beyond 62 bits");
    s = static_cast<int>(v);
  }
  return {b, m, s};
}

// Deeper nesting than any CuTe layout has; bounds the recursion on bad input.
constexpr int kMaxDepth = 32;

// A JSON integer or array of them, nested: CuTe's IntTuple. Shape leaves are
// non-negative (cute.h refuses 0), stride leaves signed.
CuteTuple tupleFromJson(const Json& j, const std::string& where, bool isShape, int depth) {
  if (!j.is_array()) {
    if (isShape && j.is_number_integer() && !j.is_number_unsigned() && j.get<int64_t>() < 0)
      throw Error(where + ": " + j.dump() + " is negative; a shape is positive");
    if (isShape && !j.is_number_integer())
      throw Error(where + ": expected a positive integer or an array, found " + j.dump());
    return CuteTuple(signedFromJson(j, where));
  }
  if (j.empty()) throw Error(where + ": an empty tuple has no size");
  if (depth >= kMaxDepth) throw Error(where + ": nested deeper than " + std::to_string(kMaxDepth));
  std::vector<CuteTuple> items;
  for (size_t i = 0; i < j.size(); ++i)
    items.push_back(tupleFromJson(j[i], where + "[" + std::to_string(i) + "]", isShape, depth + 1));
  return CuteTuple(std::move(items));
}

// The top-level modes of "shape" or "stride": an array, each item an integer
// or a nested array.
std::vector<CuteTuple> modesArg(const Args& a, const char* key) {
  const Json& j = a.raw(key);
  if (!j.is_array())
    throw Error(std::string(key) + ": expected an array (one item per mode), found " + j.dump());
  CuteTuple t = j.empty() ? CuteTuple() : tupleFromJson(j, key, std::string(key) == "shape", 0);
  return t.items;
}

ref::catalog::CuteLayout layoutArgs(const Args& a) {
  return {modesArg(a, "shape"), modesArg(a, "stride")};
}

Json tupleJson(const CuteTuple& t) {
  if (!t.isTuple()) return t.value;
  Json out = Json::array();
  for (const CuteTuple& item : t.items) out.push_back(tupleJson(item));
  return out;
}

}  // namespace

std::vector<Op> cuteOps() {
  return {
      {{"cute_swizzle",
        {{"b", "BBits of CuTe's Swizzle<B,M,S> (default 0: no swizzle)", false},
         {"m", "MBase: the low bits kept constant (default 0)", false},
         {"s", "SShift: YYY's distance from ZZZ, negative shifts left (default b)", false},
         {"shape",
          "CuTe's shape, one item per mode (= dim), an integer or a nested array such as "
          "[[8, 2], 64]: CuTe's ((8,2),64) (leaves powers of two)"},
         {"stride", "CuTe's strides, congruent with the shape (integers)"},
         kDirectionArg},
        "layout",
        "Sw<b,m,s> o shape:stride, flat or nested: offset -> dim0.. (or dim0.. -> offset), each "
        "dim a top-level mode; a layout that is not linear over F2 is refused with a witness x, "
        "y where L(x xor y) != L(x) xor L(y)"},
       [](const Args& a) {
         ref::catalog::CuteSwizzle sw = swizzleArgs(a);
         ref::catalog::CuteLayout l = layoutArgs(a);
         return layoutJson(coordinateToOffset(a) ? ref::catalog::cuteToLinear(sw, l)
                                                 : ref::catalog::cuteMemoryLayout(sw, l));
       }},
      {{"linear_to_cute",
        {{"layout", "dim0.. -> offset, or an invertible offset -> dim0.."}},
        "{\"b\", \"m\", \"s\", \"shape\", \"stride\"} or null",
        "the CuTe Swizzle<b,m,s> o shape:stride with the layout's bases, or null when there is "
        "none: flat if any is (the smallest b, then m, then s; s > 0 first), else nested, each "
        "mode split into maximal runs of doubling bases (reference/catalog/cute.h)"},
       [](const Args& a) {
         std::optional<ref::catalog::CuteSwizzledLayout> c =
             ref::catalog::linearToCute(a.layout("layout"));
         if (!c) return Json(nullptr);
         return Json{{"b", c->swizzle.bits},
                     {"m", c->swizzle.base},
                     {"s", c->swizzle.shift},
                     {"shape", tupleJson(CuteTuple(c->layout.shape))},
                     {"stride", tupleJson(CuteTuple(c->layout.stride))}};
       }},
      {{"cutlass_tensorop",
        {{"element_bits", "CUTLASS's ElementSize: 1, 2, 4, ..., 128"},
         {"crosswise", "CUTLASS's Crosswise, in elements: 128/element_bits to 8x that"},
         {"extent", "[contiguous, strided] (powers of two)"},
         {"ldm", "the stride (default extent[0], CUTLASS's packed(extent))", false},
         {"row_major",
          "RowMajorTensorOpMultiplicandCrosswise: dim0 = strided (default false: "
          "dim0 = contiguous, pitch-linear and ColumnMajor)",
          false},
         kDirectionArg},
        "layout",
        "CUTLASS's TensorOpMultiplicand (Crosswise) shared-memory layout: offset -> dim0, dim1 "
        "(or dim0, dim1 -> offset)"},
       [](const Args& a) {
         std::vector<uint64_t> extent = a.numbers("extent");
         if (extent.size() != 2)
           throw Error("extent: expected [contiguous, strided], found " +
                       std::to_string(extent.size()) + " values");
         ref::catalog::TensorOpMultiplicandParams p{a.number("element_bits"),
                                                    a.number("crosswise"),
                                                    extent[0],
                                                    extent[1],
                                                    a.has("ldm") ? a.number("ldm") : 0,
                                                    a.has("row_major") && a.boolean("row_major")};
         if (a.has("ldm") && p.ldm == 0) throw Error("ldm: 0 is not a stride");
         return layoutJson(coordinateToOffset(a) ? ref::catalog::tensorOpMultiplicandToOffset(p)
                                                 : ref::catalog::tensorOpMultiplicand(p));
       }},
  };
}

}  // namespace f2lay::oracle
