#include "optimized/analysis/subspace.h"

#include "formats/error.h"

namespace f2lay::opt::analysis {

namespace {

core::Echelon echelonOf(const Vecs& v) {
  core::Echelon e;
  for (Vec x : v) e.insert(x, 0);
  return e;
}

bool reducesToZero(const core::Echelon& e, Vec x) {
  uint64_t unused;
  return e.reduce(x, &unused) == 0;
}

}  // namespace

Vecs EchelonSpace::flatBases(const LinearLayout& l, const std::string& dim) {
  int d = l.inDims().find(intern(dim));
  if (d < 0) return {};
  const uint64_t* first = l.columns() + l.inDims().offset(d);
  return Vecs(first, first + l.inDims().bits[d]);
}

int EchelonSpace::rankOf(const Vecs& v) { return core::rank(v.data(), static_cast<int>(v.size())); }

bool EchelonSpace::inSpan(const Vecs& basis, Vec x) { return reducesToZero(echelonOf(basis), x); }

Vecs EchelonSpace::extendBasis(const Vecs& base, const Vecs& candidates) {
  core::Echelon e = echelonOf(base);
  Vecs chosen;
  for (Vec x : candidates)
    if (e.insert(x, 0)) chosen.push_back(x);
  return chosen;
}

Vecs EchelonSpace::intersectSpans(const Vecs& a, const Vecs& b) {
  core::Echelon eb = echelonOf(b), found;
  Vecs result;
  for (Vec x : a)
    if (reducesToZero(eb, x) && found.insert(x, 0)) result.push_back(x);
  // dim(A ∩ B) = dim A + dim B - dim(A + B): done when a's vectors give it.
  int dimension = rankOf(a) + rankOf(b) - rankOf(concat({a, b}));
  if (static_cast<int>(result.size()) == dimension) return result;
  // Zassenhaus on pair rows (a_i | a_i) and (b_i | 0): each row in turn
  // clears its pivot (the lowest bit of its first half) from every other row.
  std::vector<std::pair<Vec, Vec>> rows;
  for (Vec x : a) rows.push_back({x, x});
  for (Vec x : b) rows.push_back({x, 0});
  for (size_t i = 0; i < rows.size(); ++i) {
    Vec hi = rows[i].first, lo = rows[i].second;
    if (hi == 0) continue;
    Vec pivot = hi & (~hi + 1);
    for (size_t j = 0; j < rows.size(); ++j)
      if (j != i && (rows[j].first & pivot)) {
        rows[j].first ^= hi;
        rows[j].second ^= lo;
      }
  }
  for (const auto& [hi, lo] : rows)
    if (hi == 0 && lo != 0 && found.insert(lo, 0)) result.push_back(lo);
  return result;
}

Vecs EchelonSpace::completeWithUnits(const Vecs& base, int bits) {
  core::Echelon e = echelonOf(base);
  Vecs units;
  for (int i = 0; i < bits; ++i)
    if (e.insert(Vec{1} << i, 0)) units.push_back(Vec{1} << i);
  return units;
}

EchelonSpace::Coordinates::Coordinates(const Vecs& basis) {
  if (basis.size() > 64) throw Error("coordinates: more than 64 basis vectors");
  for (size_t j = 0; j < basis.size(); ++j)
    if (!echelon_.insert(basis[j], static_cast<int>(j)))
      throw Error("coordinates: basis vector " + std::to_string(j) +
                  " is a combination of the earlier ones");
}

}  // namespace f2lay::opt::analysis
