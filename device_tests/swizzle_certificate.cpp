// The swizzle optimum's certificate on the GPU, for tensors larger than the
// ctest's (not a test; device_tests/run runs it). For random pairs of
// distributed layouts of 12 to 14 tensor bits, every element width and
// ldmatrix/stmatrix sides, half of them through a change of the tensor's
// basis, it compares f2lay's swizzle optimum (analysis/swizzle_optimum.h:
// its wavefronts, its instructions, each side's lower bound) with the
// exhaustive search of testkit/swizzle_search.h whose innermost level, every
// (U', R) of swizzle_leaves.h, the GPU tries leaf by leaf with nothing cut.
// The search's witness is costed again address by address on the host.
//
//   f2lay_device_certificate [PAIRS_PER_KIND (20) [MIN_BITS (12) [MAX_BITS (14)]]] [--host]
//
// Prints one CSV line a pair (verdict: certified, mismatch, or declined when
// a problem has more than kMaxLeaves leaves) and a table per kind. --host
// tries the leaves on the CPU instead (to try it where there is no GPU).
// Exit 1 on a mismatch, 2 on bad arguments or without a GPU.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "analysis/swizzle_optimum.h"
#include "device_tests/gpu_leaves.h"
#include "device_tests/gpu_present.h"
#include "formats/error.h"
#include "reference/analysis/tests/search_instruction.h"
#include "reference/linear_layout.h"
#include "testkit/dims.h"
#include "testkit/random_tensor_layouts.h"
#include "testkit/swizzle_search.h"

namespace f2lay::device {
namespace {

using analysis::Instruction;
using testkit::LeafProblem;

constexpr uint64_t kBudget = 50'000'000;  // the search's outer nodes
constexpr uint64_t kMaxHostLeaves = uint64_t{1} << 36;

struct Tally {
  int certified = 0, mismatched = 0, declined = 0, beyondBounds = 0;
  uint64_t leaves = 0;
  double seconds = 0;
};

// One pair: "certified", "mismatch" or "declined"; a CSV line on stdout.
std::string certify(const std::string& kind, int trial, const ref::LinearLayout& a,
                    const ref::LinearLayout& b, uint64_t w, const analysis::SwizzleOptions& options,
                    const testkit::LeafSolver& leaves, Tally& tally) {
  auto start = std::chrono::steady_clock::now();
  const ref::LinearLayout storing = analysis::storingWarps(a);
  testkit::SearchSide sa{&storing.value(), true, ref::analysis::searchInstruction(options.write)};
  testkit::SearchSide sb{&b.value(), false, ref::analysis::searchInstruction(options.read)};
  std::string verdict;
  std::optional<analysis::SwizzleOptimum<ref::LinearLayout>> o;
  std::optional<testkit::SearchAnswer> pair, store, load;
  try {
    o = analysis::swizzleOptimum(a, b, w, options);
  } catch (const Error&) {  // no memory layout serves a matrix side: the search must agree
  }
  bool searchRefused = false;
  try {
    pair = testkit::searchSwizzleMinimum(sa, sb, w, kBudget, leaves);
    store = testkit::searchSideMinimum(sa, w, kBudget, leaves);
    load = testkit::searchSideMinimum(sb, w, kBudget, leaves);
  } catch (const std::invalid_argument&) {
    searchRefused = true;
  }
  if (!o || searchRefused) {
    verdict = !o && searchRefused ? "refused by both" : "mismatch";
  } else {
    if (!pair || !store || !load) {
      verdict = "declined";
    } else if (pair->total == o->wavefronts() && pair->instructions == o->instructions() &&
               store->total == o->storeBound.wavefronts() &&
               load->total == o->loadBound.wavefronts()) {
      verdict = "certified";
    } else {
      verdict = "mismatch";
    }
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  uint64_t leafCount =
      (pair ? pair->leaves : 0) + (store ? store->leaves : 0) + (load ? load->leaves : 0);
  size_t warpBits = 0;
  for (const InDim& in : a.value().in_dims)
    if (in.name == "warp") warpBits = in.bases.size();
  std::printf("%s,%d,%d,%zu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%.3f,%s\n", kind.c_str(),
              trial, testkit::totalBits(testkit::outDimBits(a.value())), warpBits,
              static_cast<unsigned long long>(o ? o->wavefronts() : 0),
              static_cast<unsigned long long>(o ? o->instructions() : 0),
              static_cast<unsigned long long>(pair ? pair->total : 0),
              static_cast<unsigned long long>(pair ? pair->instructions : 0),
              static_cast<unsigned long long>(o ? o->storeBound.wavefronts() : 0),
              static_cast<unsigned long long>(store ? store->total : 0),
              static_cast<unsigned long long>(o ? o->loadBound.wavefronts() : 0),
              static_cast<unsigned long long>(load ? load->total : 0),
              static_cast<unsigned long long>(leafCount), seconds, verdict.c_str());
  std::fflush(stdout);
  tally.leaves += leafCount;
  tally.seconds += seconds;
  if (verdict == "certified") {
    ++tally.certified;
    tally.beyondBounds += !o->meetsBounds();
  } else if (verdict == "mismatch") {
    ++tally.mismatched;
    std::ostringstream pairText;
    pairText << "A " << a << "\nB " << b;
    std::fprintf(stderr, "mismatch: %s trial %d\n%s\n", kind.c_str(), trial,
                 pairText.str().c_str());
  } else if (verdict == "declined") {
    ++tally.declined;
  }
  return verdict;
}

int run(int pairs, int minBits, int maxBits, bool host) {
  std::optional<GpuLeaves> gpu;
  testkit::LeafSolver leaves;
  if (host) {
    leaves = testkit::hostLeafSolver(kMaxHostLeaves);
  } else {
    if (std::string why = noGpu(); !why.empty()) {
      std::fprintf(stderr, "f2lay_device_certificate: no GPU: %s (pass --host to try on the CPU)\n",
                   why.c_str());
      return 2;
    }
    gpu.emplace();
    leaves = [&](const LeafProblem& p) { return (*gpu)(p); };
  }
  std::printf(
      "kind,trial,bits,warp_bits,optimum,instructions,searched,searched_instructions,"
      "store_bound,store_minimum,load_bound,load_minimum,leaves,seconds,verdict\n");
  std::mt19937_64 rng(2026);
  std::map<std::string, Tally> tallies;
  struct Kind {
    std::string name;
    uint64_t w;
    bool matrix;  // one side ldmatrix or stmatrix (.trans), one warp
  };
  const std::vector<Kind> kinds = {{"1 B", 1, false},   {"2 B", 2, false},
                                   {"4 B", 4, false},   {"8 B", 8, false},
                                   {"16 B", 16, false}, {"2 B ldmatrix/stmatrix", 2, true}};
  for (const auto& [kind, w, matrix] : kinds) {
    for (int trial = 0; trial < pairs; ++trial) {
      auto [va, vb] =
          testkit::randomDistributedPair(rng, minBits, maxBits - minBits + 1, matrix ? 1 : 3);
      if (trial % 2) std::tie(va, vb) = testkit::throughBasisChange(rng, va, vb);
      analysis::SwizzleOptions options;
      if (matrix)
        (trial % 2 ? options.write : options.read) =
            trial % 4 < 2 ? Instruction::kMatrix : Instruction::kMatrixTrans;
      certify(kind, trial, ref::LinearLayout(va), ref::LinearLayout(vb), w, options, leaves,
              tallies[kind]);
    }
  }
  std::printf(
      "\n| kind | pairs | certified | beyond both bounds | declined | mismatched | leaves "
      "tried | seconds |\n|---|---|---|---|---|---|---|---|\n");
  int mismatched = 0;
  for (const Kind& k : kinds) {
    const std::string& kind = k.name;
    const Tally& t = tallies[kind];
    std::printf("| %s | %d | %d | %d | %d | %d | %.3g | %.1f |\n", kind.c_str(), pairs, t.certified,
                t.beyondBounds, t.declined, t.mismatched, static_cast<double>(t.leaves), t.seconds);
    mismatched += t.mismatched;
  }
  return mismatched == 0 ? 0 : 1;
}

}  // namespace
}  // namespace f2lay::device

int main(int argc, char** argv) {
  const char* usage =
      "usage: f2lay_device_certificate [PAIRS_PER_KIND (20) [MIN_BITS (12) [MAX_BITS (14)]]] "
      "[--host]\n";
  bool host = argc > 1 && std::string(argv[argc - 1]) == "--host";
  if (host) --argc;
  long values[3] = {20, 12, 14};
  if (argc > 4) {
    std::fputs(usage, stderr);
    return 2;
  }
  for (int i = 1; i < argc; ++i) {
    char* end = nullptr;
    values[i - 1] = std::strtol(argv[i], &end, 10);
    if (*argv[i] == 0 || *end != 0) {
      std::fprintf(stderr, "f2lay_device_certificate: not a number: '%s'\n%s", argv[i], usage);
      return 2;
    }
  }
  if (values[0] < 1 || values[0] > 10000 || values[1] < 6 || values[2] < values[1] ||
      values[2] > 20) {
    std::fprintf(stderr,
                 "f2lay_device_certificate: need 1 <= PAIRS_PER_KIND <= 10000 and "
                 "6 <= MIN_BITS <= MAX_BITS <= 20\n%s",
                 usage);
    return 2;
  }
  try {
    return f2lay::device::run(static_cast<int>(values[0]), static_cast<int>(values[1]),
                              static_cast<int>(values[2]), host);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "f2lay_device_certificate: %s\n", e.what());
    return 1;
  }
}
