#include "bank_probes.h"

#include <bit>
#include <cstdio>

#include "analysis/catalog_pairs.h"
#include "error.h"
#include "generators.h"
#include "linear_layout.h"
#include "optimized/analysis/optimal_swizzle.h"
#include "analysis/bank_conflicts.h"
#include "seed_transpose.h"
#include "shared.h"

namespace f2lay::device {

namespace {

using opt::analysis::AccessKind;

void addSides(std::vector<Probe>& probes, const std::string& name, const ref::LinearLayout& a,
              const ref::LinearLayout& b, const ref::LinearLayout& shared, uint64_t elementBytes,
              std::optional<uint64_t> vectorBytes = std::nullopt) {
  try {
    probes.push_back({name + ", store per A", AccessKind::kStore, elementBytes,
                      sharedSide(a, shared, AccessKind::kStore, elementBytes, vectorBytes)});
    probes.push_back({name + ", load per B", AccessKind::kLoad, elementBytes,
                      sharedSide(b, shared, AccessKind::kLoad, elementBytes, vectorBytes)});
  } catch (const Error& e) {
    std::fprintf(stderr, "bank_probe: %s: %s (left out)\n", name.c_str(), e.what());
  }
}

}  // namespace

std::vector<Probe> bankProbes(int randomPairs) {
  std::vector<Probe> out;
  const char* maps[] = {"32m + n", "32m + (n xor m)", "32m + (n xor 2m)"};
  for (uint64_t f = 0; f < 3; ++f)
    addSides(out, std::string("seed transpose, offset = ") + maps[f], ref::analysis::seed::storeRowWise(),
             ref::analysis::seed::readColumnPairs(), ref::analysis::seed::rowMajorXor(f), 4);

  Batch batch;
  addRandomPairs(batch, randomPairs, 9);
  for (size_t i = 0; i < batch.cases.size(); ++i) {
    const ConversionCase& c = batch.cases[i];
    out.push_back({c.name + " (" + c.kind + "), optimal swizzle, store per A", AccessKind::kStore,
                   c.elementBytes, c.store});
    out.push_back({c.name + " (" + c.kind + "), optimal swizzle, load per B", AccessKind::kLoad,
                   c.elementBytes, c.load});
    std::vector<int> tensorBits;
    for (const OutDim& o : c.a.out_dims) tensorBits.push_back(std::countr_zero(o.size));
    LayoutValue memory = properties::genMemory(tensorBits)(rc::Random(1000 + i), 50).value();
    addSides(out, c.name + ", random memory layout", ref::LinearLayout(c.a), ref::LinearLayout(c.b),
             ref::LinearLayout(memory), c.elementBytes);
  }

  for (const CatalogConversion& c : catalogConversions()) {
    std::string name = c.pair + ", " + c.memory;
    out.push_back({name + ", store per A", AccessKind::kStore, c.elementBytes, c.store});
    out.push_back({name + ", load per B", AccessKind::kLoad, c.elementBytes, c.load});
  }
  return out;
}

std::vector<CatalogConversion> catalogConversions() {
  std::vector<CatalogConversion> out;
  const ref::catalog::Shape shape = {64, 64};
  for (const tools::CatalogPair& p : tools::catalogPairs()) {
    const uint64_t eb = p.elementBytes;
    opt::analysis::OptimalSwizzle optimal = opt::analysis::optimalSwizzle(
        opt::LinearLayout(p.a.value()), opt::LinearLayout(p.b.value()), eb);
    uint64_t vec = 16 / eb, rowBytes = 64 * eb;
    uint64_t perPhase = rowBytes >= 128 ? 1 : 128 / rowBytes;
    std::vector<std::pair<std::string, ref::LinearLayout>> memories = {
        {"optimal swizzle", ref::LinearLayout(optimal.shared.value())},
        {"classic XOR swizzle",
         ref::catalog::swizzledShared({vec, perPhase, 8 / perPhase, {1, 0}, {}}, shape)},
        {"unswizzled", ref::catalog::unswizzledShared({1, 0}, shape)}};
    for (const auto& [memory, shared] : memories) {
      std::optional<uint64_t> width;
      if (memory == "optimal swizzle") width = optimal.vectorBytes;
      try {
        out.push_back({p.name, memory, eb, sharedSide(p.a, shared, AccessKind::kStore, eb, width),
                       sharedSide(p.b, shared, AccessKind::kLoad, eb, width)});
      } catch (const Error& e) {
        std::fprintf(stderr, "%s, %s: %s (left out)\n", p.name.c_str(), memory.c_str(), e.what());
      }
    }
  }
  return out;
}

}  // namespace f2lay::device
