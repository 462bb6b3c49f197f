// A conversion case (generators.h: makeConversionPair) and the constructions
// the analysis laws check on it, each built at most once per case and
// implementation: the laws of one case (and its RapidCheck tags) share them,
// and a fuzz target that checks three laws of an input and then compares ref
// with opt builds the reference's answers once, not four times.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/conversion.h"
#include "analysis/optimal_swizzle.h"
#include "analysis/swizzle_optimum.h"
#include "properties/case.h"

namespace f2lay::properties {

// The element width of a conversion case (params.element_bytes).
inline uint64_t elementBytes(const Case& c) { return c.params.at("element_bytes").get<uint64_t>(); }

template <class L>
class ConversionCase {
 public:
  L a, b;
  uint64_t w;

  explicit ConversionCase(const Case& c)
      : a(c.layouts[0]), b(c.layouts[1]), w(elementBytes(c)), layouts_(c.layouts) {}
  bool isOf(const Case& c) const { return c.layouts == layouts_ && elementBytes(c) == w; }

  const analysis::Classification<L>& classification() const {
    if (!classification_) classification_ = analysis::classifyConversion(a, b);
    return *classification_;
  }
  // The shuffle plan, or nothing where it refuses a broadcast that only one
  // side has (analysis/conversion.h's UnpairedBroadcast: refused with the
  // lane bit named, never assumed away). Other refusals throw, each time they
  // are asked for.
  const std::optional<analysis::ShufflePlan>& plan() const {
    if (!plan_) {
      try {
        plan_.emplace(analysis::shufflePlan(a, b, classification(), std::min<uint64_t>(w, 8)));
      } catch (const analysis::UnpairedBroadcast&) {
        plan_.emplace(std::nullopt);
      }
    }
    return *plan_;
  }
  const analysis::OptimalSwizzle<L>& swizzle() const {
    if (!swizzle_) swizzle_ = analysis::optimalSwizzle(a, b, w);
    return *swizzle_;
  }
  const analysis::SwizzleOptimum<L>& optimum() const {
    if (!optimum_) optimum_ = analysis::swizzleOptimum(a, b, w);
    return *optimum_;
  }

 private:
  std::vector<LayoutValue> layouts_;
  mutable std::optional<analysis::Classification<L>> classification_;
  mutable std::optional<std::optional<analysis::ShufflePlan>> plan_;
  mutable std::optional<analysis::OptimalSwizzle<L>> swizzle_;
  mutable std::optional<analysis::SwizzleOptimum<L>> optimum_;
};

// The last case of each implementation L, kept until the next call with
// another case or forgetConversionCases().
template <class L>
std::optional<ConversionCase<L>>& lastConversionCase() {
  static std::optional<ConversionCase<L>> last;
  return last;
}

// c's constructions with implementation L; the reference stays valid until
// the next call with another case.
template <class L>
const ConversionCase<L>& conversionCase(const Case& c) {
  std::optional<ConversionCase<L>>& last = lastConversionCase<L>();
  if (!last || !last->isOf(c)) last.emplace(c);
  return *last;
}

// Frees the kept cases: a fuzz target calls it at the end of each input, so
// that every input frees what it allocates (libFuzzer runs an input again,
// looking for a leak, when it does not).
template <class... L>
void forgetConversionCases() {
  (lastConversionCase<L>().reset(), ...);
}

}  // namespace f2lay::properties
