#include "audit/audit.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "audit/lift.h"
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

class Auditor {
 public:
  explicit Auditor(const AuditOptions& options) : options_(options) {}

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
    if (op.name == "ttg.convert_layout") classify(row, from, to);
    ops_.push_back(row);
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
            {"unread", unread_}};
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

  AuditOptions options_;
  std::map<std::string, Json> ids_;
  Json layouts_ = Json::array(), ops_ = Json::array(), unread_ = Json::array();
};

std::string describeLayouts(const Json& report, const Json& ids) {
  std::string s;
  for (const Json& id : ids) {
    if (!s.empty()) s += ", ";
    s += id.is_null() ? "-" : report["layouts"][id.get<size_t>()]["attribute"].get<std::string>();
  }
  return s.empty() ? "-" : s;
}

}  // namespace

Json auditTtgir(std::string_view ttgir, const AuditOptions& options) {
  TtgirModule module = readTtgir(ttgir);
  Auditor auditor(options);
  for (const TtgirOp& op : module.ops) auditor.addOp(op);
  return auditor.report(module);
}

std::string auditTable(const Json& report) {
  std::ostringstream out;
  const Json& m = report["module"];
  out << "target " << m["target"].get<std::string>() << ", " << m["num_warps"] << " warps of "
      << m["threads_per_warp"] << " threads, Triton " << report["triton"].get<std::string>()
      << " rules\n";
  out << "source        op                     tensor          kind                  from -> to\n";
  for (const Json& row : report["ops"]) {
    std::ostringstream source, tensor;
    if (row["source"].is_null()) {
      source << "-";
    } else {
      std::string file = row["source"]["file"];
      source << file.substr(file.find_last_of('/') + 1) << ":" << row["source"]["line"];
    }
    if (row.contains("shape")) {
      for (const Json& d : row["shape"]) tensor << d << "x";
      tensor << row["element"].get<std::string>();
    } else {
      tensor << "-";
    }
    char line[256];
    std::snprintf(line, sizeof line, "%-13s %-22s %-15s %-21s ", source.str().c_str(),
                  row["op"].get<std::string>().c_str(), tensor.str().c_str(),
                  row["kind"].get<std::string>().c_str());
    out << line << describeLayouts(report, row["from"]) << " -> "
        << describeLayouts(report, row["to"]) << "\n";
  }
  size_t failed = 0;
  for (const Json& l : report["layouts"]) failed += l.contains("error");
  out << report["layouts"].size() << " layouts, " << failed << " not lifted";
  for (const Json& l : report["layouts"])
    if (l.contains("error"))
      out << "\n  " << l["attribute"].get<std::string>() << ": " << l["error"].get<std::string>();
  for (const Json& u : report["unread"])
    out << "\n  unread (TTGIR line " << u["ttgir_line"] << "): " << u["error"].get<std::string>();
  out << "\n";
  return out.str();
}

}  // namespace f2lay::audit
