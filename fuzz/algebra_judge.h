// The algebra target's judge: a layout as the laws see it, read from
// f2lay::opt through its packed view alone (the dims' names and bits, and
// columns()), and evaluated by XOR of columns (Def 4.1). It uses no code of
// opt (not even DimList's offsets), of the reference, or Eigen; dims are
// matched by name, so a law can say "the same function, dims reordered".
#pragma once

#include <bit>
#include <cstdint>
#include <string>

#include "formats/layout_value.h"
#include "optimized/opt_linear_layout.h"

namespace f2lay::fuzz::algebra {

using opt::NameId;

// One side of a layout: its dims in order, each a name and a number of bits
// (in dims: input bits; out dims: log2 of the size).
struct Side {
  int count = 0;
  NameId name[kMaxDims] = {};
  int bits[kMaxDims] = {};
  int first[kMaxDims + 1] = {};  // first[k]: dim k's first flat bit (the dims before it)

  void push(NameId n, int b) {
    name[count] = n;
    bits[count] = b;
    first[count + 1] = first[count] + b;
    ++count;
  }
  int total() const { return first[count]; }
  // The position of the dim named n, or -1.
  int find(NameId n) const {
    for (int k = 0; k < count; ++k)
      if (name[k] == n) return k;
    return -1;
  }
  // Dim k's value in flat y, and v as dim k's part of a flat value (the
  // first dim lowest; past 64 bits only dims of size 1).
  uint64_t field(uint64_t y, int k) const {
    return first[k] < 64 ? y >> first[k] & low(bits[k]) : 0;
  }
  uint64_t place(uint64_t v, int k) const { return first[k] < 64 ? v << first[k] : 0; }
  // The same names with the same bits, in the same order.
  bool operator==(const Side& o) const {
    if (count != o.count) return false;
    for (int k = 0; k < count; ++k)
      if (name[k] != o.name[k] || bits[k] != o.bits[k]) return false;
    return true;
  }
  // The same names, in any order.
  bool sameNames(const Side& o) const {
    if (count != o.count) return false;
    for (int k = 0; k < count; ++k)
      if (o.find(name[k]) < 0) return false;
    return true;
  }
  static uint64_t low(int b) { return b >= 64 ? ~uint64_t{0} : (uint64_t{1} << b) - 1; }
};

// A layout: its two sides, and the image of each flat input bit.
struct Plain {
  Side ins, outs;
  uint64_t cols[kMaxInBits] = {};
  int inBits = 0;

  // L(x) for flat x: the XOR of the columns of x's set bits (Def 4.1).
  uint64_t operator()(uint64_t x) const {
    uint64_t y = 0;
    for (; x; x &= x - 1) y ^= cols[std::countr_zero(x)];
    return y;
  }
  bool operator==(const Plain& o) const {
    if (!(ins == o.ins) || !(outs == o.outs)) return false;
    for (int j = 0; j < inBits; ++j)
      if (cols[j] != o.cols[j]) return false;
    return true;
  }
};

inline Plain plainOf(const opt::LinearLayout& l) {
  Plain p;
  const opt::DimList &ins = l.inDims(), &outs = l.outDims();
  for (int k = 0; k < ins.count; ++k) p.ins.push(ins.id[k], ins.bits[k]);
  for (int k = 0; k < outs.count; ++k) p.outs.push(outs.id[k], outs.bits[k]);
  p.inBits = p.ins.total();
  for (int j = 0; j < p.inBits; ++j) p.cols[j] = l.columns()[j];
  return p;
}

// Flat y of side `from` rewritten for side `to`, dim by dim by name; false
// when a non-zero dim of `from` has no place in `to`, or does not fit.
inline bool moveTo(uint64_t y, const Side& from, const Side& to, uint64_t& out) {
  out = 0;
  for (int k = 0; k < from.count; ++k) {
    uint64_t v = from.field(y, k);
    if (!v) continue;
    int t = to.find(from.name[k]);
    if (t < 0 || v > Side::low(to.bits[t])) return false;
    out |= to.place(v, t);
  }
  return true;
}

// The inputs a law is checked at: all of them up to 2^8 (every input of the
// decoded layouts, at most 8 bits a side); past that (products, concats) every
// unit vector and 64 others (the results are linear, so the unit vectors
// decide; the others check the evaluation itself).
template <class F>
void forInputs(int bits, uint64_t seed, F&& f) {
  if (bits <= 8) {
    for (uint64_t x = 0; x < (uint64_t{1} << bits); ++x) f(x);
    return;
  }
  f(0);
  for (int j = 0; j < bits; ++j) f(uint64_t{1} << j);
  uint64_t s = seed | 1;
  for (int i = 0; i < 64; ++i) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;  // xorshift64
    f(s & Side::low(bits));
  }
}

}  // namespace f2lay::fuzz::algebra
