// The exhaustive swizzle search, and the argument that it is exhaustive.
//
// Notation. d tensor bits, w = elementBytes = 2^b. S is the ordered basis s_0..s_{d-1} (offset bit
// i -> s_i). Offset bit i is byte-address bit i + b, so by the bank rule
// (device_tests/HARDWARE.md#banks) offset bits fall in three runs:
//   in-word  i < 2 - b          (byte bits 0, 1: inside one 4-byte word; none for w >= 4),
//   bank     2 - b <= i < 7 - b (byte bits 2..6: the bank; 5 bits, 4 for w = 8, 3 for w = 16),
//   row      i >= 7 - b         (byte bits >= 7: which word of a bank),
// each cut to the d bits there are. U = span(in-word s_i), V = span(in-word and row s_i) (so
// U is inside V and V has codimension #bank). C_k = span(s_k, ..., s_{d-1}).
//
// 1. Every phase of a side is a coset of one subspace Q of the tensor. An instruction accesses,
// for each lane l, the elements D(selector) + D(l) + span(vector registers): selectors are the
// register bits outside the vector (nonzero ones; zero ones are duplicates, never accessed) and the
// warp bits. Phases (HARDWARE.md#whole-warp-phase, #store-phases, #load-phases, #quad-merge):
//   - up to 4 bytes a lane: the warp, one phase: lanes 0..4 vary;
//   - stores of 8 / 16 bytes: runs of 16 / 8 lanes: lane bits 0..3 / 0..2 vary;
//   - loads of 8 / 16 bytes: lane l^1 (l^2) reads lane l's address iff lane bit 0 (1) has a zero
//     image, since addresses are linear in the lane and S is invertible. So when neither is zero,
//     nothing merges and the phases are the stores'. When one is (or both are), the survivors
//     are the lanes with those bits 0: 16 (or 8) of the warp fill one phase of an 8-byte load,
//     where lanes 0..4 vary; 8 (or 4) of each half-warp fill one phase of a 16-byte load, where
//     lanes 0..3 vary. A zero lane bit adds nothing to a span, so the survivors cover the same
//     coset as all those lanes.
//   - ldmatrix/stmatrix (HARDWARE.md#matrix-phases, #matrix-ownership): one phase a matrix, its 8
//     rows of 16 bytes: the row's 8 elements (h, lane 0, lane 1, or lanes 2..4 for .trans) and
//     the 8 rows (lanes 2..4, or h, lanes 0, 1) vary: Q = span(h, lanes 0..4).
// So Q = span(the phase's varying lanes, vector registers (or h)), the same for every phase, and
// the other lanes, selectors and matrices pick the coset. Phases per instruction (1, 2, 4, the
// matrices) and instructions depend on D and the chosen access only, not on S.
//
// 2. The cost of a coset x + Q is 2^c with c = dim(Q & V) - dim(Q & U). Let W map a tensor
// vector y to the word of S^-1(y)'s first byte: it drops the in-word offset bits (and, for w >= 8,
// shifts the offset up by b - 2 word bits), so it is linear with kernel U. The words a phase
// touches are W(x + Q): for w <= 4 every byte of an element lies in its first word, and a vector's
// elements are in the coset (Q holds the vector registers); for w = 8, 16 an element covers the
// words W(y) + e, e < 2^(b-2), and those low word bits e are bank bits that no offset bit reaches,
// so the bank fixes e and the count per bank is that of the W(y). A coset of the subspace W(Q)
// meets each bank in a coset of W(Q) & ker(bank) or not at all, so the phase costs
// |W(Q) & ker(bank)|. The preimage of ker(bank) under W is V, so that subspace is W(Q & V), of
// dimension dim(Q & V) - dim(Q & V & U) = dim(Q & V) - dim(Q & U) (U lies in V). A side's
// wavefronts are phases * 2^c (sideCostByRank; tests hold it against sideCost, which reads
// every lane's bytes).
//
// 3. Which accesses S allows (bank_access.h's contract): a vector of k registers needs s_i = the
// image of the i-th vector register (i < k) and every other basis in C_k; ldmatrix needs s_0,
// s_1, s_2 = h, lane 0, lane 1 (.trans: lanes 2, 3, 4) and every other basis in C_3.
//
// So, for a choice of access for each side (a "mode": the vector width or the matrix) with
// prefix lengths k_a, k_b <= K, the total depends on S only through P = (s_0..s_{K-1}), C_K
// (C_k = span(s_k..s_{K-1}) + C_K for k < K), U and V. The search enumerates exactly those:
//   - modes of both sides (each side's own choice on S is the best of the modes S allows, so the
//     minimum over S of the total is the minimum over S and feasible mode pairs; likewise for
//     (total, instructions) in lexicographic order, which is the answer's tie rule);
//   - P: the ordered register images (or h and lanes) of the longer prefix, agreeing with the
//     shorter one on their common part;
//   - C_K: every complement of span(P) that holds the other bases of the sides with k = K (all of
//     them: 2^(K m) for a remainder of dimension m, one when the layouts cover the tensor), kept
//     when the shorter side's other bases lie in span(s_{k}..s_{K-1}) + C_K;
//   - U: span(P's in-word part) + U', where U' (for K below the in-word bits) is any subspace of
//     C_K of the missing dimension, since those offset vectors lie in C_K;
//   - V: U + R, R any subspace of C_K of the row count meeting U' in 0 (the row vectors lie in
//     C_K; R matters only modulo U', so candidates are coset representatives).
// Every S gives such a tuple (U' = span of its in-word vectors past P, R = span of its row
// vectors), and every tuple is some S: P, then U', then a complement of U' + R in C_K in the
// bank places, then R (the witness). Nothing else of S is looked at, so the minimum over the
// tuples is the minimum over S.
//
// 4. Bounds. Adding a vector r to V raises c by 1 exactly when r is in V + Q, and otherwise
// raises dim(V + Q), which cannot pass dim(M + Q) for M = U + C_K (V stays inside M). So with j
// row vectors still to add, c >= c_now + max(0, j - (dim(M + Q) - dim(V + Q))), a bound that only
// grows along the search: adding to V raises c or spends slack; adding to U (then V = U, c = 0)
// can only spend slack. Each node's bound is summed over the sides; a subtree is cut when its
// bound and the mode pair's instructions are no better (lexicographically) than the best found.
//
// 5. Speed, not correctness: once U is fixed the bound is reached, for both sides at once. In
// the quotient M/V (dimension n) let A_x be the image of Q_x; then n - dim A_x is the slack and
// the rise of c_x is dim(R & A_x) >= max(0, j + dim A_x - n). Take A1 of dimension n - j inside
// A_a or around it (whichever dim A_a allows), B1 likewise for side b, and R a common complement
// of A1 and B1: then R & A_a is 0 when A1 holds A_a, and R + A_a is everything when A_a holds
// A1, and the same for b. Two subspaces of one dimension always have a common complement, over
// F2 too: if A1 != B1 take a in A1 - B1 and b in B1 - A1, so a + b lies in neither; add it to
// both and recurse. So the search finds a leaf at the bound on its first descent (children whose
// bound equals their parent's go first) and then cuts everything else. It relies on this for
// time only: every child is still examined or cut by a valid bound.
#include "testkit/swizzle_search.h"

#include <algorithm>
#include <bit>
#include <map>
#include <stdexcept>
#include <string>

#include "testkit/columns.h"

namespace f2lay::testkit {
namespace {

constexpr int kMaxTensorBits = 24;

// A span over F2 in echelon form, one vector per top bit (vectors below 2^kMaxTensorBits).
class F2Span {
 public:
  uint64_t reduce(uint64_t x) const {
    while (x != 0) {
      int top = std::bit_width(x) - 1;
      if ((pivots_ >> top & 1) == 0) return x;
      x ^= byTop_[top];
    }
    return 0;
  }
  bool contains(uint64_t x) const { return reduce(x) == 0; }
  bool insert(uint64_t x) {
    x = reduce(x);
    if (x == 0) return false;
    int top = std::bit_width(x) - 1;
    byTop_[top] = x;
    pivots_ |= uint64_t{1} << top;
    ++rank_;
    return true;
  }
  int rank() const { return rank_; }
  uint64_t pivots() const { return pivots_; }
  std::vector<uint64_t> basis() const {
    std::vector<uint64_t> b;
    for (uint64_t p = pivots_; p != 0; p &= p - 1) b.push_back(byTop_[std::countr_zero(p)]);
    return b;
  }

 private:
  uint64_t byTop_[kMaxTensorBits] = {};
  uint64_t pivots_ = 0;
  int rank_ = 0;
};

F2Span spanOf(const std::vector<uint64_t>& vs, F2Span s = {}) {
  for (uint64_t v : vs) s.insert(v);
  return s;
}

// The distributed layout's images, by in dim.
struct Distributed {
  int bits = 0;  // d
  std::vector<uint64_t> reg, lane, warp;
  std::vector<int> nonzeroRegs;  // registers with a nonzero image, lowest first
  uint64_t laneImage(uint64_t l) const {
    uint64_t y = 0;
    for (int i = 0; i < 5; ++i)
      if (l >> i & 1) y ^= lane[i];
    return y;
  }
};

Distributed distributedOf(const LayoutValue& l) {
  Distributed dist;
  dist.bits = totalOutBits(l);
  if (dist.bits > kMaxTensorBits)
    throw std::invalid_argument("swizzle search: at most " + std::to_string(kMaxTensorBits) +
                                " tensor bits, not " + std::to_string(dist.bits));
  std::vector<uint64_t> cols = columnsOf(l);
  size_t j = 0;
  for (const InDim& in : l.in_dims) {
    std::vector<uint64_t>* to = nullptr;
    if (in.name == "register") {
      to = &dist.reg;
    } else if (in.name == "lane") {
      to = &dist.lane;
    } else if (in.name == "warp") {
      to = &dist.warp;
    } else if (in.name != "block" || !in.bases.empty()) {
      throw std::invalid_argument("swizzle search: unexpected in dim '" + in.name + "'");
    }
    for (size_t i = 0; i < in.bases.size(); ++i, ++j)
      if (to != nullptr) to->push_back(cols[j]);
  }
  if (dist.lane.size() != 5)
    throw std::invalid_argument("swizzle search: the lane dim must have 5 bits");
  for (size_t r = 0; r < dist.reg.size(); ++r)
    if (dist.reg[r] != 0) dist.nonzeroRegs.push_back(static_cast<int>(r));
  return dist;
}

int log2Bytes(uint64_t w) {
  if (w != 1 && w != 2 && w != 4 && w != 8 && w != 16)
    throw std::invalid_argument("swizzle search: element bytes must be 1, 2, 4, 8 or 16");
  return std::countr_zero(w);
}

// The runs of offset bits: [0, inWord), then bank bits, then row bits (the top of this file).
struct Geometry {
  int inWord = 0, bank = 0, rows = 0;
};

Geometry geometryOf(int d, uint64_t w) {
  int b = log2Bytes(w);
  int inWordBits = std::max(0, 2 - b);
  Geometry g;
  g.inWord = std::min(d, inWordBits);
  g.bank = std::min(d - g.inWord, 7 - b - inWordBits);
  g.rows = d - g.inWord - g.bank;
  return g;
}

// One access of a side: a vector of k registers, or the matrix instruction (k = 3: the prefix is
// its 16-byte row).
struct Mode {
  bool matrix = false;
  int k = 0;
  uint64_t vectorBytes = 0, phases = 0, instructions = 0;
  std::vector<uint64_t> phaseLanes;  // the lane images that vary inside one phase (1. above)
};

// A mode with the registers (or h) it puts at the low offsets.
struct Candidate {
  std::vector<uint64_t> prefix;  // s_0..s_{k-1}
  std::vector<uint64_t> others;  // the nonzero images that must lie in C_k
  std::vector<uint64_t> phase;   // generators of Q
};

std::optional<Mode> vectorMode(const Distributed& dist, bool store, uint64_t w, int k) {
  if ((w << k) > 16 || k > static_cast<int>(dist.nonzeroRegs.size())) return std::nullopt;
  Mode m;
  m.k = k;
  m.vectorBytes = w << k;
  int varying = 5;
  uint64_t perInstruction = 1;
  bool merged = !store && (dist.lane[0] == 0 || dist.lane[1] == 0);
  if (m.vectorBytes == 8) {
    varying = merged ? 5 : 4;
    perInstruction = merged ? 1 : 2;
  } else if (m.vectorBytes == 16) {
    varying = merged ? 4 : 3;
    perInstruction = merged ? 2 : 4;
  }
  m.instructions =
      uint64_t{1} << (static_cast<int>(dist.nonzeroRegs.size()) - k + dist.warp.size());
  m.phases = m.instructions * perInstruction;
  m.phaseLanes.assign(dist.lane.begin(), dist.lane.begin() + varying);
  return m;
}

std::optional<Mode> matrixMode(const Distributed& dist) {
  int nz = static_cast<int>(dist.nonzeroRegs.size());
  if (nz == 0) return std::nullopt;  // no half h to pair
  int matrices = std::min(2, nz - 1);
  Mode m;
  m.matrix = true;
  m.k = 3;
  m.vectorBytes = 16;
  m.instructions = uint64_t{1} << (nz - 1 - matrices + static_cast<int>(dist.warp.size()));
  m.phases = m.instructions << matrices;
  m.phaseLanes = dist.lane;
  return m;
}

std::vector<Mode> modesOf(const Distributed& dist, const SearchSide& s, uint64_t w) {
  std::vector<Mode> modes;
  if (s.instruction == SearchInstruction::kVector) {
    for (int k = 0; auto m = vectorMode(dist, s.store, w, k); ++k) modes.push_back(*m);
  } else if (auto m = matrixMode(dist)) {
    modes.push_back(*m);
  }
  return modes;
}

void appendNonzero(std::vector<uint64_t>& to, const std::vector<uint64_t>& from) {
  for (uint64_t v : from)
    if (v != 0) to.push_back(v);
}

// The vector mode with registers `chosen` at offsets 1, 2, 4, ...
Candidate vectorCandidate(const Distributed& dist, const Mode& m, const std::vector<int>& chosen) {
  Candidate c;
  for (int r : chosen) c.prefix.push_back(dist.reg[r]);
  for (int r : dist.nonzeroRegs)
    if (std::find(chosen.begin(), chosen.end(), r) == chosen.end()) c.others.push_back(dist.reg[r]);
  appendNonzero(c.others, dist.lane);
  appendNonzero(c.others, dist.warp);
  appendNonzero(c.phase, m.phaseLanes);
  appendNonzero(c.phase, c.prefix);
  return c;
}

// The matrix mode with half h.
Candidate matrixCandidate(const Distributed& dist, bool trans, int h) {
  Candidate c;
  const std::vector<uint64_t>& l = dist.lane;
  c.prefix = trans ? std::vector<uint64_t>{l[2], l[3], l[4]}
                   : std::vector<uint64_t>{dist.reg[h], l[0], l[1]};
  for (int r : dist.nonzeroRegs)
    if (trans || r != h) c.others.push_back(dist.reg[r]);
  appendNonzero(c.others, trans ? std::vector<uint64_t>{l[0], l[1]}
                                : std::vector<uint64_t>{l[2], l[3], l[4]});
  appendNonzero(c.others, dist.warp);
  c.phase = {dist.reg[h]};
  appendNonzero(c.phase, l);
  return c;
}

// Whether some S could allow c: its prefix is independent and meets no other basis (which must
// lie in a complement of it).
bool plausible(const Candidate& c) {
  F2Span p = spanOf(c.prefix);
  if (p.rank() != static_cast<int>(c.prefix.size())) return false;
  F2Span o = spanOf(c.others);
  return spanOf(c.others, p).rank() == p.rank() + o.rank();
}

std::vector<Candidate> candidatesOf(const Distributed& dist, const SearchSide& s, const Mode& m) {
  std::vector<Candidate> out;
  auto keep = [&](Candidate c) {
    if (plausible(c)) out.push_back(std::move(c));
  };
  if (m.matrix) {
    if (s.instruction == SearchInstruction::kMatrixTrans) {
      keep(matrixCandidate(dist, true, dist.nonzeroRegs[0]));
    } else {
      for (int h : dist.nonzeroRegs) keep(matrixCandidate(dist, false, h));
    }
    return out;
  }
  std::vector<int> chosen;
  auto extend = [&](auto& self) -> void {
    if (static_cast<int>(chosen.size()) == m.k) {
      keep(vectorCandidate(dist, m, chosen));
      return;
    }
    for (int r : dist.nonzeroRegs) {
      if (std::find(chosen.begin(), chosen.end(), r) != chosen.end()) continue;
      chosen.push_back(r);
      self(self);
      chosen.pop_back();
    }
  };
  extend(extend);
  return out;
}

// 2. above: the wavefronts of candidate c on S, nullopt when S does not allow it.
std::optional<uint64_t> rankCost(const Mode& m, const Candidate& c, const std::vector<uint64_t>& S,
                                 const Geometry& g) {
  for (int i = 0; i < m.k; ++i)
    if (i >= static_cast<int>(S.size()) || S[i] != c.prefix[i]) return std::nullopt;
  F2Span ck = spanOf(std::vector<uint64_t>(S.begin() + m.k, S.end()));
  for (uint64_t o : c.others)
    if (!ck.contains(o)) return std::nullopt;
  F2Span u = spanOf(std::vector<uint64_t>(S.begin(), S.begin() + g.inWord));
  F2Span v = spanOf(std::vector<uint64_t>(S.begin() + g.inWord + g.bank, S.end()), u);
  F2Span q = spanOf(c.phase);
  int qv = q.rank() + v.rank() - spanOf(c.phase, v).rank();
  int qu = q.rank() + u.rank() - spanOf(c.phase, u).rank();
  return m.phases << (qv - qu);
}

// For each tensor unit vector e_j, its offset S^-1(e_j); throws unless S is an invertible map of
// the d tensor bits.
std::vector<uint64_t> inverseColumns(const std::vector<uint64_t>& S, int d) {
  if (static_cast<int>(S.size()) != d)
    throw std::invalid_argument("swizzle search: " + std::to_string(S.size()) +
                                " offset bits for a tensor of " + std::to_string(d) + " bits");
  std::vector<std::pair<uint64_t, uint64_t>> rows;  // (tensor vector, offset giving it)
  for (int i = 0; i < d; ++i) {
    if (S[i] >> d != 0) throw std::invalid_argument("swizzle search: offset vector out of range");
    rows.push_back({S[i], uint64_t{1} << i});
  }
  for (int j = 0; j < d; ++j) {
    int p = j;
    while (p < d && (rows[p].first >> j & 1) == 0) ++p;
    if (p == d) throw std::invalid_argument("swizzle search: the memory layout is not invertible");
    std::swap(rows[p], rows[j]);
    for (int r = 0; r < d; ++r)
      if (r != j && (rows[r].first >> j & 1)) {
        rows[r].first ^= rows[j].first;
        rows[r].second ^= rows[j].second;
      }
  }
  std::vector<uint64_t> inv(d);
  for (int j = 0; j < d; ++j) inv[j] = rows[j].second;
  return inv;
}

// The memory layout of a leaf (3. above): P, the in-word vectors past P (the first `inWord` of
// `chosen`), a complement of span(chosen) in C_K (from its basis) at the bank places, and the
// row vectors (the rest of `chosen`).
std::vector<uint64_t> memoryLayoutOf(const std::vector<uint64_t>& prefix,
                                     const std::vector<uint64_t>& chosen, int inWord,
                                     const std::vector<uint64_t>& complementBasis) {
  std::vector<uint64_t> s = prefix;
  s.insert(s.end(), chosen.begin(), chosen.begin() + inWord);
  F2Span taken = spanOf(chosen);
  for (uint64_t v : complementBasis)
    if (taken.insert(v)) s.push_back(v);
  s.insert(s.end(), chosen.begin() + inWord, chosen.end());
  return s;
}

// ---------------------------------------------------------------------------------------------
// The search (3.-5. above).

struct SideModes {
  const SearchSide* side = nullptr;
  Distributed dist;
  std::vector<Mode> modes;
  std::vector<std::vector<Candidate>> candidates;  // per mode
};

class Searcher {
 public:
  Searcher(std::vector<const SideModes*> sides, int d, Geometry g, uint64_t budget,
           const LeafSolver* leaves)
      : sides_(std::move(sides)), d_(d), g_(g), budget_(budget), leaves_(leaves) {}

  // False when the search would pass the budget.
  bool run() {
    std::vector<std::vector<int>> combos = {{}};
    for (const SideModes* s : sides_) {
      std::vector<std::vector<int>> next;
      for (const auto& c : combos)
        for (size_t m = 0; m < s->modes.size(); ++m) {
          next.push_back(c);
          next.back().push_back(static_cast<int>(m));
        }
      combos = std::move(next);
    }
    // Each phase costs at least 1, and 2^(dim Q - #in-word - #bank) (the bank bits tell at most
    // that many dimensions of Q apart): a bound per mode combination, cheapest first.
    struct Ranked {
      uint64_t bound, instructions;
      std::vector<int> modes;
    };
    std::vector<Ranked> ranked;
    for (const auto& c : combos) {
      Ranked r{0, 0, c};
      for (size_t x = 0; x < sides_.size(); ++x) {
        const Mode& m = sides_[x]->modes[c[x]];
        int excess = spanOf(m.phaseLanes).rank() - g_.inWord - g_.bank;
        r.bound += m.phases << std::max(0, excess);
        r.instructions += m.instructions;
      }
      ranked.push_back(std::move(r));
    }
    std::sort(ranked.begin(), ranked.end(), [](const Ranked& x, const Ranked& y) {
      return x.bound != y.bound ? x.bound < y.bound : x.instructions < y.instructions;
    });
    for (const Ranked& r : ranked) {
      if (!better(r.bound, r.instructions)) break;
      runModes(r.modes, r.instructions);
      if (aborted_) return false;
    }
    return true;
  }

  bool found() const { return found_; }
  uint64_t total() const { return bestTotal_; }
  uint64_t instructions() const { return bestInstructions_; }
  const std::vector<uint64_t>& witness() const { return witness_; }
  const std::vector<const Mode*>& witnessModes() const { return witnessModes_; }
  const std::vector<uint64_t>& witnessWavefronts() const { return witnessWavefronts_; }
  uint64_t visited() const { return visited_; }
  uint64_t leaves() const { return leavesSolved_; }

 private:
  // A node: the in-word and row vectors chosen so far, and per side c and the slack of 4. above.
  struct Node {
    F2Span coords;  // the chosen vectors in C_K's coordinates
    F2Span vq[2];   // V + Q_x
    int c[2] = {0, 0}, slack[2] = {0, 0};
    int inWordLeft = 0, rowsLeft = 0;
    uint64_t chosen[kMaxTensorBits] = {};  // in-word vectors first, then rows
    int chosenCount = 0;
  };

  bool better(uint64_t total, uint64_t instructions) const {
    return !found_ || total < bestTotal_ ||
           (total == bestTotal_ && instructions < bestInstructions_);
  }

  bool tick() {
    if (++visited_ > budget_) aborted_ = true;
    return !aborted_;
  }

  // Every joint prefix of one mode combination.
  void runModes(const std::vector<int>& modes, uint64_t instructions) {
    instructions_ = instructions;
    modes_.clear();
    for (size_t x = 0; x < sides_.size(); ++x) modes_.push_back(&sides_[x]->modes[modes[x]]);
    const auto& first = sides_[0]->candidates[modes[0]];
    if (sides_.size() == 1) {
      for (const Candidate& c : first) {
        solve({&c});
        if (aborted_) return;
      }
      return;
    }
    // Two sides: their prefixes must agree where both have one.
    const auto& second = sides_[1]->candidates[modes[1]];
    size_t common = std::min(modes_[0]->k, modes_[1]->k);
    std::map<std::vector<uint64_t>, std::vector<const Candidate*>> byPrefix;
    for (const Candidate& c : second)
      byPrefix[std::vector<uint64_t>(c.prefix.begin(), c.prefix.begin() + common)].push_back(&c);
    for (const Candidate& c : first) {
      auto it = byPrefix.find(std::vector<uint64_t>(c.prefix.begin(), c.prefix.begin() + common));
      if (it == byPrefix.end()) continue;
      for (const Candidate* other : it->second) {
        solve({&c, other});
        if (aborted_) return;
      }
    }
  }

  // One joint prefix: every complement C_K, then the subspaces U' and R.
  void solve(std::vector<const Candidate*> cands) {
    if (!tick()) return;
    cands_ = std::move(cands);
    int k = 0;
    for (const Mode* m : modes_) k = std::max(k, m->k);
    prefix_.clear();
    for (size_t x = 0; x < cands_.size(); ++x)
      if (modes_[x]->k == k) prefix_ = cands_[x]->prefix;
    F2Span p = spanOf(prefix_);
    if (p.rank() != k) return;
    // C_K holds the other bases of every side whose prefix is the whole of P.
    F2Span required, withP = p;
    for (size_t x = 0; x < cands_.size(); ++x)
      if (modes_[x]->k == k)
        for (uint64_t o : cands_[x]->others) {
          required.insert(o);
          withP.insert(o);
        }
    if (withP.rank() != k + required.rank()) return;
    // A bound for every C_K at once (4. with M the whole tensor): the bank bits tell at most
    // #bank dimensions of Q apart, and U holds at most what P's in-word part holds of Q plus the
    // in-word vectors still to choose.
    int inWordLeft = std::max(0, g_.inWord - k);
    F2Span u0 =
        spanOf(std::vector<uint64_t>(prefix_.begin(), prefix_.begin() + std::min(k, g_.inWord)));
    uint64_t bound = 0;
    for (size_t x = 0; x < cands_.size(); ++x) {
      F2Span q = spanOf(cands_[x]->phase);
      int qu = q.rank() + u0.rank() - spanOf(cands_[x]->phase, u0).rank();
      bound += modes_[x]->phases << std::max(0, q.rank() - qu - inWordLeft - g_.bank);
    }
    if (!better(bound, instructions_)) return;
    std::vector<uint64_t> extension;
    for (int i = 0; i < d_; ++i)
      if (withP.insert(uint64_t{1} << i)) extension.push_back(uint64_t{1} << i);
    int freeBits = k * static_cast<int>(extension.size());
    if (freeBits > 40) {
      aborted_ = true;
      return;
    }
    std::vector<uint64_t> base = required.basis();
    for (uint64_t f = 0; f < (uint64_t{1} << freeBits); ++f) {
      if (f != 0 && !tick()) return;
      basis_ = base;
      for (size_t j = 0; j < extension.size(); ++j) {
        uint64_t v = extension[j];
        for (int i = 0; i < k; ++i)
          if (f >> (j * k + i) & 1) v ^= prefix_[i];
        basis_.push_back(v);
      }
      bool allowed = true;
      for (size_t x = 0; x < cands_.size() && allowed; ++x) {
        int kx = modes_[x]->k;
        if (kx == k) continue;
        F2Span ck =
            spanOf(basis_, spanOf(std::vector<uint64_t>(prefix_.begin() + kx, prefix_.end())));
        for (uint64_t o : cands_[x]->others) allowed = allowed && ck.contains(o);
      }
      if (allowed) solveComplement();
      if (aborted_) return;
    }
  }

  // C_K fixed (basis_): set up the root node, or hand every leaf to the solver.
  void solveComplement() {
    if (leaves_ != nullptr) {
      solveLeaves();
      return;
    }
    int k = static_cast<int>(prefix_.size());
    Node root;
    root.inWordLeft = std::max(0, g_.inWord - k);
    root.rowsLeft = g_.rows;
    F2Span u0 =
        spanOf(std::vector<uint64_t>(prefix_.begin(), prefix_.begin() + std::min(k, g_.inWord)));
    F2Span m = spanOf(basis_, u0);
    for (size_t x = 0; x < cands_.size(); ++x) {
      int mq = spanOf(cands_[x]->phase, m).rank();
      root.vq[x] = spanOf(cands_[x]->phase, u0);
      root.slack[x] = mq - root.vq[x].rank();
    }
    explore(root);
  }

  void solveLeaves() {
    LeafProblem p;
    setGauss(p);
    int k = static_cast<int>(prefix_.size());
    p.m = static_cast<int>(basis_.size());
    for (int i = 0; i < p.m; ++i) p.basis[i] = static_cast<uint32_t>(basis_[i]);
    p.k = k;
    std::copy(prefix_.begin(), prefix_.end(), p.prefix);
    for (int i = 0; i < std::min(k, g_.inWord); ++i) p.u0[p.u0Count++] = prefix_[i];
    p.inWord = std::max(0, g_.inWord - k);
    p.rows = g_.rows;
    p.sides = static_cast<int>(cands_.size());
    for (int x = 0; x < p.sides; ++x) {
      const std::vector<uint64_t>& q = cands_[x]->phase;
      if (q.size() > kLeafPhaseVectors) throw std::logic_error("swizzle search: Q too large");
      p.side[x].count = static_cast<int>(q.size());
      std::copy(q.begin(), q.end(), p.side[x].phase);
      p.side[x].phases = modes_[x]->phases;
      p.side[x].vectorBytes = modes_[x]->matrix ? 0 : modes_[x]->vectorBytes;
    }
    std::optional<LeafBest> best = (*leaves_)(p);
    if (!best) {
      aborted_ = true;
      return;
    }
    leavesSolved_ += leafCount(p);
    if (!better(best->total, instructions_)) return;
    uint32_t inWord[kLeafBits], rows[kLeafBits];
    leafVectors(p, best->index, inWord, rows);
    int c[2] = {0, 0};
    if (leafTotal(p, best->index, c) != best->total)
      throw std::logic_error("swizzle search: the leaf solver's total is not its leaf's");
    std::vector<uint64_t> chosen(inWord, inWord + p.inWord);
    chosen.insert(chosen.end(), rows, rows + p.rows);
    record(chosen, c, best->total);
  }

  uint64_t bound(const Node& n) const {
    uint64_t total = 0;
    for (size_t x = 0; x < cands_.size(); ++x)
      total += modes_[x]->phases << (n.c[x] + std::max(0, n.rowsLeft - n.slack[x]));
    return total;
  }

  uint64_t vectorOf(uint64_t coords) const {
    uint64_t v = 0;
    for (uint64_t c = coords; c != 0; c &= c - 1) v ^= basis_[std::countr_zero(c)];
    return v;
  }

  // The node after adding the vector of `coords`: to U (and V) while in-word places are left,
  // else to V.
  Node child(const Node& n, uint64_t coords) const {
    Node next = n;
    uint64_t v = vectorOf(coords);
    next.coords.insert(coords);
    next.chosen[next.chosenCount++] = v;
    bool inWord = n.inWordLeft > 0;
    for (size_t x = 0; x < cands_.size(); ++x) {
      if (next.vq[x].insert(v)) {
        --next.slack[x];
      } else if (!inWord) {
        ++next.c[x];
      }
    }
    if (inWord) {
      --next.inWordLeft;
    } else {
      --next.rowsLeft;
    }
    return next;
  }

  // The bound of child(n, coords) without building it.
  uint64_t childBound(const Node& n, uint64_t coords) const {
    uint64_t v = vectorOf(coords);
    bool inWord = n.inWordLeft > 0;
    int rowsLeft = n.rowsLeft - (inWord ? 0 : 1);
    uint64_t total = 0;
    for (size_t x = 0; x < cands_.size(); ++x) {
      bool in = n.vq[x].contains(v);
      int c = n.c[x] + (in && !inWord ? 1 : 0);
      int slack = n.slack[x] - (in ? 0 : 1);
      total += modes_[x]->phases << (c + std::max(0, rowsLeft - slack));
    }
    return total;
  }

  void explore(const Node& n) {
    if (!tick()) return;
    uint64_t lb = bound(n);
    if (!better(lb, instructions_)) return;
    if (n.inWordLeft == 0 && n.rowsLeft == 0) {
      record(std::vector<uint64_t>(n.chosen, n.chosen + n.chosenCount), n.c, lb);
      return;
    }
    // Children: one representative of each nonzero coset of the chosen span in C_K (its
    // coordinates are 0 at the chosen span's pivots).
    uint64_t all = (uint64_t{1} << basis_.size()) - 1;
    uint64_t open = all & ~n.coords.pivots();
    std::vector<std::pair<uint64_t, uint64_t>> deferred;  // (bound, coords)
    for (uint64_t sub = open; sub != 0; sub = (sub - 1) & open) {
      uint64_t cb = childBound(n, sub);
      if (cb == lb) {
        explore(child(n, sub));
        if (aborted_ || !better(lb, instructions_)) return;
      } else if (better(cb, instructions_)) {
        deferred.push_back({cb, sub});
      }
    }
    std::sort(deferred.begin(), deferred.end());
    for (const auto& [cb, sub] : deferred) {
      if (!better(cb, instructions_)) break;
      explore(child(n, sub));
      if (aborted_ || !better(lb, instructions_)) return;
    }
  }

  // A leaf: the memory layout of 3. above (P, U', a complement of U' + R in C_K, R), from the
  // in-word vectors past P and then the row vectors (`chosen`), and each side's c.
  void record(const std::vector<uint64_t>& chosen, const int* c, uint64_t total) {
    found_ = true;
    bestTotal_ = total;
    bestInstructions_ = instructions_;
    int inWord = std::max(0, g_.inWord - static_cast<int>(prefix_.size()));
    witness_ = memoryLayoutOf(prefix_, chosen, inWord, basis_);
    witnessModes_ = modes_;
    witnessWavefronts_.clear();
    for (size_t x = 0; x < cands_.size(); ++x)
      witnessWavefronts_.push_back(modes_[x]->phases << c[x]);
  }

  std::vector<const SideModes*> sides_;
  int d_;
  Geometry g_;
  uint64_t budget_;
  const LeafSolver* leaves_;
  uint64_t visited_ = 0, leavesSolved_ = 0;
  bool aborted_ = false;
  // The current mode combination, candidates, prefix P and basis of C_K.
  std::vector<const Mode*> modes_;
  uint64_t instructions_ = 0;
  std::vector<const Candidate*> cands_;
  std::vector<uint64_t> prefix_, basis_;
  // The best so far.
  bool found_ = false;
  uint64_t bestTotal_ = 0, bestInstructions_ = 0;
  std::vector<uint64_t> witness_;
  std::vector<const Mode*> witnessModes_;
  std::vector<uint64_t> witnessWavefronts_;
};

SideModes sideModesOf(const SearchSide& s, uint64_t w) {
  if (s.layout == nullptr) throw std::invalid_argument("swizzle search: no layout");
  if (s.instruction != SearchInstruction::kVector && w != 2)
    throw std::invalid_argument("swizzle search: ldmatrix/stmatrix need 2-byte elements");
  SideModes sm;
  sm.side = &s;
  sm.dist = distributedOf(*s.layout);
  sm.modes = modesOf(sm.dist, s, w);
  for (const Mode& m : sm.modes) sm.candidates.push_back(candidatesOf(sm.dist, s, m));
  return sm;
}

std::optional<SearchAnswer> search(const std::vector<const SearchSide*>& sides, uint64_t w,
                                   uint64_t budget, const LeafSolver* leaves) {
  std::vector<SideModes> modes;
  for (const SearchSide* s : sides) modes.push_back(sideModesOf(*s, w));
  if (sides.size() == 2 && sides[0]->layout->out_dims != sides[1]->layout->out_dims)
    throw std::invalid_argument("swizzle search: the two layouts map to different out dims");
  int d = modes[0].dist.bits;
  std::vector<const SideModes*> pointers;
  for (const SideModes& m : modes) pointers.push_back(&m);
  Searcher searcher(pointers, d, geometryOf(d, w), budget, leaves);
  if (!searcher.run()) return std::nullopt;
  if (!searcher.found())
    throw std::invalid_argument("swizzle search: no memory layout allows the matrix instruction");

  SearchAnswer answer;
  answer.total = searcher.total();
  answer.instructions = searcher.instructions();
  answer.offsetBits = searcher.witness();
  answer.visited = searcher.visited();
  answer.leaves = searcher.leaves();
  // The witness again, address by address: the closed form's cost of the chosen modes, and each
  // side's own choice on it (no other width may do better, or the search missed a better total).
  for (size_t x = 0; x < sides.size(); ++x) {
    const Mode* m = searcher.witnessModes()[x];
    auto cost = sideCost(*sides[x], answer.offsetBits, w, m->matrix ? 0 : m->vectorBytes);
    auto choice = sideChoice(*sides[x], answer.offsetBits, w);
    uint64_t wavefronts = searcher.witnessWavefronts()[x];
    if (!cost || cost->first != wavefronts || cost->second != m->instructions || !choice ||
        choice->wavefronts != wavefronts || choice->instructions != m->instructions)
      throw std::logic_error("swizzle search: the witness costs differently by brute force");
    bool storeFields = sides.size() == 2 ? x == 0 : sides[x]->store;
    (storeFields ? answer.storeWavefronts : answer.loadWavefronts) = wavefronts;
    (storeFields ? answer.storeVectorBytes : answer.loadVectorBytes) = m->vectorBytes;
  }
  return answer;
}

// ---------------------------------------------------------------------------------------------
// Brute force: every lane's bytes, the phase rules as HARDWARE.md states them.

// The largest number of distinct words in one bank, over the accesses [address, address+bytes).
uint64_t phaseCost(const std::vector<std::pair<uint64_t, uint64_t>>& accesses) {
  std::map<uint64_t, std::vector<uint64_t>> byBank;
  for (const auto& [address, bytes] : accesses)
    for (uint64_t word = address / 4; word <= (address + bytes - 1) / 4; ++word)
      byBank[word % 32].push_back(word);
  uint64_t worst = 0;
  for (auto& [bank, words] : byBank) {
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
    worst = std::max<uint64_t>(worst, words.size());
  }
  return worst;
}

// The XOR of images[i] over the set bits i of x.
uint64_t combine(const std::vector<uint64_t>& images, uint64_t x) {
  uint64_t y = 0;
  for (size_t i = 0; i < images.size(); ++i)
    if (x >> i & 1) y ^= images[i];
  return y;
}

struct BruteSide {
  Distributed dist;
  std::vector<uint64_t> inv;
  uint64_t w;
  uint64_t offsetOf(uint64_t x) const { return combine(inv, x); }
};

// Vector accesses of 2^k elements with registers `chosen` at offsets 1, 2, ...
std::pair<uint64_t, uint64_t> bruteVector(const BruteSide& b, bool store, int k,
                                          const std::vector<int>& chosen) {
  const Distributed& dist = b.dist;
  std::vector<uint64_t> selectors;
  for (int r : dist.nonzeroRegs)
    if (std::find(chosen.begin(), chosen.end(), r) == chosen.end())
      selectors.push_back(dist.reg[r]);
  selectors.insert(selectors.end(), dist.warp.begin(), dist.warp.end());
  uint64_t bytes = b.w << k, wavefronts = 0, instructions = uint64_t{1} << selectors.size();
  for (uint64_t sel = 0; sel < instructions; ++sel) {
    uint64_t base = combine(selectors, sel);
    uint64_t address[32];
    for (uint64_t l = 0; l < 32; ++l) address[l] = b.offsetOf(base ^ dist.laneImage(l)) * b.w;
    std::vector<std::vector<uint64_t>> phases;  // lanes
    if (bytes <= 4) {
      phases.emplace_back();
      for (uint64_t l = 0; l < 32; ++l) phases.back().push_back(l);
    } else if (store) {
      uint64_t run = bytes == 8 ? 16 : 8;
      for (uint64_t l = 0; l < 32; ++l) {
        if (l % run == 0) phases.emplace_back();
        phases.back().push_back(l);
      }
    } else {
      auto served = [&](uint64_t l) {  // by a lower lane of its quad, l^1 or l^2
        return ((l ^ 1) < l && address[l ^ 1] == address[l]) ||
               ((l ^ 2) < l && address[l ^ 2] == address[l]);
      };
      uint64_t span = bytes == 8 ? 32 : 16, fill = bytes == 8 ? 16 : 8;
      for (uint64_t start = 0; start < 32; start += span) {
        size_t filled = fill;
        for (uint64_t l = start; l < start + span; ++l) {
          if (served(l)) continue;
          if (filled == fill) {
            phases.emplace_back();
            filled = 0;
          }
          phases.back().push_back(l);
          ++filled;
        }
      }
    }
    for (const auto& lanes : phases) {
      std::vector<std::pair<uint64_t, uint64_t>> accesses;
      for (uint64_t l : lanes) accesses.push_back({address[l], bytes});
      wavefronts += phaseCost(accesses);
    }
  }
  return {wavefronts, instructions};
}

std::optional<std::pair<uint64_t, uint64_t>> bruteMatrix(const BruteSide& b, bool trans) {
  const Distributed& dist = b.dist;
  if (dist.nonzeroRegs.empty()) return std::nullopt;
  const std::vector<uint64_t>& lane = dist.lane;
  int h = -1;
  std::vector<uint64_t> aligned;  // every other basis: a multiple of 8 elements
  if (trans) {
    for (int i = 0; i < 3; ++i)
      if (b.offsetOf(lane[2 + i]) != uint64_t{1} << i) return std::nullopt;
    h = dist.nonzeroRegs[0];
    aligned = {lane[0], lane[1]};
  } else {
    for (int r : dist.nonzeroRegs)
      if (b.offsetOf(dist.reg[r]) == 1) {
        h = r;
        break;
      }
    if (h < 0 || b.offsetOf(lane[0]) != 2 || b.offsetOf(lane[1]) != 4) return std::nullopt;
    aligned = {lane[2], lane[3], lane[4]};
  }
  for (size_t r = 0; r < dist.reg.size(); ++r)
    if (trans || static_cast<int>(r) != h) aligned.push_back(dist.reg[r]);
  aligned.insert(aligned.end(), dist.warp.begin(), dist.warp.end());
  for (uint64_t v : aligned)
    if (b.offsetOf(v) % 8 != 0) return std::nullopt;
  // The next two nonzero registers pick the matrix; the rest, and the warps, the instruction.
  std::vector<uint64_t> matrixBits, selectors;
  for (int r : dist.nonzeroRegs) {
    if (r == h) continue;
    (matrixBits.size() < 2 ? matrixBits : selectors).push_back(dist.reg[r]);
  }
  selectors.insert(selectors.end(), dist.warp.begin(), dist.warp.end());
  // Row r of a matrix: lanes 2..4 = r (not transposed), or h, lanes 0, 1 = r (.trans).
  std::vector<uint64_t> rowBits = trans ? std::vector<uint64_t>{dist.reg[h], lane[0], lane[1]}
                                        : std::vector<uint64_t>{lane[2], lane[3], lane[4]};
  uint64_t instructions = uint64_t{1} << selectors.size(), wavefronts = 0;
  for (uint64_t sel = 0; sel < instructions; ++sel)
    for (uint64_t i = 0; i < (uint64_t{1} << matrixBits.size()); ++i) {
      std::vector<std::pair<uint64_t, uint64_t>> rows;
      for (uint64_t r = 0; r < 8; ++r) {
        uint64_t x = combine(selectors, sel) ^ combine(matrixBits, i) ^ combine(rowBits, r);
        rows.push_back({b.offsetOf(x) * 2, 16});
      }
      wavefronts += phaseCost(rows);
    }
  return std::make_pair(wavefronts, instructions);
}

// The registers at offsets 1, 2, ..., 2^(k-1) when every other basis is a multiple of 2^k.
std::optional<std::vector<int>> vectorRegisters(const BruteSide& b, int k) {
  const Distributed& dist = b.dist;
  std::vector<int> chosen;
  for (int i = 0; i < k; ++i) {
    int found = -1;
    for (int r : dist.nonzeroRegs)
      if (b.offsetOf(dist.reg[r]) == uint64_t{1} << i) {
        found = r;
        break;
      }
    if (found < 0) return std::nullopt;
    chosen.push_back(found);
  }
  std::vector<uint64_t> rest = dist.lane;
  rest.insert(rest.end(), dist.warp.begin(), dist.warp.end());
  for (size_t r = 0; r < dist.reg.size(); ++r)
    if (std::find(chosen.begin(), chosen.end(), static_cast<int>(r)) == chosen.end())
      rest.push_back(dist.reg[r]);
  for (uint64_t v : rest)
    if (b.offsetOf(v) % (uint64_t{1} << k) != 0) return std::nullopt;
  return chosen;
}

// k for a requested vector width; -1 for the widest.
int requestedK(uint64_t w, uint64_t vectorBytes) {
  if (vectorBytes == 0) return -1;
  if (!std::has_single_bit(vectorBytes) || vectorBytes < w || vectorBytes > 16)
    throw std::invalid_argument("swizzle search: vector bytes " + std::to_string(vectorBytes) +
                                " is not a power of two from the element size to 16");
  return std::countr_zero(vectorBytes / w);
}

}  // namespace

std::optional<SearchAnswer> searchSwizzleMinimum(const SearchSide& a, const SearchSide& b,
                                                 uint64_t elementBytes, uint64_t budget) {
  return search({&a, &b}, elementBytes, budget, nullptr);
}

std::optional<SearchAnswer> searchSwizzleMinimum(const SearchSide& a, const SearchSide& b,
                                                 uint64_t elementBytes, uint64_t budget,
                                                 const LeafSolver& leaves) {
  return search({&a, &b}, elementBytes, budget, &leaves);
}

std::optional<SearchAnswer> searchSideMinimum(const SearchSide& s, uint64_t elementBytes,
                                              uint64_t budget) {
  return search({&s}, elementBytes, budget, nullptr);
}

std::optional<SearchAnswer> searchSideMinimum(const SearchSide& s, uint64_t elementBytes,
                                              uint64_t budget, const LeafSolver& leaves) {
  return search({&s}, elementBytes, budget, &leaves);
}

std::vector<uint64_t> leafMemoryLayout(const LeafProblem& p, uint64_t t) {
  uint32_t inWord[kLeafBits], rows[kLeafBits];
  leafVectors(p, t, inWord, rows);
  std::vector<uint64_t> chosen(inWord, inWord + p.inWord);
  chosen.insert(chosen.end(), rows, rows + p.rows);
  return memoryLayoutOf(std::vector<uint64_t>(p.prefix, p.prefix + p.k), chosen, p.inWord,
                        std::vector<uint64_t>(p.basis, p.basis + p.m));
}

LeafSolver hostLeafSolver(uint64_t maxLeaves) {
  return [maxLeaves](const LeafProblem& p) -> std::optional<LeafBest> {
    uint64_t count = leafCount(p);
    if (count > maxLeaves) return std::nullopt;
    LeafBest best{leafTotal(p, 0), 0};
    for (uint64_t t = 1; t < count; ++t)
      if (uint64_t total = leafTotal(p, t); total < best.total) best = {total, t};
    return best;
  };
}

std::optional<std::pair<uint64_t, uint64_t>> sideCost(const SearchSide& s,
                                                      const std::vector<uint64_t>& offsetBits,
                                                      uint64_t elementBytes, uint64_t vectorBytes) {
  log2Bytes(elementBytes);
  if (s.layout == nullptr) throw std::invalid_argument("swizzle search: no layout");
  BruteSide b{distributedOf(*s.layout), {}, elementBytes};
  b.inv = inverseColumns(offsetBits, b.dist.bits);
  if (s.instruction != SearchInstruction::kVector) {
    if (elementBytes != 2)
      throw std::invalid_argument("swizzle search: ldmatrix/stmatrix need 2-byte elements");
    return bruteMatrix(b, s.instruction == SearchInstruction::kMatrixTrans);
  }
  int k = requestedK(elementBytes, vectorBytes);
  if (k < 0) {
    k = std::countr_zero(16 / elementBytes);
    while (k > 0 && !vectorRegisters(b, k)) --k;
  }
  auto chosen = vectorRegisters(b, k);
  if (!chosen) return std::nullopt;
  return bruteVector(b, s.store, k, *chosen);
}

std::optional<SideChoice> sideChoice(const SearchSide& s, const std::vector<uint64_t>& offsetBits,
                                     uint64_t elementBytes) {
  if (s.instruction != SearchInstruction::kVector) {
    auto cost = sideCost(s, offsetBits, elementBytes, 0);
    if (!cost) return std::nullopt;
    return SideChoice{cost->first, cost->second, 16};
  }
  std::optional<SideChoice> best;
  for (uint64_t bytes = elementBytes; bytes <= 16; bytes *= 2) {
    auto cost = sideCost(s, offsetBits, elementBytes, bytes);
    if (!cost) continue;
    if (!best || cost->first < best->wavefronts ||
        (cost->first == best->wavefronts && cost->second < best->instructions))
      best = SideChoice{cost->first, cost->second, bytes};
  }
  return best;
}

std::optional<std::pair<uint64_t, uint64_t>> sideCostByRank(const SearchSide& s,
                                                            const std::vector<uint64_t>& offsetBits,
                                                            uint64_t elementBytes,
                                                            uint64_t vectorBytes) {
  if (s.layout == nullptr) throw std::invalid_argument("swizzle search: no layout");
  Distributed dist = distributedOf(*s.layout);
  inverseColumns(offsetBits, dist.bits);  // checks S
  Geometry g = geometryOf(dist.bits, elementBytes);
  auto registerAt = [&](uint64_t v) {  // the first nonzero register with image v
    for (int r : dist.nonzeroRegs)
      if (dist.reg[r] == v) return r;
    return -1;
  };
  if (s.instruction != SearchInstruction::kVector) {
    if (elementBytes != 2)
      throw std::invalid_argument("swizzle search: ldmatrix/stmatrix need 2-byte elements");
    auto m = matrixMode(dist);
    if (!m || offsetBits.size() < 3) return std::nullopt;
    bool trans = s.instruction == SearchInstruction::kMatrixTrans;
    int h = trans ? dist.nonzeroRegs[0] : registerAt(offsetBits[0]);
    if (h < 0) return std::nullopt;
    auto cost = rankCost(*m, matrixCandidate(dist, trans, h), offsetBits, g);
    if (!cost) return std::nullopt;
    return std::make_pair(*cost, m->instructions);
  }
  auto costAt = [&](int k) -> std::optional<std::pair<uint64_t, uint64_t>> {
    auto m = vectorMode(dist, s.store, elementBytes, k);
    if (!m || k > static_cast<int>(offsetBits.size())) return std::nullopt;
    std::vector<int> chosen;
    for (int i = 0; i < k; ++i) {
      int r = registerAt(offsetBits[i]);
      if (r < 0) return std::nullopt;
      chosen.push_back(r);
    }
    auto cost = rankCost(*m, vectorCandidate(dist, *m, chosen), offsetBits, g);
    if (!cost) return std::nullopt;
    return std::make_pair(*cost, m->instructions);
  };
  int k = requestedK(elementBytes, vectorBytes);
  if (k >= 0) return costAt(k);
  for (k = std::countr_zero(16 / elementBytes); k > 0; --k)
    if (auto c = costAt(k)) return c;
  return costAt(0);
}

}  // namespace f2lay::testkit
