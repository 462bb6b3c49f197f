#include "reference/analysis/f2_space.h"

#include <bit>

namespace f2lay::ref::analysis {

namespace {

// Row-reduces `rows` in place (each row a vector), keeping for each pivot bit
// the one row whose lowest set bit it is; returns the reduced rows.
Vecs echelon(const Vecs& rows) {
  Vecs reduced;
  for (Vec x : rows) {
    for (Vec r : reduced)
      if (x & (r & -r)) x ^= r;  // clear r's pivot (its lowest bit) from x
    if (x == 0) continue;
    Vec pivot = x & -x;
    for (Vec& r : reduced)
      if (r & pivot) r ^= x;  // keep every pivot bit in exactly one row
    reduced.push_back(x);
  }
  return reduced;
}

Vec reduce(const Vecs& echelonRows, Vec x) {
  for (Vec r : echelonRows)
    if (x & (r & -r)) x ^= r;
  return x;
}

}  // namespace

Vecs flatBases(const LinearLayout& l, const std::string& dim) {
  Vecs out;
  if (!l.hasInDim(dim)) return out;
  for (const InDim& in : l.value().in_dims) {
    if (in.name != dim) continue;
    for (const Basis& b : in.bases) {
      DimValues values;
      for (size_t k = 0; k < b.size(); ++k) values.emplace_back(l.value().out_dims[k].name, b[k]);
      out.push_back(flatten(l, values));
    }
  }
  return out;
}

int rankOf(const Vecs& v) { return static_cast<int>(echelon(v).size()); }

bool inSpan(const Vecs& basis, Vec x) { return reduce(echelon(basis), x) == 0; }

Vecs extendBasis(const Vecs& base, const Vecs& candidates) {
  Vecs chosen;
  Vecs spanSoFar = base;
  for (Vec x : candidates) {
    if (inSpan(spanSoFar, x)) continue;
    chosen.push_back(x);
    spanSoFar.push_back(x);
  }
  return chosen;
}

Vecs intersectSpans(const Vecs& a, const Vecs& b) {
  Vecs result;
  for (Vec x : a)
    if (inSpan(b, x) && !inSpan(result, x)) result.push_back(x);
  // dim(A ∩ B) = dim A + dim B - dim(A + B).
  Vecs both = a;
  both.insert(both.end(), b.begin(), b.end());
  int dimension = rankOf(a) + rankOf(b) - rankOf(both);
  if (static_cast<int>(result.size()) == dimension) return result;
  // Zassenhaus: reduce the rows (a_i | a_i) and (b_i | 0) of pairs, stored as
  // two words; rows whose first half vanishes carry the intersection in the
  // second. Written with pairs because d may be 64 bits.
  std::vector<std::pair<Vec, Vec>> rows;
  for (Vec x : a) rows.push_back({x, x});
  for (Vec x : b) rows.push_back({x, 0});
  Vecs candidates;
  for (size_t i = 0; i < rows.size(); ++i) {
    auto& [hi, lo] = rows[i];
    if (hi == 0) continue;
    Vec pivot = hi & -hi;
    for (size_t j = 0; j < rows.size(); ++j) {
      if (j == i || !(rows[j].first & pivot)) continue;
      rows[j].first ^= hi;
      rows[j].second ^= lo;
    }
  }
  for (const auto& [hi, lo] : rows)
    if (hi == 0 && lo != 0) candidates.push_back(lo);
  Vecs rest = extendBasis(result, candidates);
  result.insert(result.end(), rest.begin(), rest.end());
  return result;
}

Vecs completeWithUnits(const Vecs& base, int bits) {
  Vecs units;
  for (int i = 0; i < bits; ++i) units.push_back(Vec{1} << i);
  return extendBasis(base, units);
}

Vec flatten(const LinearLayout& l, const DimValues& outValues) {
  Vec x = 0;
  int shift = 0;
  for (const OutDim& d : l.value().out_dims) {
    for (const auto& [name, value] : outValues)
      if (name == d.name) x |= value << shift;
    shift += std::countr_zero(d.size);
  }
  return x;
}

DimValues unflatten(const LinearLayout& l, Vec x) {
  DimValues out;
  int shift = 0;
  for (const OutDim& d : l.value().out_dims) {
    int bits = std::countr_zero(d.size);
    out.emplace_back(d.name, bits == 0 ? 0 : (x >> shift) & (d.size - 1));
    shift += bits;
  }
  return out;
}

}  // namespace f2lay::ref::analysis
