// MLIR attribute values as Triton prints them in TTGIR, read into plain JSON
// so that the audit can map each layout attribute to f2lay's catalog request
// without knowing MLIR's grammar:
//
//   42, -1, 7 : i32        a number (an integer's type annotation is dropped)
//   true, false            a bool; a unit attribute (a key without "= value")
//                          is true as well
//   "text"                 a string
//   [a, b, ...]            an array; padded_shared's "32:+4" items become
//                          {"interval": 32, "padding": 4}
//   array<i32: 1, 0>       an array of numbers
//   {key = value, ...}     an object
//   #ttg.blocked<...>      a dialect attribute: an object whose "#" is its name
//                          ("ttg.blocked"); its body's "key = value" items and
//                          the keys of a "{...}" item are merged into it, and
//                          any other item goes, in order, into "#args"
//   #ttng.tensor_memory    a dialect attribute without a body: {"#": name}
//   #blocked1              an alias (from "#blocked1 = ..." at the top of the
//                          file), replaced by its value; aliases may name
//                          other aliases
//   f16, i32, !tt.ptr<f16> a type or another bare word: its text, a string
//
// Anything else (dense<...>, affine maps) is an error naming its position, so
// a reader never guesses.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "formats/text_cursor.h"

namespace f2lay {

// Looks up an alias's value ("blocked1" without the '#'); throws f2lay::Error
// for an unknown alias.
using MlirAliases = std::function<nlohmann::json(const std::string& name)>;

// Reads one attribute value at the cursor (leading blanks skipped), leaving
// the cursor after it.
//   Throws: f2lay::Error naming the line and column of anything it cannot read.
nlohmann::json readMlirValue(TextCursor& in, const MlirAliases& aliases);

// The text of a balanced <...>, (...), [...] or {...} group at the cursor,
// brackets included, skipping strings; the cursor ends after it.
//   Throws: f2lay::Error when the group does not close.
std::string_view readBalanced(TextCursor& in);

}  // namespace f2lay
