// A layout attribute of a compiled kernel (formats/ttgir.h), lifted to the
// catalog request that builds the same layout: "#ttg.blocked<{sizePerThread =
// [1, 1], ...}>" at shape [32, 32] becomes {"op": "blocked",
// "size_per_thread": [1, 1], ..., "shape": [32, 32]}, which the oracle's op
// table answers. Each family is built once, in the reference catalog; this
// file only renames Triton's attribute keys to the request's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/json_format.h"
#include "formats/triton_version.h"

namespace f2lay::audit {

// The request for an encoding (TtgirType::encoding) at `shape`.
//   Requires: the encoding as mlir_text.h reads it.
//   Throws: f2lay::Error naming the attribute and what f2lay cannot read: an
//     attribute f2lay has no family for, or a key it does not know (never
//     dropped: a dropped key could change the layout).
//   Ensures: the request has "op" and "shape" (but shared_linear, whose shape
//     is its bases' extent) and the family's keys; nested parents (slice,
//     dot_op) are requests without "shape".
Json liftRequest(const Json& encoding, const std::vector<int64_t>& shape, TritonVersion triton);

// The attribute's name without its dialect's parameters ("ttg.blocked"), or
// "" for a value that is not a dialect attribute.
std::string attributeName(const Json& encoding);

// Whether the attribute is a shared-memory or tensor-memory layout (its
// layout maps offset, or row and col, to the tensor) rather than a
// distributed one.
bool isMemoryEncoding(const Json& encoding);

// The rank of the tensor a memory encoding lays out, which may be below its
// memory descriptor's: a pipelined kernel allocates its stages' buffers as
// one descriptor of shape [stages, ...], each buffer laid out by the encoding
// (Triton's memdesc_index selects one). 0 when the encoding does not say (a
// distributed one: the tensor's rank).
size_t memoryEncodingRank(const Json& encoding);

}  // namespace f2lay::audit
