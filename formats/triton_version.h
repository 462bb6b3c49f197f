// Which Triton release's rules an operation follows, where releases differ.
//
// f2lay follows the current release (3.9.0) by default. Projects pinned to an
// older release name it: the C++ API takes a TritonVersion, and an oracle
// request takes "triton": "3.6". reference/linear_layout.h says which
// operations differ and how.
#pragma once

#include <string>
#include <string_view>

#include "formats/error.h"

namespace f2lay {

enum class TritonVersion { k3_6, k3_9 };

inline constexpr TritonVersion kCurrentTriton = TritonVersion::k3_9;

inline const char* toString(TritonVersion v) { return v == TritonVersion::k3_6 ? "3.6" : "3.9"; }

// "3.6" or "3.9"; anything else is refused naming both.
inline TritonVersion parseTritonVersion(std::string_view text) {
  for (TritonVersion v : {TritonVersion::k3_6, TritonVersion::k3_9})
    if (text == toString(v)) return v;
  throw Error("triton: expected \"3.9\" (the current release, the default) or \"3.6\", got \"" +
              std::string(text) + "\"");
}

}  // namespace f2lay
