#include "tools/vectors/vectors.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>

#include "formats/error.h"
#include "oracle/cases.h"
#include "oracle/oracle.h"
#include "reference/linear_layout.h"
#include "tools/vectors/drawn.h"

namespace f2lay::tools {

namespace {

constexpr int kFormatVersion = 1;

// The family of each oracle op. An op missing here stops the generator, so
// that a new op is given a family when it is added.
const std::map<std::string, std::string>& familyOfOp() {
  static const std::map<std::string, std::string> table = [] {
    std::map<std::string, std::string> t;
    auto put = [&](const char* family, std::initializer_list<const char*> ops) {
      for (const char* op : ops) t[op] = family;
    };
    put("algebra", {"identity_1d",
                    "zeros_1d",
                    "strided_1d",
                    "apply",
                    "compose",
                    "product",
                    "invert_and_compose",
                    "concat_ins",
                    "concat_outs",
                    "divide_left",
                    "invert",
                    "pseudoinvert",
                    "flatten_ins",
                    "flatten_outs",
                    "transpose_ins",
                    "transpose_outs",
                    "reshape_ins",
                    "reshape_outs",
                    "sublayout",
                    "sublayout_is_zero",
                    "is_injective",
                    "is_surjective",
                    "is_invertible",
                    "free_variable_masks",
                    "num_consecutive_in_out",
                    "matrix_view",
                    "equal"});
    put("catalog", {"blocked",
                    "slice",
                    "nvidia_mma",
                    "dot_operand",
                    "amd_mfma",
                    "amd_wmma",
                    "amd_mfma_scale",
                    "amd_wmma_scale",
                    "ldmatrix",
                    "unswizzled_shared",
                    "swizzled_shared",
                    "nvmma_shared",
                    "cute_swizzle",
                    "linear_to_cute",
                    "cutlass_tensorop",
                    "is_distributed",
                    "is_memory",
                    "distributed_linear",
                    "linear_encoding",
                    "shared_linear",
                    "make_cga_layout",
                    "padded_shared",
                    "padded_shared_identity",
                    "padded_address",
                    "compute_amd_efficient_padded_shared_layout",
                    "tensor_memory",
                    "tensor_memory_scales",
                    "tmem_reg_layout"});
    put("shape_operations", {"trans", "reshape", "join", "split", "expand_dims", "broadcast"});
    put("conversions", {"classify_conversion", "shuffle_plan", "gather_plan", "duplication",
                        "vectorization", "divide_by_tile", "triton_convert", "triton_local",
                        "triton_reduce", "triton_scan", "triton_gather"});
    put("swizzles", {"optimal_swizzle"});
    put("bank_conflicts", {"bank_conflicts"});
    return t;
  }();
  return table;
}

// The Triton release a request's answer follows: the one its "triton" key
// names, else the current one (f2lay's default).
std::string releaseOf(const Json& request) {
  TritonVersion release = kCurrentTriton;
  try {
    if (request.contains("triton"))
      release = parseTritonVersion(request["triton"].get<std::string>());
  } catch (const std::exception&) {
    // A case that tests the key's refusal follows the default.
  }
  return std::string(toString(release)) + ".0";
}

// A golden case's provenance, read from its source: the first rule whose
// text the source contains. A source no rule names stops the generator.
// provenance.triton is the release the answer came from: the one the source
// names, else the one the request follows.
Json provenanceOf(const std::string& source, const Json& request) {
  struct Rule {
    const char* text;
    const char* kind;
    const char* version;  // Triton's, where the source names it
  };
  static const Rule rules[] = {{"HARDWARE.md", "h100", nullptr},
                               {"measured on H100", "h100", nullptr},
                               {"measured with ncu on the lent GPU", "h100", nullptr},
                               {"Triton 3.9", "triton", "3.9.0"},
                               {"Gluon 3.9", "triton", "3.9.0"},
                               {"Triton 3.6", "triton", "3.6.0"},
                               {"Gluon", "triton", "3.6.0"},
                               {"Triton", "triton", nullptr},
                               {"paper", "paper", nullptr},
                               {"seed", "seed", nullptr},
                               {"CuTe", "cute", nullptr},
                               {"CUTLASS", "cute", nullptr},
                               {"f2lay", "reference", nullptr},
                               {"hand-worked", "reference", nullptr},
                               {"issue 4", "reference", nullptr},
                               {"catalog layouts", "reference", nullptr},
                               {"tt.", "triton", nullptr},
                               {"PTX", "ptx", nullptr}};
  for (const Rule& r : rules) {
    if (source.find(r.text) == std::string::npos) continue;
    Json p = {{"kind", r.kind}};
    p["triton"] = r.version && !request.contains("triton") ? r.version : releaseOf(request);
    p["source"] = source;
    return p;
  }
  throw Error("vectors: no provenance rule matches the source \"" + source + "\"");
}

// True when some layout of the request maps two inputs to one element.
bool broadcastInput(const Json& request) {
  for (const char* key : {"layout", "self", "other", "shared"}) {
    if (!request.contains(key) || !request[key].is_object() || !request[key].contains("in_dims"))
      continue;
    if (!ref::LinearLayout(layoutFromJson(request[key])).isInjective()) return true;
  }
  return false;
}

Json flagsOf(bool golden, const Json& request, const Json& expect, const std::string& source) {
  Json flags = Json::array({golden ? "golden" : "drawn"});
  if (!expect["ok"].get<bool>()) flags.push_back("error");
  // Where the case's source, or f2lay's refusal, says Triton stops there.
  std::string says =
      source + (expect["ok"].get<bool>() ? "" : expect["error_contains"].get<std::string>());
  if (says.find("Triton asserts") != std::string::npos ||
      says.find("Triton 3.6 asserts") != std::string::npos ||
      says.find("Triton aborts") != std::string::npos)
    flags.push_back("triton_aborts");
  try {
    if (broadcastInput(request)) flags.push_back("broadcast_input");
  } catch (const Error&) {
    // A malformed layout (an error case) has no injectivity to speak of.
  }
  return flags;
}

struct Family {
  std::string name;
  std::vector<Json> cases;
};

std::string familyOf(const Json& request) {
  const auto& table = familyOfOp();
  auto it = table.find(request.value("op", ""));
  return it == table.end() ? "" : it->second;
}

// The golden cases of oracle/cases, each checked as `f2lay verify` checks it.
void addGolden(std::map<std::string, Family>& families) {
  for (const oracle::CaseFile& file : oracle::builtinCaseFiles()) {
    for (const oracle::CaseResult& r : oracle::runCases(file, oracle::Impl::kCheck))
      if (!r.passed)
        throw Error("vectors: golden case " + r.file + ": " + r.name + ": " + r.detail);
    std::istringstream lines(file.text);
    std::string line;
    while (std::getline(lines, line)) {
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      Json c = parseJson(line);
      const Json& request = c["request"];
      std::string family = familyOf(request);
      // Requests with no op of the oracle check the protocol, not layouts.
      if (family.empty()) continue;
      std::string source = c["source"].get<std::string>();
      families[family].cases.push_back({{"name", c["name"]},
                                        {"request", request},
                                        {"expect", c["expect"]},
                                        {"provenance", provenanceOf(source, request)},
                                        {"flags", flagsOf(true, request, c["expect"], source)}});
    }
  }
}

void addDrawn(Family& family) {
  const std::string source = "f2lay::ref, checked against f2lay::opt (f2lay vectors)";
  for (const DrawnRequest& d : drawnRequests(family.name)) {
    if (familyOf(d.request) != family.name)
      throw Error("vectors: drawn request " + d.name + " is not of family " + family.name);
    Json response = oracle::answer(d.request, oracle::Impl::kCheck);
    if (response.value("check_failed", false))
      throw Error("vectors: " + d.name + ": " + response["error"].get<std::string>());
    Json expect = response["ok"].get<bool>()
                      ? Json{{"ok", true}, {"result", response["result"]}}
                      : Json{{"ok", false}, {"error_contains", response["error"]}};
    family.cases.push_back(
        {{"name", d.name},
         {"request", d.request},
         {"expect", expect},
         {"provenance",
          {{"kind", "reference"}, {"triton", releaseOf(d.request)}, {"source", source}}},
         {"flags", flagsOf(false, d.request, expect, "")}});
  }
}

const char* describe(const std::string& family) {
  if (family == "algebra") return "LinearLayout's operations (Triton's names and semantics)";
  if (family == "catalog") return "layout families built from their parameters at a shape";
  if (family == "shape_operations")
    return "Triton's shape operations as layout transfers (paper 4.4)";
  if (family == "conversions")
    return "layout conversions: classification, shuffle plans, duplication (paper 5.4)";
  if (family == "swizzles") return "optimal shared-memory swizzles (paper 5.4, Def 4.11)";
  return "shared-memory bank conflicts, in H100 wavefronts (paper 5.2, Lemma 9.4)";
}

// One case per line, so that a change shows as a change of its lines.
std::string fileText(const Family& family) {
  Json head = {{"format", "f2lay-vectors"},       {"version", kFormatVersion},
               {"family", family.name},           {"description", describe(family.name)},
               {"generated_by", "f2lay vectors"}, {"schema", "schema.json"}};
  std::string text = head.dump();
  text.pop_back();  // the closing brace: the cases follow
  text += ",\n\"cases\": [\n";
  for (size_t i = 0; i < family.cases.size(); ++i)
    text += oracle::dumpLine(family.cases[i]) + (i + 1 < family.cases.size() ? ",\n" : "\n");
  return text + "]}\n";
}

}  // namespace

std::vector<VectorFile> generateVectors() {
  for (const auto& op : oracle::oracleOps())
    if (!familyOfOp().count(op.name))
      throw Error("vectors: the op \"" + op.name + "\" has no family");
  std::map<std::string, Family> families;
  for (const std::string& name : vectorFamilies()) families[name].name = name;
  addGolden(families);
  std::map<std::string, size_t> perOp;
  std::vector<VectorFile> files;
  for (const std::string& name : vectorFamilies()) {
    addDrawn(families[name]);
    for (const Json& c : families[name].cases) ++perOp[c["request"]["op"].get<std::string>()];
    files.push_back({name + ".json", fileText(families[name])});
  }
  for (const auto& op : oracle::oracleOps())
    if (!perOp.count(op.name)) throw Error("vectors: no case of the op \"" + op.name + "\"");
  return files;
}

void writeVectors(const std::vector<VectorFile>& files, const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error || !std::filesystem::is_directory(dir))
    throw Error(dir + ": cannot make the folder (" + (error ? error.message() : "not a folder") +
                ")");
  for (const VectorFile& f : files) {
    std::string path = (std::filesystem::path(dir) / f.name).string();
    std::ofstream out(path, std::ios::binary);
    out << f.text;
    if (!out.flush()) throw Error(path + ": cannot write the file");
  }
}

size_t compareVectors(const std::vector<VectorFile>& files, const std::string& dir,
                      std::ostream& out) {
  if (!std::filesystem::is_directory(dir)) throw Error(dir + ": not a folder");
  size_t differ = 0;
  for (const VectorFile& f : files) {
    std::string path = (std::filesystem::path(dir) / f.name).string();
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      out << path << ": missing\n";
      ++differ;
      continue;
    }
    std::stringstream stored;
    stored << in.rdbuf();
    if (stored.str() == f.text) continue;
    ++differ;
    std::istringstream a(stored.str()), b(f.text);
    std::string la, lb;
    for (size_t line = 1;; ++line) {
      bool ga = static_cast<bool>(std::getline(a, la)), gb = static_cast<bool>(std::getline(b, lb));
      if (ga && gb && la == lb) continue;
      out << path << ": line " << line
          << " differs\n  stored:      " << (ga ? la.substr(0, 300) : "(end of file)")
          << "\n  regenerated: " << (gb ? lb.substr(0, 300) : "(end of file)") << "\n";
      break;
    }
  }
  return differ;
}

}  // namespace f2lay::tools
