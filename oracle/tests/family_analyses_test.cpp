// Every distributed family of the catalog goes through the analyses: its
// layout, and the same layout with its registers in reverse order (a register
// permutation by construction), are answered by classify_conversion,
// shuffle_plan, duplication and optimal_swizzle. What the answers must be
// follows from the construction, not from the code: the conversion moves
// registers only (or nothing, with one register bit); every element of the
// shape is held (the families are surjective), each copy counted; the
// swizzle, a CTA's shared memory under a bank model measured on 32-lane
// warps, is refused for several CTAs and for AMD's 64-lane wavefronts, saying
// why.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "oracle/oracle.h"

namespace f2lay::oracle {
namespace {

struct Family {
  std::string name;
  Json request;
};

std::vector<Family> families() {
  auto p = [](const char* text) { return Json::parse(text); };
  return {
      {"distributed_linear (Triton's reduce test)",
       p(R"({"op":"distributed_linear","reg_bases":[[0,16],[1,0],[2,0],[4,0],[8,0],[16,0]],
            "lane_bases":[[0,0],[0,1],[0,2],[0,4],[0,8]],"warp_bases":[[32,0],[0,32]],
            "shape":[64,64]})")},
      {"tmem_reg_layout 16x256b",
       p(R"({"op":"tmem_reg_layout","element_bitwidth":32,"shape":[128,64],"block":[128,64],
            "col_stride":1,"num_warps":4,"instr_variant":"16x256b"})")},
      {"dot_operand A of an mma v2 parent with two CTAs",
       p(R"({"op":"dot_operand","operand_index":0,"k_width":2,"parent":{"version":[2,0],
            "warps_per_cta":[2,2],"instr_shape":[16,8],"cga_layout":[[1,0]]},"shape":[64,64]})")},
      {"dot_operand B of an amd_mfma parent",
       p(R"({"op":"dot_operand","operand_index":1,"k_width":8,"parent":{"op":"amd_mfma",
            "version":3,"instr_shape":[32,32,8],"transposed":true,"warps_per_cta":[2,2]},
            "shape":[64,64]})")},
      {"dot_operand A of an amd_wmma parent",
       p(R"({"op":"dot_operand","operand_index":0,"k_width":8,"parent":{"op":"amd_wmma",
            "version":2,"transposed":false,"warp_bases":[[0,1],[1,0]]},"shape":[64,64]})")},
      {"amd_mfma_scale",
       p(R"({"op":"amd_mfma_scale","dot_operand_layout":{"operand_index":0,"k_width":16,
            "parent":{"op":"amd_mfma","version":4,"instr_shape":[32,32,64],"transposed":true,
            "warps_per_cta":[2,2]}},"shape":[64,8],"scale_factor":32})")},
      {"amd_wmma_scale",
       p(R"({"op":"amd_wmma_scale","dot_operand_layout":{"operand_index":0,"k_width":16,
            "parent":{"op":"amd_wmma","version":3,"transposed":false,"warp_bases":[[1,0]],
            "instr_shape":[16,16,128]}},"shape":[32,8],"scale_factor":32})")},
  };
}

Json ask(const Json& request) { return answer(request); }

uint64_t elements(const Json& layout) {
  uint64_t n = 1;
  for (const Json& d : layout["out_dims"]) n *= d["size"].get<uint64_t>();
  return n;
}

TEST(FamilyAnalyses, EveryDistributedFamilyGoesThroughTheAnalyses) {
  for (const Family& f : families()) {
    SCOPED_TRACE(f.name);
    Json built = ask(f.request);
    ASSERT_TRUE(built["ok"].get<bool>()) << built.dump();
    const Json& a = built["result"];
    Json b = a;
    int inBits = 0, regBits = 0, lanes = 1, blocks = 1;
    for (Json& d : b["in_dims"]) {
      inBits += static_cast<int>(d["bases"].size());
      if (d["name"] == "register") {
        regBits = static_cast<int>(d["bases"].size());
        std::reverse(d["bases"].begin(), d["bases"].end());
      }
      if (d["name"] == "lane") lanes = 1 << d["bases"].size();
      if (d["name"] == "block") blocks = 1 << d["bases"].size();
    }
    Json kind = ask({{"op", "classify_conversion"}, {"self", a}, {"other", b}});
    ASSERT_TRUE(kind["ok"].get<bool>()) << kind.dump();
    std::string k = kind["result"]["kind"].get<std::string>();
    EXPECT_TRUE(k == "register_permutation" || (k == "no_op" && regBits < 2)) << k;

    Json dup = ask({{"op", "duplication"}, {"layout", a}});
    ASSERT_TRUE(dup["ok"].get<bool>()) << dup.dump();
    EXPECT_EQ(dup["result"]["held_elements"].get<uint64_t>(), uint64_t{1} << inBits);
    EXPECT_EQ(dup["result"]["distinct_elements"].get<uint64_t>(), elements(a));

    Json plan = ask({{"op", "shuffle_plan"}, {"self", a}, {"other", b}, {"element_bytes", 4}});
    EXPECT_TRUE(plan["ok"].get<bool>()) << plan.dump();

    Json swizzle =
        ask({{"op", "optimal_swizzle"}, {"self", a}, {"other", b}, {"element_bytes", 4}});
    if (lanes == 32 && blocks == 1) {
      EXPECT_TRUE(swizzle["ok"].get<bool>()) << swizzle.dump();
    } else {  // shared memory is one CTA's; the bank model one of 32 lanes
      ASSERT_FALSE(swizzle["ok"].get<bool>());
      EXPECT_NE(swizzle["error"].get<std::string>().find(lanes == 32 ? "block" : "32"),
                std::string::npos)
          << swizzle.dump();
    }
  }
}

}  // namespace
}  // namespace f2lay::oracle
