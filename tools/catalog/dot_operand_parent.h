// dot_operand's "parent": an accumulator request's keys without "shape", its
// "op" naming the family (nvidia_mma when absent, amd_mfma, amd_wmma). Read
// by dot_operand (mma_ops.cpp) and by the AMD scale ops, whose
// "dot_operand_layout" is a dot_operand request's keys.
#pragma once

#include <string>

#include "tools/op_table.h"

namespace f2lay::tools {

struct DotOperandParent {
  std::string op;  // "nvidia_mma", "amd_mfma" or "amd_wmma"
  Json request;    // the parent's keys, read with that op's own reader
};

// The "parent" of `a`, its keys checked against those of the op it names
// (the op table's documentation): unknown or missing keys, "shape", and
// amd_wmma's Gluon 3.6 keys are refused with an f2lay::Error naming the
// parent.
DotOperandParent dotOperandParent(const Args& a);

}  // namespace f2lay::tools
