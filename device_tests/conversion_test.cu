// Conversions on the GPU (a part of device_tests/README.md): 1,000 random
// pairs from the properties' generator and the catalog's pairs, each through
// shared memory on f2lay's optimal swizzle and, where the classification
// allows it and the construction applies, by the warp-shuffle plan. Random
// data, poisoned outputs, every B register of every lane checked against
// B.apply.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>

#include "device_tests/conversion_batch.h"
#include "device_tests/conversion_kernels.h"
#include "device_tests/gpu.h"

namespace f2lay::device {
namespace {

const Batch& cases() {
  static const Batch batch = [] {
    Batch b;
    addRandomPairs(b, 1000, 8);
    addCatalogPairs(b);
    return b;
  }();
  return batch;
}

// The tables alone, without a GPU: the host replay of the kernels' program
// delivers every element, so on the GPU only the hardware is in question.
TEST(DeviceConversion, TablesDeliverEveryElementOnTheHost) {
  const Batch& batch = cases();
  for (const std::string& s : batch.skipped) ADD_FAILURE() << "not built: " << s;
  ASSERT_GE(batch.cases.size(), 1000u);
  std::map<std::string, int> kinds, shuffles, vectors;
  for (size_t i = 0; i < batch.cases.size(); ++i) {
    ++kinds[batch.cases[i].kind];
    shuffles[batch.cases[i].kind] += batch.device[i].hasShuffle;
    auto side = [](SharedInstruction kind, uint32_t bytes) {
      return kind == SharedInstruction::kVector
                 ? std::to_string(bytes)
                 : std::string(kind == SharedInstruction::kMatrix ? "matrix x" : "matrix.trans x") +
                       std::to_string(bytes / 4);
    };
    ++vectors[side(batch.device[i].storeKind, batch.device[i].storeVector) + " / " +
              side(batch.device[i].loadKind, batch.device[i].loadVector)];
  }
  for (const auto& [kind, n] : kinds)
    std::printf("%s: %d cases, %d with a shuffle plan\n", kind.c_str(), n, shuffles[kind]);
  for (const auto& [v, n] : vectors)
    std::printf("store / load bytes (or ldmatrix, stmatrix) %s: %d cases\n", v.c_str(), n);
  for (Path path : {Path::kShared, Path::kShuffle}) {
    uint64_t checked = 0;
    for (const std::string& w : checkOutputs(batch, path, replayOnHost(batch, path), checked))
      ADD_FAILURE() << (path == Path::kShared ? "shared: " : "shuffle: ") << w;
    EXPECT_GT(checked, 0u);
  }
}

// The check can fail: a replay whose store addresses of one case are
// rotated by one lane puts elements where B does not look for them.
TEST(DeviceConversion, TheCheckCatchesAWrongAddress) {
  Batch batch = cases();
  const DeviceCase& c = batch.device.at(0);
  uint32_t* lanes = &batch.pool[c.storeAddresses];
  std::rotate(lanes, lanes + 1, lanes + kLanes);
  uint64_t checked = 0;
  EXPECT_FALSE(
      checkOutputs(batch, Path::kShared, replayOnHost(batch, Path::kShared), checked).empty());
}

void runAndCheck(Path path) {
  const Batch& batch = cases();
  std::string error;
  std::vector<uint8_t> out = runOnGpu(batch, path, error);
  ASSERT_TRUE(error.empty()) << error;
  uint64_t checked = 0;
  for (const std::string& w : checkOutputs(batch, path, out, checked)) ADD_FAILURE() << w;
  uint64_t run = 0;
  for (const DeviceCase& c : batch.device) run += path == Path::kShared || c.hasShuffle;
  std::printf("%s: %llu cases, %llu locations checked\n",
              path == Path::kShared ? "shared memory" : "warp shuffle",
              static_cast<unsigned long long>(run), static_cast<unsigned long long>(checked));
  ::testing::Test::RecordProperty("cases", std::to_string(run));
  ::testing::Test::RecordProperty("locations_checked", std::to_string(checked));
}

TEST(DeviceConversion, ThroughSharedMemoryEveryElement) {
  F2LAY_REQUIRE_GPU();
  runAndCheck(Path::kShared);
}

TEST(DeviceConversion, ByWarpShufflesEveryElement) {
  F2LAY_REQUIRE_GPU();
  runAndCheck(Path::kShuffle);
}

}  // namespace
}  // namespace f2lay::device
