// The oracle's op table: each op's documentation (what --help prints) and its
// handler, which reads the request's keys through Args. The algebra ops are
// in oracle.cpp; each catalog family adds its ops in oracle/catalog_ops/, and
// each analysis in oracle/analysis_ops/ (docs/ARCHITECTURE.md: add an op).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analysis/padding.h"
#include "formats/error.h"
#include "formats/json_format.h"
#include "formats/triton_version.h"
#include "optimized/opt_linear_layout.h"
#include "oracle/oracle.h"
#include "reference/analysis/bank_conflicts.h"
#include "reference/analysis/f2_space.h"
#include "reference/linear_layout.h"

namespace f2lay::oracle {

using Layout = ref::LinearLayout;

// The keys of one request, read with the checks of the JSON format. Every
// reader throws f2lay::Error naming the key (and index) that is wrong.
// The readers an op of both implementations uses are virtual, so that a
// request can also come from elsewhere than JSON: oracle/op_requests.h
// draws them for the differential tests and the fuzzer, op by op.
class Args {
 public:
  explicit Args(const Json& request) : request_(request) {}
  virtual ~Args() = default;
  virtual bool has(const char* key) const { return request_.contains(key); }
  Layout layout(const char* key) const { return layoutAs<Layout>(key); }
  // The layout under `key` as an implementation's LinearLayout (ref or opt).
  template <class L>
  L layoutAs(const char* key) const {
    return L(layoutValue(key));
  }
  // Refuses a padded layout (one with "padding", as padded_shared answers):
  // its offset-to-address map is not linear (analysis/padding.h).
  virtual LayoutValue layoutValue(const char* key) const;
  // A memory layout that may be padded: padded_shared's answer (a layout's
  // keys and "padding": [[interval, padding], ...]) or a plain layout. The
  // linear layout, and the pairs (checked; empty when unpadded).
  template <class L>
  std::pair<L, analysis::Padding> paddedLayoutAs(const char* key) const {
    analysis::Padding p = padding(key);
    if (p.empty()) return {layoutAs<L>(key), {}};
    return {L(unpaddedLayoutValue(key)), std::move(p)};
  }
  // The "padding" of the layout under `key`, checked; empty when it has none.
  virtual analysis::Padding padding(const char* key) const;
  // [[interval, padding], ...] under `key` (e.g. Gluon's
  // interval_padding_pairs), checked as analysis::checkPadding does.
  analysis::Padding paddingPairs(const char* key) const;
  virtual std::string name(const char* key) const;
  virtual uint64_t number(const char* key) const;
  virtual bool boolean(const char* key) const;
  // "triton": the release whose rules to follow, the current one when absent.
  virtual TritonVersion triton() const;
  virtual std::vector<std::string> names(const char* key) const;
  // [4, 8, ...]: non-negative integers.
  virtual std::vector<uint64_t> numbers(const char* key) const;
  // [[1, 0], [0, 1]]: a list of lists of non-negative integers.
  virtual std::vector<std::vector<uint64_t>> numberLists(const char* key) const;
  // [{"name": "x", "size": 4}, ...], the same shape as "out_dims".
  virtual ref::DimSizes dimSizes(const char* key) const;
  // {"register": 3, "lane": 1}, in any order.
  virtual ref::DimValues dimValues(const char* key) const;
  // A permutation of 0..rank-1 (a layout's "order"); large values are
  // refused before they could wrap around into a valid permutation.
  std::vector<unsigned> order(const char* key, size_t rank) const;
  // Gluon's "cga_layout": one block basis (a value per dim) per CTA bit, as a
  // block -> dim0.. layout; nullopt when the key is absent (one CTA).
  std::optional<Layout> cgaLayout(size_t rank) const;
  // The raw value, for keys that hold a nested request (e.g. a parent layout).
  const Json& raw(const char* key) const { return request_.at(key); }

 private:
  LayoutValue unpaddedLayoutValue(const char* key) const;
  const Json& request_;
};

// Triton's legacy CTALayoutAttr, the keys "ctas_per_cga", "cta_split_num"
// and "cta_order" (all three), as a CGA layout: block -> dim0.. (Gluon's
// make_cga_layout; reference/catalog/shape_fit.h, makeCgaLayout).
Layout legacyCgaLayout(const Args& a, size_t rank);

Json layoutJson(const Layout& l);
Json layoutJson(const opt::LinearLayout& l);
Json dimValuesJson(const ref::DimValues& values);

// The keys several catalog families share, documented once.
inline const OpArg kShapeArg{"shape", "the tensor shape (powers of two)"};
inline const OpArg kCgaArg{"cga_layout", "block bases, one value per dim each (default: one CTA)",
                           false};
inline const OpArg kWarpsArg{"warps_per_cta", "warps per CTA, per dim (powers of two)"};
inline const OpArg kOrderArg{"order", "dims from fastest to slowest, a permutation of 0..rank-1"};

// run answers with f2lay::ref; runOpt, where the op has it, with f2lay::opt
// (the same answer: `--check` compares them). Catalog layouts are built by
// the reference's constructors only, as are analyses opt does not have yet.
struct Op {
  OpDoc doc;
  std::function<Json(const Args&)> run;
  std::function<Json(const Args&)> runOpt = nullptr;
};

// Every op, in the order --help lists them (oracle.cpp).
const std::vector<Op>& opTable();

// {"ok": true, "result": ...} or {"ok": false, "error": ...}: run's answer to
// args, never throwing (oracle.cpp).
Json attempt(const std::function<Json(const Args&)>& run, const Args& args);

// The ops of each part after the algebra's (oracle.cpp, one template for both
// implementations), concatenated by opTable() in this order, which --help
// follows.
std::vector<Op> blockedOps();        // catalog_ops/blocked_ops.cpp
std::vector<Op> sliceOps();          // catalog_ops/slice_ops.cpp (and is_distributed, is_memory)
std::vector<Op> sharedOps();         // catalog_ops/shared_ops.cpp
std::vector<Op> mmaOps();            // catalog_ops/mma_ops.cpp (nvidia_mma, dot_operand, ldmatrix)
std::vector<Op> shapeTransferOps();  // catalog_ops/shape_transfer_ops.cpp (trans, reshape, ...)
std::vector<Op> amdOps();            // catalog_ops/amd_ops.cpp (amd_mfma, amd_wmma)
std::vector<Op> amdScaleOps();       // catalog_ops/amd_scale_ops.cpp (amd_mfma_scale, ...)
std::vector<Op> cuteOps();           // catalog_ops/cute_ops.cpp (cute_swizzle, cutlass_tensorop)
std::vector<Op> linearOps();         // catalog_ops/linear_ops.cpp (distributed_linear, ...)
std::vector<Op> tmemOps();           // catalog_ops/tmem_ops.cpp (tensor_memory, tmem_reg_layout)
std::vector<Op> bankOps();           // analysis_ops/bank_ops.cpp (bank_conflicts)
std::vector<Op> swizzleOps();        // analysis_ops/swizzle_ops.cpp (optimal_swizzle, ...)
std::vector<Op> conversionOps();     // analysis_ops/conversion_ops.cpp (classify_conversion, ...)

// The access keys of a bank_conflicts request (element_bytes, access,
// vector_bytes), read once for the op and for `f2lay show --banks`.
analysis::AccessSpec bankAccessSpec(const Args& a);
// {instructions, wavefronts, ideal_wavefronts, conflicts} of a report.
inline Json wavefrontReportJson(const analysis::WavefrontReport& r) {
  return {{"instructions", r.instructions},
          {"wavefronts", r.wavefronts},
          {"ideal_wavefronts", r.idealWavefronts},
          {"conflicts", r.conflicts}};
}
// Flattened tensor vectors (the §5 sets) written like bases: one value per
// out dim each, the first out dim in the lowest bits (swizzle_ops.cpp).
Json vectorsJson(const std::vector<OutDim>& outDims, const std::vector<uint64_t>& vecs);

}  // namespace f2lay::oracle
