// The bank probe's cases on the host (no GPU): the random padded layouts are
// there, at least 100 of them stored and loaded, each small enough for the
// probe's 64 KiB of shared memory; and the padded golden cases of
// oracle/cases are read with their padding (their predictions equal the
// wavefronts the file states).
#include "device_tests/bank_probes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace f2lay::device {
namespace {

TEST(BankProbes, RandomPaddedCasesFitTheProbe) {
  std::vector<Probe> probes = bankProbes(0);
  int padded = 0, paddedGolden = 0, stores = 0;
  for (const Probe& p : probes) {
    if (p.golden) {
      EXPECT_EQ(p.side.predicted.wavefronts, *p.golden) << p.name;
    }
    if (p.name.find("golden: padded") == 0) ++paddedGolden;
    if (p.name.rfind("random padded", 0) != 0) continue;
    ++padded;
    stores += p.kind == analysis::AccessKind::kStore;
    uint32_t top = 0;
    for (uint32_t a : p.side.addresses) top = std::max(top, a + 16);
    EXPECT_LE(top, 64u << 10) << p.name;
    EXPECT_LE(p.side.addresses.size() * 4, size_t{1} << 20) << p.name;
    EXPECT_GT(p.side.predicted.wavefronts, 0u) << p.name;
  }
  EXPECT_GE(padded, 200);
  EXPECT_GE(stores, 100);
  EXPECT_GE(paddedGolden, 2);
}

}  // namespace
}  // namespace f2lay::device
