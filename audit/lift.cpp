#include "audit/lift.h"

#include <map>

#include "formats/error.h"
#include "oracle/oracle.h"

namespace f2lay::audit {

namespace {

// One attribute family: its catalog op and the request key of each of its
// attribute keys. Keys Triton 3.6 printed for the legacy CTA tiling map to
// the request's legacy keys.
struct Family {
  const char* op;
  std::map<std::string, std::string> keys;
};

const std::map<std::string, std::string> kCtaKeys = {{"CGALayout", "cga_layout"},
                                                     {"CTAsPerCGA", "ctas_per_cga"},
                                                     {"CTASplitNum", "cta_split_num"},
                                                     {"CTAOrder", "cta_order"}};

const std::map<std::string, Family>& families() {
  static const std::map<std::string, Family> table = {
      {"ttg.blocked",
       {"blocked",
        {{"sizePerThread", "size_per_thread"},
         {"threadsPerWarp", "threads_per_warp"},
         {"warpsPerCTA", "warps_per_cta"},
         {"order", "order"}}}},
      {"ttg.slice", {"slice", {{"dim", "dim"}, {"parent", "parent"}}}},
      {"ttg.nvidia_mma",
       {"nvidia_mma", {{"warpsPerCTA", "warps_per_cta"}, {"instrShape", "instr_shape"}}}},
      {"ttg.dot_op",
       {"dot_operand", {{"opIdx", "operand_index"}, {"parent", "parent"}, {"kWidth", "k_width"}}}},
      {"ttg.amd_mfma",
       {"amd_mfma",
        {{"version", "version"},
         {"warpsPerCTA", "warps_per_cta"},
         {"instrShape", "instr_shape"},
         {"isTransposed", "transposed"},
         {"tilesPerWarp", "tiles_per_warp"},
         {"elementBitWidth", "element_bitwidth"}}}},
      {"ttg.amd_wmma",
       {"amd_wmma",
        {{"version", "version"},
         {"isTranspose", "transposed"},
         {"ctaLayout", ""},  // {register, warp} bases: below
         {"warpsPerCTA", "warps_per_cta"},
         {"instrShape", "instr_shape"},
         {"tilesPerWarp", "tiles_per_warp"}}}},
      {"ttg.linear",
       {"linear_encoding",
        {{"register", "reg_bases"},
         {"lane", "lane_bases"},
         {"warp", "warp_bases"},
         {"block", "block_bases"}}}},
      {"ttg.swizzled_shared",
       {"swizzled_shared",
        {{"vec", "vec"},
         {"perPhase", "per_phase"},
         {"maxPhase", "max_phase"},
         {"order", "order"}}}},
      {"ttg.nvmma_shared",
       {"nvmma_shared",
        {{"swizzlingByteWidth", "swizzle_byte_width"},
         {"rank", ""},  // the shape's rank (memoryEncodingRank)
         {"transposed", "transposed"},
         {"elementBitWidth", "element_bitwidth"},
         {"fp4Padded", "fp4_padded"}}}},
      {"ttg.shared_linear",
       {"shared_linear",
        {{"offset", "offset_bases"}, {"block", "block_bases"}, {"alignment", "alignment"}}}},
      {"ttg.padded_shared",
       {"padded_shared",
        {{"offset", "offset_bases"}, {"block", "block_bases"}, {"order", "order"}, {"shape", ""}}}},
      {"ttng.tensor_memory_encoding",
       {"tensor_memory",
        {{"blockM", ""}, {"blockN", ""}, {"colStride", "col_stride"}, {"twoCTAs", "two_ctas"}}}},
      {"ttng.tensor_memory_scales_encoding", {"tensor_memory_scales", {}}},
  };
  return table;
}

// Whether the op's documentation lists the key (the op table is the one
// place that says which keys an op takes).
bool opTakes(const std::string& op, const std::string& key) {
  for (const oracle::OpDoc& doc : oracle::oracleOps())
    if (doc.name == op)
      for (const oracle::OpArg& arg : doc.args)
        if (arg.key == key) return true;
  return false;
}

[[noreturn]] void cannotLift(const std::string& name, const std::string& why) {
  throw Error("cannot lift #" + name + ": " + why);
}

// The request without "shape" (a parent's, or the layout's before its shape).
Json liftKeys(const Json& encoding, TritonVersion triton) {
  std::string name = attributeName(encoding);
  if (name.empty()) throw Error("cannot lift a layout that is not a dialect attribute");
  auto family = families().find(name);
  if (family == families().end()) cannotLift(name, "f2lay has no catalog family for it");
  const Family& f = family->second;
  Json request = {{"op", f.op}};
  for (const auto& [key, value] : encoding.items()) {
    if (key == "#") continue;
    if (key == "#args") {
      // padded_shared's "[interval:+padding, ...]".
      if (name != "ttg.padded_shared" || value.size() != 1 || !value[0].is_array())
        cannotLift(name, "unexpected positional parameters");
      Json pairs = Json::array();
      for (const Json& p : value[0]) {
        if (!p.is_object() || !p.contains("interval"))
          cannotLift(name, "a padding item is not \"interval:+padding\"");
        pairs.push_back({p["interval"], p["padding"]});
      }
      request["interval_padding_pairs"] = pairs;
      continue;
    }
    std::string requestKey;
    if (auto k = f.keys.find(key); k != f.keys.end()) {
      requestKey = k->second;
    } else if (auto c = kCtaKeys.find(key); c != kCtaKeys.end()) {
      requestKey = c->second;
    } else if (name == "ttg.nvidia_mma" && (key == "versionMajor" || key == "versionMinor")) {
      continue;  // below, as "version": [major, minor]
    } else {
      cannotLift(name, "the key \"" + key + "\" is unknown to f2lay");
    }
    if (requestKey.empty()) continue;  // read below with the keys it goes with
    request[requestKey] = (key == "parent") ? liftKeys(value, triton) : value;
  }
  if (name == "ttg.nvidia_mma")
    request["version"] = {encoding.value("versionMajor", 0), encoding.value("versionMinor", 0)};
  if (name == "ttng.tensor_memory_encoding")
    request["block"] = {encoding.value("blockM", 0), encoding.value("blockN", 0)};
  if (name == "ttg.amd_wmma" && encoding.contains("ctaLayout")) {
    // Triton 3.9 prints the warps' (and registers') tiling as bases.
    const Json& cta = encoding["ctaLayout"];
    for (const auto& [key, value] : cta.items()) {
      if (key == "warp")
        request["warp_bases"] = value;
      else if (key == "register")
        request["reg_bases"] = value;
      else
        cannotLift(name, "the ctaLayout key \"" + key + "\" is unknown to f2lay");
    }
  }
  if (name == "ttg.padded_shared") {
    // One CTA's bases only: the block bases of a padded layout over several
    // CTAs are not read yet (none in the corpus to check them against).
    if (request.contains("block_bases")) {
      if (!request["block_bases"].empty())
        cannotLift(name, "block bases over several CTAs are not read yet");
      request.erase("block_bases");
    }
    // The identity form prints "order" and "shape"; the general one the bases.
    if (request.contains("order")) request["op"] = "padded_shared_identity";
    if (!request.contains("interval_padding_pairs")) cannotLift(name, "no padding intervals");
  }
  // A parent's legacy CTA keys stay as they are; the release's rules apply
  // where the family has them.
  if (opTakes(request["op"], "triton")) request["triton"] = toString(triton);
  return request;
}

}  // namespace

std::string attributeName(const Json& encoding) {
  if (!encoding.is_object() || !encoding.contains("#") || !encoding["#"].is_string()) return "";
  return encoding["#"].get<std::string>();
}

bool isMemoryEncoding(const Json& encoding) {
  std::string name = attributeName(encoding);
  return name.ends_with("_shared") || name == "ttg.shared_linear" ||
         name.starts_with("ttng.tensor_memory");
}

size_t memoryEncodingRank(const Json& encoding) {
  std::string name = attributeName(encoding);
  auto firstLength = [&](const char* key) -> size_t {
    const Json& bases = encoding.contains(key) ? encoding[key] : Json();
    return bases.is_array() && !bases.empty() && bases[0].is_array() ? bases[0].size() : 0;
  };
  if (encoding.contains("order") && encoding["order"].is_array()) return encoding["order"].size();
  if (name == "ttg.shared_linear" || name == "ttg.padded_shared") return firstLength("offset");
  if (name == "ttg.nvmma_shared") {
    // Printed only where it is not 2 (or implied by a CGA layout's bases).
    if (encoding.contains("rank") && encoding["rank"].is_number_integer() &&
        encoding["rank"].get<int64_t>() > 0)
      return encoding["rank"].get<size_t>();
    return firstLength("CGALayout") ? firstLength("CGALayout") : 2;
  }
  if (name.starts_with("ttng.tensor_memory")) return 2;
  return 0;
}

Json liftRequest(const Json& encoding, const std::vector<int64_t>& shape, TritonVersion triton) {
  Json request = liftKeys(encoding, triton);
  // The identity form of padded_shared prints the shape it was made for.
  if (encoding.contains("shape") && encoding["shape"] != Json(shape))
    cannotLift(attributeName(encoding), "its shape " + encoding["shape"].dump() +
                                            " is not the type's " + Json(shape).dump());
  // A shared_linear layout's shape is its bases' extent; the audit checks it
  // against the type's.
  if (request["op"] != "shared_linear") request["shape"] = shape;
  return request;
}

}  // namespace f2lay::audit
