// How a target reports a broken law: the message, then abort(), so that
// libFuzzer keeps the input as a crash.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace f2lay::fuzz {

[[noreturn]] inline void fail(const char* target, const std::string& what) {
  std::fprintf(stderr, "%s_fuzzer: %s\n", target, what.c_str());
  std::abort();
}

}  // namespace f2lay::fuzz
