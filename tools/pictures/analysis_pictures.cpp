#include "tools/pictures/analysis_pictures.h"

#include <algorithm>
#include <map>
#include <set>

#include "formats/error.h"
#include "oracle/oracle.h"
#include "tools/pictures/layout_pictures.h"
#include "tools/pictures/palette.h"
#include "tools/show.h"

namespace f2lay::tools::pictures {

namespace {

// The op's answer to `request`, or f2lay::Error with its message.
Json answerOf(const Json& request) {
  Json response = oracle::answer(request);
  if (!response["ok"].get<bool>()) throw Error(response["error"].get<std::string>());
  return response["result"];
}

std::string wavefrontText(const Json& report) {
  return std::to_string(report["wavefronts"].get<uint64_t>()) + " wavefronts (" +
         std::to_string(report["instructions"].get<uint64_t>()) + " instructions, " +
         std::to_string(report["conflicts"].get<uint64_t>()) + " conflicts)";
}

const Json& key(const Json& request, const char* name) {
  if (!request.contains(name))
    throw Error(std::string("show --svg: the request has no \"") + name + "\"");
  return request[name];
}

}  // namespace

double drawBankScope(Svg& svg, double x, double y, const Json& request, uint64_t warp,
                     uint64_t instruction) {
  BankScope scope = bankScope(request, warp);
  if (instruction >= scope.instructions.size())
    throw Error("show --svg: --instruction " + std::to_string(instruction) + ": warp " +
                std::to_string(warp) + " has " + std::to_string(scope.instructions.size()) +
                " instructions (0.." + std::to_string(scope.instructions.size() - 1) + ")");
  const ref::analysis::InstructionAccess& in = scope.instructions[instruction];
  bool vector = scope.instruction == analysis::Instruction::kVector;
  // word (byte address / 4) -> the lanes (rows) touching it.
  std::map<uint64_t, std::vector<uint64_t>> words;
  std::vector<BankHit> hits = bankHits(in);
  for (uint64_t l = 0; l < hits.size(); ++l)
    for (uint64_t w = hits[l].address / 4; w < hits[l].address / 4 + hits[l].words; ++w)
      words[w].push_back(l);
  std::set<uint64_t> rows;
  std::vector<uint64_t> distinct(32, 0);
  for (const auto& [w, lanes] : words) {
    rows.insert(w / 32);
    ++distinct[w % 32];
  }
  std::string registers;
  for (uint64_t r : in.registers) registers += (registers.empty() ? "" : " ") + std::to_string(r);
  svg.text(x, y + 14,
           "Bank scope: " + scope.access + ", warp " + std::to_string(warp) + ", instruction " +
               std::to_string(instruction) + " of " + std::to_string(scope.instructions.size()) +
               ": " + std::to_string(in.cost.wavefronts) + " wavefronts",
           14, "start", {0, 0, 0}, true, {{"id", "bank-scope-title"}});
  svg.text(x, y + 30,
           std::to_string(in.bytes) + " bytes per " + (vector ? "lane" : "matrix row") +
               " (registers " + registers + "); ideal " + std::to_string(in.cost.phases) +
               ", conflicts " + std::to_string(in.cost.wavefronts - in.cost.phases) +
               "; columns: banks, rows: 128-byte rows of shared memory; cell: the " +
               (vector ? "lanes" : "rows") + " touching that word",
           10, "start", {60, 60, 60});
  y += 40;
  const double cw = 30, ch = 18, left = x + 46;
  for (uint64_t b = 0; b < 32; ++b)
    svg.text(left + (static_cast<double>(b) + 0.5) * cw, y + 10, std::to_string(b), 8, "middle",
             {90, 90, 90});
  svg.text(x, y + 10, "bank", 8, "start", {90, 90, 90});
  y += 14;
  for (uint64_t row : rows) {
    svg.text(left - 4, y + ch / 2 + 3, "row " + std::to_string(row), 8, "end", {90, 90, 90});
    for (uint64_t b = 0; b < 32; ++b) {
      uint64_t w = row * 32 + b;
      auto it = words.find(w);
      Attributes attributes = {{"class", "bank-cell"},
                               {"id", "bank-" + std::to_string(b) + "-row-" + std::to_string(row)}};
      if (it == words.end()) {
        svg.rect(left + static_cast<double>(b) * cw, y, cw, ch, kUntouched, attributes);
        continue;
      }
      std::string label;
      for (size_t k = 0; k < it->second.size() && k < 3; ++k)
        label += (k ? "," : "") + std::to_string(it->second[k]);
      if (it->second.size() > 3) label += "+" + std::to_string(it->second.size() - 3);
      attributes.push_back({"data-lanes", std::to_string(it->second.size())});
      svg.rect(left + static_cast<double>(b) * cw, y, cw, ch, bankColor(b), attributes,
               "byte " + std::to_string(w * 4) + ", bank " + std::to_string(b) + ": " +
                   std::string(vector ? "lanes " : "rows ") + label);
      svg.text(left + (static_cast<double>(b) + 0.5) * cw, y + ch / 2 + 3, label,
               label.size() > 6 ? 6 : 7.5, "middle", textColorOn(bankColor(b)));
    }
    y += ch;
  }
  // The bars: distinct words per bank (a bank serves one word a wavefront).
  y += 10;
  svg.text(x, y + 10, "Distinct words touched per bank", 10, "start", {0, 0, 0}, true);
  y += 16;
  uint64_t most = *std::max_element(distinct.begin(), distinct.end());
  const double unit =
      std::clamp(120.0 / static_cast<double>(std::max<uint64_t>(most, 1)), 2.0, 16.0);
  double base = y + unit * static_cast<double>(most);
  for (uint64_t b = 0; b < 32; ++b) {
    double h = unit * static_cast<double>(distinct[b]);
    if (distinct[b])
      svg.rect(left + static_cast<double>(b) * cw + 3, base - h, cw - 6, h, bankColor(b),
               {{"class", "bank-bar"},
                {"id", "bar-" + std::to_string(b)},
                {"data-words", std::to_string(distinct[b])}},
               "bank " + std::to_string(b) + ": " + std::to_string(distinct[b]) + " words");
    svg.text(left + (static_cast<double>(b) + 0.5) * cw, base + 10, std::to_string(distinct[b]), 8,
             "middle", {40, 40, 40});
  }
  return base + 16;
}

// The optimum (swizzle_optimum.h), §5.4's construction and the unswizzled
// layout side by side, each with A's stores and B's loads at the vector
// widths it uses.
double drawOptimalSwizzle(Svg& svg, double x, double y, const Json& request) {
  Json paperRequest = request;
  paperRequest["construction"] = "paper";
  Json optimum = answerOf(request), paper = answerOf(paperRequest);
  if (request.contains("construction") && request["construction"] == "paper") optimum = paper;
  const Json& self = key(request, "self");
  Json unswizzledRequest = {{"op", "unswizzled_shared"}};
  Json shape = Json::array(), order = Json::array();
  for (const Json& d : key(self, "out_dims")) shape.push_back(d["size"]);
  for (size_t k = shape.size(); k-- > 0;) order.push_back(k);
  unswizzledRequest["shape"] = shape;
  unswizzledRequest["order"] = order;
  Json unswizzled = answerOf(unswizzledRequest);
  uint64_t elementBytes = key(request, "element_bytes").get<uint64_t>();
  // A side's report on `shared`: the answer's own where it gives one (the
  // optimum's widths), else the bank model's at the widest vector.
  auto banks = [&](const Json& shared, const char* layoutKey, const char* access) {
    Json r = {{"op", "bank_conflicts"},
              {"layout", request[layoutKey]},
              {"shared", shared},
              {"element_bytes", elementBytes},
              {"access", access}};
    return answerOf(r);
  };
  svg.text(x, y + 16, "optimal_swizzle: A stores, B loads", 16, "start", {0, 0, 0}, true);
  y += 26;
  struct Panel {
    Json shared;
    std::string name, id;
    Json store, load;
  };
  std::vector<Panel> panels{
      {optimum["shared"], "optimum (H100 rule)", "optimum", optimum["store"], optimum["load"]},
      {paper["shared"], "§5.4 construction", "paper", paper["store"], paper["load"]},
      {unswizzled, "unswizzled", "unswizzled", banks(unswizzled, "self", "store"),
       banks(unswizzled, "other", "load")}};
  double bottom = y, left = x;
  for (const Panel& p : panels) {
    auto width = [](const Json& r) {
      return r.contains("vector_bytes")
                 ? ", " + std::to_string(r["vector_bytes"].get<uint64_t>()) + " bytes a lane"
                 : std::string();
    };
    svg.text(left, y + 12, "stores of A: " + wavefrontText(p.store) + width(p.store), 10, "start",
             {0, 0, 0}, false, {{"id", p.id + "-store"}});
    svg.text(left, y + 26, "loads of B: " + wavefrontText(p.load) + width(p.load), 10, "start",
             {0, 0, 0}, false, {{"id", p.id + "-load"}});
    double b = drawMemory(svg, left, y + 32, ref::LinearLayout(layoutFromJson(p.shared, "shared")),
                          {}, elementBytes, p.name, p.id + "-");
    bottom = std::max(bottom, b);
    left = svg.right() + 40;
  }
  return bottom;
}

double drawConversion(Svg& svg, double x, double y, const Json& request) {
  Json classified = answerOf({{"op", "classify_conversion"},
                              {"self", key(request, "self")},
                              {"other", key(request, "other")}});
  svg.text(x, y + 16, "Conversion A -> B: " + classified["kind"].get<std::string>() + " (§5.4)", 16,
           "start", {0, 0, 0}, true, {{"id", "conversion-kind"}});
  svg.text(x, y + 32, classified["reason"].get<std::string>(), 10, "start", {60, 60, 60});
  y += 42;
  double bottom = drawDistributed(
      svg, x, y, ref::LinearLayout(layoutFromJson(request["self"], "self")), "A (self)", "a-");
  double left = svg.right() + 40;
  bottom =
      std::max(bottom, drawDistributed(svg, left, y,
                                       ref::LinearLayout(layoutFromJson(request["other"], "other")),
                                       "B (other)", "b-"));
  return bottom;
}

}  // namespace f2lay::tools::pictures
