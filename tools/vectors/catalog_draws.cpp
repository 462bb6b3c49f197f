// Catalog requests with random legal parameters (drawn.h), following the
// rules Triton and Gluon put on each family (the same ones
// adapters/gluon_check.py and gluon_shared_check.py draw by, where Gluon
// checks f2lay's answers).
#include "oracle/oracle.h"
#include "properties/generators.h"
#include "tools/vectors/drawn.h"

namespace f2lay::tools {

namespace {

constexpr int kDraws = 25;  // per family

uint64_t pow2(int bits) { return uint64_t{1} << bits; }
int pick(int lo, int hi) { return *rc::gen::inRange(lo, hi + 1); }  // [lo, hi]

Json spread(int bits, int rank) { return properties::genSpread(bits, static_cast<size_t>(rank)); }
Json permutation(int rank) { return properties::genOrder(static_cast<size_t>(rank)); }
Json shape(int rank, int maxBits) {
  return properties::genShape(static_cast<size_t>(rank), 0, maxBits);
}

// Block bases: each CTA bit doubles one dim's split, or copies (zero).
Json cgaLayout(int rank) {
  Json bases = Json::array();
  std::vector<uint64_t> next(static_cast<size_t>(rank), 1);
  for (int b = pick(0, 2); b > 0; --b) {
    Json basis(static_cast<size_t>(rank), 0);
    if (pick(0, 4) > 0) {
      size_t d = static_cast<size_t>(pick(0, rank - 1));
      basis[d] = next[d];
      next[d] *= 2;
    }
    bases.push_back(basis);
  }
  return bases;
}

Json blockedKeys(int rank) {
  Json spt = Json::array();
  for (int k = 0; k < rank; ++k) spt.push_back(pow2(pick(0, 2)));
  return {{"size_per_thread", spt},
          {"threads_per_warp", spread(5, rank)},
          {"warps_per_cta", spread(pick(0, 3), rank)},
          {"order", permutation(rank)}};
}

Json blocked() {
  int rank = pick(1, 3);
  Json r = {{"op", "blocked"}};
  r.update(blockedKeys(rank));
  if (pick(0, 1)) r["cga_layout"] = cgaLayout(rank);
  r["shape"] = shape(rank, rank < 3 ? 7 : 4);
  return r;
}

Json slice() {
  int rank = pick(2, 3), dim = pick(0, rank - 1);
  Json s = shape(rank - 1, rank < 3 ? 7 : 4);
  return {{"op", "slice"}, {"dim", dim}, {"parent", blockedKeys(rank)}, {"shape", s}};
}

Json mmaKeys() {
  if (pick(0, 1)) {
    int rank = pick(0, 2) ? 2 : 3;
    return {{"version", {2, 0}},
            {"warps_per_cta", spread(pick(0, 3), rank)},
            {"instr_shape", rank == 2 ? Json{16, 8} : Json{1, 16, 8}}};
  }
  return {{"version", {3, 0}},
          {"warps_per_cta", spread(pick(2, 4), 2)},
          {"instr_shape", {16, pow2(pick(3, 8)), pow2(pick(3, 5))}}};
}

Json mmaShape(const Json& keys) {
  Json s = keys["warps_per_cta"].size() == 3 ? Json{pow2(pick(0, 2))} : Json::array();
  for (int k = 0; k < 2; ++k) s.push_back(pow2(pick(3, 8)));
  return s;
}

Json nvidiaMma() {
  Json r = {{"op", "nvidia_mma"}};
  r.update(mmaKeys());
  r["shape"] = mmaShape(r);
  return r;
}

Json dotOperand() {
  Json parent = mmaKeys();
  int index = parent["version"][0] == 3 ? 0 : pick(0, 1);
  return {{"op", "dot_operand"},
          {"operand_index", index},
          {"k_width", pow2(pick(0, 3))},
          {"parent", parent},
          {"shape", mmaShape(parent)}};
}

Json amdMfma() {
  static const int mn[][2] = {{32, 32}, {16, 16}, {4, 64}, {64, 4}};
  int k = pick(0, 3), rank = pick(0, 2) ? 2 : 3;
  Json s = rank == 3 ? Json{pow2(pick(0, 2))} : Json::array();
  for (int d = 0; d < 2; ++d) s.push_back(pow2(pick(2, 8)));
  Json tiles = Json::array();
  for (int d = 0; d < rank; ++d) tiles.push_back(pow2(pick(0, 1)));
  return {{"op", "amd_mfma"},
          {"version", pick(1, 4)},
          {"instr_shape", {mn[k][0], mn[k][1], pow2(pick(2, 5))}},
          {"transposed", k == 3 || pick(0, 1) == 1},
          {"warps_per_cta", spread(pick(0, 3), rank)},
          {"element_bitwidth", pick(0, 1) ? 32 : 64},
          {"tiles_per_warp", tiles},
          {"shape", s}};
}

Json amdWmma() {
  int version = pick(1, 3), rank = pick(0, 2) ? 2 : 3;
  uint64_t k = version == 1   ? 16
               : version == 2 ? pow2(pick(4, 5))
                              : pow2(pick(0, 3) ? pick(5, 7) : 2);
  Json s = rank == 3 ? Json{pow2(pick(0, 2))} : Json::array();
  for (int d = 0; d < 2; ++d) s.push_back(pick(0, 5) ? pow2(pick(4, 8)) : 1);
  Json tiles = Json::array();
  for (int d = 0; d < rank; ++d) tiles.push_back(pow2(pick(0, 1)));
  return {{"op", "amd_wmma"},
          {"version", version},
          {"transposed", pick(0, 1) == 1},
          {"warps_per_cta", spread(pick(0, 3), rank)},
          {"instr_shape", {16, 16, k}},
          {"tiles_per_warp", tiles},
          {"shape", s}};
}

// Gluon 3.9's AMDWMMALayout keys without "shape" at `rank`: per dim the
// moves 1, 2 (in tiles), each on a warp or a register bit.
Json amdWmmaBasesKeys(int rank) {
  int version = pick(1, 3);
  const std::vector<std::vector<int>> v3 = {
      {16, 16, 4}, {16, 16, 32}, {16, 16, 128}, {32, 16, 64}, {32, 16, 128}};
  std::vector<int> instr = version == 3                 ? v3[static_cast<size_t>(pick(0, 4))]
                           : version == 2 && pick(0, 1) ? std::vector<int>{16, 16, 32}
                                                        : std::vector<int>{16, 16, 16};
  Json warp = Json::array(), reg = Json::array();
  for (int d = 0; d < rank; ++d)
    for (int k = 0, n = pick(0, 2); k < n; ++k) {
      Json basis(static_cast<size_t>(rank), 0);
      basis[static_cast<size_t>(d)] = pow2(k);
      (pick(0, 1) ? warp : reg).push_back(basis);
    }
  return {{"op", "amd_wmma"},   {"version", version}, {"transposed", pick(0, 1) == 1},
          {"warp_bases", warp}, {"reg_bases", reg},   {"instr_shape", instr}};
}

// A k_width Triton's verifier takes for a WMMA version.
int wmmaKWidth(int version) {
  return version == 1 ? 8 << pick(0, 1) : version == 2 ? 4 << pick(0, 2) : 1 << pick(0, 5);
}

// Operands of AMD accumulators, with a CGA now and then.
Json amdDotOperand() {
  Json parent;
  int kWidth;
  Json s;
  if (pick(0, 1)) {
    parent = amdMfma();
    s = parent["shape"];
    parent.erase("shape");
    kWidth = 1 << pick(0, 4);
  } else {
    int rank = pick(0, 2) ? 2 : 3;
    parent = amdWmmaBasesKeys(rank);
    s = shape(rank, 7);
    kWidth = wmmaKWidth(parent["version"].get<int>());
  }
  if (pick(0, 3) == 0) parent["cga_layout"] = cgaLayout(static_cast<int>(s.size()));
  return {{"op", "dot_operand"},
          {"operand_index", pick(0, 1)},
          {"k_width", kWidth},
          {"parent", parent},
          {"shape", s}};
}

// Scales of the rank-2 operands of scaled MFMA (M 16 or 32) and WMMA.
Json amdMfmaScale() {
  Json parent = amdMfma();
  while (parent["shape"].size() != 2 || parent["instr_shape"][0].get<int>() > 32 ||
         parent["instr_shape"][0].get<int>() < 16)
    parent = amdMfma();
  parent.erase("shape");
  return {
      {"op", "amd_mfma_scale"},
      {"dot_operand_layout", {{"operand_index", pick(0, 1)}, {"k_width", 16}, {"parent", parent}}},
      {"shape", {pow2(pick(0, 8)), pow2(pick(0, 4))}},
      {"scale_factor", 32}};
}

Json amdWmmaScale() {
  Json parent = amdWmmaBasesKeys(2);
  if (pick(0, 3) == 0) parent["cga_layout"] = cgaLayout(2);
  int kWidth = wmmaKWidth(parent["version"].get<int>());
  return {{"op", "amd_wmma_scale"},
          {"dot_operand_layout",
           {{"operand_index", pick(0, 1)}, {"k_width", kWidth}, {"parent", parent}}},
          {"shape", {pow2(pick(0, 8)), pow2(pick(0, 4))}},
          {"scale_factor", pick(0, 1) ? 16 : 32}};
}

Json unswizzledShared() {
  int rank = pick(1, 3);
  return {{"op", "unswizzled_shared"},
          {"order", permutation(rank)},
          {"shape", shape(rank, rank < 3 ? 7 : 4)}};
}

// CUTLASS TensorOpMultiplicand crosswise: the extent holds at least one
// 128-byte row of the pattern (contiguous) and its 8 or more rows (strided).
Json cutlassTensorop() {
  int bits = static_cast<int>(pow2(pick(2, 6)));
  uint64_t perAccess = 128 / static_cast<uint64_t>(bits);
  uint64_t crosswise = perAccess << pick(0, 3);
  return {{"op", "cutlass_tensorop"},
          {"element_bits", bits},
          {"crosswise", crosswise},
          {"extent", {crosswise << pick(0, 2), pow2(pick(3, 6))}},
          {"row_major", pick(0, 1) == 1},
          {"direction", pick(0, 1) ? "coordinate_to_offset" : "offset_to_coordinate"}};
}

Json swizzledShared() {
  int rank = pick(1, 3);
  return {{"op", "swizzled_shared"},       {"vec", pow2(pick(0, 3))},
          {"per_phase", pow2(pick(0, 2))}, {"max_phase", pow2(pick(0, 3))},
          {"order", permutation(rank)},    {"shape", shape(rank, rank < 3 ? 7 : 4)}};
}

// NVMMA: the box's contiguous rows must hold the swizzle's 8-row pattern.
Json nvmmaShared() {
  int bits = static_cast<int>(pow2(pick(3, 6))), width = pick(0, 3) ? 32 << pick(0, 2) : 0;
  bool transposed = pick(0, 3) == 0;
  uint64_t minContig = width ? 8u * static_cast<uint64_t>(width) / static_cast<uint64_t>(bits) : 1;
  uint64_t contig = std::max<uint64_t>(minContig, pow2(pick(0, 7)));
  uint64_t rows = pow2(pick(width ? 3 : 0, 7));
  Json s = transposed ? Json{contig, rows} : Json{rows, contig};
  return {{"op", "nvmma_shared"},
          {"swizzle_byte_width", width},
          {"element_bitwidth", bits},
          {"transposed", transposed},
          {"shape", s}};
}

// CuTe: Sw<B,M,S> o shape:stride with a compact stride order (a permutation
// of the modes), both directions.
Json cuteSwizzle() {
  int rank = pick(1, 3);
  Json s = shape(rank, 4), order = permutation(rank), stride(static_cast<size_t>(rank), 0);
  uint64_t next = 1;
  for (const Json& mode : order) {
    stride[mode.get<size_t>()] = next;
    next *= s[mode.get<size_t>()].get<uint64_t>();
  }
  int total = 0;
  for (uint64_t v = next; v > 1; v /= 2) ++total;
  int b = pick(0, 3), m = pick(0, 3), shift = pick(b, b + 2);
  if (b + m + shift > total) b = 0;
  return {{"op", "cute_swizzle"},
          {"b", b},
          {"m", m},
          {"s", b ? shift : 0},
          {"shape", s},
          {"stride", stride},
          {"direction", pick(0, 1) ? "coordinate_to_offset" : "offset_to_coordinate"}};
}

// Gluon's DistributedLinearLayout: each bit of the shape on a random
// register, lane, warp or block basis (properties/generators.h).
Json distributedLinear() {
  std::vector<uint64_t> s = properties::genShape(static_cast<size_t>(pick(1, 3)), 0, 4);
  Json bases[4] = {Json::array(), Json::array(), Json::array(), Json::array()};
  for (const Basis& b : properties::genUnitBases(s)) bases[pick(0, 3)].push_back(b);
  return {{"op", "distributed_linear"}, {"reg_bases", bases[0]},   {"lane_bases", bases[1]},
          {"warp_bases", bases[2]},     {"block_bases", bases[3]}, {"shape", s}};
}

// TTGIR's #ttg.linear on a tensor of another shape: a distributed_linear
// draw, each dim of the tensor up to 4x smaller or larger than the tile.
Json linearEncoding() {
  Json request = distributedLinear();
  request["op"] = "linear_encoding";
  for (Json& size : request["shape"]) {
    int k = pick(-2, 2);
    uint64_t s = size.get<uint64_t>();
    size = k >= 0 ? s << k : std::max<uint64_t>(1, s >> -k);
  }
  return request;
}

// Gluon's SharedLinearLayout: unit bases, some with another XORed in (a
// swizzle that stays a bijection: a basis is mixed only with bases left
// pure), the last one on a block now and then.
Json sharedLinear() {
  std::vector<uint64_t> s = properties::genShape(static_cast<size_t>(pick(1, 3)), 1, 4);
  std::vector<Basis> bases = properties::genUnitBases(s);
  std::erase(bases, Basis(s.size(), 0));
  size_t pure = static_cast<size_t>(pick(1, static_cast<int>(bases.size())));
  for (size_t i = pure; i < bases.size(); ++i)
    if (pick(0, 1))
      for (size_t d = 0; d < s.size(); ++d)
        bases[i][d] ^= bases[static_cast<size_t>(pick(0, static_cast<int>(pure) - 1))][d];
  Json blocks = Json::array();
  if (bases.size() > 1 && pick(0, 1)) {
    blocks.push_back(bases.back());
    bases.pop_back();
  }
  return {{"op", "shared_linear"},
          {"offset_bases", bases},
          {"block_bases", blocks},
          {"alignment", pow2(pick(0, 10))}};
}

// Gluon's make_cga_layout: CTAs, distinct tiles and an order per dim.
Json makeCgaLayoutRequest() {
  int rank = pick(1, 3);
  Json ctas = Json::array(), split = Json::array();
  for (int d = 0; d < rank; ++d) {
    int bits = pick(0, 2);
    ctas.push_back(pow2(bits));
    split.push_back(pow2(pick(0, bits)));
  }
  return {{"op", "make_cga_layout"},
          {"ctas_per_cga", ctas},
          {"cta_split_num", split},
          {"cta_order", permutation(rank)}};
}

}  // namespace

std::vector<DrawnRequest> catalogRequests() {
  using Drawer = Json (*)();
  const std::pair<const char*, Drawer> families[] = {
      {"blocked", blocked},
      {"slice", slice},
      {"nvidia_mma", nvidiaMma},
      {"dot_operand", dotOperand},
      {"amd_mfma", amdMfma},
      {"amd_wmma", amdWmma},
      {"unswizzled_shared", unswizzledShared},
      {"swizzled_shared", swizzledShared},
      {"cutlass_tensorop", cutlassTensorop},
      {"nvmma_shared", nvmmaShared},
      {"cute_swizzle", cuteSwizzle},
      {"dot_operand of an AMD parent", amdDotOperand},
      {"amd_mfma_scale", amdMfmaScale},
      {"amd_wmma_scale", amdWmmaScale},
      {"distributed_linear", distributedLinear},
      {"shared_linear", sharedLinear},
      {"make_cga_layout", makeCgaLayoutRequest},
      {"linear_encoding", linearEncoding}};
  std::vector<DrawnRequest> out;
  uint64_t seed = 20000;
  for (const auto& [name, drawer] : families) {
    for (int i = 0; i < kDraws; ++i)
      out.push_back(
          {std::string(name) + " #" + std::to_string(i), draw(rc::gen::exec(drawer), seed, i)});
    seed += kDraws;
  }
  // Answers read back: the CuTe parameters of drawn CuTe layouts, and the
  // family predicates (Def 4.10, 4.14) on drawn layouts of each kind.
  for (const DrawnRequest& d : std::vector<DrawnRequest>(out)) {
    const std::string op = d.request["op"].get<std::string>();
    Json response = oracle::answer(d.request, oracle::Impl::kRef);
    if (!response["ok"].get<bool>() || !response["result"].is_object()) continue;
    const Json& layout = response["result"];
    if (op == "cute_swizzle" || op == "cutlass_tensorop")
      out.push_back(
          {"linear_to_cute of " + d.name, {{"op", "linear_to_cute"}, {"layout", layout}}});
    if (op == "blocked" || op == "nvmma_shared" || op == "amd_wmma")
      for (const char* predicate : {"is_distributed", "is_memory"})
        out.push_back(
            {std::string(predicate) + " of " + d.name, {{"op", predicate}, {"layout", layout}}});
  }
  for (int count : {1, 2, 4})
    for (bool trans : {false, true})
      out.push_back({"ldmatrix x" + std::to_string(count) + (trans ? " trans" : ""),
                     {{"op", "ldmatrix"}, {"count", count}, {"trans", trans}}});
  return out;
}

}  // namespace f2lay::tools
