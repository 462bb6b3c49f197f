#include "audit/audit.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "audit/lift.h"
#include "audit/trips.h"
#include "formats/error.h"
#include "formats/ttgir.h"
#include "oracle/oracle.h"

namespace f2lay::audit {

namespace {

// The ops that move data between layouts, and the kind of movement each is
// before any analysis (a convert_layout's kind is §5.4's classification).
const std::map<std::string, std::string>& movingOps() {
  static const std::map<std::string, std::string> kinds = {
      {"ttg.convert_layout", ""},  // classified below
      {"tt.reduce", "unknown"},    // by the converts it lowers to (costReduce)
      {"tt.scan", "unknown"},      // by the warps along its axis (costScan)
      {"tt.gather", "unknown"},    // by where its src and index lie (costGather)
      {"ttg.local_alloc", "shared_memory"},
      {"ttg.local_store", "shared_memory"},
      {"ttg.local_load", "shared_memory"},
      {"ttg.async_copy_global_to_local", "shared_memory"},
      {"ttg.memdesc_index", "view"},
      {"ttg.memdesc_subslice", "view"},
      {"ttg.memdesc_trans", "view"},
      {"ttg.memdesc_reshape", "view"},
      {"ttg.memdesc_reinterpret", "view"},
      {"ttng.tmem_alloc", "tensor_memory"},
      {"ttng.tmem_load", "tensor_memory"},
      {"ttng.tmem_store", "tensor_memory"},
      {"ttng.tmem_copy", "tensor_memory"},
      {"ttng.warp_group_dot", "mma_reads_memory"},
      {"ttng.tc_gen5_mma", "mma_reads_memory"},
      {"ttng.tc_gen5_mma_scaled", "mma_reads_memory"},
  };
  return kinds;
}

// Bytes per element as stored: i1 is a byte; pointers are 8.
int elementBytes(const std::string& element) {
  if (element.starts_with("!tt.ptr")) return 8;
  static const std::map<std::string, int> widths = {
      {"i1", 1},     {"i8", 1},         {"i16", 2},        {"i32", 4},           {"i64", 8},
      {"f16", 2},    {"bf16", 2},       {"f32", 4},        {"f64", 8},           {"f8E4M3FN", 1},
      {"f8E5M2", 1}, {"f8E4M3FNUZ", 1}, {"f8E5M2FNUZ", 1}, {"f8E4M3B11FNUZ", 1}, {"f8E8M0FNU", 1},
      {"tf32", 4}};
  auto it = widths.find(element);
  return it == widths.end() ? 0 : it->second;
}

// The compute capability of a "cuda:90" target; 0 for other targets, whose
// lowering is not modelled.
int capabilityOf(const std::string& target) {
  if (!target.starts_with("cuda:")) return 0;
  try {
    return std::stoi(target.substr(5));
  } catch (const std::exception&) {
    return 0;
  }
}

// The bank model's name for an instruction (bank_conflicts' "access").
std::string accessOf(const std::string& instruction) {
  static const std::map<std::string, std::string> names = {{"st.shared", "store"},
                                                           {"ld.shared", "load"},
                                                           {"stmatrix", "stmatrix"},
                                                           {"ldmatrix", "ldmatrix"},
                                                           {"stmatrix.trans", "stmatrix_trans"},
                                                           {"ldmatrix.trans", "ldmatrix_trans"}};
  return names.at(instruction);
}

// The answer to a request, or an error naming the op.
Json ask(const Json& request) {
  Json response = oracle::answer(request);
  if (!response["ok"].get<bool>())
    throw Error(request["op"].get<std::string>() + ": " + response["error"].get<std::string>());
  return response["result"];
}

// A layout without its register copies: Triton stores and loads each once.
Json withoutRegisterCopies(Json layout) {
  for (Json& d : layout["in_dims"])
    if (d["name"] == "register") {
      Json kept = Json::array();
      for (const Json& b : d["bases"]) {
        bool zero = true;
        for (const Json& x : b) zero = zero && x.get<uint64_t>() == 0;
        if (!zero) kept.push_back(b);
      }
      d["bases"] = kept;
    }
  return layout;
}

class Auditor {
 public:
  Auditor(const AuditOptions& options, int capability)
      : options_(options), capability_(capability) {}

  // The id of the layout of `type`, lifting it the first time it is seen.
  Json layoutOf(const TtgirType& type, int ttgirLine) {
    if (!type.encodingError.empty()) {
      unread_.push_back({{"ttgir_line", ttgirLine},
                         {"attribute", type.encodingText},
                         {"error", type.encodingError}});
      return nullptr;
    }
    if (type.encoding.is_null()) return nullptr;
    // A descriptor of several buffers ([stages, ...]): each is laid out alike.
    std::vector<int64_t> shape = type.shape;
    int64_t buffers = 1;
    size_t rank = type.memdesc ? memoryEncodingRank(type.encoding) : 0;
    while (rank && shape.size() > rank) {
      buffers *= shape.front();
      shape.erase(shape.begin());
    }
    std::string key = type.encoding.dump() + Json(shape).dump();
    if (auto it = ids_.find(key); it != ids_.end()) return it->second;
    int id = static_cast<int>(layouts_.size());
    Json entry = {
        {"id", id}, {"attribute", type.encodingText}, {"shape", shape}, {"type", type.text}};
    if (buffers != 1) entry["buffers"] = buffers;
    try {
      Json request = liftRequest(type.encoding, shape, options_.triton);
      entry["request"] = request;
      Json response = oracle::answer(request);
      if (response["ok"].get<bool>()) {
        entry["layout"] = response["result"];
        Json sizes = Json::array();
        for (const Json& d : entry["layout"]["out_dims"]) sizes.push_back(d["size"]);
        if (sizes != Json(shape)) {
          entry.erase("layout");
          entry["error"] =
              "the layout spans " + sizes.dump() + ", not the type's shape " + Json(shape).dump();
        }
      } else {
        entry["error"] = response["error"];
      }
    } catch (const Error& e) {
      entry["error"] = e.what();
    }
    layouts_.push_back(entry);
    ids_[key] = id;
    return id;
  }

  void addOp(const TtgirOp& op) {
    // Every type gives a layout, moving data or not.
    std::vector<Json> from, to;
    for (const TtgirType& t : op.operandTypes) from.push_back(layoutOf(t, op.textLine));
    for (const TtgirType& t : op.resultTypes) to.push_back(layoutOf(t, op.textLine));
    auto moving = movingOps().find(op.name);
    if (moving == movingOps().end()) return;
    // An allocation without a source moves nothing; its stores come later.
    if ((op.name == "ttg.local_alloc" || op.name == "ttng.tmem_alloc") && op.operandTypes.empty())
      return;
    Json row = {{"op", op.name}, {"ttgir_line", op.textLine}};
    row["source"] = op.location ? Json{{"file", op.location->file},
                                       {"line", op.location->line},
                                       {"column", op.location->column}}
                                : Json(nullptr);
    // The tensor the op moves: its first typed operand's, else its result's.
    const TtgirType* moved = !op.operandTypes.empty()  ? &op.operandTypes[0]
                             : !op.resultTypes.empty() ? &op.resultTypes[0]
                                                       : nullptr;
    if (moved) {
      row["shape"] = moved->shape;
      row["element"] = moved->element;
      row["element_bytes"] = elementBytes(moved->element);
    }
    row["from"] = from;
    row["to"] = to;
    row["kind"] = moving->second;
    row["executions"] = executions(op);
    if (op.name == "ttg.convert_layout") classify(row, from, to);
    try {
      cost(row, op, from, to);
    } catch (const Error& e) {
      row["triton"] = {{"modelled", false}, {"reason", e.what()}};
    }
    ops_.push_back(row);
  }

  // How often each op runs, from its loops' trips; the loops themselves.
  void setTrips(const TtgirModule& module) {
    trips_ = loopTrips(module, options_.arguments, options_.grid, options_.program);
    for (const auto& [index, count] : trips_)
      loops_.push_back({{"ttgir_line", module.ops[index].textLine},
                        {"trips", count ? Json(*count) : Json(nullptr)}});
  }
  // How many ops read each value.
  void setUses(const TtgirModule& module) {
    numWarps_ = static_cast<uint64_t>(module.numWarps);
    for (const TtgirOp& op : module.ops)
      for (const std::string& v : op.operands) ++uses_[v];
  }

  // The kernel's last store (a tt.store right before the tt.return, outside
  // loops) and the ops that load what only it writes: back from its value
  // through elementwise ops (arith, math) and converts that stay in
  // registers, each value read by that one op, to the first op on the way
  // that loads from shared memory (skipCopyWarps).
  void setEarlyExit(const TtgirModule& module) {
    std::map<std::string, const TtgirOp*> producer;
    for (const TtgirOp& op : module.ops)
      for (const std::string& r : op.results) producer[r] = &op;
    std::map<int, Json*> rows;
    for (Json& row : ops_) rows[row["ttgir_line"].get<int>()] = &row;
    size_t n = module.ops.size();
    if (n < 2 || module.ops[n - 1].name != "tt.return" || module.ops[n - 2].name != "tt.store" ||
        !module.ops[n - 2].loops.empty() || module.ops[n - 2].operands.size() < 2)
      return;
    std::vector<std::string> todo = {module.ops[n - 2].operands[1]};
    std::set<std::string> seen;
    while (!todo.empty()) {
      std::string v = todo.back();
      todo.pop_back();
      auto it = producer.find(v);
      if (!seen.insert(v).second || it == producer.end() || uses_[v] != 1) continue;
      const TtgirOp& op = *it->second;
      auto row = rows.find(op.textLine);
      Json* triton = row == rows.end() || !row->second->contains("triton")
                         ? nullptr
                         : &(*row->second)["triton"];
      if (triton && triton->value("path", std::string()) == "shared_memory") {
        if (op.name == "ttg.convert_layout" || op.name == "ttg.local_load") {
          skipCopyWarps((*triton)["load"], lifted((*row->second)["to"][0]));
          (*triton)["wavefronts"] = sideSum(*triton);
        } else if (op.name == "tt.reduce" && op.operandTypes.size() == 1 &&
                   triton->contains("result_loads")) {  // Triton 3.6's
          Json& last = (*triton)["result_loads"][0];
          Json before = last;
          skipCopyWarps(last, lifted((*row->second)["to"][0]));
          for (const char* key : {"instructions", "wavefronts"})
            (*triton)["load"][key] = (*triton)["load"][key].get<uint64_t>() -
                                     before[key].get<uint64_t>() + last[key].get<uint64_t>();
          (*triton)["wavefronts"] = sideSum(*triton);
        } else if (op.name == "tt.reduce" && op.operandTypes.size() == 1 &&
                   triton->contains("conversions") &&
                   (*triton)["conversions"].back().value("to_result", false)) {
          Json& last = (*triton)["conversions"].back();
          skipCopyWarps(last["load"], lifted((*row->second)["to"][0]));
          last["wavefronts"] = sideSum(last);
          uint64_t total = 0;
          for (const Json& c : (*triton)["conversions"])
            total += c.value("wavefronts", uint64_t{0});
          (*triton)["wavefronts"] = total;
        }
        setGain(*row->second);
      } else if (op.name.starts_with("arith.") || op.name.starts_with("math.") ||
                 op.name == "tt.fp_to_fp" || op.name == "ttg.convert_layout") {
        todo.insert(todo.end(), op.operands.begin(), op.operands.end());
      }
    }
  }

  // Whether result k of an op with `count` results is read ("%4#1"; "%4"
  // alone when it has one).
  bool isUsed(const TtgirOp& op, size_t k, size_t count) const {
    if (op.results.empty()) return false;
    return uses_.contains(count == 1 ? op.results[0] : op.results[0] + "#" + std::to_string(k));
  }

  // ptxas ends a kernel whose last act is a predicated global store with an
  // early exit for the threads that do not store, placed before the shared
  // load that fetches the stored value (SASS: "@!P0 EXIT; LDS; STG"). Whole
  // warps leave when the value's layout gives them only copies (zero warp
  // bases: Triton stores each element once), so their loads never run.
  void skipCopyWarps(Json& load, const Json& to) const {
    uint64_t copies = 1;
    for (const Json& d : to["in_dims"])
      if (d["name"] == "warp")
        for (const Json& b : d["bases"]) {
          bool zero = true;
          for (const Json& x : b) zero = zero && x.get<uint64_t>() == 0;
          if (zero) copies *= 2;
        }
    // What the SASS of the corpus and of device_tests/better_reduce.py shows: the
    // exit goes before a thread's one load of up to 4 bytes; not before a wider
    // load (its latency is hidden early) or an ldmatrix (warp-collective,
    // .aligned). Where a thread loads more, where the exit goes is not known.
    uint64_t instructions = load["instructions"];
    if (copies == 1 || load["instruction"] != "ld.shared" ||
        load.value("vector_bytes", uint64_t{0}) > 4 || instructions != numWarps_)
      return;
    Json skipped = {{"instructions", instructions - instructions / copies}};
    load["instructions"] = instructions / copies;
    if (!load["wavefronts"].is_null()) {
      uint64_t wavefronts = load["wavefronts"];
      skipped["wavefronts"] = wavefronts - wavefronts / copies;
      load["wavefronts"] = wavefronts / copies;
    }
    load["early_exit"] = skipped;
  }

  Json executions(const TtgirOp& op) const {
    int64_t n = 1;
    for (size_t loop : op.loops) {
      auto it = trips_.find(loop);
      if (it == trips_.end() || !it->second) return nullptr;
      n *= *it->second;
    }
    return n;
  }

  // One CTA's wavefronts, or null and what is missing.
  Json cta(const TtgirModule& module) const {
    Json missing = Json::array();
    uint64_t total = 0;
    for (const Json& row : ops_) {
      if (!row.contains("triton")) continue;
      const Json& t = row["triton"];
      std::string where = row["op"].get<std::string>() + " (TTGIR line " +
                          std::to_string(row["ttgir_line"].get<int>()) + ")";
      if (t.contains("modelled")) {
        missing.push_back(where + ": " + t["reason"].get<std::string>());
      } else if (t.contains("wavefronts") && !t["wavefronts"].is_null()) {
        if (row["executions"].is_null())
          missing.push_back(where +
                            ": runs an unknown number of times (give the loop bounds' "
                            "arguments)");
        else
          total += t["wavefronts"].get<uint64_t>() * row["executions"].get<uint64_t>();
      }
    }
    // Ops whose scratch in shared memory f2lay does not cost yet.
    for (const TtgirOp& op : module.ops)
      if (op.name == "tt.histogram")
        missing.push_back(op.name + " (TTGIR line " + std::to_string(op.textLine) +
                          "): its shared-memory scratch is not modelled yet");
    return {{"wavefronts", missing.empty() ? Json(total) : Json(nullptr)}, {"missing", missing}};
  }

  Json report(const TtgirModule& module) const {
    return {{"triton", toString(options_.triton)},
            {"module",
             {{"num_warps", module.numWarps},
              {"threads_per_warp", module.threadsPerWarp},
              {"num_ctas", module.numCtas},
              {"target", module.target}}},
            {"layouts", layouts_},
            {"ops", ops_},
            {"unread", unread_},
            {"loops", loops_},
            {"cta", cta(module)}};
  }

 private:
  // §5.4: what the conversion needs (no_op, register_permutation,
  // warp_shuffle, shared_memory), from the two lifted layouts.
  void classify(Json& row, const std::vector<Json>& from, const std::vector<Json>& to) {
    if (from.size() != 1 || to.size() != 1 || from[0].is_null() || to[0].is_null()) {
      row["kind"] = "unknown";
      row["reason"] = "the conversion's two layouts are not both read";
      return;
    }
    const Json& a = layouts_[from[0].get<size_t>()];
    const Json& b = layouts_[to[0].get<size_t>()];
    if (!a.contains("layout") || !b.contains("layout")) {
      row["kind"] = "unknown";
      row["reason"] =
          "a layout was not lifted: " + (a.contains("error") ? a : b)["error"].get<std::string>();
      return;
    }
    Json response = oracle::answer(
        {{"op", "classify_conversion"}, {"self", a["layout"]}, {"other", b["layout"]}});
    if (!response["ok"].get<bool>()) {
      row["kind"] = "unknown";
      row["reason"] = response["error"];
      return;
    }
    row["kind"] = response["result"]["kind"];
  }

  // The lifted layout of a type's id, or an error saying why there is none.
  const Json& lifted(const Json& id) const {
    if (id.is_null()) throw Error("the op's layout is not read");
    const Json& entry = layouts_[id.get<size_t>()];
    if (!entry.contains("layout")) throw Error(entry["error"].get<std::string>());
    return entry["layout"];
  }

  // A side of 1- or 4-byte elements that ldmatrix/stmatrix move as 16-bit
  // halves, restated on its addresses: hardware -> offset (shared^-1 o dist),
  // in halves, with the identity as memory. 4-byte elements gain a register
  // bit for their halves; 1-byte ones pair up, the register at offset 1
  // holding the second byte of each half (Triton's matrix tiles ensure it).
  static std::pair<Json, Json> asHalves(const Json& dist, const Json& shared, uint64_t bytes) {
    if (bytes != 1 && bytes != 4)
      throw Error("ldmatrix/stmatrix of " + std::to_string(bytes) + "-byte elements");
    Json toOffset =
        ask({{"op", "flatten_outs"},
             {"layout", ask({{"op", "invert_and_compose"}, {"self", dist}, {"other", shared}})}});
    uint64_t size = toOffset["out_dims"][0]["size"];
    for (Json& d : toOffset["in_dims"]) {
      Json bases = Json::array();
      bool reg = d["name"] == "register";
      if (bytes == 4 && reg) bases.push_back({1});
      for (const Json& b : d["bases"]) {
        uint64_t o = b[0];
        if (bytes == 1 && reg && o == 1) continue;  // the second byte of a half
        if (bytes == 1 && (o & 1)) throw Error("a byte pair split across halves");
        bases.push_back({bytes == 4 ? o * 2 : o / 2});
      }
      d["bases"] = bases;
    }
    size = bytes == 4 ? size * 2 : size / 2;
    toOffset["out_dims"] = {{{"name", "offset"}, {"size", size}}};
    Json identity =
        ask({{"op", "identity_1d"}, {"size", size}, {"in_dim", "offset"}, {"out_dim", "offset"}});
    return {toOffset, identity};
  }

  // One side's wavefronts under the H100 rule (bank_conflicts), for the
  // instructions and width Triton chose.
  Json costSide(Json side, const Json& dist, const Json& shared, uint64_t bytes) const {
    std::string access = accessOf(side["instruction"]);
    bool matrix = access != "store" && access != "load";
    Json layout = withoutRegisterCopies(dist), memory = shared;
    if (matrix && bytes != 2) {
      // ldmatrix/stmatrix move 16-bit halves: priced on the addresses.
      std::tie(layout, memory) = asHalves(layout, shared, bytes);
      bytes = 2;
    }
    Json request = {{"op", "bank_conflicts"},
                    {"layout", layout},
                    {"shared", memory},
                    {"element_bytes", bytes},
                    {"access", access}};
    if (!matrix) request["vector_bytes"] = side["vector_bytes"];
    Json banks = ask(request);
    if (access.ends_with("_trans")) {
      // A .trans matrix's 8 rows are a register bit and lanes 0, 1; Triton
      // picks the register bit whose rows conflict least
      // (getLdStMatrixRowPermutation): the register paired into each 32-bit
      // word, which the bank model takes as register bit 0.
      Json* dims = &request["layout"]["in_dims"];
      auto reg = std::find_if(dims->begin(), dims->end(),
                              [](const Json& d) { return d["name"] == "register"; });
      Json& registers = (*reg)["bases"];
      for (size_t k = 1; k < registers.size(); ++k) {
        std::swap(registers[0], registers[k]);
        Json tried = ask(request);
        if (tried["wavefronts"] < banks["wavefronts"]) banks = tried;
        std::swap(registers[0], registers[k]);
      }
    }
    side["wavefronts"] = banks["wavefronts"];
    side["ideal_wavefronts"] = banks["ideal_wavefronts"];
    if (banks["instructions"] != side["instructions"])
      side["model_mismatch"] = "the bank model counts " + banks["instructions"].dump() +
                               " instructions, Triton's rules " + side["instructions"].dump();
    return side;
  }

  // The fewest wavefronts any memory layout allows the conversion, over the
  // instruction pairs the GPU has for the element width (optimal_swizzle,
  // analysis/swizzle_optimum.h): ld/st.shared always, ldmatrix (and stmatrix
  // from sm_90) for 16-bit elements, which the bank model prices.
  Json optimum(const Json& a, const Json& b, uint64_t bytes) const {
    std::vector<std::string> writes = {"vector"}, reads = {"vector"};
    if (bytes == 2) {
      reads.insert(reads.end(), {"ldmatrix", "ldmatrix_trans"});
      if (capability_ >= 90) writes.insert(writes.end(), {"stmatrix", "stmatrix_trans"});
    }
    Json best;
    for (const std::string& write : writes)
      for (const std::string& read : reads) {
        Json r = oracle::answer({{"op", "optimal_swizzle"},
                                 {"self", a},
                                 {"other", b},
                                 {"element_bytes", bytes},
                                 {"write", write},
                                 {"read", read}});
        if (!r["ok"].get<bool>()) continue;  // the pair does not fit these layouts
        const Json& o = r["result"];
        if (best.is_null() || o["wavefronts"] < best["wavefronts"] ||
            (o["wavefronts"] == best["wavefronts"] && o["instructions"] < best["instructions"]))
          best = {{"wavefronts", o["wavefronts"]},
                  {"instructions", o["instructions"]},
                  {"write", write},
                  {"read", read},
                  {"certificate", o["certificate"]}};
      }
    if (best.is_null()) throw Error("optimal_swizzle answers no instruction pair");
    return best;
  }

  // Triton's own number for a local op (Gluon's bank_conflicts: excess
  // wavefronts per phase of an ld/st.shared) beside the hardware rule's, the
  // excess of the code Triton emits over its conflict-free phases per phase.
  static void compareTritonsModel(Json& row, const Json& side, const Json& conflicts) {
    Json model = {{"bank_conflicts", conflicts}};
    if (side["wavefronts"].is_null() || !side.contains("ideal_wavefronts")) {
      model["hardware"] = nullptr;
    } else {
      uint64_t ideal = side["ideal_wavefronts"], actual = side["wavefronts"];
      double hardware =
          ideal ? static_cast<double>(actual - ideal) / static_cast<double>(ideal) : 0;
      model["hardware"] = hardware;
      std::string instruction = side["instruction"];
      if (instruction != "st.shared" && instruction != "ld.shared")
        model["note"] = "Triton's number prices ld/st.shared; its code uses " + instruction;
      else if (conflicts.is_null())
        model["note"] = "Triton's bank_conflicts aborts on this pair";
      else
        model["agrees"] = conflicts.get<double>() == hardware;
    }
    row["tritons_model"] = model;
  }

  // Triton's code for a convert_layout from A to B (triton_convert), each side
  // costed on the scratch layout its swizzling chooses.
  Json convertCode(const Json& a, const Json& b, uint64_t bytes) const {
    Json triton = ask({{"op", "triton_convert"},
                       {"self", a},
                       {"other", b},
                       {"element_bytes", bytes},
                       {"compute_capability", capability_}});
    if (triton["path"] != "shared_memory") return triton;
    // One offset space: the rounds' bits above one round's addresses.
    Json shared = triton["shared"];
    Json offsets = shared["in_dims"][0]["bases"];
    for (const Json& r : shared["in_dims"][1]["bases"]) offsets.push_back(r);
    Json flat = {{"in_dims", {{{"name", "offset"}, {"bases", offsets}}}},
                 {"out_dims", shared["out_dims"]}};
    triton["store"] = costSide(triton["store"], a, flat, bytes);
    triton["load"] = costSide(triton["load"], b, flat, bytes);
    return triton;
  }

  // A tt.reduce: the converts Triton lowers it to (triton_reduce), each once
  // per operand at the operand's width, costed as convert_layouts are; its
  // optimum is theirs at their optimal swizzles.
  void costReduce(Json& row, const TtgirOp& op, const std::vector<Json>& from,
                  const std::vector<Json>& to) {
    Json request = {{"op", "triton_reduce"}, {"layout", lifted(from.at(0))}, {"axis", axisOf(op)}};
    if (!op.resultTypes.empty()) request["result"] = lifted(to.at(0));
    if (options_.triton == TritonVersion::k3_6) return costReduce36(row, op, request);
    Json conversions = ask(request)["conversions"];
    row["kind"] = conversions.empty() ? "warp_shuffle" : "shared_memory";
    Json code = Json::array();
    Json total = 0, best = {{"wavefronts", 0}, {"instructions", 0}, {"parts", Json::array()}};
    for (const Json& c : conversions)
      for (size_t k = 0; k < op.operandTypes.size(); ++k) {
        uint64_t bytes = elementBytes(op.operandTypes[k].element);
        if (!bytes) throw Error("an operand of element type " + op.operandTypes[k].element);
        Json triton = convertCode(c["from"], c["to"], bytes);
        triton["operand"] = k;
        triton["element_bytes"] = bytes;
        // The convert to the result's layout is the one without the axis.
        bool toResult = c["to"]["out_dims"].size() < request["layout"]["out_dims"].size();
        if (triton["path"] == "shared_memory" && toResult) {
          // The last convert's loads of a result nobody reads are dead code.
          triton["to_result"] = true;
          if (!isUsed(op, k, op.operandTypes.size())) {
            triton["load"]["instructions"] = 0;
            triton["load"]["wavefronts"] = 0;
            triton["load"]["dead"] = "the result is never read";
          }
        }
        if (triton["path"] == "shared_memory") {
          Json w = sideSum(triton);
          triton["wavefronts"] = w;
          total = total.is_null() || w.is_null() ? Json(nullptr)
                                                 : Json(total.get<uint64_t>() + w.get<uint64_t>());
          Json o = optimum(c["from"], c["to"], bytes);
          for (const char* key : {"wavefronts", "instructions"})
            best[key] = best[key].get<uint64_t>() + o[key].get<uint64_t>();
          best["parts"].push_back(o);
        }
        code.push_back(triton);
      }
    row["triton"] = {{"path", row["kind"]}, {"conversions", code}, {"wavefronts", total}};
    if (conversions.empty()) return;
    row["optimum"] = best;
    setGain(row);
  }

  // The axis an op (tt.reduce, tt.scan, tt.gather) works along.
  static uint64_t axisOf(const TtgirOp& op) {
    auto at = op.text.find("axis = ");
    if (at == std::string::npos) throw Error("no axis");
    return std::stoull(op.text.substr(at + 7));
  }

  // Each operand's bytes per element as the op stores it.
  static Json operandBytes(const TtgirOp& op) {
    Json bytes = Json::array();
    for (const TtgirType& t : op.operandTypes) {
      if (!elementBytes(t.element)) throw Error("an operand of element type " + t.element);
      bytes.push_back(elementBytes(t.element));
    }
    return bytes;
  }

  // A tt.scan: each warp's totals through shared memory (triton_scan).
  void costScan(Json& row, const TtgirOp& op, const std::vector<Json>& from) {
    Json triton = ask({{"op", "triton_scan"},
                       {"layout", lifted(from.at(0))},
                       {"axis", axisOf(op)},
                       {"element_bytes", operandBytes(op)},
                       {"triton", toString(options_.triton)}});
    bool shared = triton["store"]["instructions"] != 0;
    row["kind"] = shared ? "shared_memory" : "warp_shuffle";
    triton.erase("result_loads");
    if (!shared) triton = Json::object();
    triton["path"] = row["kind"];
    triton["wavefronts"] = sideSum(triton);
    row["triton"] = triton;
  }

  // A tt.gather: within warps, or through shared memory at the addresses its
  // indices name, which f2lay cannot know.
  void costGather(Json& row, const TtgirOp& op, const std::vector<Json>& from) {
    bool local = ask({{"op", "triton_gather"},
                      {"src", lifted(from.at(0))},
                      {"index", lifted(from.at(1))},
                      {"axis", axisOf(op)}})["warp_local"];
    row["kind"] = local ? "warp_shuffle" : "shared_memory";
    if (!local)
      throw Error("a gather across warps loads from addresses its indices name (data-dependent)");
    row["triton"] = {{"path", "warp_shuffle"}, {"wavefronts", 0}};
  }

  // Triton 3.6's reduce: scalar partials through an unswizzled scratch, in
  // the operand encoding's order (blocked's "order"; the others' default,
  // the last dim fastest).
  void costReduce36(Json& row, const TtgirOp& op, Json request) {
    const Json& encoding = op.operandTypes.at(0).encoding;
    Json order = encoding.contains("order") ? encoding["order"] : Json::array();
    if (order.empty())
      for (size_t d = op.operandTypes[0].shape.size(); d-- > 0;) order.push_back(d);
    request["triton"] = "3.6";
    request["order"] = order;
    request["element_bytes"] = operandBytes(op);
    Json triton = ask(request);
    // The loads of a result nobody reads are dead code.
    for (size_t k = 0; k < op.operandTypes.size(); ++k)
      if (!isUsed(op, k, op.operandTypes.size())) {
        Json& dead = triton["result_loads"][k];
        for (const char* key : {"instructions", "wavefronts", "ideal_wavefronts"}) {
          triton["load"][key] = triton["load"][key].get<uint64_t>() - dead[key].get<uint64_t>();
          dead[key] = 0;
        }
        dead["dead"] = "the result is never read";
      }
    bool shared = triton["store"]["instructions"] != 0;
    row["kind"] = shared ? "shared_memory" : "warp_shuffle";
    triton["path"] = row["kind"];
    triton["wavefronts"] = sideSum(triton);
    if (!shared) triton.erase("store"), triton.erase("load");
    row["triton"] = triton;
  }

  // Store plus load wavefronts of a shared-memory code; null if either is.
  static Json sideSum(const Json& triton) {
    Json total = 0;
    for (const char* s : {"store", "load"})
      if (triton.contains(s)) {
        if (triton[s]["wavefronts"].is_null()) return nullptr;
        total = total.get<uint64_t>() + triton[s]["wavefronts"].get<uint64_t>();
      }
    return total;
  }

  // The gain of the optimum over Triton's code, and whether Triton exceeds it.
  static void setGain(Json& row) {
    const Json& total = row["triton"]["wavefronts"];
    if (!row.contains("optimum") || total.is_null()) return;
    uint64_t best = row["optimum"]["wavefronts"];
    row["gain"] =
        best ? static_cast<double>(total.get<uint64_t>()) / static_cast<double>(best) : 1.0;
    row["exceeds_optimum"] = total.get<uint64_t>() > best;
  }

  // What Triton 3.9.0 generates for the op (triton_convert, triton_local)
  // and what it costs; for a convert through shared memory also the optimum
  // (optimal_swizzle) and the gain.
  void cost(Json& row, const TtgirOp& op, const std::vector<Json>& from,
            const std::vector<Json>& to) {
    const std::string& kind = row["kind"];
    static const std::set<std::string> classified = {"ttg.convert_layout", "tt.reduce", "tt.scan",
                                                     "tt.gather"};
    if (kind != "shared_memory" && !classified.contains(op.name)) return;
    if (!capability_) throw Error("Triton's lowering is modelled for NVIDIA (cuda) targets only");
    if (op.name == "ttg.async_copy_global_to_local") {
      // cp.async (LDGSTS) writes shared memory past the LSU's ld/st
      // wavefronts (ncu counts it apart): none of the CTA's wavefronts.
      row["triton"] = {{"path", "cp.async"}, {"wavefronts", 0}};
      return;
    }
    uint64_t bytes = row["element_bytes"];
    Json triton;
    if (op.name == "tt.reduce") return costReduce(row, op, from, to);
    if (op.name == "tt.scan") return costScan(row, op, from);
    if (op.name == "tt.gather") return costGather(row, op, from);
    if (op.name == "ttg.convert_layout") {
      if (kind == "unknown") throw Error("the conversion's layouts are not both lifted");
      const Json &a = lifted(from.at(0)), &b = lifted(to.at(0));
      triton = convertCode(a, b, bytes);
      if (triton["path"] != "shared_memory") {
        row["triton"] = triton;
        return;
      }
      row["optimum"] = optimum(a, b, bytes);
    } else {
      if (op.name.starts_with("ttg.memdesc")) return;  // a view: no data moves
      bool store = op.name != "ttg.local_load";
      const TtgirType& memType = store ? op.resultTypes.at(0) : op.operandTypes.at(0);
      Json dist = lifted(store ? from.at(0) : to.at(0));
      Json shared = lifted(store ? to.at(0) : from.at(0));
      // A sub-slice of a larger buffer (memdesc_subslice) is addressed by the
      // buffer's own layout, offset by the slice's start: a constant XOR of
      // the offsets, which moves no access to another bank relation. So it
      // costs what the same access at the buffer's origin costs.
      std::vector<int64_t> alloc(memType.alloc.end() - static_cast<long>(memType.shape.size()),
                                 memType.alloc.end());
      if (memType.alloc.size() >= memType.shape.size() && alloc != memType.shape) {
        shared = ask(liftRequest(memType.encoding, alloc, options_.triton));
        for (size_t k = 0; k < alloc.size(); ++k) dist["out_dims"][k]["size"] = alloc[k];
        row["subslice_of"] = alloc;
      }
      if (shared.contains("padding")) throw Error("padded shared memory: not modelled yet");
      Json side = ask({{"op", "triton_local"},
                       {"layout", dist},
                       {"shared", shared},
                       {"access", store ? "store" : "load"},
                       {"element_bytes", bytes},
                       {"compute_capability", capability_}});
      Json conflicts = side["triton_bank_conflicts"];
      side.erase("triton_bank_conflicts");
      side = costSide(side, dist, shared, bytes);
      triton = {{"path", "shared_memory"}, {store ? "store" : "load", side}};
      compareTritonsModel(row, side, conflicts);
    }
    triton["wavefronts"] = sideSum(triton);
    row["triton"] = triton;
    setGain(row);
  }

  AuditOptions options_;
  int capability_ = 0;
  std::map<std::string, Json> ids_;
  Json layouts_ = Json::array(), ops_ = Json::array(), unread_ = Json::array(),
       loops_ = Json::array();
  std::map<size_t, std::optional<int64_t>> trips_;
  std::map<std::string, int> uses_;
  uint64_t numWarps_ = 0;
};

}  // namespace

Json auditTtgir(std::string_view ttgir, const AuditOptions& options) {
  TtgirModule module = readTtgir(ttgir);
  Auditor auditor(options, capabilityOf(module.target));
  auditor.setUses(module);
  auditor.setTrips(module);
  for (const TtgirOp& op : module.ops) auditor.addOp(op);
  auditor.setEarlyExit(module);
  return auditor.report(module);
}

namespace {

std::string sourceText(const Json& row) {
  if (row["source"].is_null()) return "-";
  std::string file = row["source"]["file"];
  return file.substr(file.find_last_of('/') + 1) + ":" +
         std::to_string(row["source"]["line"].get<int>());
}

std::string tensorText(const Json& row) {
  if (!row.contains("shape")) return "-";
  std::string t;
  for (const Json& d : row["shape"]) t += std::to_string(d.get<int64_t>()) + "x";
  return t + row["element"].get<std::string>();
}

// "32 st.shared 1B + 32 ld.shared 1B": each side's instructions per CTA.
std::string codeText(const Json& triton) {
  if (triton.contains("conversions")) {  // a reduce: its converts in turn
    std::string code;
    for (const Json& c : triton["conversions"]) code += (code.empty() ? "" : "; ") + codeText(c);
    return code.empty() ? triton["path"].get<std::string>() : code;
  }
  std::string code;
  for (const char* side : {"store", "load"})
    if (triton.contains(side)) {
      const Json& s = triton[side];
      code += (code.empty() ? "" : " + ") + std::to_string(s["instructions"].get<uint64_t>()) +
              " " + s["instruction"].get<std::string>() +
              (s.contains("vector_bytes")
                   ? " " + std::to_string(s["vector_bytes"].get<uint64_t>()) + "B"
                   : " scalar");
    }
  return code.empty() ? triton.value("path", std::string("-")) : code;
}

std::string wavefrontText(const Json& triton) {
  if (!triton.contains("wavefronts") || triton["wavefronts"].is_null()) return "-";
  std::string parts;
  for (const char* side : {"store", "load"})
    if (triton.contains(side) && !triton[side]["wavefronts"].is_null())
      parts +=
          (parts.empty() ? "" : "+") + std::to_string(triton[side]["wavefronts"].get<uint64_t>());
  return parts.empty() ? std::to_string(triton["wavefronts"].get<uint64_t>()) : parts;
}

// The rows that cost wavefronts, worst first (the table's order).
std::vector<const Json*> worstFirst(const Json& report) {
  std::vector<const Json*> rows;
  for (const Json& row : report["ops"]) rows.push_back(&row);
  auto key = [](const Json* r) {
    double gain = r->value("gain", 0.0);
    const Json& t = r->contains("triton") ? (*r)["triton"] : Json::object();
    double w = t.contains("wavefronts") && t["wavefronts"].is_number()
                   ? t["wavefronts"].get<double>()
                   : -1;
    return std::pair{gain, w};
  };
  std::stable_sort(rows.begin(), rows.end(), [&](auto* a, auto* b) { return key(a) > key(b); });
  return rows;
}

}  // namespace

Json worstOpPicture(const Json& report) {
  for (const Json* r : worstFirst(report)) {
    const Json& row = *r;
    if (!row.contains("triton") || !row["triton"].contains("wavefronts") ||
        !row["triton"]["wavefronts"].is_number() || row["triton"]["wavefronts"] == 0)
      continue;
    const Json& t = row["triton"];
    // The memory layout: a convert's scratch (its rounds as high offsets) or
    // the memory descriptor's.
    Json shared;
    if (t.contains("shared")) {
      Json offsets = t["shared"]["in_dims"][0]["bases"];
      for (const Json& b : t["shared"]["in_dims"][1]["bases"]) offsets.push_back(b);
      shared = {{"in_dims", {{{"name", "offset"}, {"bases", offsets}}}},
                {"out_dims", t["shared"]["out_dims"]}};
    }
    const char* worst = nullptr;
    for (const char* side : {"store", "load"})
      if (t.contains(side) && t[side]["wavefronts"].is_number() &&
          (!worst || t[side]["wavefronts"] > t[worst]["wavefronts"]))
        worst = side;
    if (!worst) continue;
    bool store = std::string(worst) == "store";
    const Json& ids = store ? row["from"] : row["to"];
    const Json& memIds = store ? row["to"] : row["from"];
    const Json& dist = report["layouts"][ids[0].get<size_t>()]["layout"];
    if (shared.is_null()) shared = report["layouts"][memIds[0].get<size_t>()]["layout"];
    std::string access = accessOf(t[worst]["instruction"]);
    if (access != "store" && access != "load" && row["element_bytes"] != 2) continue;
    Json request = {{"op", "bank_conflicts"},
                    {"layout", withoutRegisterCopies(dist)},
                    {"shared", shared},
                    {"element_bytes", row["element_bytes"]},
                    {"access", access}};
    if (access == "store" || access == "load") request["vector_bytes"] = t[worst]["vector_bytes"];
    return request;
  }
  return nullptr;
}

std::string auditTable(const Json& report) {
  std::ostringstream out;
  const Json& m = report["module"];
  out << "target " << m["target"].get<std::string>() << ", " << m["num_warps"] << " warps of "
      << m["threads_per_warp"] << " threads, Triton " << report["triton"].get<std::string>()
      << " rules; one CTA: ";
  const Json& cta = report["cta"];
  if (cta["wavefronts"].is_null())
    out << "not every op is modelled (below)\n";
  else
    out << cta["wavefronts"] << " shared-memory wavefronts (ld/st.shared, ldmatrix/stmatrix)\n";
  // Worst first: the largest gain over the optimum, then the most wavefronts.
  std::vector<const Json*> rows = worstFirst(report);
  char line[512];
  std::snprintf(line, sizeof line, "%-22s %-22s %-16s %-14s %-40s %5s %11s %8s %6s\n", "source",
                "op", "tensor", "moves by", "Triton's code (per CTA)", "runs", "wavefronts",
                "optimum", "gain");
  out << line;
  for (const Json* r : rows) {
    const Json& row = *r;
    const Json& t = row.contains("triton") ? row["triton"] : Json::object();
    std::string path =
        t.contains("path") ? t["path"].get<std::string>() : row["kind"].get<std::string>();
    std::string code =
        t.contains("modelled") ? "not modelled: " + t["reason"].get<std::string>() : codeText(t);
    std::string runs =
        row["executions"].is_null() ? "?" : std::to_string(row["executions"].get<int64_t>());
    std::string optimum = row.contains("optimum")
                              ? std::to_string(row["optimum"]["wavefronts"].get<uint64_t>())
                              : "-";
    char gain[32] = "-";
    if (row.contains("gain")) std::snprintf(gain, sizeof gain, "%.2fx", row["gain"].get<double>());
    std::snprintf(line, sizeof line, "%-22s %-22s %-16s %-14s %-40s %5s %11s %8s %6s",
                  sourceText(row).c_str(), row["op"].get<std::string>().c_str(),
                  tensorText(row).c_str(), path.c_str(), code.c_str(), runs.c_str(),
                  wavefrontText(t).c_str(), optimum.c_str(), gain);
    out << line << (row.value("exceeds_optimum", false) ? "  <- above the optimum" : "");
    if (row.contains("tritons_model") && !row["tritons_model"].value("agrees", true)) {
      char model[160];
      std::snprintf(model, sizeof model,
                    "  <- Triton's bank_conflicts says %s, the hardware rule %.2f (excess a phase)",
                    row["tritons_model"]["bank_conflicts"].dump().c_str(),
                    row["tritons_model"]["hardware"].get<double>());
      out << model;
    }
    out << "\n";
  }
  size_t failed = 0;
  for (const Json& l : report["layouts"]) failed += l.contains("error");
  out << report["layouts"].size() << " layouts, " << failed << " not lifted";
  for (const Json& l : report["layouts"])
    if (l.contains("error"))
      out << "\n  " << l["attribute"].get<std::string>() << ": " << l["error"].get<std::string>();
  for (const Json& u : report["unread"])
    out << "\n  unread (TTGIR line " << u["ttgir_line"] << "): " << u["error"].get<std::string>();
  for (const Json& why : cta["missing"])
    out << "\n  missing from the CTA's total: " << why.get<std::string>();
  out << "\n";
  return out.str();
}

}  // namespace f2lay::audit
