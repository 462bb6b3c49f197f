// Apply on the GPU (a part of device_tests/README.md): a kernel evaluates
// many layouts at every input with f2lay::opt's core (f2_core.h compiled as
// device code); the host compares every output with f2lay::opt on the CPU and
// a sample with the test side's independent evaluator (testkit/evaluate.h).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "device_tests/gpu.h"
#include "optimized/f2_core.h"
#include "optimized/opt_linear_layout.h"
#include "testkit/columns.h"
#include "testkit/evaluate.h"
#include "testkit/random_layout.h"

namespace f2lay::device {
namespace {

// Layout k has n[k] input bits, its columns at cols[colStart[k]...], and its
// outputs at out[outStart[k] + x] for x < 2^n[k]. blockIdx.y picks the layout.
__global__ void applyEveryInput(const uint64_t* cols, const int* n, const uint64_t* colStart,
                                const uint64_t* outStart, uint64_t* out) {
  int k = blockIdx.y;
  uint64_t inputs = uint64_t{1} << n[k];
  for (uint64_t x = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; x < inputs;
       x += uint64_t{gridDim.x} * blockDim.x)
    out[outStart[k] + x] = opt::core::apply(cols + colStart[k], n[k], x);
}

// Every layout's outputs at every input, computed on the GPU.
std::vector<uint64_t> applyOnGpu(const std::vector<opt::LinearLayout>& layouts,
                                 std::vector<uint64_t>& outStart) {
  std::vector<uint64_t> cols, colStart;
  std::vector<int> n;
  uint64_t total = 0;
  for (const opt::LinearLayout& l : layouts) {
    colStart.push_back(cols.size());
    outStart.push_back(total);
    n.push_back(l.getTotalInDimSizeLog2());
    cols.insert(cols.end(), l.columns(), l.columns() + n.back());
    total += uint64_t{1} << n.back();
  }
  cols.push_back(0);  // never empty
  uint64_t *dCols, *dColStart, *dOutStart, *dOut;
  int* dN;
  std::vector<uint64_t> out(total);
  auto copy = [](auto* dst, const auto& src) {
    return cudaMemcpy(dst, src.data(), src.size() * sizeof(src[0]), cudaMemcpyHostToDevice);
  };
  if (cudaMalloc(&dCols, cols.size() * 8) || cudaMalloc(&dColStart, colStart.size() * 8) ||
      cudaMalloc(&dOutStart, outStart.size() * 8) || cudaMalloc(&dOut, total * 8) ||
      cudaMalloc(&dN, n.size() * sizeof(int)) || copy(dCols, cols) || copy(dColStart, colStart) ||
      copy(dOutStart, outStart) || copy(dN, n))
    return {};
  // Poisoned first: an output the kernel never writes cannot pass.
  cudaMemset(dOut, 0xAB, total * 8);
  applyEveryInput<<<dim3(64, layouts.size()), 256>>>(dCols, dN, dColStart, dOutStart, dOut);
  bool ok = cudaDeviceSynchronize() == cudaSuccess &&
            cudaMemcpy(out.data(), dOut, total * 8, cudaMemcpyDeviceToHost) == cudaSuccess;
  for (void* p : {static_cast<void*>(dCols), static_cast<void*>(dColStart),
                  static_cast<void*>(dOutStart), static_cast<void*>(dOut), static_cast<void*>(dN)})
    cudaFree(p);
  return ok ? out : std::vector<uint64_t>{};
}

// Paper §4.1, Figure 1 layout A: register 1 of lane 9 holds (2, 3). Flat
// input 1 + 9 * 4 = 37 (2 register bits first), flat output 2 + 3 * 16 = 50.
TEST(DeviceApply, PaperFigure1LayoutA) {
  F2LAY_REQUIRE_GPU();
  LayoutValue a{{{"register", {{0, 1}, {1, 0}}},
                 {"lane", {{0, 2}, {0, 4}, {0, 8}, {2, 0}, {4, 0}}},
                 {"warp", {{8, 0}}}},
                {{"dim0", 16}, {"dim1", 16}}};
  std::vector<uint64_t> start;
  std::vector<uint64_t> out = applyOnGpu({opt::LinearLayout(a)}, start);
  ASSERT_EQ(out.size(), 256u) << "a CUDA call failed";
  EXPECT_EQ(out[37], 50u);
}

TEST(DeviceApply, RandomLayoutsEveryInputEqualOpt) {
  F2LAY_REQUIRE_GPU();
  std::mt19937_64 rng(8);
  std::vector<LayoutValue> values;
  std::vector<opt::LinearLayout> layouts;
  for (int i = 0; i < 300; ++i) {
    values.push_back(testkit::randomLayout(rng, {"register", "lane", "warp", "block"},
                                           {"dim0", "dim1", "dim2"}, 4));
    layouts.emplace_back(values.back());
  }
  std::vector<uint64_t> start;
  std::vector<uint64_t> out = applyOnGpu(layouts, start);
  ASSERT_FALSE(out.empty()) << "a CUDA call failed";
  uint64_t checked = 0, mismatches = 0;
  for (size_t k = 0; k < layouts.size(); ++k)
    for (uint64_t x = 0; x < uint64_t{1} << layouts[k].getTotalInDimSizeLog2(); ++x, ++checked) {
      uint64_t gpu = out[start[k] + x];
      bool wrong =
          gpu != layouts[k].applyFlat(x) ||
          (x % 97 == 0 && gpu != testkit::flatOut(values[k], testkit::apply(values[k], x)));
      if (wrong && ++mismatches <= 5)
        ADD_FAILURE() << "layout " << k << " input " << x << ": the GPU says " << gpu
                      << ", opt says " << layouts[k].applyFlat(x);
    }
  EXPECT_EQ(mismatches, 0u) << "of " << checked << " outputs";
  RecordProperty("outputs_checked", std::to_string(checked));
}

}  // namespace
}  // namespace f2lay::device
