// Requests drawn from fixed seeds (drawn.h's draw), so that the files
// regenerate byte for byte.
#include "tools/vectors/drawn.h"

#include "formats/error.h"
#include "oracle/analysis_ops/catalog_pairs.h"
#include "oracle/oracle.h"
#include "properties/generators.h"

namespace f2lay::tools {

namespace {

using properties::RankKind;
constexpr int kDraws = 40;  // rounds per family
Json lj(const LayoutValue& l) { return layoutToJson(l); }

// A layout's out dims as (name, bits).
std::vector<std::pair<std::string, int>> outDimBits(const LayoutValue& l) {
  std::vector<std::pair<std::string, int>> dims;
  for (const OutDim& d : l.out_dims) dims.push_back({d.name, log2Exact(d.size)});
  return dims;
}

std::vector<DrawnRequest> algebra() {
  std::vector<DrawnRequest> out;
  auto add = [&](int i, Json request) {
    out.push_back(
        {request["op"].get<std::string>() + " #" + std::to_string(i), std::move(request)});
  };
  for (int i = 0; i < kDraws; ++i) {
    LayoutValue l = draw(properties::genLayout(RankKind::kAny), 9100, i);
    for (const char* op :
         {"matrix_view", "is_injective", "is_surjective", "is_invertible", "free_variable_masks",
          "num_consecutive_in_out", "flatten_ins", "flatten_outs"})
      add(i, {{"op", op}, {"layout", lj(l)}});
    Json input = Json::object();
    uint64_t salt = 0x9e3779b97f4a7c15ull * static_cast<uint64_t>(i + 1);
    for (const InDim& d : l.in_dims) {
      input[d.name] = (salt >> 7) & ((uint64_t{1} << d.bases.size()) - 1);
      salt = salt * 6364136223846793005ull + 1442695040888963407ull;
    }
    add(i, {{"op", "apply"}, {"layout", lj(l)}, {"input", input}});
    Json reversed = Json::array();
    for (auto d = l.out_dims.rbegin(); d != l.out_dims.rend(); ++d) reversed.push_back(d->name);
    add(i, {{"op", "transpose_outs"}, {"layout", lj(l)}, {"new_out_dims", reversed}});
    add(i, {{"op", "sublayout"},
            {"layout", lj(l)},
            {"in_dim_names", Json::array({l.in_dims[0].name})},
            {"out_dim_names", reversed}});
    add(i, {{"op", "sublayout_is_zero"},
            {"layout", lj(l)},
            {"in_dim_names", Json::array({l.in_dims[0].name})},
            {"out_dim_names", Json::array({l.out_dims.back().name})}});

    LayoutValue m = draw(properties::genLayoutFrom(outDimBits(l)), 9200, i);
    add(i, {{"op", "compose"}, {"self", lj(l)}, {"other", lj(m)}});
    LayoutValue n = draw(properties::genLayout(RankKind::kAny), 9300, i);
    add(i, {{"op", "product"}, {"self", lj(l)}, {"other", lj(n)}});
    add(i, {{"op", "equal"}, {"self", lj(l)}, {"other", lj(n)}});

    // divide_left: l * n divided by l gives n back (Def 4.4), where the
    // product exists.
    Json product =
        oracle::answer({{"op", "product"}, {"self", lj(l)}, {"other", lj(n)}}, oracle::Impl::kRef);
    if (product["ok"].get<bool>())
      add(i, {{"op", "divide_left"}, {"self", product["result"]}, {"other", lj(l)}});
    LayoutValue extra = draw(properties::genLayoutOnto({{"extra", 2}}, outDimBits(l)), 9350, i);
    add(i, {{"op", "concat_ins"}, {"self", lj(l)}, {"other", lj(extra)}});
    uint64_t inSize = uint64_t{1} << properties::columnsOf(l).size();
    add(i, {{"op", "reshape_ins"},
            {"layout", lj(l)},
            {"new_in_dims", Json::array({{{"name", "flat"}, {"size", inSize}}})}});
    Json ins = Json::array();
    for (auto d = l.in_dims.rbegin(); d != l.in_dims.rend(); ++d) ins.push_back(d->name);
    add(i, {{"op", "transpose_ins"}, {"layout", lj(l)}, {"new_in_dims", ins}});
    if (i < 8) {
      uint64_t size = uint64_t{1} << (i % 4);
      add(i, {{"op", "identity_1d"}, {"size", size}, {"in_dim", "lane"}, {"out_dim", "dim0"}});
      add(i, {{"op", "zeros_1d"},
              {"size", size},
              {"in_dim", "register"},
              {"out_dim", "dim1"},
              {"out_dim_size", uint64_t{1} << (i / 4)}});
      add(i, {{"op", "strided_1d"},
              {"size", size},
              {"stride", uint64_t{1} << (i / 2)},
              {"in_dim", "offset"},
              {"out_dim", "dim0"}});
    }

    LayoutValue s = draw(properties::genLayout(RankKind::kSurjective), 9400, i);
    add(i, {{"op", "pseudoinvert"}, {"layout", lj(s)}});
    LayoutValue v = draw(properties::genLayout(RankKind::kInvertible), 9500, i);
    add(i, {{"op", "invert"}, {"layout", lj(v)}});
    // invert_and_compose: a source onto the surjective layout's out dims;
    // every other draw copies s's first in dim, which Triton's heuristic
    // sets aside (dims mapped alike).
    LayoutValue a =
        draw(properties::genLayoutOnto({{"register", 2}, {"lane", 3}, {"warp", 1}}, outDimBits(s)),
             9600, i);
    if (i % 2 == 0) a.in_dims[0] = s.in_dims[0];
    add(i, {{"op", "invert_and_compose"}, {"self", lj(a)}, {"other", lj(s)}});
  }
  return out;
}

// Each op of a drawn sequence acts on the previous op's result, so the
// sequence runs through the reference as it is drawn; it stops at a refusal.
// Each op is also asked backward, from its result (reshape's shape is then
// the operand's).
std::vector<DrawnRequest> shapeOperations() {
  std::vector<DrawnRequest> out;
  for (int i = 0; i < kDraws; ++i) {
    properties::Case c = draw(properties::genShapeOpSequence(), 9700, i);
    Json layout = lj(c.layouts[0]);
    for (size_t k = 0; k < c.params["ops"].size(); ++k) {
      Json request = c.params["ops"][k];
      request["layout"] = layout;
      request["direction"] = "forward";
      std::string name =
          request["op"].get<std::string>() + " #" + std::to_string(i) + "." + std::to_string(k);
      out.push_back({name, request});
      Json response = oracle::answer(request, oracle::Impl::kRef);
      if (!response["ok"].get<bool>()) break;
      Json backward = request;
      backward["layout"] = response["result"];
      backward["direction"] = "backward";
      if (backward.contains("shape")) {
        backward["shape"] = Json::array();
        for (const Json& d : layout["out_dims"]) backward["shape"].push_back(d["size"]);
      }
      out.push_back({name + " backward", backward});
      layout = response["result"];
    }
  }
  return out;
}

// Conversion pairs: drawn ones, then the catalog's (oracle/analysis_ops).
struct Pair {
  std::string name;
  LayoutValue a, b;
  uint64_t elementBytes;
  std::string write = "vector", read = "vector";
  bool catalog = false;
};

std::string instructionName(analysis::Instruction in, const char* matrix) {
  switch (in) {
    case analysis::Instruction::kVector:
      return "vector";
    case analysis::Instruction::kMatrix:
      return matrix;
    case analysis::Instruction::kMatrixTrans:
      return std::string(matrix) + "_trans";
  }
  throw Error("vectors: unknown instruction");
}

std::vector<Pair> pairs(uint64_t seed) {
  std::vector<Pair> out;
  for (int i = 0; i < kDraws; ++i) {
    properties::Case c = draw(properties::genConversionPair(), seed, i);
    out.push_back({std::string("#").append(std::to_string(i)), c.layouts[0], c.layouts[1],
                   c.params["element_bytes"].get<uint64_t>()});
  }
  for (const oracle::CatalogPair& p : oracle::catalogPairs())
    out.push_back({p.name, p.a.value(), p.b.value(), p.elementBytes,
                   instructionName(p.write, "stmatrix"), instructionName(p.read, "ldmatrix"),
                   true});
  return out;
}

std::vector<int> tensorBitsOf(const LayoutValue& l) {
  std::vector<int> bits;
  for (const auto& dim : outDimBits(l)) bits.push_back(dim.second);
  return bits;
}

std::vector<DrawnRequest> conversions() {
  std::vector<DrawnRequest> out;
  int i = 0;
  for (const Pair& p : pairs(9800)) {
    out.push_back({"classify_conversion " + p.name,
                   {{"op", "classify_conversion"}, {"self", lj(p.a)}, {"other", lj(p.b)}}});
    out.push_back({"shuffle_plan " + p.name,
                   {{"op", "shuffle_plan"},
                    {"self", lj(p.a)},
                    {"other", lj(p.b)},
                    {"element_bytes", p.elementBytes}}});
    out.push_back({"duplication " + p.name, {{"op", "duplication"}, {"layout", lj(p.b)}}});
    out.push_back(
        {"gather_plan " + p.name, {{"op", "gather_plan"}, {"layout", lj(p.a)}, {"axis", i % 2}}});
    LayoutValue shared = draw(properties::genMemory(tensorBitsOf(p.a)), 9850, i++);
    out.push_back({"vectorization " + p.name,
                   {{"op", "vectorization"}, {"layout", lj(p.a)}, {"shared", lj(shared)}}});
    if (p.elementBytes <= 8) {
      out.push_back({"triton_convert " + p.name,
                     {{"op", "triton_convert"},
                      {"self", lj(p.a)},
                      {"other", lj(p.b)},
                      {"element_bytes", p.elementBytes}}});
      out.push_back({"triton_local " + p.name,
                     {{"op", "triton_local"},
                      {"layout", lj(p.a)},
                      {"shared", lj(shared)},
                      {"access", "store"},
                      {"element_bytes", p.elementBytes}}});
      out.push_back({"triton_reduce " + p.name,
                     {{"op", "triton_reduce"}, {"layout", lj(p.a)}, {"axis", i % 2}}});
      out.push_back({"triton_reduce (Triton 3.6) " + p.name,
                     {{"op", "triton_reduce"},
                      {"layout", lj(p.a)},
                      {"axis", i % 2},
                      {"triton", "3.6"},
                      {"order", {1, 0}},
                      {"element_bytes", {p.elementBytes}}}});
      out.push_back({"triton_scan " + p.name,
                     {{"op", "triton_scan"},
                      {"layout", lj(p.a)},
                      {"axis", i % 2},
                      {"element_bytes", {p.elementBytes}}}});
      out.push_back(
          {"triton_gather " + p.name,
           {{"op", "triton_gather"}, {"src", lj(p.a)}, {"index", lj(p.b)}, {"axis", i % 2}}});
    }
    out.push_back({"divide_by_tile " + p.name,
                   {{"op", "divide_by_tile"},
                    {"layout", lj(p.a)},
                    {"shared", lj(shared)},
                    {"tile", "vector"},
                    {"elements", uint64_t{16} / p.elementBytes}}});
  }
  return out;
}

std::vector<DrawnRequest> swizzles() {
  std::vector<DrawnRequest> out;
  // Each pair through the optimum and through §5.4's construction.
  for (const Pair& p : pairs(9900))
    for (const char* construction : {"optimum", "paper"})
      out.push_back({"optimal_swizzle " + std::string(construction) + " " + p.name,
                     {{"op", "optimal_swizzle"},
                      {"self", lj(p.a)},
                      {"other", lj(p.b)},
                      {"element_bytes", p.elementBytes},
                      {"write", p.write},
                      {"read", p.read},
                      {"construction", construction}}});
  return out;
}

std::vector<DrawnRequest> bankConflicts() {
  std::vector<DrawnRequest> out;
  int i = 0;
  for (const Pair& p : pairs(10000)) {
    // A drawn pair through a random memory layout (Def 4.14); a catalog pair
    // through its optimal swizzle, with its instructions (stmatrix, ldmatrix
    // where it names them), as a compiler would convert it.
    Json shared = lj(draw(properties::genMemory(tensorBitsOf(p.a)), 10100, i++));
    if (p.catalog) {
      Json swizzle = oracle::answer({{"op", "optimal_swizzle"},
                                     {"self", lj(p.a)},
                                     {"other", lj(p.b)},
                                     {"element_bytes", p.elementBytes},
                                     {"write", p.write},
                                     {"read", p.read}},
                                    oracle::Impl::kRef);
      if (!swizzle["ok"].get<bool>()) throw Error("vectors: " + p.name + ": " + swizzle.dump());
      shared = swizzle["result"]["shared"];
    }
    const std::string store = p.write == "vector" ? "store" : p.write;
    const std::string load = p.read == "vector" ? "load" : p.read;
    for (const auto& [access, layout] : {std::pair{store, p.a}, std::pair{load, p.b}})
      out.push_back({"bank_conflicts " + access + " " + p.name,
                     {{"op", "bank_conflicts"},
                      {"layout", lj(layout)},
                      {"shared", shared},
                      {"element_bytes", p.elementBytes},
                      {"access", access}}});
  }
  return out;
}

}  // namespace

const std::vector<std::string>& vectorFamilies() {
  static const std::vector<std::string> families = {"algebra",     "catalog",  "shape_operations",
                                                    "conversions", "swizzles", "bank_conflicts"};
  return families;
}

std::vector<DrawnRequest> drawnRequests(const std::string& family) {
  if (family == "algebra") return algebra();
  if (family == "catalog") return catalogRequests();
  if (family == "shape_operations") return shapeOperations();
  if (family == "conversions") return conversions();
  if (family == "swizzles") return swizzles();
  if (family == "bank_conflicts") return bankConflicts();
  throw Error("vectors: no family \"" + family + "\"");
}

}  // namespace f2lay::tools
