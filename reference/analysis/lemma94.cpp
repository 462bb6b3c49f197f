// Lemma 9.4 (paper §9.2, used by §5.4's optimal swizzling) as a closed form
// over the spans of the layouts' bases (f2_space.h). Nothing is enumerated:
// this is what the simulator (bank_simulator.cpp) checks.
//
// With vectors of 2^v elements of w bytes, the memory layout's offset bits
// split into S_Vec (bits 0..v-1, inside one vector), S_Bank (the next
// b = log2(128 / (2^v w)): which bank a vector starts in) and S_Idx (the rest:
// which 128-byte row), each written as flattened tensor vectors, the images of
// the offset bits under `shared`. A wavefront serves the lanes of one
// transaction; the lanes whose vectors fall in one bank but different rows
// serialize. When each vector covers n = 2^v w / 4 >= 1 banks, the hardware
// splits a warp's request over 32/n lanes (128-byte transactions, as in the
// lemma's proof; device_tests/HARDWARE.md#store-phases), so L_Thr is the lane
// bases without the last log2(n). Then every transaction costs
// c = |span(S_Vec ∪ S_Idx) ∩ span(L_Thr)| wavefronts, and an instruction n c.
//
// Where this is exact, by the wavefront rule of device_tests/HARDWARE.md (and
// where it is not: nullopt):
//   * vectors of at least 4 bytes: the lanes of a transaction form a coset of
//     span(L_Thr) in offset space, a bank's distinct words are the coset's
//     points with one S_Bank value, and counting them is c; lanes with equal
//     offsets (zero or dependent lane bases) are the same words, which the
//     rule also counts once. So stores, and loads of 4 bytes, are exact.
//   * narrower vectors (2^v w < 4): several offsets share one word, so S_Bank
//     holds bits below the word and lanes differing there are not conflicts:
//     nullopt.
//   * loads of 8 or 16 bytes when lane bit 0 or 1 has a zero (broadcast)
//     offset: then lanes l and l^1 (or l^2) of each quad read the same
//     address, which the hardware serves once and the rest of the lanes close
//     up into fewer phases (device_tests/HARDWARE.md#load-phases), so
//     the load costs at most what the lemma says and often less (random
//     testing finds both): nullopt. Lanes l and l^3 sharing an address (equal
//     offsets of lane bits 0 and 1) are not merged (measured, finding W1:
//     device_tests/HARDWARE.md#quad-merge), nor are lanes 16 apart, so there
//     the phases are the stores' and the lemma stays exact.
//   * ldmatrix / stmatrix: not the lemma's access: nullopt.
#include <bit>

#include "analysis/bank_access.h"
#include "reference/analysis/bank_conflicts.h"
#include "reference/analysis/f2_space.h"

namespace f2lay::ref::analysis {

namespace {

Vecs range(const Vecs& v, size_t begin, size_t end) {
  begin = std::min(begin, v.size());
  end = std::min(end, v.size());
  return Vecs(v.begin() + static_cast<long>(begin), v.begin() + static_cast<long>(end));
}

// The widest vector in elements' log2 (bank_conflicts.h), by spans: register
// basis j_k equals S_k (its offset is 2^k), and every other basis lies in
// span(S_(k+1), S_(k+2), ...) (its offset is a multiple of 2^(k+1)).
int vectorLog2(const Vecs& reg, const Vecs& lane, const Vecs& warp, const Vecs& s,
               uint64_t elementBytes) {
  std::vector<bool> used(reg.size(), false);
  int k = 0;
  while ((elementBytes << (k + 1)) <= 16 && static_cast<size_t>(k) < s.size()) {
    int found = -1;
    for (size_t j = 0; j < reg.size() && found < 0; ++j)
      if (!used[j] && reg[j] == s[static_cast<size_t>(k)]) found = static_cast<int>(j);
    if (found < 0) break;
    Vecs high = range(s, static_cast<size_t>(k) + 1, s.size());
    bool aligned = true;
    for (size_t j = 0; j < reg.size(); ++j)
      if (!used[j] && static_cast<int>(j) != found) aligned = aligned && inSpan(high, reg[j]);
    for (Vec x : lane) aligned = aligned && inSpan(high, x);
    for (Vec x : warp) aligned = aligned && inSpan(high, x);
    if (!aligned) break;
    used[static_cast<size_t>(found)] = true;
    ++k;
  }
  return k;
}

}  // namespace

std::optional<WavefrontReport> lemma94(const LinearLayout& dist, const LinearLayout& shared,
                                       const AccessSpec& access) {
  checkBankAccess(dist, shared, access);
  if (access.instruction != Instruction::kVector) return std::nullopt;
  // Padded addresses are not linear in the offset (analysis/padding.h).
  if (f2lay::analysis::paddedInside(shared, access)) return std::nullopt;
  // Flatten both over the same out-dim order.
  Vecs s = flatBases(shared.transposeOuts(dist.getOutDimNames()), "offset");
  Vecs reg = flatBases(dist, "register"), lane = flatBases(dist, "lane"),
       warp = flatBases(dist, "warp");
  uint64_t w = access.elementBytes;
  uint64_t bytes = chosenVectorBytes(access, w << vectorLog2(reg, lane, warp, s, w));
  size_t v = static_cast<size_t>(std::countr_zero(bytes / w));
  if (bytes < 4) return std::nullopt;  // narrower than a bank
  uint64_t n = bytes / 4;
  size_t logN = static_cast<size_t>(std::countr_zero(n));
  if (access.kind == AccessKind::kLoad && n > 1 && (lane[0] == 0 || lane[1] == 0))
    return std::nullopt;  // lanes l, l^1 or l, l^2 share an address: merged

  size_t b = static_cast<size_t>(std::countr_zero(128 / bytes));
  Vecs vecIdx = range(s, 0, v), idx = range(s, v + b, s.size());
  vecIdx.insert(vecIdx.end(), idx.begin(), idx.end());
  Vecs thr = range(lane, 0, 5 - logN);  // the transaction split
  uint64_t c = uint64_t{1} << rankOf(intersectSpans(vecIdx, thr));

  // Instructions: per warp, 2^(nonzero register bases - v) (zero registers
  // are duplicates; v register bits form the vector).
  int regBits = static_cast<int>(nonzero(reg).size()) - static_cast<int>(v);
  uint64_t instructions = uint64_t{1} << (regBits + static_cast<int>(warp.size()));
  return uniformReport(instructions, n, n * c, bytes);
}

}  // namespace f2lay::ref::analysis
