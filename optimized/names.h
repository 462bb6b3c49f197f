// Dim names of f2lay::opt, interned: a layout keeps small integer ids, so
// that comparing, copying and merging dims (compose, product, ...) never
// touches a string. The table only grows; ids are stable for the process.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/layout_value.h"

namespace f2lay::opt {

using NameId = uint32_t;

// Thread-safe. Returns the same id for the same name.
NameId intern(const std::string& name);
// The name of an id that intern returned; the reference stays valid.
const std::string& nameOf(NameId id);

// A side of a layout: its dims in order, each an interned name and a number
// of bits (in dims: input bits; out dims: log2 of the size). Inline, at most
// kMaxDims (layout_value.h, checked when a layout is made).
struct DimList {
  uint8_t count = 0;
  NameId id[kMaxDims] = {};
  uint8_t bits[kMaxDims] = {};
  uint16_t start[kMaxDims + 1] = {};  // start[k]: the first flattened bit of dim k

  // The position of a dim, or -1.
  int find(NameId name) const {
    for (int k = 0; k < count; ++k)
      if (id[k] == name) return k;
    return -1;
  }
  // The first flattened bit of dim k (the first dim is the least significant).
  int offset(int k) const { return start[k]; }
  int totalBits() const { return start[count]; }
  // Appends; the caller checks count < kMaxDims (or validates afterwards).
  void push(NameId name, int b) {
    id[count] = name;
    bits[count] = static_cast<uint8_t>(b);
    start[count + 1] = static_cast<uint16_t>(start[count] + bits[count]);
    ++count;
  }
  std::vector<std::string> names() const;
  friend bool operator==(const DimList& a, const DimList& b) {
    if (a.count != b.count) return false;
    for (int k = 0; k < a.count; ++k)
      if (a.id[k] != b.id[k] || a.bits[k] != b.bits[k]) return false;
    return true;
  }
};

}  // namespace f2lay::opt
