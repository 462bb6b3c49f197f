// `f2lay audit`: a compiled Triton kernel (its TTGIR) read for every layout it
// holds and every op that moves data between layouts, each op with what kind
// of data movement Triton lowers it to (paper §5.4's classes) and where in
// the Python source it came from.
//
// The report is plain JSON (vectors/audit.schema.json):
//   {"triton": "3.9", "module": {num_warps, threads_per_warp, num_ctas, target},
//    "layouts": [{"id", "attribute", "shape", "request", "layout"} or
//                {"id", "attribute", "shape", "error"}],
//    "ops": [{"op", "ttgir_line", "source": {file, line, column} or null,
//             "shape", "element", "element_bytes", "from", "to", "kind",
//             "reason"?}],
//    "unread": [{"ttgir_line", "attribute", "error"}],
//    "loops": [{"ttgir_line", "trips"}],
//    "cta": {"wavefronts", "missing"}}
// Each op's "executions" is how often it runs in a CTA (its loops' trips
// multiplied; null when one is unknown). cta.wavefronts is the shared-memory
// wavefronts of one CTA's ld/st.shared and ldmatrix/stmatrix instructions
// (what ncu's l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld/st count: not
// cp.async's writes, TMA, or the tensor cores' operand reads), every modelled
// op times its executions; it is null,
// and "missing" says why, when any op that may use shared memory is not
// modelled or runs an unknown number of times.
// Every tensor and memory-descriptor type of every op gives a layout (the same
// attribute at the same shape once), so that each can be checked against
// Triton's own to_linear_layout; an attribute f2lay cannot read or lift is
// listed with the reason, never dropped.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "formats/json_format.h"
#include "formats/triton_version.h"

namespace f2lay::audit {

struct AuditOptions {
  TritonVersion triton = kCurrentTriton;  // whose rules and attribute syntax
  // The kernel's integer arguments at a launch ("K": 256), for loop counts.
  std::map<std::string, int64_t> arguments;
  // The launch's grid (tt.get_num_programs) and the CTA's program id
  // (tt.get_program_id), x, y, z, where loop counts depend on them (a
  // persistent kernel's tiles, a causal attention's blocks); empty: unknown.
  std::vector<int64_t> grid, program;
};

// The report of a TTGIR module.
//   Requires: TTGIR as Triton prints it (formats/ttgir.h).
//   Throws: f2lay::Error for text that is not a TTGIR module (the reader's
//     message); everything inside a module that f2lay cannot read is reported.
Json auditTtgir(std::string_view ttgir, const AuditOptions& options = {});

// The report as a table for people: one row per data-moving op, worst first.
std::string auditTable(const Json& report);

// The picture of the worst op (the largest gain over the optimum, then the
// most wavefronts): a bank_conflicts request of its costliest side on the
// memory layout Triton uses, with Triton's instruction and width, for
// `f2lay show --svg` (tools/pictures). Null when no op moves data through
// shared memory at a cost f2lay models.
Json worstOpPicture(const Json& report);

}  // namespace f2lay::audit
