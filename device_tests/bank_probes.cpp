#include "device_tests/bank_probes.h"

#include <bit>
#include <cstdio>
#include <sstream>

#include "analysis/optimal_swizzle.h"
#include "formats/error.h"
#include "formats/json_format.h"
#include "properties/generators.h"
#include "reference/analysis/bank_conflicts.h"
#include "reference/analysis/tests/seed_transpose.h"
#include "reference/catalog/shared.h"
#include "reference/linear_layout.h"
#include "tools/analysis/catalog_pairs.h"
#include "tools/cases.h"
#include "tools/op_table.h"

namespace f2lay::device {

namespace {

using analysis::AccessKind;

// ld/st.shared at the widest vector the layouts allow.
analysis::AccessSpec widestVectors(analysis::AccessKind kind, uint64_t elementBytes) {
  return {kind, elementBytes, std::nullopt, analysis::Instruction::kVector, {}};
}

// Every bank_conflicts case of tools/cases that expects an answer, its
// access read as the oracle reads it.
void addGoldenCases(std::vector<Probe>& out) {
  for (const tools::CaseFile& file : tools::builtinCaseFiles()) {
    std::istringstream lines(file.text);
    for (std::string line; std::getline(lines, line);) {
      if (line.find("\"bank_conflicts\"") == std::string::npos) continue;
      Json c = parseJson(line);
      const Json& r = c["request"];
      if (r.value("op", "") != "bank_conflicts" || !c["expect"].value("ok", false)) continue;
      analysis::AccessSpec access = tools::bankAccessSpec(tools::Args(r));
      out.push_back({"golden: " + c["name"].get<std::string>(), access.kind, access.elementBytes,
                     sharedSide(ref::LinearLayout(layoutFromJson(r["layout"])),
                                ref::LinearLayout(layoutFromJson(r["shared"], "shared")), access),
                     c["expect"]["result"]["wavefronts"].get<uint64_t>()});
    }
  }
}

void addSides(std::vector<Probe>& probes, const std::string& name, const ref::LinearLayout& a,
              const ref::LinearLayout& b, const ref::LinearLayout& shared, uint64_t elementBytes) {
  try {
    probes.push_back(
        {name + ", store per A", AccessKind::kStore, elementBytes,
         sharedSide(a, shared, widestVectors(analysis::AccessKind::kStore, elementBytes)),
         std::nullopt});
    probes.push_back(
        {name + ", load per B", AccessKind::kLoad, elementBytes,
         sharedSide(b, shared, widestVectors(analysis::AccessKind::kLoad, elementBytes)),
         std::nullopt});
  } catch (const Error& e) {
    std::fprintf(stderr, "bank_probe: %s: %s (left out)\n", name.c_str(), e.what());
  }
}

}  // namespace

std::vector<Probe> bankProbes(int randomPairs) {
  std::vector<Probe> out;
  addGoldenCases(out);
  const char* maps[] = {"32m + n", "32m + (n xor m)", "32m + (n xor 2m)"};
  for (uint64_t f = 0; f < 3; ++f)
    addSides(out, std::string("seed transpose, offset = ") + maps[f],
             ref::analysis::seed::storeRowWise(), ref::analysis::seed::readColumnPairs(),
             ref::analysis::seed::rowMajorXor(f), 4);

  Batch batch;
  addRandomPairs(batch, randomPairs, 9);
  for (size_t i = 0; i < batch.cases.size(); ++i) {
    const ConversionCase& c = batch.cases[i];
    out.push_back({c.name + " (" + c.kind + "), optimal swizzle, store per A", AccessKind::kStore,
                   c.elementBytes, c.store, std::nullopt});
    out.push_back({c.name + " (" + c.kind + "), optimal swizzle, load per B", AccessKind::kLoad,
                   c.elementBytes, c.load, std::nullopt});
    std::vector<int> tensorBits;
    for (const OutDim& o : c.a.out_dims) tensorBits.push_back(std::countr_zero(o.size));
    LayoutValue memory = properties::genMemory(tensorBits)(rc::Random(1000 + i), 50).value();
    addSides(out, c.name + ", random memory layout", ref::LinearLayout(c.a), ref::LinearLayout(c.b),
             ref::LinearLayout(memory), c.elementBytes);
  }

  for (const CatalogConversion& c : catalogConversions(true)) {
    std::string name = c.pair + ", " + c.memory;
    out.push_back(
        {name + ", store per A", AccessKind::kStore, c.elementBytes, c.store, std::nullopt});
    out.push_back({name + ", load per B", AccessKind::kLoad, c.elementBytes, c.load, std::nullopt});
  }
  return out;
}

std::vector<CatalogConversion> catalogConversions(bool matrices) {
  using analysis::Instruction;
  std::vector<CatalogConversion> out;
  const ref::catalog::Shape shape = {64, 64};
  for (const tools::CatalogPair& p : tools::catalogPairs()) {
    const uint64_t eb = p.elementBytes;
    const Instruction write = matrices ? p.write : Instruction::kVector;
    const Instruction read = matrices ? p.read : Instruction::kVector;
    analysis::OptimalSwizzle optimal = analysis::optimalSwizzle(p.a, p.b, eb, {write, read});
    uint64_t vec = 16 / eb, rowBytes = 64 * eb;
    uint64_t perPhase = rowBytes >= 128 ? 1 : 128 / rowBytes;
    std::vector<std::pair<std::string, ref::LinearLayout>> memories = {
        {"optimal swizzle", optimal.shared},
        {"classic XOR swizzle",
         ref::catalog::swizzledShared({vec, perPhase, 8 / perPhase, {1, 0}, {}}, shape)},
        {"unswizzled", ref::catalog::unswizzledShared({1, 0}, shape)}};
    for (const auto& choice : memories) {
      // (Named, not a structured binding: clang 14 cannot capture one in the lambda.)
      const std::string& memory = choice.first;
      const ref::LinearLayout& shared = choice.second;
      // A side: the asked instruction, or vectors where it cannot be lowered;
      // vectors on the optimal swizzle at its width.
      auto side = [&](const ref::LinearLayout& l, analysis::AccessKind kind,
                      Instruction instruction) {
        analysis::AccessSpec access{kind, eb, std::nullopt, instruction, {}};
        if (memory == "optimal swizzle" && instruction == Instruction::kVector)
          access.vectorBytes = optimal.vectorBytes;
        try {
          return sharedSide(l, shared, access);
        } catch (const Error&) {
          if (instruction == Instruction::kVector) throw;
          return sharedSide(l, shared, widestVectors(kind, eb));
        }
      };
      try {
        out.push_back({p.name, memory, eb, side(p.a, analysis::AccessKind::kStore, write),
                       side(p.b, analysis::AccessKind::kLoad, read)});
      } catch (const Error& e) {
        std::fprintf(stderr, "%s, %s: %s (left out)\n", p.name.c_str(), memory.c_str(), e.what());
      }
    }
  }
  return out;
}

}  // namespace f2lay::device
