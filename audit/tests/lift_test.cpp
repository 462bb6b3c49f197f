// Lifting layout attributes (lift.h) and auditing a kernel (audit.h), on
// attributes and modules as Triton 3.9.0 prints them (audit/corpus/). Each
// lifted layout is compared with Triton's own reading by
// adapters/triton_audit_check.py; here, the requests and the report's shape.
#include "audit/lift.h"

#include <gtest/gtest.h>

#include "audit/audit.h"
#include "formats/error.h"
#include "formats/mlir_text.h"

namespace f2lay::audit {
namespace {

Json attribute(const char* text) {
  TextCursor in(text);
  return readMlirValue(in, [](const std::string& name) -> Json {
    if (name == "mma") {
      TextCursor mma(
          "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], "
          "instrShape = [16, 8]}>");
      return readMlirValue(mma, {});
    }
    throw Error("no alias #" + name);
  });
}

// Equal as JSON values, whatever the order of their keys.
::testing::AssertionResult sameJson(const Json& a, const Json& b) {
  if (nlohmann::json::parse(a.dump()) == nlohmann::json::parse(b.dump()))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << a.dump() << "\n  is not\n" << b.dump();
}

TEST(Lift, RenamesEachFamilysKeys) {
  EXPECT_TRUE(sameJson(
      liftRequest(attribute("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
                            "warpsPerCTA = [4, 1], order = [1, 0]}>"),
                  {32, 64}, TritonVersion::k3_9),
      Json::parse(R"({"op": "blocked", "size_per_thread": [1, 4], "threads_per_warp": [8, 4],
                "warps_per_cta": [4, 1], "order": [1, 0], "triton": "3.9", "shape": [32, 64]})")));
  EXPECT_TRUE(sameJson(
      liftRequest(attribute("#ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>"), {64, 128},
                  TritonVersion::k3_9),
      Json::parse(R"({"op": "dot_operand", "operand_index": 1, "k_width": 2, "shape": [64, 128],
                "parent": {"op": "nvidia_mma", "version": [2, 0], "warps_per_cta": [2, 2],
                           "instr_shape": [16, 8]}})")));
  EXPECT_TRUE(sameJson(
      liftRequest(attribute("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, "
                            "elementBitWidth = 8}>"),
                  {128, 64}, TritonVersion::k3_6),
      Json::parse(R"({"op": "nvmma_shared", "swizzle_byte_width": 128, "transposed": true,
                "element_bitwidth": 8, "triton": "3.6", "shape": [128, 64]})")));
  EXPECT_TRUE(sameJson(
      liftRequest(attribute("#ttg.padded_shared<[32:+4] {order = [1, 0], shape = [64, 32]}>"),
                  {64, 32}, TritonVersion::k3_9),
      Json::parse(R"({"op": "padded_shared_identity", "interval_padding_pairs": [[32, 4]],
                "order": [1, 0], "shape": [64, 32]})")));
  EXPECT_TRUE(
      sameJson(liftRequest(attribute("#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, "
                                     "colStride = 1>"),
                           {128, 64}, TritonVersion::k3_9),
               Json::parse(R"({"op": "tensor_memory", "block": [128, 64], "col_stride": 1,
                "shape": [128, 64]})")));
  // Triton 3.6 printed the legacy CTA tiling; it keeps its legacy keys.
  EXPECT_EQ(liftRequest(attribute("#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], "
                                  "warpsPerCTA = [4], order = [0], CTAsPerCGA = [1], "
                                  "CTASplitNum = [1], CTAOrder = [0]}>"),
                        {128}, TritonVersion::k3_6)["cta_split_num"],
            Json({1}));
}

TEST(Lift, NamesWhatItCannotLift) {
  auto message = [](const char* text, std::vector<int64_t> shape) {
    try {
      liftRequest(attribute(text), shape, TritonVersion::k3_9);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("lifted");
  };
  EXPECT_EQ(
      message("#ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [1, 0]}>",
              {32, 32}),
      "cannot lift #ttg.amd_rotating_shared: f2lay has no catalog family for it");
  EXPECT_EQ(message("#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], "
                    "order = [0], futureKey = 3}>",
                    {128}),
            "cannot lift #ttg.blocked: the key \"futureKey\" is unknown to f2lay");
  EXPECT_EQ(message("#ttg.padded_shared<[32:+4] {order = [1, 0], shape = [64, 32]}>", {32, 32}),
            "cannot lift #ttg.padded_shared: its shape [64,32] is not the type's [32,32]");
}

TEST(Lift, ReadsTheRankOfAMemoryEncoding) {
  EXPECT_EQ(
      memoryEncodingRank(attribute("#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, "
                                   "order = [1, 0]}>")),
      2u);
  EXPECT_EQ(memoryEncodingRank(attribute("#ttg.nvmma_shared<{swizzlingByteWidth = 64, "
                                         "transposed = false, elementBitWidth = 16}>")),
            2u);
  EXPECT_EQ(memoryEncodingRank(attribute("#ttg.nvmma_shared<{swizzlingByteWidth = 64, "
                                         "transposed = false, elementBitWidth = 16, rank = 3}>")),
            3u);
  EXPECT_EQ(memoryEncodingRank(attribute("#ttg.shared_linear<{offset = [[0, 0, 1]], block = []}, "
                                         "alignment = 16>")),
            3u);
  EXPECT_EQ(
      memoryEncodingRank(attribute("#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], "
                                   "warpsPerCTA = [4], order = [0]}>")),
      1u);
}

// Three pipeline buffers of one layout, a convert_layout, and an attribute
// f2lay cannot lift: the report lists one buffer's layout once, with the
// count, names the unknown attribute, and classifies the conversion.
TEST(Audit, ReportsLayoutsOpsAndWhatItCannotRead) {
  Json report = auditTtgir(
      R"(#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#rot = #ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
    %a = ttg.local_alloc : () -> !ttg.memdesc<3x32x32xi8, #shared, #smem, mutable> loc(#loc1)
    %b = ttg.memdesc_index %a[%c0] : !ttg.memdesc<3x32x32xi8, #shared, #smem, mutable> -> !ttg.memdesc<32x32xi8, #shared, #smem, mutable, 3x32x32> loc(#loc1)
    %5 = ttg.convert_layout %0 : tensor<32x32xi8, #blocked1> -> tensor<32x32xi8, #blocked> loc(#loc1)
    %r = ttg.local_alloc %5 : (tensor<32x32xi8, #blocked>) -> !ttg.memdesc<32x32xi8, #rot, #smem> loc(#loc1)
}
#loc1 = loc("k.py":12:3)
)");
  EXPECT_EQ(report["module"]["num_warps"], 1);
  const Json& layouts = report["layouts"];
  ASSERT_EQ(layouts.size(), 4u);  // the buffers, blocked1, blocked, the rotating one
  EXPECT_EQ(layouts[0]["shape"], Json({32, 32}));
  EXPECT_EQ(layouts[0]["buffers"], 3);
  EXPECT_EQ(layouts[0]["request"]["op"], "swizzled_shared");
  EXPECT_TRUE(layouts[0].contains("layout"));
  EXPECT_EQ(layouts[3]["error"],
            "cannot lift #ttg.amd_rotating_shared: f2lay has no catalog family for it");
  // The allocation without a source moves nothing; the view, the
  // conversion and the store from registers do.
  const Json& ops = report["ops"];
  ASSERT_EQ(ops.size(), 3u);
  EXPECT_EQ(ops[0]["op"], "ttg.memdesc_index");
  EXPECT_EQ(ops[0]["kind"], "view");
  EXPECT_EQ(ops[1]["op"], "ttg.convert_layout");
  EXPECT_EQ(ops[1]["source"], Json::parse(R"({"file": "k.py", "line": 12, "column": 3})"));
  EXPECT_EQ(ops[1]["element_bytes"], 1);
  EXPECT_EQ(ops[1]["from"], Json({1}));
  EXPECT_EQ(ops[1]["to"], Json({2}));
  // A transpose within one warp: §5.4 exchanges it by warp shuffles.
  EXPECT_EQ(ops[1]["kind"], "warp_shuffle");
  EXPECT_EQ(ops[2]["kind"], "shared_memory");
  EXPECT_NE(auditTable(report).find("cannot lift #ttg.amd_rotating_shared"), std::string::npos);
}

TEST(Audit, RefusesTextThatIsNotTtgir) { EXPECT_THROW(auditTtgir("def kernel(): pass"), Error); }

}  // namespace
}  // namespace f2lay::audit
