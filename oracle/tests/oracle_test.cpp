// Tests of the oracle protocol in process: answer, answerLine, serve and
// dumpLine. Every expected result is worked by hand from Triton's
// LinearLayout semantics (reference/linear_layout.h): bases[d][i] is the image
// of bit i of in dim d, apply XORs the bases of the set bits, and flattening
// puts the first dim in the least significant bits.
#include "oracle/oracle.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>

namespace f2lay::oracle {
namespace {

Json parse(const char* text) { return Json::parse(text); }

// Layout A of the paper's Figure 1: a 16x16 tensor held by 2x2 registers,
// 4x8 lanes and 2x1 warps; out dims dim0 = row i, dim1 = column j.
const char* const kLayoutA = R"({
  "in_dims": [{"name": "register", "bases": [[0, 1], [1, 0]]},
              {"name": "lane", "bases": [[0, 2], [0, 4], [0, 8], [2, 0], [4, 0]]},
              {"name": "warp", "bases": [[8, 0]]},
              {"name": "block", "bases": []}],
  "out_dims": [{"name": "dim0", "size": 16}, {"name": "dim1", "size": 16}]})";

// A small layout with two dims on each side: register 1 -> (1, 0),
// lane 1 -> (0, 1), lane 2 -> (0, 2); 3 input bits onto 3 output bits.
const char* const kSmall = R"({
  "in_dims": [{"name": "register", "bases": [[1, 0]]},
              {"name": "lane", "bases": [[0, 1], [0, 2]]}],
  "out_dims": [{"name": "dim0", "size": 2}, {"name": "dim1", "size": 4}]})";

// A 1-D layout with one in dim: name -> bases, into out dim `out` of `size`.
Json layout1D(const std::string& in, const Json& bases, const std::string& out, uint64_t size) {
  return Json{{"in_dims", Json::array({Json{{"name", in}, {"bases", bases}}})},
              {"out_dims", Json::array({Json{{"name", out}, {"size", size}}})}};
}

struct OpCase {
  Json request;  // without "op"
  Json result;   // the expected "result"
};

// One valid request per op, with its result worked by hand.
std::map<std::string, OpCase> validRequests() {
  const Json a = parse(kLayoutA);
  const Json small = parse(kSmall);
  std::map<std::string, OpCase> c;

  c["identity_1d"] = {{{"size", 4}, {"in_dim", "lane"}, {"out_dim", "dim1"}},
                      layout1D("lane", {{1}, {2}}, "dim1", 4)};
  c["zeros_1d"] = {{{"size", 4}, {"in_dim", "register"}, {"out_dim", "dim0"}, {"out_dim_size", 8}},
                   layout1D("register", {{0}, {0}}, "dim0", 8)};
  // in=2^i -> stride*2^i, out dim of size size*stride.
  c["strided_1d"] = {{{"size", 4}, {"stride", 2}, {"in_dim", "lane"}, {"out_dim", "dim0"}},
                     layout1D("lane", {{2}, {4}}, "dim0", 8)};
  // The paper: register 1 of lane 9 (bits 0 and 3) holds
  // (0,1) ^ (0,2) ^ (2,0) = (2,3). Inputs in any order, outputs in out-dim order.
  c["apply"] = {
      {{"layout", a}, {"input", {{"block", 0}, {"lane", 9}, {"register", 1}, {"warp", 0}}}},
      {{"dim0", 2}, {"dim1", 3}}};
  // self: i1 -> x1, i2 -> x3; other: x1 -> y2, x2 -> y1, so x3 -> y3.
  c["compose"] = {
      {{"self", layout1D("i", {{1}, {3}}, "x", 4)}, {"other", layout1D("x", {{2}, {1}}, "y", 4)}},
      layout1D("i", {{2}, {3}}, "y", 4)};
  // identity1D(4, register, dim0) * identity1D(8, lane, dim0): the outer
  // layout's bases move above the inner's 2 bits of dim0.
  c["product"] = {{{"self", layout1D("register", {{1}, {2}}, "dim0", 4)},
                   {"other", layout1D("lane", {{1}, {2}, {4}}, "dim0", 8)}},
                  parse(R"({"in_dims": [{"name": "register", "bases": [[1], [2]]},
                                        {"name": "lane", "bases": [[4], [8], [16]]}],
                            "out_dims": [{"name": "dim0", "size": 32}]})")};
  // identity1D(8) = identity1D(2) * identity1D(4).
  c["divide_left"] = {{{"self", layout1D("register", {{1}, {2}, {4}}, "dim0", 8)},
                       {"other", layout1D("register", {{1}}, "dim0", 2)}},
                      layout1D("register", {{1}, {2}}, "dim0", 4)};
  // A bit swap is its own inverse; the dims trade places.
  c["invert"] = {{{"layout", layout1D("register", {{2}, {1}}, "dim0", 4)}},
                 layout1D("dim0", {{2}, {1}}, "register", 4)};
  // Bits 0 and 1 both give dim0=1: bit 0 is the pivot, bit 1 is free (zero);
  // dim0=2 comes from bit 2, i.e. register=4.
  c["pseudoinvert"] = {{{"layout", layout1D("register", {{1}, {1}, {2}}, "dim0", 4)}},
                       layout1D("dim0", {{1}, {4}}, "register", 8)};
  // other(C(x)) == self(x) with self the identity and other a swap: C = swap.
  c["invert_and_compose"] = {{{"self", layout1D("register", {{1}, {2}}, "dim0", 4)},
                              {"other", layout1D("lane", {{2}, {1}}, "dim0", 4)}},
                             layout1D("register", {{2}, {1}}, "lane", 4)};
  c["transpose_ins"] = {{{"layout", small}, {"new_in_dims", {"lane", "register"}}},
                        parse(R"({"in_dims": [{"name": "lane", "bases": [[0, 1], [0, 2]]},
                                              {"name": "register", "bases": [[1, 0]]}],
                                  "out_dims": [{"name": "dim0", "size": 2},
                                               {"name": "dim1", "size": 4}]})")};
  c["transpose_outs"] = {{{"layout", small}, {"new_out_dims", {"dim1", "dim0"}}},
                         parse(R"({"in_dims": [{"name": "register", "bases": [[0, 1]]},
                                               {"name": "lane", "bases": [[1, 0], [2, 0]]}],
                                   "out_dims": [{"name": "dim1", "size": 4},
                                                {"name": "dim0", "size": 2}]})")};
  // Input bits in order: register0, lane0, lane1; a takes two, b one.
  c["reshape_ins"] = {{{"layout", small}, {"new_in_dims", parse(R"([{"name": "a", "size": 4},
                                                 {"name": "b", "size": 2}])")}},
                      parse(R"({"in_dims": [{"name": "a", "bases": [[1, 0], [0, 1]]},
                                            {"name": "b", "bases": [[0, 2]]}],
                                "out_dims": [{"name": "dim0", "size": 2},
                                             {"name": "dim1", "size": 4}]})")};
  // Output bits in order: dim0 bit 0, dim1 bits 0 and 1 (flat 1, 2, 4); p
  // takes flat bits 0-1, q flat bit 2.
  c["reshape_outs"] = {{{"layout", small}, {"new_out_dims", parse(R"([{"name": "p", "size": 4},
                                                   {"name": "q", "size": 2}])")}},
                       parse(R"({"in_dims": [{"name": "register", "bases": [[1, 0]]},
                                             {"name": "lane", "bases": [[2, 0], [0, 1]]}],
                                 "out_dims": [{"name": "p", "size": 4},
                                              {"name": "q", "size": 2}]})")};
  c["flatten_ins"] = {{{"layout", small}}, parse(R"({"in_dims": [{"name": "register",
                                             "bases": [[1, 0], [0, 1], [0, 2]]}],
                                "out_dims": [{"name": "dim0", "size": 2},
                                             {"name": "dim1", "size": 4}]})")};
  c["flatten_outs"] = {{{"layout", small}},
                       parse(R"({"in_dims": [{"name": "register", "bases": [[1]]},
                                             {"name": "lane", "bases": [[2], [4]]}],
                                 "out_dims": [{"name": "dim0", "size": 8}]})")};
  // Kept in the layout's order, whatever order the request names them in.
  c["sublayout"] = {
      {{"layout", a}, {"in_dim_names", {"lane", "register"}}, {"out_dim_names", {"dim1"}}},
      parse(R"({"in_dims": [{"name": "register", "bases": [[1], [0]]},
                                          {"name": "lane",
                                           "bases": [[2], [4], [8], [0], [0]]}],
                              "out_dims": [{"name": "dim1", "size": 16}]})")};
  // Register bit 0 reaches dim1 (the sublayout above): not zero.
  c["sublayout_is_zero"] = {
      {{"layout", a}, {"in_dim_names", {"register"}}, {"out_dim_names", {"dim1"}}}, false};
  c["concat_ins"] = {{{"self", layout1D("register", {{1}}, "dim0", 4)},
                      {"other", layout1D("lane", {{2}}, "dim0", 4)}},
                     parse(R"({"in_dims": [{"name": "register", "bases": [[1]]},
                                           {"name": "lane", "bases": [[2]]}],
                               "out_dims": [{"name": "dim0", "size": 4}]})")};
  c["concat_outs"] = {{{"self", layout1D("register", {{1}}, "dim0", 2)},
                       {"other", layout1D("register", {{1}}, "dim1", 2)}},
                      parse(R"({"in_dims": [{"name": "register", "bases": [[1, 1]]}],
                                "out_dims": [{"name": "dim0", "size": 2},
                                             {"name": "dim1", "size": 2}]})")};
  c["is_injective"] = {{{"layout", a}}, true};
  // Both bases are 1, so dim0=2 is never reached.
  c["is_surjective"] = {{{"layout", layout1D("register", {{1}, {1}}, "dim0", 4)}}, false};
  c["is_invertible"] = {{{"layout", small}}, true};
  // register bit 1 repeats bit 0; lane bit 0 is zero; lane bit 1 is 3 = 1 ^ 2.
  c["free_variable_masks"] = {
      {{"layout", parse(R"({"in_dims": [{"name": "register", "bases": [[1], [1], [2]]},
                                        {"name": "lane", "bases": [[0], [3]]}],
                            "out_dims": [{"name": "dim0", "size": 4}]})")}},
      {{"register", 2}, {"lane", 3}}};
  // register bases (1,0), (2,0) are unit steps of dim0; (0,1) stops the run;
  // lane's (4,0) touches dim0 no lower than bit 2, so 2^2 consecutive.
  c["num_consecutive_in_out"] = {{{"layout", parse(R"({"in_dims": [{"name": "register",
                                         "bases": [[1, 0], [2, 0], [0, 1]]},
                                        {"name": "lane", "bases": [[4, 0]]}],
                            "out_dims": [{"name": "dim0", "size": 8},
                                         {"name": "dim1", "size": 2}]})")}},
                                 4};
  // The matrix of layout A from the paper: rows i0..i3, j0..j3; columns
  // reg0, reg1, lane0..lane4, warp0.
  c["matrix_view"] = {{{"layout", a}}, parse(R"([[0, 1, 0, 0, 0, 0, 0, 0],
                                [0, 0, 0, 0, 0, 1, 0, 0],
                                [0, 0, 0, 0, 0, 0, 1, 0],
                                [0, 0, 0, 0, 0, 0, 0, 1],
                                [1, 0, 0, 0, 0, 0, 0, 0],
                                [0, 0, 1, 0, 0, 0, 0, 0],
                                [0, 0, 0, 1, 0, 0, 0, 0],
                                [0, 0, 0, 0, 1, 0, 0, 0]])")};
  // The same map with the in dims in another order is not equal.
  c["equal"] = {
      {{"self", small}, {"other", parse(R"({"in_dims": [{"name": "lane", "bases": [[0, 1], [0, 2]]},
                                                 {"name": "register", "bases": [[1, 0]]}],
                                     "out_dims": [{"name": "dim0", "size": 2},
                                                  {"name": "dim1", "size": 4}]})")}},
      false};
  // Paper §4.1: layout A is blocked [2,2] x [4,8] x [2,1], order [1,0].
  c["blocked"] = {{{"size_per_thread", {2, 2}},
                   {"threads_per_warp", {4, 8}},
                   {"warps_per_cta", {2, 1}},
                   {"order", {1, 0}},
                   {"shape", {16, 16}}},
                  a};
  // The parent is laid out at [4, 1]: its tile is 2x4 (register -> dim1 bit 0,
  // lane -> dim1 bit 1, dim0 bit 0), so a register repeat covers dim0 bit 1
  // and dim1's bases become 0. Dropping dim1: register (0), (2) -> the zero
  // one is removed; lane (0), (1) stay.
  c["slice"] = {{{"dim", 1},
                 {"parent",
                  {{"size_per_thread", {1, 2}},
                   {"threads_per_warp", {2, 2}},
                   {"warps_per_cta", {1, 1}},
                   {"order", {1, 0}}}},
                 {"shape", {4}}},
                parse(R"({"in_dims": [{"name": "register", "bases": [[2]]},
                                      {"name": "lane", "bases": [[0], [1]]},
                                      {"name": "warp", "bases": []},
                                      {"name": "block", "bases": []}],
                          "out_dims": [{"name": "dim0", "size": 4}]})")};
  // Def 4.10: layout A is a permutation matrix.
  c["is_distributed"] = {{{"layout", a}}, true};
  // Def 4.14: columns 1 and 3 (one and two bits), invertible.
  c["is_memory"] = {{{"layout", layout1D("offset", {{1}, {3}}, "dim0", 4)}}, true};
  // PTX mma.m16n8k16 accumulator: c_i at row groupID (lane bits 2-4) + 8 (i & 2),
  // col 2 threadID_in_group (lane bits 0-1) + (i & 1).
  c["nvidia_mma"] = {{{"version", {2, 0}},
                      {"warps_per_cta", {1, 1}},
                      {"instr_shape", {16, 8}},
                      {"shape", {16, 8}}},
                     parse(R"({"in_dims": [{"name": "register", "bases": [[0, 1], [8, 0]]},
                                           {"name": "lane", "bases": [[0, 2], [0, 4], [1, 0],
                                                                      [2, 0], [4, 0]]},
                                           {"name": "warp", "bases": []},
                                           {"name": "block", "bases": []}],
                               "out_dims": [{"name": "dim0", "size": 16},
                                            {"name": "dim1", "size": 8}]})")};
  // PTX mma.m16n8k16 f16 operand B: b_i at row (K) 2 threadID_in_group + (i & 1)
  // + 8 (i & 2), col groupID.
  c["dot_operand"] = {
      {{"operand_index", 1},
       {"k_width", 2},
       {"shape", {16, 8}},
       {"parent", {{"version", {2, 0}}, {"warps_per_cta", {1, 1}}, {"instr_shape", {16, 8}}}}},
      parse(R"({"in_dims": [{"name": "register", "bases": [[1, 0], [8, 0]]},
                                            {"name": "lane", "bases": [[2, 0], [4, 0], [0, 1],
                                                                       [0, 2], [0, 4]]},
                                            {"name": "warp", "bases": []},
                                            {"name": "block", "bases": []}],
                                "out_dims": [{"name": "dim0", "size": 16},
                                             {"name": "dim1", "size": 8}]})")};
  // device_tests/HARDWARE.md#matrix-ownership, ldmatrix.x1.trans (stated, not
  // measured): half h -> row 1, lane bits 0-1 -> rows 2, 4, lane bits 2-4 ->
  // cols 1, 2, 4; one matrix.
  c["ldmatrix"] = {{{"count", 1}, {"trans", true}},
                   parse(R"({"in_dims": [{"name": "register", "bases": [[1, 0, 0]]},
                                         {"name": "lane", "bases": [[2, 0, 0], [4, 0, 0],
                                                                    [0, 1, 0], [0, 2, 0],
                                                                    [0, 4, 0]]}],
                             "out_dims": [{"name": "row", "size": 8}, {"name": "col", "size": 8},
                                          {"name": "matrix", "size": 1}]})")};
  // Order [0, 1]: offsets walk dim0 (2) first, then dim1 (4).
  c["unswizzled_shared"] = {
      {{"order", {0, 1}}, {"shape", {2, 4}}},
      parse(R"({"in_dims": [{"name": "offset", "bases": [[1, 0], [0, 1], [0, 2]]},
                                                  {"name": "block", "bases": []}],
                                      "out_dims": [{"name": "dim0", "size": 2},
                                                   {"name": "dim1", "size": 4}]})")};
  // Def 4.11 on 4x8: row 2^t also moves the column by c_t = 2 * (2^t mod 4):
  // row 1 -> 2, row 2 -> 4.
  c["swizzled_shared"] = {
      {{"vec", 2}, {"per_phase", 1}, {"max_phase", 4}, {"order", {1, 0}}, {"shape", {4, 8}}},
      parse(R"({"in_dims": [{"name": "offset", "bases": [[0, 1], [0, 2], [0, 4],
                                                                             [1, 2], [2, 4]]},
                                                {"name": "block", "bases": []}],
                                    "out_dims": [{"name": "dim0", "size": 4},
                                                 {"name": "dim1", "size": 8}]})")};
  // 32-byte swizzle of 16-bit elements: rows of 16 elements, two 16-byte
  // chunks (8 elements); the chunk flips every 4 rows, so row 4 -> column 8.
  // Gluon 3.9's PaddedSharedLayout docstring example (its answer, as
  // oracle/cases/catalog_shared.jsonl).
  Json docstringPadded = parse(
      R"({"in_dims": [{"name": "offset", "bases": [[0, 1], [0, 2], [2, 0], [4, 0], [1, 0]]},
                      {"name": "block", "bases": []}],
          "out_dims": [{"name": "dim0", "size": 8}, {"name": "dim1", "size": 4}],
          "padding": [[8, 1]]})");
  c["padded_shared"] = {{{"interval_padding_pairs", parse("[[8, 1]]")},
                         {"offset_bases", parse("[[0, 1], [0, 2], [2, 0], [4, 0], [1, 0]]")},
                         {"shape", {8, 4}}},
                        docstringPadded};
  c["padded_shared_identity"] = {
      {{"interval_padding_pairs", parse("[[2, 1]]")}, {"order", {0}}, {"shape", {4}}},
      parse(
          R"({"in_dims": [{"name": "offset", "bases": [[1], [2]]}, {"name": "block", "bases": []}],
                "out_dims": [{"name": "dim0", "size": 4}], "padding": [[2, 1]]})")};
  c["padded_address"] = {{{"shared", docstringPadded}, {"element", {{"dim0", 5}, {"dim1", 2}}}},
                         parse(R"({"offset": 26, "block": 0, "address": 29})")};
  c["compute_amd_efficient_padded_shared_layout"] = {{{"dot_operand_layout",
                                                       {{"operand_index", 0},
                                                        {"k_width", 2},
                                                        {"parent",
                                                         {{"op", "amd_mfma"},
                                                          {"version", 4},
                                                          {"instr_shape", {16, 16, 32}},
                                                          {"transposed", true},
                                                          {"warps_per_cta", {4, 1}}}}}},
                                                      {"shape", {32, 64}},
                                                      {"element_bitwidth", 16}},
                                                     Json(nullptr)};
  c["nvmma_shared"] = {{{"swizzle_byte_width", 32}, {"element_bitwidth", 16}, {"shape", {8, 16}}},
                       parse(R"({"in_dims": [{"name": "offset", "bases": [[0, 1], [0, 2], [0, 4],
                                                                          [0, 8], [1, 0], [2, 0],
                                                                          [4, 8]]},
                                             {"name": "block", "bases": []}],
                                 "out_dims": [{"name": "dim0", "size": 8},
                                              {"name": "dim1", "size": 16}]})")};
  // Shape ops (paper §4.4). trans [1, 0] of kSmall: each basis (a, b) becomes
  // (b, a) and the sizes 2, 4 become 4, 2.
  c["trans"] = {{{"layout", small}, {"order", {1, 0}}, {"direction", "forward"}},
                parse(R"({"in_dims": [{"name": "register", "bases": [[0, 1]]},
                                      {"name": "lane", "bases": [[1, 0], [2, 0]]}],
                          "out_dims": [{"name": "dim0", "size": 4},
                                       {"name": "dim1", "size": 2}]})")};
  // Row-major: element (c0, c1) of kSmall's 2x4 tensor has index 4*c0 + c1,
  // so (1,0) -> 4, (0,1) -> 1, (0,2) -> 2.
  c["reshape"] = {{{"layout", small}, {"shape", {8}}, {"direction", "forward"}},
                  parse(R"({"in_dims": [{"name": "register", "bases": [[4]]},
                                        {"name": "lane", "bases": [[1], [2]]}],
                            "out_dims": [{"name": "dim0", "size": 8}]})")};
  // The new last dim on a new register bit 0; the old register moves up.
  c["join"] = {{{"layout", layout1D("register", {{1}}, "dim0", 2)}, {"direction", "forward"}},
               parse(R"({"in_dims": [{"name": "register", "bases": [[0, 1], [1, 0]]}],
                         "out_dims": [{"name": "dim0", "size": 2},
                                      {"name": "dim1", "size": 2}]})")};
  // Register bit 1 holds the last dim: it goes, dim1 goes with it.
  c["split"] = {{{"layout", parse(R"({"in_dims": [{"name": "register", "bases": [[1, 0], [0, 1]]}],
                                      "out_dims": [{"name": "dim0", "size": 2},
                                                   {"name": "dim1", "size": 2}]})")},
                 {"direction", "forward"}},
                layout1D("register", {{1}}, "dim0", 2)};
  c["expand_dims"] = {{{"layout", layout1D("register", {{1}, {2}}, "dim0", 4)},
                       {"axis", 0},
                       {"direction", "forward"}},
                      parse(R"({"in_dims": [{"name": "register", "bases": [[0, 1], [0, 2]]}],
                                "out_dims": [{"name": "dim0", "size": 1},
                                             {"name": "dim1", "size": 4}]})")};
  // dim0 grows from 1 to 2 on a new register bit above the old one.
  c["broadcast"] = {{{"layout", parse(R"({"in_dims": [{"name": "register", "bases": [[0, 1]]},
                                                      {"name": "lane", "bases": [[0, 2]]}],
                                          "out_dims": [{"name": "dim0", "size": 1},
                                                       {"name": "dim1", "size": 4}]})")},
                     {"axis", 0},
                     {"size", 2},
                     {"direction", "forward"}},
                    parse(R"({"in_dims": [{"name": "register", "bases": [[0, 1], [1, 0]]},
                                          {"name": "lane", "bases": [[0, 2]]}],
                              "out_dims": [{"name": "dim0", "size": 2},
                                           {"name": "dim1", "size": 4}]})")};
  // AMD's v_mfma_f32_16x16x16f16 result: item i of lane l at row i + 4 (l / 16),
  // col l % 16.
  c["amd_mfma"] = {{{"version", 3},
                    {"instr_shape", {16, 16, 16}},
                    {"transposed", false},
                    {"warps_per_cta", {1, 1}},
                    {"shape", {16, 16}}},
                   parse(R"({"in_dims": [{"name": "register", "bases": [[1, 0], [2, 0]]},
                                         {"name": "lane", "bases": [[0, 1], [0, 2], [0, 4],
                                                                    [0, 8], [4, 0], [8, 0]]},
                                         {"name": "warp", "bases": []},
                                         {"name": "block", "bases": []}],
                             "out_dims": [{"name": "dim0", "size": 16},
                                          {"name": "dim1", "size": 16}]})")};
  // RDNA4 WMMA 16x16 f32 result: VGPR i of lane l at row i + 8 (l / 16), col l % 16.
  c["amd_wmma"] = {
      {{"version", 2}, {"transposed", false}, {"warps_per_cta", {1, 1}}, {"shape", {16, 16}}},
      parse(R"({"in_dims": [{"name": "register", "bases": [[1, 0], [2, 0], [4, 0]]},
                                         {"name": "lane", "bases": [[0, 1], [0, 2], [0, 4],
                                                                    [0, 8], [8, 0]]},
                                         {"name": "warp", "bases": []},
                                         {"name": "block", "bases": []}],
                             "out_dims": [{"name": "dim0", "size": 16},
                                          {"name": "dim1", "size": 16}]})")};
  // CDNA4 ISA, v_mfma_scale_f32_32x32x64_f8f6f4: lane l reads 32 K elements of
  // row l % 32, the (l / 32)-th group of 32: its scale is A's scale [l % 32, l / 32].
  c["amd_mfma_scale"] = {{{"dot_operand_layout",
                           {{"operand_index", 0},
                            {"k_width", 16},
                            {"parent",
                             {{"op", "amd_mfma"},
                              {"version", 4},
                              {"instr_shape", {32, 32, 64}},
                              {"transposed", true},
                              {"warps_per_cta", {1, 1}}}}}},
                          {"shape", {32, 2}}},
                         parse(R"({"in_dims": [{"name": "register", "bases": []},
                            {"name": "lane", "bases": [[1, 0], [2, 0], [4, 0], [8, 0],
                                                       [16, 0], [0, 1]]},
                            {"name": "warp", "bases": []},
                            {"name": "block", "bases": []}],
                "out_dims": [{"name": "dim0", "size": 32}, {"name": "dim1", "size": 2}]})")};
  // gfx1250 16x16x128 scaled WMMA: lane l holds the 4 scales (128 K elements) of
  // row l % 16; lanes 16-31 copies (Gluon 3.9.0's answer).
  c["amd_wmma_scale"] = {{{"dot_operand_layout",
                           {{"operand_index", 0},
                            {"k_width", 16},
                            {"parent",
                             {{"op", "amd_wmma"},
                              {"version", 3},
                              {"transposed", false},
                              {"warp_bases", Json::array()},
                              {"instr_shape", {16, 16, 128}}}}}},
                          {"shape", {16, 4}}},
                         parse(R"({"in_dims": [{"name": "register", "bases": [[0, 1], [0, 2]]},
                            {"name": "lane", "bases": [[1, 0], [2, 0], [4, 0], [8, 0],
                                                       [0, 0]]},
                            {"name": "warp", "bases": []},
                            {"name": "block", "bases": []}],
                "out_dims": [{"name": "dim0", "size": 16}, {"name": "dim1", "size": 4}]})")};
  // The same bases on a tensor of one column: the register that held
  // column 1 is dropped, the rest is kept.
  c["linear_encoding"] = {{{"reg_bases", {{0, 1}}},
                           {"lane_bases", {{1, 0}, {2, 0}}},
                           {"warp_bases", {{0, 0}}},
                           {"shape", {4, 1}}},
                          parse(R"({"in_dims": [{"name": "register", "bases": []},
                            {"name": "lane", "bases": [[1, 0], [2, 0]]},
                            {"name": "warp", "bases": [[0, 0]]},
                            {"name": "block", "bases": []}],
                "out_dims": [{"name": "dim0", "size": 4}, {"name": "dim1", "size": 1}]})")};
  // The bases as given: register 0 holds column 1, the lanes walk the rows,
  // two warps hold the same elements (a zero basis).
  c["distributed_linear"] = {{{"reg_bases", {{0, 1}}},
                              {"lane_bases", {{1, 0}, {2, 0}}},
                              {"warp_bases", {{0, 0}}},
                              {"shape", {4, 2}}},
                             parse(R"({"in_dims": [{"name": "register", "bases": [[0, 1]]},
                            {"name": "lane", "bases": [[1, 0], [2, 0]]},
                            {"name": "warp", "bases": [[0, 0]]},
                            {"name": "block", "bases": []}],
                "out_dims": [{"name": "dim0", "size": 4}, {"name": "dim1", "size": 2}]})")};
  // Offset 1 moves a column, offset 2 a row and a column (a swizzle): the
  // shape is 2 x 2, the largest values plus one rounded up.
  c["shared_linear"] = {{{"offset_bases", {{0, 1}, {1, 1}}}},
                        parse(R"({"in_dims": [{"name": "offset", "bases": [[0, 1], [1, 1]]},
                                              {"name": "block", "bases": []}],
                                  "out_dims": [{"name": "dim0", "size": 2},
                                               {"name": "dim1", "size": 2}]})")};
  // Two CTAs along dim1, both distinct; along dim0 two CTAs holding copies.
  c["make_cga_layout"] = {
      {{"ctas_per_cga", {2, 2}}, {"cta_split_num", {1, 2}}, {"cta_order", {1, 0}}},
      parse(R"({"in_dims": [{"name": "block", "bases": [[0, 1], [0, 0]]}],
                                    "out_dims": [{"name": "dim0", "size": 1},
                                                 {"name": "dim1", "size": 2}]})")};
  // Gluon 3.9.0: TensorMemoryLayout((128, 1), 1) at [128, 1] is TMEM lanes
  // 0-127 on rows 0-127 of one column; compute_tmem_reg_layout(float32, ...,
  // 4 warps, "32x32b") puts thread l of warp w on TMEM lane 32 w + l.
  c["tensor_memory"] = {{{"block", {128, 1}}, {"col_stride", 1}, {"shape", {128, 1}}},
                        parse(R"({"in_dims": [{"name": "row", "bases": [[1, 0], [2, 0], [4, 0],
                                                  [8, 0], [16, 0], [32, 0], [64, 0]]},
                                         {"name": "col", "bases": []},
                                         {"name": "block", "bases": []}],
                             "out_dims": [{"name": "dim0", "size": 128},
                                          {"name": "dim1", "size": 1}]})")};
  c["tmem_reg_layout"] = {{{"element_bitwidth", 32},
                           {"shape", {128, 1}},
                           {"block", {128, 1}},
                           {"col_stride", 1},
                           {"num_warps", 4}},
                          parse(R"({"in_dims": [{"name": "register", "bases": []},
                            {"name": "lane", "bases": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]},
                            {"name": "warp", "bases": [[32, 0], [64, 0]]},
                            {"name": "block", "bases": []}],
                "out_dims": [{"name": "dim0", "size": 128}, {"name": "dim1", "size": 1}]})")};
  // Gluon 3.9.0 TensorMemoryScalesLayout() at [32, 2]: rows 0-31 on TMEM
  // lanes 0-31 (the other warps' lanes copies), column 1 on col bit 0; the
  // 64 x 4 tile's other bases fall outside the shape.
  c["tensor_memory_scales"] = {
      {{"shape", {32, 2}}},
      parse(R"({"in_dims": [{"name": "row", "bases": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0],
                                                      [0, 0], [0, 0]]},
                            {"name": "col", "bases": [[0, 1], [0, 0], [0, 0]]},
                            {"name": "block", "bases": []}],
                "out_dims": [{"name": "dim0", "size": 32}, {"name": "dim1", "size": 2}]})")};
  // CuTe Sw<1,0,1> o (2,2):(2,1): index 2 d0 + d1, bit 1 XORed into bit 0, so
  // (1,0) -> 3, (0,1) -> 1; inverted: offset 1 -> (0,1), 2 = 3 ^ 1 -> (1,1).
  c["cute_swizzle"] = {{{"b", 1}, {"m", 0}, {"s", 1}, {"shape", {2, 2}}, {"stride", {2, 1}}},
                       parse(R"({"in_dims": [{"name": "offset", "bases": [[0, 1], [1, 1]]}],
                                 "out_dims": [{"name": "dim0", "size": 2},
                                              {"name": "dim1", "size": 2}]})")};
  // The same map, dim0 -> 3, dim1 -> 1: Sw<1,0,1> undoes to strides 2, 1.
  c["linear_to_cute"] = {{{"layout", parse(R"({"in_dims": [{"name": "dim0", "bases": [[3]]},
                                                           {"name": "dim1", "bases": [[1]]}],
                                               "out_dims": [{"name": "offset", "size": 4}]})")}},
                         {{"b", 1}, {"m", 0}, {"s", 1}, {"shape", {2, 2}}, {"stride", {2, 1}}}};
  // CUTLASS <64,16> (2 elements per access, kFactor 1, 8 strided rows per
  // tile), extent 16x8: strided row s starts at 16 s and XORs s into the
  // access slot, so offset 16 holds access 1 of row 1 = (2, 1), 32 -> (4, 2),
  // 64 -> (8, 4).
  c["cutlass_tensorop"] = {{{"element_bits", 64}, {"crosswise", 16}, {"extent", {16, 8}}},
                           parse(R"({"in_dims": [{"name": "offset",
                             "bases": [[1, 0], [2, 0], [4, 0], [8, 0], [2, 1], [4, 2], [8, 4]]}],
                "out_dims": [{"name": "dim0", "size": 16}, {"name": "dim1", "size": 8}]})")};
  // The 16x32 transpose's read (lane bits 0-3 -> m, lane bit 4 -> n0,
  // registers -> n1..n4; bases [n, m]) on offset = 32m + (n xor m):
  // device_tests/HARDWARE.md#seed-transpose: 32 read wavefronts and 16 bank
  // conflicts over the 16 register steps; 4-byte scalars, where Lemma 9.4 is
  // exact.
  // A conversion to the same layout moves nothing.
  const Json lanes32 = parse(R"({"in_dims": [{"name": "register", "bases": []},
      {"name": "lane", "bases": [[1], [2], [4], [8], [16]]}, {"name": "warp", "bases": []}],
      "out_dims": [{"name": "dim0", "size": 32}]})");
  c["triton_convert"] = {{{"self", lanes32}, {"other", lanes32}, {"element_bytes", 4}},
                         {{"path", "no_op"}}};
  // Each lane's 4 registers are 4 contiguous fp32 in a row-major buffer: one
  // 16-byte st.shared (lane 0's row starts at offset 4, so not stmatrix).
  c["triton_local"] = {
      {{"layout", parse(R"({"in_dims": [{"name": "register", "bases": [[0,1],[0,2]]},
           {"name": "lane", "bases": [[1,0],[2,0],[4,0],[8,0],[16,0]]}, {"name": "warp", "bases": []}],
           "out_dims": [{"name": "dim0", "size": 32}, {"name": "dim1", "size": 4}]})")},
       {"shared", parse(R"({"in_dims": [{"name": "offset",
           "bases": [[0,1],[0,2],[1,0],[2,0],[4,0],[8,0],[16,0]]}],
           "out_dims": [{"name": "dim0", "size": 32}, {"name": "dim1", "size": 4}]})")},
       {"access", "store"},
       {"element_bytes", 4}},
      {{"instruction", "st.shared"},
       {"vector_bytes", 16},
       {"instructions", 1},
       {"triton_bank_conflicts", 0}}};
  // One warp holds the whole axis: a reduce and a scan stay in its lanes, a
  // gather too.
  c["triton_reduce"] = {{{"layout", lanes32}, {"axis", 0}}, {{"conversions", Json::array()}}};
  auto none = [](const char* instruction) {
    return Json{{"instruction", instruction},
                {"instructions", 0},
                {"wavefronts", 0},
                {"ideal_wavefronts", 0}};
  };
  const Json noLoad = none("ld.shared"), noStore = none("st.shared");
  c["triton_scan"] = {{{"layout", lanes32}, {"axis", 0}, {"element_bytes", {4}}},
                      {{"store", noStore}, {"load", noLoad}, {"result_loads", {noLoad}}}};
  c["triton_gather"] = {{{"src", lanes32}, {"index", lanes32}, {"axis", 0}},
                        {{"warp_local", true}}};
  c["bank_conflicts"] = {
      {{"layout", parse(R"({"in_dims": [{"name": "register", "bases": [[2,0],[4,0],[8,0],[16,0]]},
                                        {"name": "lane", "bases": [[0,1],[0,2],[0,4],[0,8],[1,0]]},
                                        {"name": "warp", "bases": []}],
                           "out_dims": [{"name": "n", "size": 32}, {"name": "m", "size": 16}]})")},
       {"shared", parse(R"({"in_dims": [{"name": "offset", "bases": [[1,0],[2,0],[4,0],[8,0],[16,0],
                                                                    [1,1],[2,2],[4,4],[8,8]]}],
                           "out_dims": [{"name": "n", "size": 32}, {"name": "m", "size": 16}]})")},
       {"element_bytes", 4},
       {"access", "load"}},
      parse(R"({"instructions": 16, "wavefronts": 32, "ideal_wavefronts": 16, "conflicts": 16,
                "vector_bytes": 4, "lemma_9_4": {"instructions": 16, "wavefronts": 32,
                "ideal_wavefronts": 16, "conflicts": 16}})")};
  // §5.4's construction on the 16x32 transpose, worked through in
  // device_tests/HARDWARE.md#seed-transpose: every set, the map
  // offset = 32m + (n xor 2m), and 16 + 16 wavefronts.
  c["optimal_swizzle"] = {
      {{"self",
        parse(
            R"({"in_dims": [{"name": "register", "bases": [[0, 1], [0, 2], [0, 4], [0, 8]]}, {"name": "lane", "bases": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]}, {"name": "warp", "bases": []}], "out_dims": [{"name": "n", "size": 32}, {"name": "m", "size": 16}]})")},
       {"other",
        parse(
            R"({"in_dims": [{"name": "register", "bases": [[2, 0], [4, 0], [8, 0], [16, 0]]}, {"name": "lane", "bases": [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0]]}, {"name": "warp", "bases": []}], "out_dims": [{"name": "n", "size": 32}, {"name": "m", "size": 16}]})")},
       {"element_bytes", 4},
       {"construction", "paper"}},
      parse(
          R"({"construction": "paper", "shared": {"in_dims": [{"name": "offset", "bases": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [2, 1], [4, 2], [8, 4], [16, 8]]}], "out_dims": [{"name": "n", "size": 32}, {"name": "m", "size": 16}]}, "vector_bytes": 4, "bank_bits": 5, "idx_bits": 4, "sets": {"V": [], "A_bank": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], "B_bank": [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0]], "P": [[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0]]], "I": [[1, 0]], "E": [[2, 0], [4, 0], [8, 0], [16, 0]], "F": [[0, 1], [0, 2], [0, 4], [0, 8]], "G": [[2, 1], [4, 2], [8, 4], [16, 8]], "C": [], "Idx": [[2, 1], [4, 2], [8, 4], [16, 8]], "Bank": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]}, "predicted_conflict_bits": {"store": 0, "load": 0}, "store": {"instructions": 16, "wavefronts": 16, "ideal_wavefronts": 16, "conflicts": 0}, "load": {"instructions": 16, "wavefronts": 16, "ideal_wavefronts": 16, "conflicts": 0}})")};
  // The BlockedLayout([1,4],[4,8],[4,1],[1,0]) at 64x64 of
  // device_tests/HARDWARE.md#triton-calibration over the row-major tile:
  // registers 0, 1 hold columns +1, +2, register 2 column +32.
  const Json blocked64 =
      parse(R"({"in_dims": [{"name": "register", "bases": [[0,1],[0,2],[0,32],[16,0],[32,0]]},
                         {"name": "lane", "bases": [[0,4],[0,8],[0,16],[1,0],[2,0]]},
                         {"name": "warp", "bases": [[4,0],[8,0]]}],
            "out_dims": [{"name": "dim0", "size": 64}, {"name": "dim1", "size": 64}]})");
  const Json rowMajor64 =
      parse(R"({"in_dims": [{"name": "offset", "bases": [[0,1],[0,2],[0,4],[0,8],[0,16],[0,32],
                                                 [1,0],[2,0],[4,0],[8,0],[16,0],[32,0]]}],
            "out_dims": [{"name": "dim0", "size": 64}, {"name": "dim1", "size": 64}]})");
  c["vectorization"] = {{{"layout", blocked64}, {"shared", rowMajor64}},
                        parse(R"({"contiguous_elements": 4, "vector_elements": 4,
                                  "register_order": [0, 1]})")};
  // Offsets / 4: registers 2..4 at 32, 1024, 2048; lanes at 4, 8, 16, 64,
  // 128; warps at 256, 512.
  c["divide_by_tile"] = {
      {{"layout", blocked64}, {"shared", rowMajor64}, {"tile", "vector"}, {"elements", 4}},
      parse(R"({"register_order": [0, 1, 2, 3, 4],
                "quotient": {"in_dims": [{"name": "register", "bases": [[8], [256], [512]]},
                                         {"name": "lane", "bases": [[1], [2], [4], [16], [32]]},
                                         {"name": "warp", "bases": [[64], [128]]}],
                             "out_dims": [{"name": "offset", "size": 1024}]}})")};
  // The paper's §5.1: a zero register column of Figure 1's layout A makes
  // registers 4-7 duplicates. Reduced along dim1, the partials are the 16
  // rows; naively 4 registers (bits 1, 2) x 32 lanes x 2 warps store.
  c["duplication"] = {
      {{"layout", parse(R"({"in_dims": [{"name": "register", "bases": [[0,1],[1,0],[0,0]]},
                                        {"name": "lane", "bases": [[0,2],[0,4],[0,8],[2,0],[4,0]]},
                                        {"name": "warp", "bases": [[8,0]]}],
                           "out_dims": [{"name": "dim0", "size": 16}, {"name": "dim1", "size": 16}]})")},
       {"axis", "dim1"}},
      parse(R"({"zero_bits": {"register": 4, "lane": 0, "warp": 0}, "held_elements": 512,
                "distinct_elements": 256,
                "reduction": {"distinct_partials": 16, "naive_stores": 256}})")};
  // §5.4: B swaps A's two register bits; pull sends B's register bit 0
  // (element 1) to A's register 2 and bit 1 to register 1, lanes to
  // themselves; B^-1 A is the same swap.
  const Json regSwapA = parse(R"({"in_dims": [{"name": "register", "bases": [[1], [2]]},
                                              {"name": "lane", "bases": [[4]]}],
                                 "out_dims": [{"name": "dim0", "size": 8}]})");
  const Json regSwapB = parse(R"({"in_dims": [{"name": "register", "bases": [[2], [1]]},
                                              {"name": "lane", "bases": [[4]]}],
                                 "out_dims": [{"name": "dim0", "size": 8}]})");
  const Json swap = parse(R"({"in_dims": [{"name": "register", "bases": [[2, 0], [1, 0]]},
                                          {"name": "lane", "bases": [[0, 1]]}],
                             "out_dims": [{"name": "register", "size": 4},
                                          {"name": "lane", "size": 2}]})");
  c["classify_conversion"] = {
      {{"self", regSwapA}, {"other", regSwapB}},
      {{"kind", "register_permutation"},
       {"minimal_kind", "register_permutation"},
       {"reason",
        "register bit 0 of B reads from register 2 of A instead of register 1: data "
        "moves between registers of a lane"},
       {"b_inv_a", swap},
       {"pull", swap}}};
  // Figure 3, reconstructed (see reference/analysis/tests/shuffle_plan_test):
  // A: register e1, lane e0; B: register e0, lane e1; a warp bit e2.
  // G = {e0 ^ e1}, R = {e1}: round 0 keeps elements 0 and 3 in place, round
  // 1 swaps element 1 (lane 1, register 0) and 2 (lane 0, register 1).
  c["shuffle_plan"] = {
      {{"self", parse(R"({"in_dims": [{"name": "register", "bases": [[2]]},
                                      {"name": "lane", "bases": [[1]]},
                                      {"name": "warp", "bases": [[4]]}],
                         "out_dims": [{"name": "dim0", "size": 8}]})")},
       {"other", parse(R"({"in_dims": [{"name": "register", "bases": [[1]]},
                                       {"name": "lane", "bases": [[2]]},
                                       {"name": "warp", "bases": [[4]]}],
                          "out_dims": [{"name": "dim0", "size": 8}]})")},
       {"element_bytes", 4}},
      parse(R"({"kind": "warp_shuffle", "V": [], "I": [], "E": [[1]], "F": [[2]], "G": [[3]],
                "R": [[2]], "vector_elements": 1, "send_offsets": [0], "recv_offsets": [0],
                "rounds": [[{"lane": 0, "send_register": 0, "src_lane": 0, "recv_register": 0},
                            {"lane": 1, "send_register": 1, "src_lane": 1, "recv_register": 1}],
                           [{"lane": 0, "send_register": 1, "src_lane": 1, "recv_register": 1},
                            {"lane": 1, "send_register": 0, "src_lane": 0, "recv_register": 0}]],
                "copies": []})")};
  // §5.5 on Triton's #trivial_layout_wider_reg_stride_1 (register 1, lanes
  // 2..32): one register bit along the axis, so 2 shuffles per index
  // register; the paper's formula counts the 5 lane bits.
  c["gather_plan"] = {
      {{"layout", parse(R"({"in_dims": [{"name": "register", "bases": [[1]]},
                                        {"name": "lane", "bases": [[2], [4], [8], [16], [32]]}],
                           "out_dims": [{"name": "dim0", "size": 64}]})")},
       {"axis", 0}},
      parse(R"({"warp_local": true, "lane_bits_along_axis": 5, "register_bits_along_axis": 1,
                "paper_rounds": 32, "rounds": 2,
                "axis_sources": [{"register": 1, "lane": 0}, {"register": 0, "lane": 1},
                                 {"register": 0, "lane": 2}, {"register": 0, "lane": 4},
                                 {"register": 0, "lane": 8}, {"register": 0, "lane": 16}],
                "send_registers": [[0, 1], [1, 0]]})")};
  return c;
}

Json withOp(const std::string& op, Json request) {
  request["op"] = op;
  return request;
}

// Answers a request as it arrives over the protocol: written and parsed back,
// so that its non-negative integers are unsigned JSON numbers, as the parser
// makes them. (A request built in C++ holds signed integers, which the layout
// reader of formats/ refuses: "0 is negative".)
Json ask(const Json& request) { return answer(Json::parse(request.dump())); }

// The error of a request that must fail.
std::string errorOf(const Json& request) {
  Json response = ask(request);
  EXPECT_EQ(response["ok"], false) << dumpLine(request);
  return response.value("error", std::string());
}

TEST(Oracle, ValidRequestsCoverExactlyTheOps) {
  std::set<std::string> listed, tested;
  for (const OpDoc& op : oracleOps()) {
    EXPECT_TRUE(listed.insert(op.name).second) << op.name << " is listed twice";
    EXPECT_FALSE(op.result.empty()) << op.name;
    EXPECT_FALSE(op.meaning.empty()) << op.name;
  }
  for (const auto& [name, c] : validRequests()) tested.insert(name);
  EXPECT_EQ(listed, tested) << "every op of oracleOps() needs a valid request here";
}

TEST(Oracle, EveryOpAnswersItsValidRequest) {
  for (const auto& [name, c] : validRequests()) {
    Json response = ask(withOp(name, c.request));
    ASSERT_EQ(response["ok"], true) << name << ": " << dumpLine(response);
    EXPECT_EQ(response["result"], c.result) << name << ": got " << dumpLine(response["result"]);
    EXPECT_FALSE(response.contains("id")) << name;
  }
}

TEST(Oracle, MoreResults) {
  Json a = parse(kLayoutA);
  // Warp 1 adds (8, 0).
  EXPECT_EQ(ask({{"op", "apply"},
                 {"layout", a},
                 {"input", {{"register", 0}, {"lane", 0}, {"warp", 1}, {"block", 0}}}})["result"],
            Json({{"dim0", 8}, {"dim1", 0}}));
  // out_dim_size is optional and defaults to 1.
  EXPECT_EQ(ask({{"op", "zeros_1d"}, {"size", 2}, {"in_dim", "r"}, {"out_dim", "o"}})["result"],
            layout1D("r", {{0}}, "o", 1));
  // A layout equals itself.
  EXPECT_EQ(ask({{"op", "equal"}, {"self", a}, {"other", a}})["result"], true);
  // (1) then (2) is not identity1D(2) times anything: the first basis must be 1.
  Json notDivisible = ask({{"op", "divide_left"},
                           {"self", layout1D("register", {{2}, {1}}, "dim0", 4)},
                           {"other", layout1D("register", {{1}}, "dim0", 2)}});
  EXPECT_EQ(notDivisible["ok"], true);
  EXPECT_EQ(notDivisible["result"], nullptr);
}

// Triton 3.9 (PR #11645) sets an in dim aside only when its output bits are
// its own in BOTH layouts. Here r has equal bases in self and other and its
// bits are its own in self, but in other l shares r's bit 0: r is solved,
// and reads other's leftmost independent bit, l. Triton 3.9.0's Python
// binding (triton._C.libtriton.linear_layout) answers r -> (l 1, r 0, w 0),
// l -> (0, 0, 1); setting r aside would give r -> (0, 1, 0).
TEST(Oracle, InvertAndComposeChecksOutputBitsApartInOtherToo) {
  Json request = {{"op", "invert_and_compose"},
                  {"self", parse(R"({"in_dims": [{"name": "r", "bases": [[1]]},
                                                 {"name": "l", "bases": [[2]]}],
                                     "out_dims": [{"name": "x", "size": 4}]})")},
                  {"other", parse(R"({"in_dims": [{"name": "l", "bases": [[1]]},
                                                  {"name": "r", "bases": [[1]]},
                                                  {"name": "w", "bases": [[2]]}],
                                      "out_dims": [{"name": "x", "size": 4}]})")}};
  Json triton39 = parse(R"({"in_dims": [{"name": "r", "bases": [[1, 0, 0]]},
                                        {"name": "l", "bases": [[0, 0, 1]]}],
                            "out_dims": [{"name": "l", "size": 2}, {"name": "r", "size": 2},
                                         {"name": "w", "size": 2}]})");
  for (Impl impl : {Impl::kOpt, Impl::kRef}) {
    Json response = answer(request, impl);
    ASSERT_EQ(response["ok"], true) << response.dump();
    EXPECT_EQ(response["result"], triton39) << (impl == Impl::kOpt ? "opt" : "ref");
  }
}

TEST(Oracle, IdIsEchoed) {
  for (Json id : {Json(7), Json("req-1"), Json(12345678901234567890ull), Json(nullptr)}) {
    Json good =
        ask({{"op", "identity_1d"}, {"size", 1}, {"in_dim", "a"}, {"out_dim", "b"}, {"id", id}});
    EXPECT_EQ(good["id"], id);
    EXPECT_EQ(good["ok"], true);
    Json bad = ask({{"op", "nonsense"}, {"id", id}});
    EXPECT_EQ(bad["id"], id);
    EXPECT_EQ(bad["ok"], false);
  }
}

TEST(Oracle, MissingRequiredKeyIsNamed) {
  std::map<std::string, OpCase> valid = validRequests();
  for (const OpDoc& op : oracleOps()) {
    ASSERT_TRUE(valid.count(op.name)) << op.name;
    for (const OpArg& arg : op.args) {
      if (!arg.required) continue;
      Json request = withOp(op.name, valid[op.name].request);
      request.erase(arg.key);
      std::string error = errorOf(request);
      EXPECT_NE(error.find(op.name + ": missing key \"" + arg.key + "\""), std::string::npos)
          << op.name << " without " << arg.key << ": " << error;
    }
  }
}

TEST(Oracle, UnknownKeyIsNamed) {
  for (const auto& [name, c] : validRequests()) {
    Json request = withOp(name, c.request);
    request["colour"] = "red";
    std::string error = errorOf(request);
    EXPECT_NE(error.find(name + ": unknown key \"colour\""), std::string::npos)
        << name << ": " << error;
  }
}

TEST(Oracle, BadRequestsNameTheProblem) {
  EXPECT_NE(errorOf(Json::array({1, 2})).find("must be a JSON object"), std::string::npos);
  EXPECT_NE(errorOf(Json(42)).find("must be a JSON object"), std::string::npos);
  EXPECT_NE(errorOf(Json::object()).find("no \"op\""), std::string::npos);
  EXPECT_NE(errorOf({{"op", 3}}).find("\"op\" must be a string"), std::string::npos);
  EXPECT_NE(errorOf({{"op", "frobnicate"}}).find("unknown op \"frobnicate\""), std::string::npos);
}

// Wrong types fail with the path of the offending value in the message.
TEST(Oracle, WrongTypesNameTheKeyPath) {
  const Json a = parse(kLayoutA);
  auto identity = [](Json size) {
    return Json{{"op", "identity_1d"}, {"size", size}, {"in_dim", "a"}, {"out_dim", "b"}};
  };
  struct Bad {
    Json request;
    std::string path;
  };
  Json negativeBasis = layout1D("in", {{1}, {2}}, "out", 4);
  negativeBasis["in_dims"][0]["bases"][1][0] = -1;
  Json objectBases = layout1D("in", Json::object(), "out", 4);
  const std::vector<Bad> bad = {
      {identity("4"), "size: expected a non-negative integer"},
      {identity(-4), "size: -4 is negative"},
      {identity(4.0), "size: expected a non-negative integer"},
      {identity(2.5), "size: expected a non-negative integer"},
      {identity(Json::array({4})), "size: expected a non-negative integer"},
      {{{"op", "identity_1d"}, {"size", 4}, {"in_dim", 7}, {"out_dim", "b"}},
       "in_dim: expected a string"},
      {{{"op", "identity_1d"}, {"size", 4}, {"in_dim", "a"}, {"out_dim", "not a name"}},
       "out_dim: \"not a name\" is not an identifier"},
      {{{"op", "apply"}, {"layout", a}, {"input", Json::array()}}, "input: expected an object"},
      {{{"op", "apply"},
        {"layout", a},
        {"input", {{"register", "1"}, {"lane", 0}, {"warp", 0}, {"block", 0}}}},
       "input.register: expected a non-negative integer"},
      {{{"op", "apply"},
        {"layout", a},
        {"input", {{"register", 0}, {"lane", -2}, {"warp", 0}, {"block", 0}}}},
       "input.lane: -2 is negative"},
      {{{"op", "is_injective"}, {"layout", Json::array()}}, "layout: expected a JSON object"},
      {{{"op", "compose"}, {"self", negativeBasis}, {"other", a}},
       "self.in_dims[0].bases[1][0]: -1 is negative"},
      {{{"op", "compose"}, {"self", a}, {"other", objectBases}},
       "other.in_dims[0].bases: expected a JSON array"},
      {{{"op", "transpose_ins"}, {"layout", a}, {"new_in_dims", {"lane", 1}}},
       "new_in_dims[1]: expected a string"},
      {{{"op", "transpose_outs"}, {"layout", a}, {"new_out_dims", Json::object()}},
       "new_out_dims: expected an array"},
      {{{"op", "reshape_ins"},
        {"layout", a},
        {"new_in_dims", parse(R"([{"name": "x", "size": 16}, {"name": "y", "size": 2.5}])")}},
       "new_in_dims[1].size: expected a non-negative integer"},
      {{{"op", "reshape_outs"}, {"layout", a}, {"new_out_dims", Json::array({"flat"})}},
       "new_out_dims[0]: expected {\"name\": ..., \"size\": ...}"},
      {{{"op", "sublayout"},
        {"layout", a},
        {"in_dim_names", Json::array({3})},
        {"out_dim_names", Json::array()}},
       "in_dim_names[0]: expected a string"},
  };
  for (const Bad& b : bad) {
    std::string error = errorOf(b.request);
    EXPECT_NE(error.find(b.path), std::string::npos)
        << dumpLine(b.request) << "\n  error: " << error << "\n  expected: " << b.path;
  }
}

TEST(Oracle, BadJsonLine) {
  Json response = answerLine(R"({"op": "invert", )");
  EXPECT_EQ(response["ok"], false);
  EXPECT_EQ(response["error"].get<std::string>().rfind("bad JSON", 0), 0u);
  EXPECT_EQ(answerLine("")["ok"], false);
  EXPECT_EQ(answerLine(R"({"op": "identity_1d", "size": 2, "in_dim": "a", "out_dim": "b"})")["ok"],
            true);
}

TEST(Oracle, InvalidUtf8DoesNotThrow) {
  // Inside a request built in process: echoed in "id", quoted in the error.
  Json request = {{"op", "\xff\xfe"}, {"id", "a\xc3"}};
  Json response = answer(request);
  EXPECT_EQ(response["ok"], false);
  std::string line;
  ASSERT_NO_THROW(line = dumpLine(response));
  EXPECT_NE(line.find("\xEF\xBF\xBD"), std::string::npos) << "replaced by U+FFFD: " << line;
  EXPECT_EQ(line.find('\n'), std::string::npos);
  // On a line: the parser refuses it, and its message quotes the bytes.
  Json fromLine = answerLine("{\"op\": \"\xff\"}");
  EXPECT_EQ(fromLine["ok"], false);
  ASSERT_NO_THROW(line = dumpLine(fromLine));
  EXPECT_TRUE(Json::accept(line)) << line;
}

TEST(Oracle, DeepAndHugeJsonIsAnErrorNotACrash) {
  const size_t deep = 100000;
  Json arrays = answerLine(std::string(deep, '[') + std::string(deep, ']'));
  EXPECT_EQ(arrays["ok"], false);
  EXPECT_NE(arrays["error"].get<std::string>().find("nested deeper"), std::string::npos);

  std::string objects;
  for (size_t i = 0; i < deep; ++i) objects += "{\"a\":";
  objects += "1" + std::string(deep, '}');
  EXPECT_EQ(answerLine(objects)["ok"], false);

  // A deep "id" would be echoed: copying and writing it must not recurse away.
  Json deepId = answerLine(R"({"op": "frobnicate", "id": )" + std::string(deep, '[') +
                           std::string(deep, ']') + "}");
  EXPECT_EQ(deepId["ok"], false);
  EXPECT_FALSE(deepId.contains("id"));
  std::string line;
  EXPECT_NO_THROW(line = dumpLine(deepId));

  // Nesting up to the limit is accepted: the object and 63 arrays.
  std::string atLimit =
      std::string(f2lay::kMaxJsonDepth - 1, '[') + std::string(f2lay::kMaxJsonDepth - 1, ']');
  Json limited = answerLine(R"({"op": "frobnicate", "id": )" + atLimit + "}");
  EXPECT_NE(limited["error"].get<std::string>().find("unknown op"), std::string::npos);
  EXPECT_EQ(limited["id"], Json::parse(atLimit));

  // Brackets and escaped quotes inside strings do not count.
  std::string text = "\\\"" + std::string(1000, '[');
  Json quoted = answerLine(R"({"op": "frobnicate", "id": ")" + text + "\"}");
  EXPECT_EQ(quoted["id"], "\"" + std::string(1000, '['));

  // A million numbers: refused as a request, quickly.
  std::string huge = "[0";
  for (int i = 0; i < 1000000; ++i) huge += ",0";
  huge += "]";
  Json big = answerLine(huge);
  EXPECT_EQ(big["ok"], false);
  EXPECT_NE(big["error"].get<std::string>().find("must be a JSON object"), std::string::npos);

  // Numbers out of range are refused, not wrapped.
  EXPECT_EQ(answerLine(R"({"op": "identity_1d", "size": 1e400, "in_dim": "a",
                           "out_dim": "b"})")["ok"],
            false);
  EXPECT_EQ(answerLine(R"({"op": "identity_1d", "size": 18446744073709551616,
                           "in_dim": "a", "out_dim": "b"})")["ok"],
            false);
}

TEST(Oracle, ServeAnswersEachLineAndCountsFailures) {
  std::istringstream in(
      "{\"op\": \"identity_1d\", \"size\": 2, \"in_dim\": \"a\", \"out_dim\": \"b\", \"id\": 1}\n"
      "\n"
      "   \t\n"
      "{\"op\": \r\n"
      "[1]\r\n"
      "{\"op\": \"is_injective\", \"id\": \"two\"}\r\n"
      "\r\n"
      "{\"op\": \"identity_1d\", \"size\": 4, \"in_dim\": \"a\", \"out_dim\": \"b\", \"id\": 3}");
  std::ostringstream out;
  EXPECT_EQ(serve(in, out).failures, 3u);
  std::istringstream lines(out.str());
  std::vector<Json> responses;
  for (std::string line; std::getline(lines, line);) responses.push_back(Json::parse(line));
  ASSERT_EQ(responses.size(), 5u) << out.str();
  EXPECT_EQ(responses[0], Json::parse(R"({"id": 1, "ok": true, "result":
      {"in_dims": [{"name": "a", "bases": [[1]]}], "out_dims": [{"name": "b", "size": 2}]}})"));
  EXPECT_EQ(responses[1]["ok"], false);
  EXPECT_EQ(responses[2]["ok"], false);
  EXPECT_EQ(responses[3]["id"], "two");
  EXPECT_NE(responses[3]["error"].get<std::string>().find("missing key \"layout\""),
            std::string::npos);
  EXPECT_EQ(responses[4]["id"], 3);
  EXPECT_EQ(responses[4]["ok"], true);

  std::istringstream empty("");
  std::ostringstream none;
  EXPECT_EQ(serve(empty, none).failures, 0u);
  EXPECT_EQ(none.str(), "");
}

}  // namespace
}  // namespace f2lay::oracle
