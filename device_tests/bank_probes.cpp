#include "device_tests/bank_probes.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <functional>
#include <random>
#include <sstream>

#include "analysis/optimal_swizzle.h"
#include "analysis/swizzle_optimum.h"
#include "formats/error.h"
#include "formats/json_format.h"
#include "oracle/analysis_ops/catalog_pairs.h"
#include "oracle/cases.h"
#include "oracle/op_table.h"
#include "properties/generators.h"
#include "reference/analysis/bank_conflicts.h"
#include "reference/analysis/tests/seed_transpose.h"
#include "reference/catalog/padded_shared.h"
#include "reference/catalog/shared.h"
#include "reference/linear_layout.h"
#include "testkit/random_tensor_layouts.h"

namespace f2lay::device {

namespace {

using analysis::AccessKind;

// ld/st.shared at the widest vector the layouts allow.
analysis::AccessSpec widestVectors(analysis::AccessKind kind, uint64_t elementBytes) {
  return {kind, elementBytes, std::nullopt, analysis::Instruction::kVector, {}};
}

// Every bank_conflicts case of oracle/cases that expects an answer, its
// access read as the oracle reads it.
void addGoldenCases(std::vector<Probe>& out) {
  for (const oracle::CaseFile& file : oracle::builtinCaseFiles()) {
    std::istringstream lines(file.text);
    for (std::string line; std::getline(lines, line);) {
      if (line.find("\"bank_conflicts\"") == std::string::npos) continue;
      Json c = parseJson(line);
      const Json& r = c["request"];
      if (r.value("op", "") != "bank_conflicts" || !c["expect"].value("ok", false)) continue;
      oracle::Args args(r);
      analysis::AccessSpec access = oracle::bankAccessSpec(args);
      // A padded memory layout (padded_shared's answer) brings its pairs.
      auto [shared, padding] = args.paddedLayoutAs<ref::LinearLayout>("shared");
      access.padding = padding;
      out.push_back(
          {"golden: " + c["name"].get<std::string>(), access.kind, access.elementBytes,
           sharedSide(ref::LinearLayout(layoutFromJson(r["layout"])), shared, access),
           // A case may state only some keys (oracle/cases.h).
           c["expect"]
               .value("result", c["expect"].value("result_includes", Json()))["wavefronts"]
               .get<uint64_t>()});
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

// Random padded cases (Gluon 3.9's PaddedSharedLayout): a
// padded_shared layout on a 2-D or 3-D box (the offset bases 1, 2, 4, ... of
// each dim in random order; 1 or 2 (interval, padding) pairs), accessed by a
// random distributed layout (the tensor's bits dealt to 5 lanes, 0 to 2
// warps and the registers, now and then a zero register or lane basis: a
// broadcast, a repeated address), as stores and as loads of 1 to 16-byte
// elements at the widest vector the padding allows, or a narrower one.
// f2lay predicts at the padded byte addresses; the probe issues exactly
// those addresses.
void addPaddedCases(std::vector<Probe>& out, int count) {
  std::mt19937_64 rng(2022);
  auto below = [&](uint64_t n) { return n ? rng() % n : 0; };
  for (int i = 0; i < count; ++i) {
    uint64_t eb = uint64_t{1} << below(5);
    // At most 8 KiB of elements before padding (the probe's 64 KiB holds
    // the padded tile even where padding triples it).
    int bits = 7 + static_cast<int>(below(static_cast<uint64_t>(7 - std::countr_zero(eb))));
    size_t rank = 2 + below(2);
    std::vector<int> dimBits(rank, 0);
    for (int b = 0; b < bits; ++b) ++dimBits[below(rank)];
    ref::catalog::PaddedSharedParams p;
    for (size_t d = 0; d < rank; ++d) {
      p.shape.push_back(uint64_t{1} << dimBits[d]);
      for (int k = 0; k < dimBits[d]; ++k) {
        Basis basis(rank, 0);
        basis[d] = uint64_t{1} << k;
        p.offsetBases.push_back(basis);
      }
    }
    std::shuffle(p.offsetBases.begin(), p.offsetBases.end(), rng);
    uint64_t first = uint64_t{1} << below(9);
    // Padding at most twice the interval: the tile at most triples.
    uint64_t most = static_cast<uint64_t>(std::min(6, std::countr_zero(first) + 2));
    p.intervalPaddingPairs.push_back({first, uint64_t{1} << below(most)});
    if (below(3) == 0 && first != 256)
      p.intervalPaddingPairs.push_back({256, uint64_t{1} << below(3)});
    ref::catalog::PaddedShared padded = ref::catalog::paddedShared(p);
    // The distributed layout, on the tensor's unit bases.
    std::vector<Basis> units = p.offsetBases;
    std::shuffle(units.begin(), units.end(), rng);
    LayoutValue v{{{"register", {}}, {"lane", {}}, {"warp", {}}}, {}};
    for (size_t d = 0; d < rank; ++d) v.out_dims.push_back({"dim" + std::to_string(d), p.shape[d]});
    size_t warps = below(3), next = 0;
    for (int l = 0; l < 5; ++l)
      v.in_dims[1].bases.push_back(below(12) == 0 ? Basis(rank, 0) : units[next++]);
    for (size_t w = 0; w < warps && next < units.size(); ++w)
      v.in_dims[2].bases.push_back(units[next++]);
    while (next < units.size()) v.in_dims[0].bases.push_back(units[next++]);
    if (below(8) == 0) v.in_dims[0].bases.push_back(Basis(rank, 0));
    ref::LinearLayout dist(v);
    std::string shape, pairs;
    for (uint64_t s : p.shape) shape += (shape.empty() ? "" : "x") + std::to_string(s);
    for (const auto& q : padded.padding)
      pairs += (pairs.empty() ? "" : " ") + std::to_string(q.interval) + ":+" +
               std::to_string(q.padding);
    std::string name = "random padded " + std::to_string(i) + "; [" + pairs + "] " + shape +
                       " w=" + std::to_string(eb);
    for (analysis::AccessKind kind : {AccessKind::kStore, AccessKind::kLoad}) {
      analysis::AccessSpec access = widestVectors(kind, eb);
      access.padding = padded.padding;
      if (below(4) == 0) access.vectorBytes = eb;  // now and then unvectorized
      const char* side = kind == AccessKind::kStore ? "; store" : "; load";
      try {
        out.push_back(
            {name + side, kind, eb, sharedSide(dist, padded.linear, access), std::nullopt});
      } catch (const Error& e) {
        std::fprintf(stderr, "bank_probe: %s%s: %s (left out)\n", name.c_str(), side, e.what());
      }
    }
  }
}

}  // namespace

std::vector<Probe> bankProbes(int randomPairs, int paddedCases) {
  std::vector<Probe> out;
  addGoldenCases(out);
  addPaddedCases(out, paddedCases);
  const char* maps[] = {"32m + n", "32m + (n xor m)", "32m + (n xor 2m)"};
  for (uint64_t f = 0; f < 3; ++f)
    addSides(out, std::string("seed transpose, offset = ") + maps[f],
             ref::analysis::seed::storeRowWise(), ref::analysis::seed::readColumnPairs(),
             ref::analysis::seed::rowMajorXor(f), 4);

  Batch batch;
  addRandomPairs(batch, randomPairs, 9);
  for (size_t i = 0; i < batch.cases.size(); ++i) {
    const ConversionCase& c = batch.cases[i];
    out.push_back({c.name + " (" + c.kind + "), optimum, store per A", AccessKind::kStore,
                   c.elementBytes, c.store, std::nullopt});
    out.push_back({c.name + " (" + c.kind + "), optimum, load per B", AccessKind::kLoad,
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
  for (const oracle::CatalogPair& p : oracle::catalogPairs()) {
    const uint64_t eb = p.elementBytes;
    const Instruction write = matrices ? p.write : Instruction::kVector;
    const Instruction read = matrices ? p.read : Instruction::kVector;
    uint64_t vec = 16 / eb, rowBytes = 64 * eb;
    uint64_t perPhase = rowBytes >= 128 ? 1 : 128 / rowBytes;
    ref::LinearLayout classicXor =
        ref::catalog::swizzledShared({vec, perPhase, 8 / perPhase, {1, 0}, {}}, shape);
    ref::LinearLayout unswizzled = ref::catalog::unswizzledShared({1, 0}, shape);
    for (SwizzleChoice& c : swizzleChoices(p.a, p.b, eb, write, read, &classicXor, &unswizzled)) {
      if (c.error.empty())
        out.push_back({p.name, c.memory, eb, std::move(c.store), std::move(c.load)});
      else
        std::fprintf(stderr, "%s, %s: %s (left out)\n", p.name.c_str(), c.memory.c_str(),
                     c.error.c_str());
    }
  }
  return out;
}

std::vector<SwizzleChoice> swizzleChoices(const ref::LinearLayout& a, const ref::LinearLayout& b,
                                          uint64_t eb, analysis::Instruction write,
                                          analysis::Instruction read,
                                          const ref::LinearLayout* classicXor,
                                          const ref::LinearLayout* unswizzled) {
  using analysis::Instruction;
  std::vector<SwizzleChoice> out;
  // A side: the asked instruction at `bytes` (the widest where nullopt), or
  // the widest vectors where the memory layout cannot take the instruction.
  auto side = [&](const ref::LinearLayout& l, const ref::LinearLayout& shared,
                  analysis::AccessKind kind, Instruction instruction,
                  std::optional<uint64_t> bytes) {
    analysis::AccessSpec access{kind, eb, std::nullopt, instruction, {}};
    if (instruction == Instruction::kVector) access.vectorBytes = bytes;
    try {
      return sharedSide(l, shared, access);
    } catch (const Error&) {
      if (instruction == Instruction::kVector) throw;
      return sharedSide(l, shared, widestVectors(kind, eb));
    }
  };
  auto add = [&](const std::string& memory, const std::function<void(SwizzleChoice&)>& make) {
    SwizzleChoice c{memory, {}, {}, ""};
    try {
      make(c);
    } catch (const Error& e) {
      c.error = e.what();
    }
    out.push_back(std::move(c));
  };
  add("optimum", [&](SwizzleChoice& c) {
    analysis::SwizzleOptimum o = analysis::swizzleOptimum(a, b, eb, {write, read});
    // Every warp of A stores here, those that hold copies too: the kernels
    // run one table for each warp of a CTA (the optimum counts only
    // storingWarps(a), swizzle_optimum.h; the random pairs have no copies).
    c.store = side(a, o.shared, AccessKind::kStore, write, o.store.vectorBytes);
    c.load = side(b, o.shared, AccessKind::kLoad, read, o.load.vectorBytes);
  });
  add("paper construction", [&](SwizzleChoice& c) {
    analysis::OptimalSwizzle paper = analysis::optimalSwizzle(a, b, eb, {write, read});
    c.store = side(a, paper.shared, AccessKind::kStore, write, paper.vectorBytes);
    c.load = side(b, paper.shared, AccessKind::kLoad, read, paper.vectorBytes);
  });
  // (Named, not a structured binding: clang 14 cannot capture one in the lambda.)
  for (const auto& choice :
       {std::pair{"classic XOR swizzle", classicXor}, std::pair{"unswizzled", unswizzled}}) {
    const ref::LinearLayout* shared = choice.second;
    if (shared)
      add(choice.first, [&](SwizzleChoice& c) {
        c.store = side(a, *shared, AccessKind::kStore, write, std::nullopt);
        c.load = side(b, *shared, AccessKind::kLoad, read, std::nullopt);
      });
  }
  return out;
}

std::vector<WidthPair> randomWidthPairs(uint64_t elementBytes, int count, uint64_t seed) {
  std::mt19937_64 rng(seed * 31 + elementBytes);
  std::vector<WidthPair> out;
  for (int i = 0; i < count; ++i) {
    // 6 to 10 tensor bits, 1 to 4 warps: at most 32 elements a lane, so that
    // every side fits the speed kernel's unrolled instructions.
    int bits = 6 + static_cast<int>(rng() % 5);
    int warpBits = static_cast<int>(rng() % 3);
    if (bits < 5 + warpBits) warpBits = bits - 5;
    testkit::TensorShape t{static_cast<int>(rng() % (bits + 1)), 0};
    t.colBits = bits - t.rowBits;
    int zeroA = rng() % 4 == 0 ? 1 : 0, zeroB = rng() % 4 == 0 ? 1 : 0;
    LayoutValue a =
        testkit::randomDistributed(rng, t, warpBits, zeroA, static_cast<int>(rng() % 2));
    LayoutValue b =
        testkit::randomDistributed(rng, t, warpBits, zeroB, static_cast<int>(rng() % 2));
    out.push_back(
        {"w" + std::to_string(elementBytes) + " pair " + std::to_string(i), a, b, elementBytes, t});
  }
  return out;
}

std::vector<CatalogConversion> randomWidthConversions(uint64_t w, int count, uint64_t seed) {
  std::vector<CatalogConversion> out;
  for (const WidthPair& p : randomWidthPairs(w, count, seed)) {
    const ref::catalog::Shape shape = {uint64_t{1} << p.shape.rowBits,
                                       uint64_t{1} << p.shape.colBits};
    uint64_t rowBytes = shape[1] * w;
    uint64_t perPhase = rowBytes >= 128 ? 1 : 128 / rowBytes;
    std::optional<ref::LinearLayout> classicXor;
    try {
      if (rowBytes >= 16 && perPhase <= 8)
        classicXor =
            ref::catalog::swizzledShared({16 / w, perPhase, 8 / perPhase, {1, 0}, {}}, shape);
    } catch (const Error&) {
    }
    for (SwizzleChoice& c : swizzleChoices(
             ref::LinearLayout(p.a), ref::LinearLayout(p.b), w, analysis::Instruction::kVector,
             analysis::Instruction::kVector, classicXor ? &*classicXor : nullptr, nullptr))
      if (c.error.empty())
        out.push_back({p.name, c.memory, w, std::move(c.store), std::move(c.load)});
  }
  return out;
}

std::vector<Probe> pairProbes(const std::vector<WidthPair>& pairs) {
  std::vector<Probe> out;
  for (const WidthPair& p : pairs) {
    const uint64_t w = p.elementBytes;
    std::vector<SwizzleChoice> choices = swizzleChoices(
        ref::LinearLayout(p.a), ref::LinearLayout(p.b), w, analysis::Instruction::kVector,
        analysis::Instruction::kVector, nullptr, nullptr);
    for (const SwizzleChoice& c : choices) {
      if (!c.error.empty()) {
        std::fprintf(stderr, "%s, %s: %s (left out)\n", p.name.c_str(), c.memory.c_str(),
                     c.error.c_str());
        continue;
      }
      out.push_back({p.name + ", " + c.memory + ", store per A", AccessKind::kStore, w, c.store,
                     std::nullopt});
      out.push_back(
          {p.name + ", " + c.memory + ", load per B", AccessKind::kLoad, w, c.load, std::nullopt});
    }
  }
  return out;
}

std::vector<Probe> optimumProbes(int pairsPerWidth, uint64_t onlyWidth) {
  std::vector<WidthPair> pairs;
  for (uint64_t w : {1, 2, 4, 8, 16})
    for (WidthPair& p : randomWidthPairs(w, onlyWidth && onlyWidth != w ? 0 : pairsPerWidth, 32))
      pairs.push_back(std::move(p));
  return pairProbes(pairs);
}

std::vector<WidthPair> readPairs(const std::string& jsonLines) {
  std::vector<WidthPair> out;
  std::istringstream lines(jsonLines);
  size_t lineNo = 0;
  for (std::string line; std::getline(lines, line);) {
    ++lineNo;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::string where = "pairs line " + std::to_string(lineNo);
    Json j = parseJson(line);
    if (!j.is_object() || !j.contains("name") || !j["name"].is_string() || !j.contains("a") ||
        !j.contains("b") || !j.contains("element_bytes") ||
        !j["element_bytes"].is_number_unsigned())
      throw Error(where + ": needs \"name\", \"a\", \"b\" and \"element_bytes\"");
    LayoutValue a = layoutFromJson(j["a"], where + ": a"),
                b = layoutFromJson(j["b"], where + ": b");
    out.push_back({j["name"].get<std::string>(), a, b, j["element_bytes"].get<uint64_t>(), {}});
  }
  return out;
}

}  // namespace f2lay::device
