// f2lay_bench: f2lay::opt against f2lay::ref and against M4RI, operation by
// operation, on square random layouts of 8 to 64 bits (bench/README.md).
//
// Names are op/impl/bits, e.g. compose/opt/32, compose/ref/32,
// compose/m4ri/32, so that bench/ratios.py can line them up. Every layout
// and matrix is built once, from a fixed seed, before any timing; the timed
// loops hold the operation and nothing else, except where said (M4RI's
// destructive rank works on a copy made inside the loop: copy/m4ri/N times
// that copy alone).
#include <benchmark/benchmark.h>
#include <m4ri/m4ri.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "optimized/batch_apply.h"
#include "optimized/f2_core.h"
#include "optimized/opt_linear_layout.h"
#include "reference/linear_layout.h"
#include "testkit/columns.h"
#include "testkit/dims.h"

namespace f2lay {
namespace {

constexpr int kSizes[] = {8, 16, 24, 32, 48, 64};
constexpr size_t kBatch = 4096;  // inputs per batched-apply call
constexpr int kMaxApplyAllBits = 24;
constexpr int kMaxRefApplyAllBits = 16;  // ref takes ~1 us a point

using Dims = testkit::DimBits;

// Square layouts of n bits: in dims register/lane/warp/block of n/4 bits
// each, out dims dim0/dim1 of n/2 bits each.
Dims inDims(int n) {
  return {{"register", n / 4}, {"lane", n / 4}, {"warp", n / 4}, {"block", n - 3 * (n / 4)}};
}
Dims outDims(int n) { return {{"dim0", n / 2}, {"dim1", n - n / 2}}; }

// n random columns of outBits bits; linearly independent when asked.
std::vector<uint64_t> randomColumns(std::mt19937_64& rng, int n, int outBits, bool independent) {
  std::vector<uint64_t> cols(n);
  opt::core::Echelon e;
  for (int j = 0; j < n; ++j) do
      cols[j] = rng() & opt::core::lowMask(outBits);
    while (independent && !e.insert(cols[j], j));
  return cols;
}

// The matrix of a layout for M4RI: a row per output bit, a column per input bit.
mzd_t* toMzd(const uint64_t* cols, int inBits, int outBits) {
  mzd_t* m = mzd_init(outBits, inBits);
  for (int r = 0; r < outBits; ++r)
    for (int c = 0; c < inBits; ++c) mzd_write_bit(m, r, c, static_cast<BIT>((cols[c] >> r) & 1));
  return m;
}

struct MzdFree {
  void operator()(mzd_t* m) const { mzd_free(m); }
};
using Mzd = std::unique_ptr<mzd_t, MzdFree>;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "f2lay_bench: setup check failed: %s\n", what.c_str());
  std::exit(1);
}

// Everything one size needs, built once.
struct Inputs {
  int n;
  LayoutValue random;                     // a: random, square (rank, isInjective, compose's inner)
  LayoutValue outer;                      // compose's outer: dim0/dim1 -> dim0/dim1, random
  LayoutValue invertible;                 // invert, pseudoinvert, invertAndCompose's self
  LayoutValue target;                     // invertAndCompose's other: invertible, the same dims
  LayoutValue half1, half2;               // product factors of n/2 bits: their product has n
  std::vector<ref::DimValues> dimInputs;  // kBatch random inputs, as dims
  std::vector<uint64_t> flatInputs;       // the same inputs, flattened
};

Inputs makeInputs(int n) {
  std::mt19937_64 rng(0xf2f2 + n);
  Inputs in;
  in.n = n;
  in.random = testkit::layoutOf(inDims(n), outDims(n), randomColumns(rng, n, n, false));
  in.outer = testkit::layoutOf(outDims(n), outDims(n), randomColumns(rng, n, n, false));
  in.invertible = testkit::layoutOf(inDims(n), outDims(n), randomColumns(rng, n, n, true));
  in.target = testkit::layoutOf(inDims(n), outDims(n), randomColumns(rng, n, n, true));
  int h = n / 2;
  Dims halfIns = {
      {"register", h / 4}, {"lane", h / 4}, {"warp", h / 4}, {"block", h - 3 * (h / 4)}};
  in.half1 = testkit::layoutOf(halfIns, outDims(h), randomColumns(rng, h, h, false));
  in.half2 = testkit::layoutOf(halfIns, outDims(h), randomColumns(rng, h, h, false));
  for (size_t i = 0; i < kBatch; ++i) {
    uint64_t x = rng() & opt::core::lowMask(n);
    in.flatInputs.push_back(x);
    in.dimInputs.push_back(testkit::inputOf(in.random, x));
  }
  return in;
}

// Keeps the compiler from treating a loop-invariant argument as known.
template <class T>
void opaque(T& x) {
  benchmark::DoNotOptimize(x);
}

void reg(const std::string& op, const std::string& impl, int n,
         std::function<void(benchmark::State&)> fn) {
  std::string name = op + "/" + impl + "/" + std::to_string(n);
  benchmark::RegisterBenchmark(name.c_str(), [fn](benchmark::State& s) { fn(s); });
}

// The single-layout and two-layout operations, for ref and for opt alike.
template <class L>
void registerAlgebra(const Inputs& in, const std::string& impl) {
  int n = in.n;
  auto shared = std::make_shared<Inputs>(in);
  reg("apply", impl, n, [shared](benchmark::State& s) {
    L a(shared->random);
    size_t i = 0;
    for (auto _ : s) {
      benchmark::DoNotOptimize(a.apply(shared->dimInputs[i]));
      i = (i + 1) % kBatch;
    }
  });
  reg("compose", impl, n, [shared](benchmark::State& s) {
    L a(shared->random), b(shared->outer);
    for (auto _ : s) {
      opaque(a);
      benchmark::DoNotOptimize(a.compose(b));
    }
  });
  reg("product", impl, n, [shared](benchmark::State& s) {
    L a(shared->half1), b(shared->half2);
    for (auto _ : s) {
      opaque(a);
      benchmark::DoNotOptimize(a * b);
    }
  });
  reg("invert", impl, n, [shared](benchmark::State& s) {
    L a(shared->invertible);
    for (auto _ : s) {
      opaque(a);
      benchmark::DoNotOptimize(a.invert());
    }
  });
  reg("pseudoinvert", impl, n, [shared](benchmark::State& s) {
    L a(shared->invertible);
    for (auto _ : s) {
      opaque(a);
      benchmark::DoNotOptimize(a.pseudoinvert());
    }
  });
  reg("invertAndCompose", impl, n, [shared](benchmark::State& s) {
    L a(shared->invertible), b(shared->target);
    for (auto _ : s) {
      opaque(a);
      benchmark::DoNotOptimize(a.invertAndCompose(b));
    }
  });
  reg("rank", impl, n, [shared](benchmark::State& s) {
    L a(shared->random);
    for (auto _ : s) {
      opaque(a);
      benchmark::DoNotOptimize(a.rank());
    }
  });
  reg("isInjective", impl, n, [shared](benchmark::State& s) {
    L a(shared->random);
    for (auto _ : s) {
      opaque(a);
      benchmark::DoNotOptimize(a.isInjective());
    }
  });
}

// Batched evaluation: opt's BatchApply (each path), opt's applyFlat in a
// loop, and ref's apply in a loop, over the same kBatch inputs.
void registerBatch(const Inputs& in) {
  int n = in.n;
  auto shared = std::make_shared<Inputs>(in);
  reg("apply_flat", "opt", n, [shared](benchmark::State& s) {
    opt::LinearLayout a(shared->random);
    size_t i = 0;
    for (auto _ : s) {
      benchmark::DoNotOptimize(a.applyFlat(shared->flatInputs[i]));
      i = (i + 1) % kBatch;
    }
  });
  for (const auto& variant : {std::pair{"opt", opt::BatchApply::Path::Auto},
                              std::pair{"opt_portable", opt::BatchApply::Path::Portable}}) {
    const char* impl = variant.first;
    opt::BatchApply::Path path = variant.second;  // (clang 14 captures no bindings)
    reg("batch_apply", impl, n, [shared, path](benchmark::State& s) {
      opt::BatchApply batch(opt::LinearLayout(shared->random), path);
      std::vector<uint64_t> out(kBatch);
      for (auto _ : s) {
        batch.apply(shared->flatInputs.data(), out.data(), kBatch);
        benchmark::ClobberMemory();
      }
      s.SetItemsProcessed(static_cast<int64_t>(s.iterations() * kBatch));
      s.SetLabel(batch.path());
    });
    if (n <= kMaxApplyAllBits)
      reg("apply_all", impl, n, [shared, path](benchmark::State& s) {
        opt::BatchApply batch(opt::LinearLayout(shared->random), path);
        std::vector<uint64_t> out(size_t{1} << shared->n);
        for (auto _ : s) {
          batch.applyAll(out.data());
          benchmark::ClobberMemory();
        }
        s.SetItemsProcessed(static_cast<int64_t>(s.iterations() * out.size()));
        s.SetLabel(batch.path());
      });
  }
  reg("batch_apply", "opt_applyflat", n, [shared](benchmark::State& s) {
    opt::LinearLayout a(shared->random);
    std::vector<uint64_t> out(kBatch);
    for (auto _ : s) {
      for (size_t i = 0; i < kBatch; ++i) out[i] = a.applyFlat(shared->flatInputs[i]);
      benchmark::ClobberMemory();
    }
    s.SetItemsProcessed(static_cast<int64_t>(s.iterations() * kBatch));
  });
  reg("batch_apply", "ref", n, [shared](benchmark::State& s) {
    ref::LinearLayout a(shared->random);
    for (auto _ : s)
      for (size_t i = 0; i < kBatch; ++i) benchmark::DoNotOptimize(a.apply(shared->dimInputs[i]));
    s.SetItemsProcessed(static_cast<int64_t>(s.iterations() * kBatch));
  });
  if (n <= kMaxRefApplyAllBits)
    reg("apply_all", "ref", n, [shared](benchmark::State& s) {
      ref::LinearLayout a(shared->random);
      Dims dims = inDims(shared->n);
      ref::DimValues x;
      for (const auto& d : dims) x.push_back({d.first, 0});
      uint64_t count = uint64_t{1} << shared->n;
      for (auto _ : s)
        for (uint64_t flat = 0; flat < count; ++flat) {
          int shift = 0;
          for (size_t k = 0; k < dims.size(); ++k) {
            x[k].second = (flat >> shift) & opt::core::lowMask(dims[k].second);
            shift += dims[k].second;
          }
          benchmark::DoNotOptimize(a.apply(x));
        }
      s.SetItemsProcessed(static_cast<int64_t>(s.iterations() * count));
    });
}

// M4RI on the same matrices: rank (echelon form of a copy), inverse, and the
// product that compose computes (outer's matrix times the inner's).
void registerM4ri(const Inputs& in) {
  int n = in.n;
  opt::LinearLayout random(in.random), outer(in.outer), invertible(in.invertible);
  auto a = std::make_shared<Mzd>(toMzd(random.columns(), n, n));
  auto b = std::make_shared<Mzd>(toMzd(outer.columns(), n, n));
  auto inv = std::make_shared<Mzd>(toMzd(invertible.columns(), n, n));

  // The timed calls, checked once against opt.
  {
    Mzd work(mzd_copy(nullptr, a->get()));
    if (mzd_echelonize(work.get(), 0) != random.rank()) fail("M4RI rank");
    Mzd product(mzd_mul_m4rm(nullptr, b->get(), a->get(), 0));
    Mzd expected(toMzd(random.compose(outer).columns(), n, n));
    if (!mzd_equal(product.get(), expected.get())) fail("M4RI product");
    Mzd naive(mzd_mul_naive(nullptr, b->get(), a->get()));
    if (!mzd_equal(naive.get(), expected.get())) fail("M4RI naive product");
    Mzd inverse(mzd_inv_m4ri(nullptr, inv->get(), 0));
    Mzd expectedInverse(toMzd(invertible.invert().columns(), n, n));
    if (!mzd_equal(inverse.get(), expectedInverse.get())) fail("M4RI inverse");
  }

  reg("copy", "m4ri", n, [a](benchmark::State& s) {
    Mzd work(mzd_init(a->get()->nrows, a->get()->ncols));
    for (auto _ : s) {
      mzd_copy(work.get(), a->get());
      benchmark::ClobberMemory();
    }
  });
  reg("rank", "m4ri", n, [a](benchmark::State& s) {
    Mzd work(mzd_init(a->get()->nrows, a->get()->ncols));
    for (auto _ : s) {
      mzd_copy(work.get(), a->get());
      benchmark::DoNotOptimize(mzd_echelonize(work.get(), 0));
    }
    s.SetLabel("includes copy");
  });
  reg("rank", "m4ri_naive", n, [a](benchmark::State& s) {
    Mzd work(mzd_init(a->get()->nrows, a->get()->ncols));
    for (auto _ : s) {
      mzd_copy(work.get(), a->get());
      benchmark::DoNotOptimize(mzd_echelonize_naive(work.get(), 0));
    }
    s.SetLabel("includes copy");
  });
  reg("invert", "m4ri", n, [inv](benchmark::State& s) {
    Mzd dst(mzd_init(inv->get()->nrows, inv->get()->ncols));
    for (auto _ : s) {
      mzd_inv_m4ri(dst.get(), inv->get(), 0);
      benchmark::ClobberMemory();
    }
  });
  reg("compose", "m4ri", n, [a, b](benchmark::State& s) {
    Mzd c(mzd_init(b->get()->nrows, a->get()->ncols));
    for (auto _ : s) {
      mzd_mul_m4rm(c.get(), b->get(), a->get(), 0);
      benchmark::ClobberMemory();
    }
  });
  reg("compose", "m4ri_naive", n, [a, b](benchmark::State& s) {
    Mzd c(mzd_init(b->get()->nrows, a->get()->ncols));
    for (auto _ : s) {
      mzd_mul_naive(c.get(), b->get(), a->get());
      benchmark::ClobberMemory();
    }
  });
}

}  // namespace
}  // namespace f2lay

int main(int argc, char** argv) {
  using namespace f2lay;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  for (int n : kSizes) {
    Inputs in = makeInputs(n);
    registerAlgebra<opt::LinearLayout>(in, "opt");
    registerAlgebra<ref::LinearLayout>(in, "ref");
    registerBatch(in);
    registerM4ri(in);
  }
  uint64_t identity[1] = {1};
  benchmark::AddCustomContext("batch_apply_path", opt::BatchApply(identity, 1).path());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
