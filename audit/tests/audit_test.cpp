// auditTtgir on small kernels written as Triton prints them: the compiler
// effects it models past Triton's own rules (ptxas's early exit, dead result
// loads), and kernels whose ops it cannot model, which it reports without
// failing.
#include "audit/audit.h"

#include <gtest/gtest.h>

#include <string>

namespace f2lay::audit {
namespace {

// 128 fp16 values held 4 a thread by every warp alike (all 8 warps copies),
// converted to one a thread over 4 warps (warps 4 to 7 copies) and stored.
std::string convertThenStore(const std::string& after) {
  return R"(#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
#linear = #ttg.linear<{register = [[1], [2]], lane = [[4], [8], [16], [32], [64]], warp = [[0], [0], [0]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%p: !tt.ptr<f16>) attributes {noinline = false} {
    %0 = tt.splat %p : !tt.ptr<f16> -> tensor<128x!tt.ptr<f16>, #blocked>
    %1 = tt.load %0 : tensor<128x!tt.ptr<f16>, #blocked>
    %2 = ttg.convert_layout %1 : tensor<128xf16, #blocked> -> tensor<128xf16, #linear>
    %3 = ttg.convert_layout %2 : tensor<128xf16, #linear> -> tensor<128xf16, #blocked>
    tt.store %0, %3 : tensor<128x!tt.ptr<f16>, #blocked>
)" + after +
         R"(    tt.return
  }
}
)";
}

const Json& rowAt(const Json& report, int ttgirLine) {
  for (const Json& row : report["ops"])
    if (row["ttgir_line"] == ttgirLine) return row;
  throw std::runtime_error("no op at line " + std::to_string(ttgirLine));
}

TEST(Audit, TheLastStoresLoadRunsInTheWarpsThatStore) {
  Json report = auditTtgir(convertThenStore(""));
  const Json& load = rowAt(report, 8)["triton"]["load"];
  EXPECT_EQ(load["instruction"], "ld.shared");
  EXPECT_EQ(load["vector_bytes"], 2);
  EXPECT_EQ(load["instructions"], 4);  // 8 warps, 4 of them copies
  EXPECT_EQ(load["early_exit"]["instructions"], 4);
  // A store after it: the convert no longer feeds the kernel's last act.
  Json later =
      auditTtgir(convertThenStore("    tt.store %0, %1 : tensor<128x!tt.ptr<f16>, #blocked>\n"));
  EXPECT_EQ(rowAt(later, 8)["triton"]["load"]["instructions"], 8);
  EXPECT_FALSE(rowAt(later, 8)["triton"]["load"].contains("early_exit"));
}

TEST(Audit, AnUnliftedLayoutBeforeTheLastStoreIsReportedNotFatal) {
  std::string text = convertThenStore("");
  text.replace(text.find("#ttg.linear<"), 12, "#ttg.generic_linear<");
  Json report = auditTtgir(text);
  const Json& row = rowAt(report, 8);
  EXPECT_EQ(row["kind"], "unknown");
  EXPECT_EQ(row["triton"]["modelled"], false);
  EXPECT_FALSE(row["triton"].contains("path"));
  EXPECT_TRUE(report["cta"]["wavefronts"].is_null());
  EXPECT_NE(auditTable(report).find("not modelled"), std::string::npos);
}

TEST(Audit, TheTableFlagsWhereTritonsBankModelDisagreesWithTheHardware) {
  Json report = auditTtgir(convertThenStore(""));
  Json local = {{"op", "ttg.local_load"},
                {"ttgir_line", 3},
                {"source", nullptr},
                {"shape", {128}},
                {"element", "f16"},
                {"kind", "shared_memory"},
                {"executions", 1},
                {"triton",
                 {{"path", "shared_memory"},
                  {"load",
                   {{"instruction", "ld.shared"},
                    {"vector_bytes", 8},
                    {"instructions", 8},
                    {"wavefronts", 16}}},
                  {"wavefronts", 16}}},
                {"tritons_model", {{"bank_conflicts", 1}, {"hardware", 0.0}, {"agrees", false}}}};
  report["ops"].push_back(local);
  std::string table = auditTable(report);
  EXPECT_NE(table.find("Triton's bank_conflicts says 1, the hardware rule 0.00"), std::string::npos)
      << table;
  report["ops"].back()["tritons_model"]["agrees"] = true;
  EXPECT_EQ(auditTable(report).find("Triton's bank_conflicts says"), std::string::npos);
}

}  // namespace
}  // namespace f2lay::audit
