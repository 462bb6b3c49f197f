// Golden cases: JSON Lines files of oracle requests with the answers they
// must get, each line
//   {"name": "...", "source": "...", "request": {...},
//    "expect": {"ok": true, "result": ...}}
// or, where only some keys of the answer have a source (a count measured on
// the GPU, say), "expect": {"ok": true, "result_includes": {...}}: each key
// stated must be there with that value (objects recursively); or, for a
// request that must fail,
//   {..., "expect": {"ok": false, "error_contains": "..."}}.
// The expected values are stated literally and say where they come from
// ("source"): Triton's published tests, the paper, CuTe and CUTLASS,
// measurements on the GPU (device_tests/HARDWARE.md). A source that names a
// "seed" file means one of the two worked examples f2lay started from, whose
// facts the repository keeps: the 16x32 fp32 one-warp transpose
// (device_tests/HARDWARE.md#seed-transpose) and CUTLASS's visualize_layout
// tables of TensorOpMultiplicand (reference/catalog/tests/cutlass_test.cpp).
// The files in oracle/cases are built into `f2lay verify` and run by ctest.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/oracle.h"

namespace f2lay::oracle {

struct CaseFile {
  std::string name;
  std::string text;  // JSON Lines
};

struct CaseResult {
  std::string file;
  std::string name;
  std::string source;
  bool passed = false;
  std::string detail;  // why it failed
};

// oracle/cases/*.jsonl, embedded at build time.
const std::vector<CaseFile>& builtinCaseFiles();

// Runs every case of a file through the oracle. A malformed case line throws
// f2lay::Error naming the file and line.
std::vector<CaseResult> runCases(const CaseFile& file, Impl impl = Impl::kOpt);

// Runs the files, prints a summary table (and every failure) to `out`, with
// a row per group (CaseResult::file) of `extraChecks`, results of checks
// already run (analysis/pair_checks.h), and returns the number of failures.
size_t verifyAndReport(const std::vector<CaseFile>& files, std::ostream& out,
                       const std::vector<CaseResult>& extraChecks = {}, Impl impl = Impl::kOpt);

}  // namespace f2lay::oracle
