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
//    "unread": [{"ttgir_line", "attribute", "error"}]}
// Every tensor and memory-descriptor type of every op gives a layout (the same
// attribute at the same shape once), so that each can be checked against
// Triton's own to_linear_layout; an attribute f2lay cannot read or lift is
// listed with the reason, never dropped.
#pragma once

#include <string>
#include <string_view>

#include "formats/json_format.h"
#include "formats/triton_version.h"

namespace f2lay::audit {

struct AuditOptions {
  TritonVersion triton = kCurrentTriton;  // whose rules and attribute syntax
};

// The report of a TTGIR module.
//   Requires: TTGIR as Triton prints it (formats/ttgir.h).
//   Throws: f2lay::Error for text that is not a TTGIR module (the reader's
//     message); everything inside a module that f2lay cannot read is reported.
Json auditTtgir(std::string_view ttgir, const AuditOptions& options = {});

// The report as a table for people: one row per data-moving op.
std::string auditTable(const Json& report);

}  // namespace f2lay::audit
