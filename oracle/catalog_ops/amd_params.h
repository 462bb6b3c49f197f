// amd_mfma and amd_wmma requests read into the reference's parameters: shared
// by their own ops (amd_ops.cpp) and by the ops whose parent is an AMD
// accumulator (dot_operand's "parent", the scale layouts).
#pragma once

#include "oracle/op_table.h"
#include "reference/catalog/amd_mfma.h"
#include "reference/catalog/amd_wmma.h"

namespace f2lay::oracle {

// The keys of an amd_mfma request at a tensor of rank `rank`.
ref::catalog::AmdMfmaParams amdMfmaParams(const Args& a, size_t rank);

// The keys of an amd_wmma request at `shape`: Gluon 3.9's bases, or Gluon
// 3.6's warps_per_cta and tiles_per_warp turned into the bases of the layout
// they named at `shape`.
ref::catalog::AmdWmmaParams amdWmmaParams(const Args& a, const ref::catalog::Shape& shape);

}  // namespace f2lay::oracle
