// Golden vectors: the oracle's requests and the answers they must get, one
// versioned JSON file per operation family, for projects that check
// themselves against f2lay without linking C++ (vectors/README.md).
//
// A file is {"format": "f2lay-vectors", "version": 1, "family": ..., "cases":
// [...]}; each case holds its request, the expected answer, its provenance
// and flags (vectors/schema.json). Cases come from two places:
//   - the golden cases of oracle/cases, with their literal answers and the
//     provenance their source names (Triton, an H100 measurement, the paper,
//     "seed": the 16x32 transpose of device_tests/HARDWARE.md#seed-transpose
//     or CUTLASS's visualize_layout tables, CuTe's definition);
//   - requests drawn by properties/' generators from fixed seeds, answered by
//     f2lay::ref and f2lay::opt alike (provenance "reference").
// Generation is deterministic: ctest regenerates the files and compares.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace f2lay::tools {

struct VectorFile {
  std::string name;  // "algebra.json", ...
  std::string text;
};

// Every family's file. Throws f2lay::Error when a golden case fails, when
// ref and opt differ on a drawn request, or when a case has no family.
std::vector<VectorFile> generateVectors();

// Writes the files into `dir` (created if missing); throws f2lay::Error
// naming the folder or file it cannot write.
void writeVectors(const std::vector<VectorFile>& files, const std::string& dir);

// Compares the files with those in `dir`; prints each difference (the first
// differing line of each file) to `out` and returns how many files differ.
// Throws f2lay::Error when `dir` is not a folder.
size_t compareVectors(const std::vector<VectorFile>& files, const std::string& dir,
                      std::ostream& out);

}  // namespace f2lay::tools
