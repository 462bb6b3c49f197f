// The search of swizzle_optimum.h, for the layout type L and its F2 space
// backend (space.h). Included only where an implementation instantiates the
// constructions (F2LAY_INSTANTIATE_SWIZZLE_OPTIMUM).
#pragma once

#include <algorithm>
#include <bit>
#include <functional>
#include <optional>
#include <tuple>

#include "analysis/optimal_swizzle_impl.h"
#include "analysis/swizzle_optimum.h"
#include "formats/error.h"

namespace f2lay::analysis {

namespace optimum_detail {

using swizzle_detail::contains;

// Where the offset bits of w-byte elements fall (device_tests/HARDWARE.md#banks):
// [0, wordEnd) inside a 4-byte word, [wordEnd, bankEnd) choose the bank,
// [bankEnd, d) the 128-byte row (rowBits of them). Tiny tensors cut them.
struct Geometry {
  int d = 0, wordEnd = 0, bankEnd = 0, rowBits = 0;
};

[[nodiscard]] inline Geometry geometryOf(int d, uint64_t w) {
  int omega = std::countr_zero(w);
  Geometry g;
  g.d = d;
  g.wordEnd = std::min(std::max(0, 2 - omega), d);
  g.bankEnd = std::min(7 - omega, d);
  g.rowBits = d - g.bankEnd;
  return g;
}

// One side's bases, flattened.
struct SideBases {
  Vecs registers;  // nonzero, register order (zero ones hold duplicates: never accessed)
  Vecs lanes;      // all 5, zeros kept (phases and the quad merge go by lane index)
  Vecs warps;      // nonzero
  int warpBits = 0;
  Instruction instruction = Instruction::kVector;
  AccessKind kind = AccessKind::kStore;
  const char* name = "";
};

template <class L>
[[nodiscard]] SideBases sideBasesOf(const L& l, Instruction instruction, AccessKind kind,
                                    const char* name) {
  using S = Space<L>;
  return {nonzero(S::flatBases(l, "register")),
          S::flatBases(l, "lane"),
          nonzero(S::flatBases(l, "warp")),
          inBits(l, "warp"),
          instruction,
          kind,
          name};
}

// A side's vector choice: its run (the vectors at offsets 1, 2, 4, ...), the
// span every other basis must stay in (H, as a basis), the vectors of one
// phase beyond the run (T = span(run ∪ phase)), and what it costs but for
// conflicts.
struct Choice {
  Vecs run, others, phase;
  SideCost cost;
};

// Removes one occurrence of each of `taken` from `from`.
[[nodiscard]] inline Vecs without(Vecs from, const Vecs& taken) {
  for (Vec x : taken) {
    auto it = std::find(from.begin(), from.end(), x);
    if (it != from.end()) from.erase(it);
  }
  return from;
}

// Phases of one instruction (device_tests/HARDWARE.md#whole-warp-phase,
// #store-phases, #load-phases): a load merges lane l into l^1 or l^2 where
// lane bit 0 or 1 is a broadcast, so fewer accesses fill its phases.
[[nodiscard]] inline uint64_t vectorPhases(const SideBases& s, uint64_t bytes) {
  if (bytes <= 4) return 1;
  uint64_t fixed = bytes == 8 ? 2 : 4;
  if (s.kind == AccessKind::kStore) return fixed;
  bool merged = s.lanes[0] == 0 || s.lanes[1] == 0;
  return merged ? fixed / 2 : fixed;
}

// The choice of side s whose run is `run`, or nullopt where no memory layout
// can put the run at offsets 1, 2, 4, ... with every other basis aligned past
// it (bank_access.h): span(others) must meet span(run) only in 0.
template <class S>
[[nodiscard]] std::optional<Choice> choiceOf(const SideBases& s, const Vecs& run, int d,
                                             uint64_t w) {
  Choice c;
  c.run = run;
  int k = static_cast<int>(run.size());
  Vecs others;
  if (s.instruction == Instruction::kVector) {
    // The run is k distinct registers of this side (a matrix run may repeat
    // a vector, or hold lanes this side has as one register).
    Vecs rest = without(s.registers, run);
    if (rest.size() + run.size() != s.registers.size()) return std::nullopt;
    others = concat({rest, nonzero(s.lanes), s.warps});
    uint64_t bytes = w << k;
    c.phase = swizzle_detail::phaseLanes(s.lanes, bytes, s.kind);
    c.cost.vectorBytes = bytes;
    c.cost.phases = vectorPhases(s, bytes);
    c.cost.instructions = uint64_t{1} << (s.registers.size() - k + s.warpBits);
  } else {
    // ldmatrix / stmatrix (device_tests/HARDWARE.md#matrix-ownership): the
    // half register and up to two matrix registers are inside one
    // instruction; one phase per matrix, its rows picked by `phase`.
    bool trans = s.instruction == Instruction::kMatrixTrans;
    Vecs regs = trans ? s.registers : without(s.registers, {run[0]});
    others = concat(
        {regs,
         nonzero(trans ? Vecs{s.lanes[0], s.lanes[1]} : Vecs{s.lanes[2], s.lanes[3], s.lanes[4]}),
         s.warps});
    c.phase = trans ? Vecs{s.registers[0], s.lanes[0], s.lanes[1]}
                    : Vecs{s.lanes[2], s.lanes[3], s.lanes[4]};
    uint64_t matrixBits = std::min<uint64_t>(2, s.registers.size() - 1);
    c.cost.vectorBytes = 16;
    c.cost.phases = uint64_t{1} << matrixBits;
    c.cost.instructions = uint64_t{1} << (s.registers.size() - 1 - matrixBits + s.warpBits);
  }
  if (S::rankOf(others) != d - k) return std::nullopt;
  c.others = S::extendBasis({}, others);
  return c;
}

// The matrix runs of a side (device_tests/HARDWARE.md#matrix-ownership):
// non-transposed, any register h at offset +1 then lane bits 0, 1; .trans,
// lane bits 2, 3, 4.
[[nodiscard]] inline std::vector<Vecs> matrixRuns(const SideBases& s) {
  if (s.registers.empty())
    throw Error(std::string("swizzle optimum: ") + s.name +
                " has no register to fill a 32-bit ldmatrix/stmatrix register");
  if (s.instruction == Instruction::kMatrixTrans) return {{s.lanes[2], s.lanes[3], s.lanes[4]}};
  std::vector<Vecs> runs;
  for (Vec h : s.registers) {
    Vecs run{h, s.lanes[0], s.lanes[1]};
    if (std::find(runs.begin(), runs.end(), run) == runs.end()) runs.push_back(run);
  }
  return runs;
}

// Calls visit(run) for every run of pools.size() distinct vectors, position i
// drawn from *pools[i], increasing within each block (a block starts at each
// position in blockStarts): the order inside a block changes no cost.
inline void forEachRun(const std::vector<const Vecs*>& pools, const std::vector<int>& blockStarts,
                       const std::function<void(const Vecs&)>& visit) {
  Vecs run;
  std::function<void(size_t)> place = [&](size_t i) {
    if (i == pools.size()) {
      visit(run);
      return;
    }
    bool newBlock = i == 0 || contains(Vecs(blockStarts.begin(), blockStarts.end()), i);
    for (Vec x : *pools[i]) {
      if (contains(run, x) || (!newBlock && x <= run.back())) continue;
      run.push_back(x);
      place(i + 1);
      run.pop_back();
    }
  };
  place(0);
}

[[nodiscard]] inline Vecs distinct(const Vecs& v) {
  Vecs out;
  for (Vec x : v)
    if (!contains(out, x)) out.push_back(x);
  return out;
}

// A candidate: the run at the low offsets, the sides' choices on it, the
// free word bits W', and each side's P = (T + W) ∩ H.
struct Plan {
  Vecs run, wordFill;
  std::vector<Choice> sides;
  std::vector<Vecs> p;
  uint64_t wavefronts = ~uint64_t{0}, instructions = ~uint64_t{0};
  [[nodiscard]] bool betterThan(const Plan& o) const {
    return std::tie(wavefronts, instructions) < std::tie(o.wavefronts, o.instructions);
  }
};

// The least cost of `sides` sharing the run (its long side's H), over W' and
// R (swizzle_optimum.h): R meets every side's bound at once, so only W'
// trades one side against the other.
template <class S>
[[nodiscard]] Plan costPlan(const Geometry& g, const Vecs& run, const std::vector<Choice>& sides,
                            const Vecs& h) {
  const int k = static_cast<int>(run.size());
  const int inWord = std::min(k, g.wordEnd), free = g.wordEnd - inWord;
  const int n = static_cast<int>(h.size());
  Vecs wordRun(run.begin(), run.begin() + inWord);
  std::vector<Vecs> candidates{{}};
  if (free > 0) {
    // One W' of each kind: its vectors from N_A ∩ N_B, the rest of N_A, of
    // N_B, and outside both (N_X = (T_X + W_run) ∩ H).
    std::vector<Vecs> spans;
    for (const Choice& c : sides)
      spans.push_back(S::intersectSpans(concat({c.run, c.phase, wordRun}), h));
    Vecs common = spans[0];
    for (const Vecs& s : spans) common = S::intersectSpans(common, s);
    Vecs pool;
    auto take = [&](const Vecs& v) {
      for (size_t i = 0; i < v.size() && i < static_cast<size_t>(free); ++i) pool.push_back(v[i]);
    };
    take(common);
    Vecs all = common;
    for (const Vecs& s : spans) {
      take(S::extendBasis(common, s));
      all.insert(all.end(), s.begin(), s.end());
    }
    take(S::extendBasis(all, h));
    candidates.clear();
    for (size_t i = 0; i < pool.size(); ++i) {
      if (free == 1) candidates.push_back({pool[i]});
      for (size_t j = i + 1; free == 2 && j < pool.size(); ++j)
        if (S::rankOf({pool[i], pool[j]}) == 2) candidates.push_back({pool[i], pool[j]});
    }
  }
  Plan best;
  for (const Vecs& fill : candidates) {
    Plan plan;
    plan.run = run;
    plan.wordFill = fill;
    plan.sides = sides;
    plan.wavefronts = plan.instructions = 0;
    Vecs word = concat({wordRun, fill});
    for (Choice& c : plan.sides) {
      // e = dim(T ∩ (W + R)) - dim(T ∩ W) at its least: working modulo W in
      // H, max(0, dim(P) - |W'| + r - (n - |W'|)).
      Vecs p = S::intersectSpans(concat({c.run, c.phase, word}), h);
      c.cost.conflictBits = std::max(0, static_cast<int>(p.size()) + g.rowBits - n);
      plan.p.push_back(p);
      plan.wavefronts += c.cost.wavefronts();
      plan.instructions += c.cost.instructions;
    }
    if (plan.betterThan(best)) best = plan;
  }
  return best;
}

// The memory layout's offset bits for a plan of two sides: the run, W', the
// bank bits, then R built to meet both sides' bounds (swizzle_optimum.h).
template <class S>
[[nodiscard]] Vecs offsetBitsOf(const Geometry& g, const Plan& plan, const Vecs& h) {
  const Vecs& wf = plan.wordFill;
  const Vecs& pa = plan.p[0];
  const Vecs& pb = plan.p[1];
  Vecs both = S::extendBasis(wf, S::intersectSpans(pa, pb));
  Vecs base = concat({wf, both});
  Vecs onlyA = S::extendBasis(base, pa), onlyB = S::extendBasis(base, pb);
  Vecs outside = S::extendBasis(concat({wf, pa, pb}), h);
  size_t m = std::min(onlyA.size(), onlyB.size());
  Vecs order = outside;
  for (size_t i = 0; i < m; ++i) order.push_back(onlyA[i] ^ onlyB[i]);
  const Vecs& longer = onlyA.size() > m ? onlyA : onlyB;
  order.insert(order.end(), longer.begin() + static_cast<long>(m), longer.end());
  order.insert(order.end(), both.begin(), both.end());
  // Past that, every further row vector meets both sides: the shorter one's
  // paired vectors (each also brings its partner in, through G).
  const Vecs& shorter = onlyA.size() > m ? onlyB : onlyA;
  order.insert(order.end(), shorter.begin(), shorter.begin() + static_cast<long>(m));
  Vecs rows = S::extendBasis(wf, order);
  rows.resize(static_cast<size_t>(g.rowBits));
  Vecs bank = S::extendBasis(concat({wf, rows}), h);
  return concat({plan.run, wf, bank, rows});
}

// Every plan of one side alone, or of two sharing their runs; the best.
template <class S>
struct Search {
  Geometry g;
  uint64_t w;
  std::vector<const SideBases*> sides;
  Plan best;
  Vecs bestH;

  // A pair of runs (or one side's run): costed where it could beat the best.
  void consider(const Vecs& run, const std::vector<std::optional<Choice>>& choices,
                size_t longSide) {
    for (const auto& c : choices)
      if (!c) return;
    uint64_t ideal = 0, instructions = 0;
    for (const auto& c : choices) {
      ideal += c->cost.wavefronts();
      instructions += c->cost.instructions;
    }
    if (std::tie(ideal, instructions) >= std::tie(best.wavefronts, best.instructions)) return;
    const Vecs& h = choices[longSide]->others;
    // The shorter run's H must hold the longer run's rest and H (one S).
    for (const auto& c : choices)
      if (S::rankOf(concat({c->others, h, Vecs(run.begin() + c->run.size(), run.end())})) !=
          g.d - static_cast<int>(c->run.size()))
        return;
    std::vector<Choice> chosen;
    for (const auto& c : choices) chosen.push_back(*c);
    Plan plan = costPlan<S>(g, run, chosen, h);
    if (plan.betterThan(best)) {
      best = plan;
      bestH = h;
    }
  }

  // Vector runs: the longer side's run, whose first `shortLength` vectors are
  // registers of every side (the shorter run).
  void vectorRuns() {
    int maxRun = std::countr_zero(16 / w);
    Vecs common = distinct(sides[0]->registers);
    for (const SideBases* s : sides) common = filterIn(common, s->registers);
    for (int shortLength = 0; shortLength <= maxRun; ++shortLength)
      for (int longLength = shortLength; longLength <= maxRun; ++longLength)
        for (size_t longSide = 0; longSide < sides.size(); ++longSide) {
          // One side alone has one run: no prefix to tell apart.
          if (longLength == shortLength ? longSide > 0 : sides.size() == 1) break;
          Vecs longPool = distinct(sides[longSide]->registers);
          std::vector<const Vecs*> pools;
          for (int i = 0; i < longLength; ++i)
            pools.push_back(i < shortLength ? &common : &longPool);
          forEachRun(pools, {g.wordEnd, shortLength}, [&](const Vecs& run) {
            std::vector<std::optional<Choice>> choices;
            for (size_t i = 0; i < sides.size(); ++i) {
              Vecs own = i == longSide ? run : Vecs(run.begin(), run.begin() + shortLength);
              choices.push_back(choiceOf<S>(*sides[i], own, g.d, w));
            }
            consider(run, choices, longSide);
          });
        }
  }

  // With a matrix side: its runs; a vector side takes a prefix of one.
  void withMatrixRuns(size_t matrixSide) {
    for (const Vecs& run : matrixRuns(*sides[matrixSide])) {
      int maxOther = std::countr_zero(16 / w);
      for (int prefix = 0; prefix <= std::min<int>(3, maxOther); ++prefix) {
        std::vector<std::optional<Choice>> choices;
        bool skip = false;
        for (size_t i = 0; i < sides.size(); ++i) {
          if (i == matrixSide) {
            choices.push_back(choiceOf<S>(*sides[i], run, g.d, w));
          } else if (sides[i]->instruction != Instruction::kVector) {
            // Two matrix sides share the whole row.
            std::vector<Vecs> theirs = matrixRuns(*sides[i]);
            skip = prefix != 3 || std::find(theirs.begin(), theirs.end(), run) == theirs.end();
            if (!skip) choices.push_back(choiceOf<S>(*sides[i], run, g.d, w));
          } else {
            Vecs own(run.begin(), run.begin() + prefix);
            for (Vec x : own) skip = skip || !contains(sides[i]->registers, x);
            if (!skip) choices.push_back(choiceOf<S>(*sides[i], own, g.d, w));
          }
        }
        if (!skip) consider(run, choices, matrixSide);
      }
    }
  }

  [[nodiscard]] static Vecs filterIn(const Vecs& v, const Vecs& in) {
    Vecs out;
    for (Vec x : v)
      if (contains(in, x)) out.push_back(x);
    return out;
  }

  void run() {
    for (size_t i = 0; i < sides.size(); ++i)
      if (sides[i]->instruction != Instruction::kVector) {
        withMatrixRuns(i);
        return;
      }
    vectorRuns();
  }
};

template <class S>
[[nodiscard]] Search<S> searchOf(const Geometry& g, uint64_t w,
                                 std::vector<const SideBases*> sides) {
  Search<S> search{g, w, std::move(sides), {}, {}};
  search.run();
  if (search.best.sides.empty()) {
    std::string names;
    for (const SideBases* s : search.sides)
      names += (names.empty() ? "" : " and ") + std::string(s->name);
    throw Error("swizzle optimum: no memory layout serves " + names +
                " with the requested instructions (an ldmatrix/stmatrix row of 8 distinct "
                "elements, 16-byte aligned, that both sides can share)");
  }
  return search;
}

}  // namespace optimum_detail

template <LayoutApi L>
L storingWarps(const L& a) {
  LayoutValue v = a.value();
  for (InDim& d : v.in_dims) {
    if (d.name != "warp") continue;
    std::erase_if(d.bases, [](const Basis& b) {
      return std::all_of(b.begin(), b.end(), [](uint64_t x) { return x == 0; });
    });
  }
  return L(v);
}

template <LayoutApi L>
SwizzleOptimum<L> swizzleOptimum(const L& a, const L& b, uint64_t w,
                                 const SwizzleOptions& options) {
  using namespace optimum_detail;
  using S = Space<L>;
  swizzle_detail::checkPair(a, b, w);
  if ((options.write != Instruction::kVector || options.read != Instruction::kVector) && w != 2)
    throw Error("optimal_swizzle: ldmatrix/stmatrix tiles are for 2-byte elements (b16), got " +
                std::to_string(w));
  Geometry g = geometryOf(a.getTotalOutDimSizeLog2(), w);
  SideBases sa = sideBasesOf(storingWarps(a), options.write, AccessKind::kStore, "A");
  SideBases sb = sideBasesOf(b, options.read, AccessKind::kLoad, "B");

  Search<S> both = searchOf<S>(g, w, {&sa, &sb});
  SwizzleOptimum<L> out;
  out.shared = swizzle_detail::memoryLayout(a, offsetBitsOf<S>(g, both.best, both.bestH));
  if (!out.shared.isInvertible())
    throw Error("optimal_swizzle: internal: the optimum's offset bits are not a basis");
  out.store = both.best.sides[0].cost;
  out.load = both.best.sides[1].cost;
  out.storeBound = searchOf<S>(g, w, {&sa}).best.sides[0].cost;
  out.loadBound = searchOf<S>(g, w, {&sb}).best.sides[0].cost;
  return out;
}

}  // namespace f2lay::analysis

#define F2LAY_INSTANTIATE_SWIZZLE_OPTIMUM(L)                                 \
  template SwizzleOptimum<L> swizzleOptimum<L>(const L&, const L&, uint64_t, \
                                               const SwizzleOptions&);       \
  template L storingWarps<L>(const L&);
