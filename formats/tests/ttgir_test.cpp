// The TTGIR reader (ttgir.h) and the MLIR attribute values under it
// (mlir_text.h), on text as Triton 3.9.0 prints it: the lines are taken from
// kernels it compiled (audit/corpus/), cut to what each test needs.
#include "formats/ttgir.h"

#include <gtest/gtest.h>

#include "formats/error.h"
#include "formats/mlir_text.h"

namespace f2lay {
namespace {

using nlohmann::json;

// A one-warp tl.trans of a 32x32 int8 tile (Triton 3.9.0, sm_90).
constexpr const char* kTranspose =
    R"(#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [0, 1]}>
#loc = loc("kernels/t.py":6:1)
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32, "ttng.two-ctas" = false} {
  tt.func public @trans_kernel(%x: !tt.ptr<i8> loc("x"(#loc)), %y: !tt.ptr<i8> loc("y"(#loc))) attributes {noinline = false} {
    %t = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>> loc(#loc11)
    %0 = tt.trans %t_9 {order = array<i32: 1, 0>} : tensor<32x32xi8, #blocked> -> tensor<32x32xi8, #blocked1> loc(#loc6)
    %5 = ttg.convert_layout %0 : tensor<32x32xi8, #blocked1> -> tensor<32x32xi8, #blocked> loc(#loc8)
    tt.return loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc2 = loc("kernels/t.py":8:21)
#loc6 = loc("kernels/t.py":9:53)
#loc8 = loc("kernels/t.py":9:5)
#loc11 = loc("t"(#loc2))
)";

const TtgirOp& opNamed(const TtgirModule& m, const std::string& name) {
  for (const TtgirOp& op : m.ops)
    if (op.name == name) return op;
  throw std::runtime_error("no op " + name);
}

TEST(Ttgir, ReadsTheModuleAndEachOpsTypesAndSourceLine) {
  TtgirModule m = readTtgir(kTranspose);
  EXPECT_EQ(m.numWarps, 1);
  EXPECT_EQ(m.threadsPerWarp, 32);
  EXPECT_EQ(m.numCtas, 1);
  EXPECT_EQ(m.target, "cuda:90");
  const TtgirOp& cvt = opNamed(m, "ttg.convert_layout");
  EXPECT_EQ(cvt.results, std::vector<std::string>{"%5"});
  EXPECT_EQ(cvt.operands, std::vector<std::string>{"%0"});
  EXPECT_EQ(cvt.textLine, 8);
  ASSERT_EQ(cvt.operandTypes.size(), 1u);
  ASSERT_EQ(cvt.resultTypes.size(), 1u);
  const TtgirType& from = cvt.operandTypes[0];
  EXPECT_EQ(from.text, "tensor<32x32xi8, #blocked1>");
  EXPECT_EQ(from.shape, (std::vector<int64_t>{32, 32}));
  EXPECT_EQ(from.element, "i8");
  EXPECT_FALSE(from.memdesc);
  EXPECT_EQ(from.encodingText, "#blocked1");
  EXPECT_EQ(from.encoding, json::parse(R"({"#": "ttg.blocked", "sizePerThread": [1, 1],
      "threadsPerWarp": [32, 1], "warpsPerCTA": [1, 1], "order": [0, 1]})"));
  ASSERT_TRUE(cvt.location.has_value());
  EXPECT_EQ(cvt.location->file, "kernels/t.py");
  EXPECT_EQ(cvt.location->line, 9);
  EXPECT_EQ(cvt.location->column, 5);
  // A named location ("t" at #loc2) gives the position it wraps.
  const TtgirOp& range = opNamed(m, "tt.make_range");
  EXPECT_EQ(range.location->line, 8);
  EXPECT_EQ(range.location->column, 21);
  // An inline attribute naming an alias.
  EXPECT_EQ(range.resultTypes[0].encoding["#"], "ttg.slice");
  EXPECT_EQ(range.resultTypes[0].encoding["dim"], 1);
  EXPECT_EQ(range.resultTypes[0].encoding["parent"]["threadsPerWarp"], json({1, 32}));
  EXPECT_TRUE(range.operandTypes.empty());  // no "->": the result's type
  // tt.trans's dense array is an attribute of the op, not a type.
  EXPECT_EQ(opNamed(m, "tt.trans").operandTypes.size(), 1u);
}

TEST(Ttgir, ReadsMemoryDescriptorsAndTheirBuffers) {
  TtgirModule m = readTtgir(
      R"(#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
    %k_38 = ttg.memdesc_index %k_31[%c0_i32] : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable, 3x64x64> loc(#loc71)
    %k_40 = ttg.async_copy_global_to_local %k_37, %k_38 mask %acc_39 {contiguity = 8 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable> loc(#loc71)
}
)");
  const TtgirOp& index = opNamed(m, "ttg.memdesc_index");
  const TtgirType& buffers = index.operandTypes[0];
  EXPECT_TRUE(buffers.memdesc);
  EXPECT_EQ(buffers.shape, (std::vector<int64_t>{3, 64, 64}));
  EXPECT_EQ(buffers.memorySpace, "ttg.shared_memory");
  EXPECT_TRUE(buffers.mutableMemory);
  const TtgirType& view = index.resultTypes[0];
  EXPECT_EQ(view.shape, (std::vector<int64_t>{64, 64}));
  EXPECT_EQ(view.alloc, (std::vector<int64_t>{3, 64, 64}));
  EXPECT_EQ(view.encoding["swizzlingByteWidth"], 128);
  EXPECT_FALSE(index.location.has_value());  // #loc71 is not defined here
  // The copy's result is printed without "!ttg.memdesc"; its pointer
  // operand's element is a type with parameters.
  const TtgirOp& copy = opNamed(m, "ttg.async_copy_global_to_local");
  ASSERT_EQ(copy.resultTypes.size(), 1u);
  EXPECT_TRUE(copy.resultTypes[0].memdesc);
  EXPECT_EQ(copy.resultTypes[0].text, "!ttg.memdesc<64x64xf16, #shared, #smem, mutable>");
  EXPECT_EQ(copy.operandTypes[0].element, "!tt.ptr<f16>");
  // #blocked is not defined: the type is kept, the reason named.
  EXPECT_NE(copy.operandTypes[0].encodingError.find("#blocked is not defined"), std::string::npos);
}

TEST(MlirText, ReadsEachKindOfValue) {
  auto read = [](const char* text) {
    TextCursor in(text);
    return readMlirValue(in, [](const std::string& n) -> json {
      if (n == "mma") return {{"#", "ttg.nvidia_mma"}};
      throw Error("the alias #" + n + " is not defined");
    });
  };
  EXPECT_EQ(read("#ttg.padded_shared<[32:+4, 64:+8] {order = [1, 0], shape = [64, 64]}>"),
            json::parse(R"({"#": "ttg.padded_shared", "order": [1, 0], "shape": [64, 64],
                "#args": [[{"interval": 32, "padding": 4}, {"interval": 64, "padding": 8}]]})"));
  EXPECT_EQ(read("#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>"),
            json::parse(R"({"#": "ttng.tensor_memory_encoding", "blockM": 128, "blockN": 64,
                "colStride": 1})"));
  EXPECT_EQ(read("#ttng.tensor_memory"), json::parse(R"({"#": "ttng.tensor_memory"})"));
  EXPECT_EQ(read("#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>"),
            json::parse(R"({"#": "ttg.dot_op", "opIdx": 0, "parent": {"#": "ttg.nvidia_mma"},
                "kWidth": 2})"));
  EXPECT_EQ(read("#ttg.shared_linear<{offset = [[0, 1], [1, 0]], block = []}, alignment = 16>"),
            json::parse(R"({"#": "ttg.shared_linear", "offset": [[0, 1], [1, 0]], "block": [],
                "alignment": 16})"));
  EXPECT_EQ(read("{a = -3 : i32, \"b.c\" = \"x\", unit, d = array<i32: 1, 0>, e = f16}"),
            json::parse(R"({"a": -3, "b.c": "x", "unit": true, "d": [1, 0], "e": "f16"})"));
  EXPECT_THROW(read("#nothere"), Error);
  EXPECT_THROW(read("dense<0>"), Error);
  EXPECT_THROW(read("[1, 2"), Error);
}

// An argmax: a generic op whose types and location follow its region
// (Triton 3.9.0, sm_90; the reduce is called from Triton's standard.py).
constexpr const char* kArgmax =
    R"(#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#loc = loc("kernels/a.py":6:1)
#loc1 = loc("/site-packages/triton/language/standard.py":216:15)
#loc43 = loc("kernels/a.py":20:30)
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @argmax_kernel(%x: !tt.ptr<f32> loc("x"(#loc))) attributes {noinline = false} {
    %4:2 = "tt.reduce"(%x_11, %x_9) <{axis = 1 : i32}> ({
    ^bb0(%arg4: f32 loc(callsite(#loc1 at #loc43)), %arg5: i32 loc(callsite(#loc1 at #loc43)), %arg6: f32 loc(callsite(#loc1 at #loc43)), %arg7: i32 loc(callsite(#loc1 at #loc43))):
      %gt = arith.cmpf ogt, %arg4, %arg6 : f32 loc(#loc1)
      %v_ret = arith.select %gt, %arg4, %arg6 : f32 loc(#loc1)
      %i_ret = arith.select %gt, %arg5, %arg7 : i32 loc(#loc1)
      tt.reduce.return %v_ret, %i_ret : f32, i32 loc(#loc1)
    }) : (tensor<64x256xf32, #blocked>, tensor<64x256xi32, #blocked>) -> (tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>) loc(#loc52)
    tt.return loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc52 = loc(callsite(#loc1 at #loc43))
)";

TEST(Ttgir, ReadsAGenericOpsTypesAfterItsRegionAndTheCallersLine) {
  TtgirModule m = readTtgir(kArgmax);
  const TtgirOp& reduce = opNamed(m, "tt.reduce");
  EXPECT_EQ(reduce.results, std::vector<std::string>{"%4"});
  EXPECT_EQ(reduce.operands, (std::vector<std::string>{"%x_11", "%x_9"}));
  ASSERT_EQ(reduce.operandTypes.size(), 2u);
  ASSERT_EQ(reduce.resultTypes.size(), 2u);
  EXPECT_EQ(reduce.operandTypes[1].element, "i32");
  EXPECT_EQ(reduce.resultTypes[0].shape, std::vector<int64_t>{64});
  EXPECT_EQ(reduce.resultTypes[1].encodingText, "#ttg.slice<{dim = 1, parent = #blocked}>");
  // callsite(callee at caller): the kernel's line, not standard.py's.
  ASSERT_TRUE(reduce.location.has_value());
  EXPECT_EQ(reduce.location->file, "kernels/a.py");
  EXPECT_EQ(reduce.location->line, 20);
  // The region's ops are read too, and the region closes: tt.return is outside.
  EXPECT_EQ(opNamed(m, "arith.select").location->line, 216);
  EXPECT_TRUE(opNamed(m, "tt.return").loops.empty());
}

TEST(Ttgir, RefusesWhatIsNotAModule) {
  EXPECT_THROW(readTtgir("hello"), Error);
  try {
    readTtgir("#a = #ttg.shared_memory\n#a = #ttg.shared_memory\nmodule attributes {} {\n}\n");
    FAIL() << "an alias defined twice was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
  }
  // No warps: nothing can be costed.
  EXPECT_THROW(readTtgir("module attributes {\"ttg.threads-per-warp\" = 32 : i32} {\n}\n"), Error);
  // A type that never closes.
  EXPECT_THROW(readTtgir("module attributes {\"ttg.num-warps\" = 4 : i32, "
                         "\"ttg.threads-per-warp\" = 32 : i32} {\n"
                         "  %0 = ttg.convert_layout %1 : tensor<4x4xi8, #b -> tensor<4x4xi8>\n}\n"),
               Error);
}

}  // namespace
}  // namespace f2lay
