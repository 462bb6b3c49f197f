// Oracle ops for optimal swizzling (paper §5.4, §9.2), vectorization and
// instruction tiles (§5.1, §5.3) and duplicated data (§5.1 "Broadcasting").
#include "analysis/optimal_swizzle.h"
#include "analysis/swizzle_optimum.h"
#include "analysis/vectorization.h"
#include "oracle/analysis_ops/bank_models.h"
#include "oracle/op_table.h"
#include "reference/analysis/bank_conflicts.h"

namespace f2lay::oracle {

namespace {

using analysis::Instruction;

Instruction instructionArg(const Args& a, const char* key, const char* matrix) {
  if (!a.has(key)) return Instruction::kVector;
  std::string name = a.name(key);
  if (name == "vector") return Instruction::kVector;
  if (name == matrix) return Instruction::kMatrix;
  if (name == std::string(matrix) + "_trans") return Instruction::kMatrixTrans;
  throw Error(std::string("\"") + key + "\" must be \"vector\", \"" + matrix + "\" or \"" + matrix +
              "_trans\" (got \"" + name + "\")");
}

// §5.4's construction, with its sets (optimal_swizzle.h).
template <class L>
Json paperSwizzleJson(const L& self, const L& other, uint64_t w, const analysis::AccessSpec& store,
                      const analysis::AccessSpec& load) {
  using A = BankModels<L>;
  auto s = analysis::optimalSwizzle(self, other, w, {store.instruction, load.instruction});
  const auto& sets = s.sets;
  const std::vector<OutDim> outs = self.value().out_dims;
  std::vector<uint64_t> pa = sets.V, pb = sets.V;
  pa.insert(pa.end(), sets.ABank.begin(), sets.ABank.end());
  pb.insert(pb.end(), sets.BBank.begin(), sets.BBank.end());
  return {
      {"construction", "paper"},
      {"shared", layoutJson(s.shared)},
      {"vector_bytes", s.vectorBytes},
      {"bank_bits", s.bankBits},
      {"idx_bits", s.idxBits},
      {"sets",
       {{"V", vectorsJson(outs, sets.V)},
        {"A_bank", vectorsJson(outs, sets.ABank)},
        {"B_bank", vectorsJson(outs, sets.BBank)},
        {"P", {vectorsJson(outs, pa), vectorsJson(outs, pb)}},
        {"I", vectorsJson(outs, sets.I)},
        {"E", vectorsJson(outs, sets.E)},
        {"F", vectorsJson(outs, sets.F)},
        {"G", vectorsJson(outs, sets.G)},
        {"C", vectorsJson(outs, sets.C)},
        {"Idx", vectorsJson(outs, sets.Idx)},
        {"Bank", vectorsJson(outs, sets.Bank)}}},
      {"predicted_conflict_bits", {{"store", s.writeConflictBits}, {"load", s.readConflictBits}}},
      {"store", wavefrontReportJson(A::bankConflicts(self, s.shared, store))},
      {"load", wavefrontReportJson(A::bankConflicts(other, s.shared, load))}};
}

Json sideCostJson(const analysis::SideCost& c) {
  return {{"vector_bytes", c.vectorBytes},
          {"instructions", c.instructions},
          {"wavefronts", c.wavefronts()}};
}

// The side's wavefronts on the optimum by the bank model (the simulator, or
// opt's paths), which must be what the optimum predicts.
template <class L>
Json checkedSideJson(const L& dist, const L& shared, analysis::AccessSpec access,
                     const analysis::SideCost& predicted, const char* side) {
  if (access.instruction == analysis::Instruction::kVector)
    access.vectorBytes = predicted.vectorBytes;
  analysis::WavefrontReport r = BankModels<L>::bankConflicts(dist, shared, access);
  if (r.wavefronts != predicted.wavefronts() || r.instructions != predicted.instructions)
    throw Error(std::string("optimal_swizzle: internal: the ") + side + "s cost " +
                std::to_string(r.wavefronts) + " wavefronts in " + std::to_string(r.instructions) +
                " instructions on the bank model, the optimum "
                "predicted " +
                std::to_string(predicted.wavefronts()) + " in " +
                std::to_string(predicted.instructions));
  Json out = wavefrontReportJson(r);
  out["vector_bytes"] = r.vectorBytes;
  return out;
}

// The optimum by the hardware's rule (swizzle_optimum.h).
template <class L>
Json swizzleOptimumJson(const L& self, const L& other, uint64_t w,
                        const analysis::AccessSpec& store, const analysis::AccessSpec& load) {
  auto s = analysis::swizzleOptimum(self, other, w, {store.instruction, load.instruction});
  bool storeMeets = s.store.wavefronts() == s.storeBound.wavefronts();
  bool loadMeets = s.load.wavefronts() == s.loadBound.wavefronts();
  return {
      {"construction", "optimum"},
      {"shared", layoutJson(s.shared)},
      {"wavefronts", s.wavefronts()},
      {"instructions", s.instructions()},
      {"store", checkedSideJson(analysis::storingWarps(self), s.shared, store, s.store, "store")},
      {"load", checkedSideJson(other, s.shared, load, s.load, "load")},
      {"lower_bounds",
       {{"store", sideCostJson(s.storeBound)}, {"load", sideCostJson(s.loadBound)}}},
      {"meets_lower_bounds", {{"store", storeMeets}, {"load", loadMeets}}},
      {"certificate", storeMeets && loadMeets ? "lower bounds" : "search"}};
}

template <class L>
Json optimalSwizzleJson(const Args& a) {
  L self = a.layoutAs<L>("self"), other = a.layoutAs<L>("other");
  uint64_t w = a.number("element_bytes");
  analysis::AccessSpec store{
      analysis::AccessKind::kStore, w, std::nullopt, instructionArg(a, "write", "stmatrix"), {}};
  analysis::AccessSpec load{
      analysis::AccessKind::kLoad, w, std::nullopt, instructionArg(a, "read", "ldmatrix"), {}};
  std::string construction = a.has("construction") ? a.name("construction") : "optimum";
  if (construction == "paper") return paperSwizzleJson(self, other, w, store, load);
  if (construction != "optimum")
    throw Error("\"construction\" must be \"optimum\" (the default) or \"paper\" (got \"" +
                construction + "\")");
  return swizzleOptimumJson(self, other, w, store, load);
}

Json registerOrderJson(const std::vector<int>& order) {
  Json out = Json::array();
  for (int i : order) out.push_back(i);
  return out;
}

// Written once for both implementations, as the constructions are (analysis/).
template <class L>
Json vectorizationJson(const Args& a) {
  L offsets = analysis::offsetsOf(a.layoutAs<L>("layout"), a.layoutAs<L>("shared"));
  std::vector<int> order = analysis::vectorRegisterBits(offsets);
  return Json{{"contiguous_elements", uint64_t{1} << analysis::contiguousRegisterBits(offsets)},
              {"vector_elements", uint64_t{1} << order.size()},
              {"register_order", registerOrderJson(order)}};
}

template <class L>
Json divideByTileJson(const Args& a) {
  L offsets = analysis::offsetsOf(a.layoutAs<L>("layout"), a.layoutAs<L>("shared"));
  std::string tile = a.name("tile");
  L t;
  if (tile == "vector")
    t = analysis::vectorTile<L>(a.number("elements"));
  else if (tile == "matrix")
    t = analysis::matrixTile<L>(a.number("element_bytes"));
  else
    throw Error("\"tile\" must be \"vector\" or \"matrix\" (got \"" + tile + "\")");
  auto division = analysis::divideByTile(offsets, t);
  if (!division) return Json(nullptr);
  // Filled key by key: clang 14's coverage mapping aborts on this function
  // written as one braced Json after the early return (scripts/fuzz-coverage).
  Json out;
  out["register_order"] = registerOrderJson(division->registerOrder);
  out["quotient"] = layoutJson(division->quotient);
  return out;
}

template <class L>
Json duplicationJson(const Args& a) {
  L l = a.layoutAs<L>("layout");
  auto dup = analysis::duplication(l);
  Json out{{"zero_bits", dimValuesJson(dup.zeroBits)},
           {"held_elements", dup.heldElements},
           {"distinct_elements", dup.distinctElements}};
  if (a.has("axis")) {
    auto r = analysis::reductionStores(l, a.name("axis"));
    out["reduction"] = {{"distinct_partials", r.distinctPartials}, {"naive_stores", r.naiveStores}};
  }
  return out;
}

}  // namespace

Json vectorsJson(const std::vector<OutDim>& outDims, const std::vector<uint64_t>& vecs) {
  Json out = Json::array();
  for (uint64_t x : vecs) {
    Json basis = Json::array();
    int shift = 0;
    for (const OutDim& d : outDims) {
      int bits = log2Exact(d.size);
      basis.push_back(bits == 0 ? 0 : x >> shift & (d.size - 1));
      shift += bits;
    }
    out.push_back(basis);
  }
  return out;
}

std::vector<Op> swizzleOps() {
  return {
      {{"optimal_swizzle",
        {{"self", "A, the distributed layout that writes"},
         {"other", "B, the distributed layout that reads (same tensor)"},
         {"element_bytes", "1, 2, 4, 8 or 16"},
         {"write", "\"vector\" (st.shared, default), \"stmatrix\" or \"stmatrix_trans\"", false},
         {"read", "\"vector\" (ld.shared, default), \"ldmatrix\" or \"ldmatrix_trans\"", false},
         {"construction",
          "\"optimum\" (default): the fewest wavefronts by the H100's rule; \"paper\": §5.4's "
          "construction, as Triton builds it",
          false}},
        "optimum: {construction, shared, wavefronts, instructions, store, load, lower_bounds: "
        "{store, load}, meets_lower_bounds: {store, load}, certificate}; paper: {construction, "
        "shared, vector_bytes, bank_bits, idx_bits, sets: {V, A_bank, B_bank, P, I, E, F, G, C, "
        "Idx, Bank}, predicted_conflict_bits: {store, load}, store, load}",
        "the memory layout (offset -> tensor) through which A's stores plus B's loads take the "
        "fewest wavefronts, then the fewest instructions, each side at its own vector width "
        "(swizzle_optimum.h); A's warps that hold copies (zero warp bases) do not store; store "
        "and load are the bank model's reports on it (store: of A without those warps); each "
        "side's "
        "lower bound is its least cost on any memory layout, and the certificate is \"lower "
        "bounds\" where both are met, else \"search\" (the exhaustive search over vector runs, "
        "word and row spans). With construction \"paper\", §5.4's construction with maximal "
        "vectorization (sets are tensor vectors, one value per out dim)"},
       optimalSwizzleJson<Layout>,
       optimalSwizzleJson<opt::LinearLayout>},
      {{"vectorization",
        {{"layout", "a distributed layout"},
         {"shared",
          "an invertible memory layout of the same tensor (for global memory: the "
          "tensor's row-major map, e.g. unswizzled_shared)"}},
        "{contiguous_elements, vector_elements, register_order}",
        "§5.1: registers 0..contiguous_elements-1 are consecutive offsets; §5.3: with the "
        "registers permuted (register_order: register bits landing on offsets 1, 2, 4, ...), "
        "vector_elements are"},
       vectorizationJson<Layout>,
       vectorizationJson<opt::LinearLayout>},
      {{"divide_by_tile",
        {{"layout", "a distributed layout"},
         {"shared", "an invertible memory layout of the same tensor"},
         {"tile", "\"vector\" (ld/st.shared) or \"matrix\" (ldmatrix/stmatrix rows)"},
         {"elements", "for \"vector\": elements per access (power of two)", false},
         {"element_bytes", "for \"matrix\": 1, 2 or 4", false}},
        "{register_order, quotient} or null",
        "Theorem 5.1: (shared^-1 o layout) / tile, with the registers permuted as Generalized "
        "Vectorization allows (§5.3); null when no register order makes it divisible"},
       divideByTileJson<Layout>,
       divideByTileJson<opt::LinearLayout>},
      {{"duplication",
        {{"layout", "a distributed layout"},
         {"axis", "an out dim to reduce along (optional)", false}},
        "{zero_bits, held_elements, distinct_elements, reduction?: {distinct_partials, "
        "naive_stores}}",
        "§5.1 Broadcasting: per in dim, the mask of bits with a zero basis; with axis, the "
        "partial results a cross-warp reduction must store with duplicates skipped, and one per "
        "(warp, lane, register left)"},
       duplicationJson<Layout>,
       duplicationJson<opt::LinearLayout>},
  };
}

}  // namespace f2lay::oracle
