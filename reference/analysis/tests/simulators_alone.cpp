// Links the simulators with the model alone (f2lay_simulators, no f2lay_ref):
// every simulator entry point is taken, so the linker pulls in each
// simulator's object file, and the link fails if any of them calls a §5
// construction (analysis/) it is meant to check independently. The build is
// the test; running it only reports how many entry points it holds.
#include <cstdio>

#include "reference/analysis/bank_conflicts.h"
#include "reference/analysis/gather_simulator.h"
#include "reference/analysis/shared_roundtrip.h"
#include "reference/analysis/warp_simulator.h"
#include "reference/analysis/wavefront_rule.h"

int main() {
  using namespace f2lay::ref::analysis;
  const void* entries[] = {
      reinterpret_cast<const void*>(&simulateBankConflicts),
      reinterpret_cast<const void*>(&warpAccesses),
      reinterpret_cast<const void*>(&widestVectorBytes),
      reinterpret_cast<const void*>(&vectorWavefronts),
      reinterpret_cast<const void*>(&matrixWavefronts),
      reinterpret_cast<const void*>(&simulateShufflePlan),
      reinterpret_cast<const void*>(&simulateGather),
      reinterpret_cast<const void*>(&simulateSharedRoundTrip),
  };
  int linked = 0;
  for (const void* e : entries) linked += e != nullptr;
  std::printf("%d simulator entry points linked without the constructions\n", linked);
  return linked == static_cast<int>(sizeof entries / sizeof entries[0]) ? 0 : 1;
}
