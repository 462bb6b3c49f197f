// The oracle op bank_conflicts (paper §5.4, Lemma 9.4): the wavefronts a
// distributed layout's shared-memory accesses take, by the simulator of the
// H100's wavefront rule (device_tests/HARDWARE.md), with the lemma's closed form
// beside it where the lemma is exact.
#include "oracle/analysis_ops/bank_models.h"
#include "oracle/op_table.h"
#include "reference/analysis/bank_conflicts.h"

namespace f2lay::oracle {

namespace {

using analysis::AccessKind;
using analysis::Instruction;

// Written once for both implementations (bank_models.h): the simulated counts
// (f2lay::opt: by rank where Lemma 9.4 is exact, by enumeration elsewhere)
// and the lemma's.
template <class L>
Json bankConflictsJson(const Args& a) {
  using A = BankModels<L>;
  L dist = a.layoutAs<L>("layout");
  auto [shared, padding] = a.paddedLayoutAs<L>("shared");
  analysis::AccessSpec access = bankAccessSpec(a);
  access.padding = padding;
  auto sim = A::bankConflicts(dist, shared, access);
  auto lemma = A::lemma94(dist, shared, access);
  Json out = wavefrontReportJson(sim);
  out["vector_bytes"] = sim.vectorBytes;
  out["lemma_9_4"] = lemma ? wavefrontReportJson(*lemma) : Json(nullptr);
  return out;
}

}  // namespace

analysis::AccessSpec bankAccessSpec(const Args& a) {
  analysis::AccessSpec s;
  s.elementBytes = a.number("element_bytes");
  std::string access = a.name("access");
  const struct {
    const char* name;
    AccessKind kind;
    Instruction instruction;
  } kinds[] = {{"load", AccessKind::kLoad, Instruction::kVector},
               {"store", AccessKind::kStore, Instruction::kVector},
               {"ldmatrix", AccessKind::kLoad, Instruction::kMatrix},
               {"stmatrix", AccessKind::kStore, Instruction::kMatrix},
               {"ldmatrix_trans", AccessKind::kLoad, Instruction::kMatrixTrans},
               {"stmatrix_trans", AccessKind::kStore, Instruction::kMatrixTrans}};
  bool found = false;
  for (const auto& k : kinds)
    if (access == k.name) {
      s.kind = k.kind;
      s.instruction = k.instruction;
      found = true;
    }
  if (!found)
    throw Error("access: \"" + access +
                "\" must be load, store, ldmatrix, stmatrix, "
                "ldmatrix_trans or stmatrix_trans");
  if (a.has("vector_bytes")) s.vectorBytes = a.number("vector_bytes");
  return s;
}

std::vector<Op> bankOps() {
  return {
      {{"bank_conflicts",
        {{"layout", "the distributed layout: register, lane (32), warp (a block of size 1)"},
         {"shared",
          "the memory layout: offset -> the same tensor, invertible; padded_shared's answer "
          "(with \"padding\") is costed at its padded byte addresses"},
         {"element_bytes", "bytes per element: 1, 2, 4, 8 or 16 (2 for ldmatrix/stmatrix)"},
         {"access", "load, store, ldmatrix, stmatrix, ldmatrix_trans or stmatrix_trans"},
         {"vector_bytes",
          "bytes per lane per ld/st.shared (default: the widest the layouts allow, <= 16)", false}},
        "{instructions, wavefronts, ideal_wavefronts, conflicts, vector_bytes, lemma_9_4}",
        "shared-memory wavefronts of every warp instruction, summed (one CTA, as ncu's .sum "
        "counters): simulated by the H100 wavefront rule; lemma_9_4 is the closed form's "
        "four numbers, or null where it is not exact (vectors under 4 bytes, ldmatrix, "
        "8/16-byte loads whose quads repeat an address, padded memory)"},
       bankConflictsJson<Layout>,
       bankConflictsJson<opt::LinearLayout>},
  };
}

}  // namespace f2lay::oracle
