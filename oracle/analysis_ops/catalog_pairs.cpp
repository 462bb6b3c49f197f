#include "oracle/analysis_ops/catalog_pairs.h"

#include "formats/error.h"
#include "formats/json_format.h"
#include "oracle/oracle.h"

namespace f2lay::oracle {

namespace {

using analysis::Instruction;

struct PairRequest {
  const char* name;
  const char* a;  // catalog requests (oracle JSON), or layouts written out
  const char* b;
  uint64_t elementBytes;
  Instruction write = Instruction::kVector, read = Instruction::kVector;
};

const char* kBlocked14 =
    R"({"op":"blocked","size_per_thread":[1,4],"threads_per_warp":[4,8],"warps_per_cta":[4,1],"order":[1,0],"shape":[64,64]})";
const char* kBlocked41 =
    R"({"op":"blocked","size_per_thread":[4,1],"threads_per_warp":[8,4],"warps_per_cta":[1,4],"order":[0,1],"shape":[64,64]})";
const char* kBlocked18 =
    R"({"op":"blocked","size_per_thread":[1,8],"threads_per_warp":[8,4],"warps_per_cta":[4,1],"order":[1,0],"shape":[64,64]})";
const char* kBlocked18Warps14 =
    R"({"op":"blocked","size_per_thread":[1,8],"threads_per_warp":[8,4],"warps_per_cta":[1,4],"order":[1,0],"shape":[64,64]})";
const char* kRows =
    R"({"op":"blocked","size_per_thread":[1,1],"threads_per_warp":[1,32],"warps_per_cta":[4,1],"order":[1,0],"shape":[64,64]})";
const char* kColumns =
    R"({"op":"blocked","size_per_thread":[1,1],"threads_per_warp":[32,1],"warps_per_cta":[4,1],"order":[0,1],"shape":[64,64]})";
const char* kMmaV2 =
    R"({"op":"nvidia_mma","version":[2,0],"warps_per_cta":[4,1],"instr_shape":[16,8],"shape":[64,64]})";
const char* kMmaV3 =
    R"({"op":"nvidia_mma","version":[3,0],"warps_per_cta":[4,1],"instr_shape":[16,64,16],"shape":[64,64]})";
const char* kDotA =
    R"({"op":"dot_operand","operand_index":0,"k_width":2,"parent":{"version":[2,0],"warps_per_cta":[4,1],"instr_shape":[16,8]},"shape":[64,64]})";
const char* kDotB =
    R"({"op":"dot_operand","operand_index":1,"k_width":2,"parent":{"version":[2,0],"warps_per_cta":[4,1],"instr_shape":[16,8]},"shape":[64,64]})";

// mma v2 with its n-repetition registers in reverse order: the same lanes and
// warps, so converting to it only renames registers.
const char* kMmaV2RegistersReversed =
    R"({"in_dims":[{"name":"register","bases":[[0,1],[8,0],[0,32],[0,16],[0,8]]},)"
    R"({"name":"lane","bases":[[0,2],[0,4],[1,0],[2,0],[4,0]]},{"name":"warp","bases":[[16,0],[32,0]]},)"
    R"({"name":"block","bases":[]}],"out_dims":[{"name":"dim0","size":64},{"name":"dim1","size":64}]})";
const char* kBlocked18Threads48 =
    R"({"op":"blocked","size_per_thread":[1,8],"threads_per_warp":[4,8],"warps_per_cta":[4,1],"order":[1,0],"shape":[64,64]})";
const char* kBlocked22 =
    R"({"op":"blocked","size_per_thread":[2,2],"threads_per_warp":[8,4],"warps_per_cta":[4,1],"order":[1,0],"shape":[64,64]})";

// Blackwell: the registers of a tcgen05.ld of a 64x64 fp32 accumulator in
// tensor memory with 64-row blocks (32x32b: lanes 0-15 read rows 0-15 of
// their warp's quarter, lanes 16-31 the same rows' upper 32 columns).
const char* kTmem32x32b =
    R"({"op":"tmem_reg_layout","element_bitwidth":32,"shape":[64,64],"block":[64,64],"col_stride":1,"num_warps":4,"instr_variant":"32x32b"})";

// A layout given by its bases: the one Triton's Gluon reduce test
// (test_lowerings.py test_reduce_layouts) writes out, a lane broadcast.
const char* kLinearReduce =
    R"({"op":"distributed_linear","reg_bases":[[0,16],[1,0],[2,0],[4,0],[8,0],[16,0]],"lane_bases":[[0,0],[0,1],[0,2],[0,4],[0,8]],"warp_bases":[[32,0],[0,32]],"shape":[64,64]})";

const std::vector<PairRequest>& pairRequests() {
  static const std::vector<PairRequest> list = {
      {"blocked [1,4] -> blocked [4,1] (transpose), fp16", kBlocked14, kBlocked41, 2},
      {"blocked [1,4] -> blocked [4,1] (transpose), fp32", kBlocked14, kBlocked41, 4},
      {"rows -> columns (the seed's transpose at 64x64), fp32", kRows, kColumns, 4},
      {"blocked [1,8] -> dot operand A, ldmatrix, fp16", kBlocked18, kDotA, 2, Instruction::kVector,
       Instruction::kMatrix},
      {"blocked [1,8] -> dot operand B, fp16", kBlocked18, kDotB, 2},
      {"mma v2 -> blocked [1,8], stmatrix, fp16", kMmaV2, kBlocked18, 2, Instruction::kMatrix},
      {"mma v2 -> blocked [1,4], fp32", kMmaV2, kBlocked14, 4},
      {"mma v3 -> blocked [1,4], fp16 (HARDWARE.md's calibration tile)", kMmaV3, kBlocked14, 2},
      {"mma v2 -> dot operand A, fp16 (no-op: the same map)", kMmaV2, kDotA, 2},
      {"blocked [1,8] warps [4,1] -> warps [1,4], fp8", kBlocked18, kBlocked18Warps14, 1},
      {"mma v2 -> mma v2, fp64 (no-op)", kMmaV2, kMmaV2, 8},
      {"mma v2 -> its registers reversed, fp32 (register permutation)", kMmaV2,
       kMmaV2RegistersReversed, 4},
      {"blocked [1,4] -> blocked [1,8], threads [4,8], fp16 (warp shuffle)", kBlocked14,
       kBlocked18Threads48, 2},
      {"mma v2 -> blocked [2,2], fp32 (warp shuffle)", kMmaV2, kBlocked22, 4},
      {"tcgen05.ld 32x32b -> blocked [1,4], fp32 (a Blackwell epilogue)", kTmem32x32b, kBlocked14,
       4},
      {"distributed_linear (Triton's reduce test) -> blocked [1,4], fp32", kLinearReduce,
       kBlocked14, 4},
  };
  return list;
}

Layout catalogLayout(const char* request) {
  Json json = parseJson(request);
  if (json.contains("in_dims")) return Layout(layoutFromJson(json, "layout"));
  Json response = answer(json);
  if (!response["ok"].get<bool>())
    throw Error(std::string("catalog request failed: ") + response["error"].get<std::string>());
  return Layout(layoutFromJson(response["result"], "result"));
}

}  // namespace

std::vector<CatalogPair> catalogPairs() {
  std::vector<CatalogPair> out;
  for (const PairRequest& p : pairRequests())
    out.push_back(
        {p.name, catalogLayout(p.a), catalogLayout(p.b), p.elementBytes, p.write, p.read});
  return out;
}

}  // namespace f2lay::oracle
