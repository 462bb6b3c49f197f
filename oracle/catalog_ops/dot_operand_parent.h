// dot_operand's "parent": an accumulator request's keys without "shape", its
// "op" naming the family (nvidia_mma when absent, amd_mfma, amd_wmma). Read
// by dot_operand (mma_ops.cpp) and by the AMD scale ops, whose
// "dot_operand_layout" is a dot_operand request's keys.
#pragma once

#include <string>

#include "oracle/op_table.h"

namespace f2lay::oracle {

struct DotOperandParent {
  std::string op;  // "nvidia_mma", "amd_mfma" or "amd_wmma"
  Json request;    // the parent's keys, read with that op's own reader
};

// The "parent" of `a`, its keys checked against those of the op it names
// (the op table's documentation): unknown or missing keys, "shape", and
// amd_wmma's Gluon 3.6 keys are refused with an f2lay::Error naming the
// parent.
DotOperandParent dotOperandParent(const Args& a);

// The "dot_operand_layout" of an op that takes a dot operand (Gluon's
// functions of one: the AMD scale layouts, AMD's padded choice): a
// dot_operand request's keys without "shape" ("op", if given,
// dot_operand), its parent of the family `family`. Errors name `op`.
struct DotOperandLayoutKeys {
  uint64_t index, kWidth;
  Json parent;  // the parent's keys, for that family's reader
};
DotOperandLayoutKeys dotOperandLayout(const Args& a, const std::string& op,
                                      const std::string& family);

}  // namespace f2lay::oracle
