// The oracle ops of paper §5.4 and §5.5: classify_conversion, shuffle_plan
// (with the sets V, I, E, F, G, R and the table of rounds) and gather_plan;
// and what Triton 3.9.0 generates for a conversion or a local memory op
// (triton_convert, triton_local: reference/analysis/triton_lowering.h).
#include "analysis/conversion.h"
#include "analysis/gather.h"
#include "oracle/op_table.h"
#include "reference/analysis/triton_axis_ops.h"
#include "reference/analysis/triton_lowering.h"
#include "reference/analysis/wavefront_rule.h"

namespace f2lay::oracle {

namespace {

template <class L>
Json classifyJson(const Args& a) {
  auto c = analysis::classifyConversion(a.layoutAs<L>("self"), a.layoutAs<L>("other"));
  return {{"kind", toString(c.kind)},
          {"minimal_kind", toString(c.minimalKind)},
          {"reason", c.reason},
          {"b_inv_a", layoutJson(c.bInvA)},
          {"pull", layoutJson(c.pull)}};
}

template <class L>
Json shufflePlanJson(const Args& a) {
  L self = a.layoutAs<L>("self");
  auto p = analysis::shufflePlan(self, a.layoutAs<L>("other"), a.number("element_bytes"));
  const std::vector<OutDim> outs = self.value().out_dims;
  Json rounds = Json::array();
  for (const auto& round : p.rounds) {
    Json steps = Json::array();
    for (const auto& s : round)
      steps.push_back({{"lane", s.lane},
                       {"send_register", s.sendRegister},
                       {"src_lane", s.srcLane},
                       {"recv_register", s.recvRegister}});
    rounds.push_back(steps);
  }
  Json copies = Json::array();
  for (const auto& c : p.copies)
    copies.push_back({{"dst_register", c.dstRegister}, {"src_register", c.srcRegister}});
  return {{"kind", toString(p.kind)},
          {"V", vectorsJson(outs, p.V)},
          {"I", vectorsJson(outs, p.I)},
          {"E", vectorsJson(outs, p.E)},
          {"F", vectorsJson(outs, p.F)},
          {"G", vectorsJson(outs, p.G)},
          {"R", vectorsJson(outs, p.R)},
          {"vector_elements", p.vectorElements},
          {"send_offsets", p.sendOffsets},
          {"recv_offsets", p.recvOffsets},
          {"rounds", rounds},
          {"copies", copies}};
}

template <class L>
Json gatherPlanJson(const Args& a) {
  L l = a.layoutAs<L>("layout");
  size_t axis = a.number("axis");
  auto where = analysis::gatherLocality(l, axis);
  if (!where.warpLocal) return {{"warp_local", false}, {"reason", where.reason}};
  auto p = analysis::gatherPlan(l, axis);
  Json sources = Json::array();
  for (const auto& s : p.axisSources)
    sources.push_back({{"register", s.registerMask}, {"lane", s.laneMask}});
  return {{"warp_local", true},
          {"lane_bits_along_axis", p.laneBitsAlongAxis},
          {"register_bits_along_axis", p.registerBitsAlongAxis},
          {"paper_rounds", p.paperRounds},
          {"rounds", p.rounds},
          {"axis_sources", sources},
          {"send_registers", p.sendRegisters}};
}

Json sideJson(const ref::analysis::TritonSide& s) {
  return {{"instruction", s.instruction},
          {"vector_bytes", s.vectorBytes},
          {"instructions", s.instructions}};
}

int computeCapability(const Args& a) {
  return a.has("compute_capability") ? static_cast<int>(a.number("compute_capability")) : 90;
}

Json tritonConvertJson(const Args& a) {
  auto c = ref::analysis::tritonConvert(a.layout("self"), a.layout("other"),
                                        a.number("element_bytes"), computeCapability(a));
  Json out = {{"path", c.path}};
  if (c.path != "shared_memory") return out;
  out["rounds"] = c.rounds;
  out["scratch_elements"] = c.scratchElements;
  out["shared"] = layoutJson(*c.shared);
  out["store"] = sideJson(c.store);
  out["load"] = sideJson(c.load);
  return out;
}

Json tritonLocalJson(const Args& a) {
  std::string access = a.name("access");
  if (access != "store" && access != "load")
    throw Error("triton_local: \"access\" must be \"store\" or \"load\", got \"" + access + "\"");
  Layout dist = a.layout("layout"), shared = a.layout("shared");
  Json out = sideJson(ref::analysis::tritonLocal(dist, shared, access == "store",
                                                 a.number("element_bytes"), computeCapability(a)));
  std::optional<uint64_t> conflicts =
      ref::analysis::tritonBankConflicts(dist, shared, a.number("element_bytes"));
  out["triton_bank_conflicts"] = conflicts ? Json(*conflicts) : Json(nullptr);
  return out;
}

// Scalar warp-instructions priced by the wavefront rule: the stores, the
// loads, and apart each operand's loads of the result (result_loads, also
// counted in the loads): warp-instructions with an active lane, and their
// wavefronts.
Json pricedAccesses(const std::vector<ref::analysis::WarpAccess>& accesses, size_t operands) {
  auto side = [&](auto keep, bool store) {
    uint64_t instructions = 0, wavefronts = 0, ideal = 0;
    for (const auto& w : accesses) {
      if (!keep(w)) continue;
      auto cost = ref::analysis::vectorWavefronts(
          store ? analysis::AccessKind::kStore : analysis::AccessKind::kLoad, w.bytes, w.lanes);
      instructions += cost.phases > 0;
      wavefronts += cost.wavefronts;
      ideal += cost.phases;
    }
    return Json{{"instruction", store ? "st.shared" : "ld.shared"},
                {"instructions", instructions},
                {"wavefronts", wavefronts},
                {"ideal_wavefronts", ideal}};
  };
  Json out = {{"store", side([](const auto& w) { return w.store; }, true)},
              {"load", side([](const auto& w) { return !w.store; }, false)}};
  Json results = Json::array();
  for (size_t k = 0; k < operands; ++k)
    results.push_back(side([&](const auto& w) { return w.result && w.operand == k; }, false));
  out["result_loads"] = results;
  return out;
}

Json tritonReduceJson(const Args& a) {
  Layout layout = a.layout("layout");
  Layout result = a.has("result") ? a.layout("result") : Layout::empty();
  if (a.triton() == TritonVersion::k3_6) {
    if (!a.has("order") || !a.has("element_bytes"))
      throw Error("triton_reduce: Triton 3.6 needs \"order\" and \"element_bytes\"");
    std::vector<size_t> order;
    for (uint64_t d : a.numbers("order")) order.push_back(d);
    std::vector<uint64_t> bytes = a.numbers("element_bytes");
    return pricedAccesses(
        ref::analysis::tritonReduceAccesses36(layout, a.number("axis"), result, order, bytes),
        bytes.size());
  }
  Json conversions = Json::array();
  for (const auto& [from, to] :
       ref::analysis::tritonReduceConversions(layout, a.number("axis"), result))
    conversions.push_back({{"from", layoutJson(from)}, {"to", layoutJson(to)}});
  return {{"conversions", conversions}};
}

Json tritonScanJson(const Args& a) {
  std::vector<uint64_t> bytes = a.numbers("element_bytes");
  return pricedAccesses(
      ref::analysis::tritonScanAccesses(a.layout("layout"), a.number("axis"), bytes, a.triton()),
      bytes.size());
}

Json tritonGatherJson(const Args& a) {
  return {{"warp_local", ref::analysis::tritonGatherIsWarpLocal(a.layout("src"), a.layout("index"),
                                                                a.number("axis"))}};
}

}  // namespace

std::vector<Op> conversionOps() {
  const OpArg self{"self", "layout A, converted from: register, lane, warp, block -> tensor"};
  const OpArg other{"other", "layout B, converted to: the same in dims' counts and tensor"};
  const OpArg kElementBytes{"element_bytes",
                            "bytes per element as Triton moves it: 1, 2, 4 or 8 (pointers 8, "
                            "narrower types 1)"};
  const OpArg kCapability{"compute_capability", "the GPU's, 80 to 120 (default 90)", false};
  return {
      {{"classify_conversion",
        {self, other},
        "{kind, minimal_kind, reason, b_inv_a, pull}",
        "§5.4: kind is no_op, register_permutation, warp_shuffle or shared_memory, read from "
        "pull = B.invertAndCompose(A) (each location of B -> the location of A it reads); "
        "b_inv_a = A.invertAndCompose(B) (the paper's B^-1 A); minimal_kind is the least "
        "movement any source allows (less than kind only where A broadcasts)"},
       classifyJson<Layout>,
       classifyJson<opt::LinearLayout>},
      {{"shuffle_plan",
        {self, other, {"element_bytes", "bytes per element: 1, 2, 4 or 8"}},
        "{kind, V, I, E, F, G, R, vector_elements, send_offsets, recv_offsets, rounds, copies}",
        "§5.4 intra-warp exchange: the sets as tensor coordinates; rounds[i][lane] = {lane, "
        "send_register, src_lane, recv_register} (first registers of 2^|V|-element vectors, "
        "element k at first ^ send_offsets[k] / recv_offsets[k]); copies fill B's duplicated "
        "registers after the rounds. For no_op and register_permutation every src_lane is the "
        "lane itself. Errors name broadcasts the construction cannot pair"},
       shufflePlanJson<Layout>,
       shufflePlanJson<opt::LinearLayout>},
      {{"gather_plan",
        {{"layout", "L, the layout of src, index and out"},
         {"axis", "the gather axis: an out dim's position"}},
        "{warp_local, reason} or {warp_local, lane_bits_along_axis, register_bits_along_axis, "
        "paper_rounds, rounds, axis_sources, send_registers}",
        "§5.5: warp-local when no warp/block bit moves along the axis; rounds = shuffles per "
        "index register (2^|L_Reg^axis| for Def 4.10 layouts; the paper prints 2^|L_Thr^axis|, "
        "paper_rounds); send_registers[r][i]: what every lane sends in round i for index "
        "register r; axis_sources[j]: the register and lane XOR that moves bit j along the "
        "axis"},
       gatherPlanJson<Layout>,
       gatherPlanJson<opt::LinearLayout>},
      {{"triton_convert",
        {self, other, kElementBytes, kCapability},
        "{path} or {path, rounds, scratch_elements, shared, store, load}",
        "what Triton 3.9.0 generates for convert_layout(A -> B) on one CTA: path no_op, "
        "registers, warp_shuffle (lanes and registers, fewer than two register bits trading "
        "places with lane bits) or shared_memory, with the scratch layout its generic swizzling "
        "chooses ((offset, reps) -> tensor: one round's offset, the round), and each side's "
        "instruction (st.shared, stmatrix[.trans]; ld.shared, ldmatrix[.trans]), vector_bytes "
        "per lane and instructions per CTA (every warp)"},
       tritonConvertJson},
      {{"triton_local",
        {{"layout", "the distributed layout: register, lane (32), warp -> tensor"},
         {"shared", "the memory layout: offset -> the same tensor, invertible"},
         {"access", "store (local_alloc with a source, local_store) or load (local_load)"},
         kElementBytes,
         kCapability},
        "{instruction, vector_bytes, instructions, triton_bank_conflicts}",
        "what Triton 3.9.0 generates for a local memory op on one CTA: stmatrix / ldmatrix "
        "(then .trans) where the layouts allow, else st/ld.shared as wide as the registers are "
        "contiguous in memory (up to 16 bytes); instructions per CTA, every warp storing; and "
        "Triton's own bank-conflict number for the pair (Gluon's bank_conflicts: excess "
        "wavefronts per phase of one ld/st.shared; null where Triton aborts)"},
       tritonLocalJson},
      {{"triton_reduce",
        {{"layout", "the operand's distributed layout: register, lane, warp -> tensor"},
         {"axis", "the reduced out dim's position"},
         {"result",
          "the result's layout (the operand's slice along the axis); absent for a scalar "
          "result",
          false},
         {"triton", "\"3.9\" (default) or \"3.6\": whose lowering", false},
         {"order", "Triton 3.6: the operand encoding's dims, fastest first", false},
         {"element_bytes", "Triton 3.6: each operand's bytes per element, in order", false}},
        "3.9: {conversions: [{from, to}]}; 3.6: {store, load, result_loads}",
        "the convert_layouts Triton 3.9.0 lowers a tt.reduce's data movement to, in order, "
        "each run once per operand: after the registers and lanes along the axis are "
        "combined, one that moves the warp bits along the axis into lanes, and one to the "
        "result's layout where the reduced layout is not already it; none when no warp "
        "holds part of the axis. Triton 3.6.0 instead stored each warp's partials with "
        "scalar st.shared into an unswizzled scratch (axis fastest), combined them in a "
        "second pass and loaded the results with scalar ld.shared: its store and load "
        "warp-instructions (with an active lane) and their wavefronts by the H100 rule; "
        "result_loads: each operand's loads of its result, part of load"},
       tritonReduceJson},
      {{"triton_scan",
        {{"layout", "the operand's blocked layout: register, lane, warp -> tensor"},
         {"axis", "the scanned out dim's position"},
         {"element_bytes", "each operand's bytes per element (1, 2, 4 or 8), in order"},
         {"triton", "\"3.9\" (default) or \"3.6\": whose LLVM merges the loads", false}},
        "{store, load, result_loads}",
        "the shared-memory code of a tt.scan (Triton 3.6.0 and 3.9.0 alike) when more than one "
        "warp holds the axis: each warp's last lane along the axis stores its totals (scalar "
        "st.shared, predicated), and every thread loads the totals of the warps before it; "
        "where every thread is on the axis LLVM merges those loads into vectors (3.9.0 per "
        "16-byte window, 3.6.0 in power-of-two pieces). Warp-instructions with an active lane "
        "and wavefronts by the H100 rule; none when one warp holds the axis"},
       tritonScanJson},
      {{"triton_gather",
        {{"src", "the gathered tensor's layout"},
         {"index", "the index tensor's layout (that of the result)"},
         {"axis", "the gather axis: an out dim's position"}},
        "{warp_local}",
        "whether Triton's tt.gather stays within warps (GatherLoweringHelper::isWarpLocal: no "
        "warp basis of src or index along the axis, their warp and lane bases equal off it), "
        "with shuffles and no shared memory; otherwise it goes through shared memory at "
        "addresses the indices name"},
       tritonGatherJson},
  };
}

}  // namespace f2lay::oracle
