// The §5 constructions (analysis/) for f2lay::opt's packed layouts, on the
// packed echelon (subspace.h).
#include "analysis/gather_impl.h"
#include "analysis/layout_api.h"
#include "analysis/optimal_swizzle_impl.h"
#include "analysis/shuffle_plan_impl.h"
#include "analysis/swizzle_optimum_impl.h"
#include "analysis/vectorization_impl.h"
#include "optimized/analysis/subspace.h"

namespace f2lay::analysis {

// The layout meets the API the constructions call (and the whole shared
// API), and its F2-space backend the interface of space.h.
static_assert(LayoutApi<opt::LinearLayout>);
static_assert(SharedLayoutApi<opt::LinearLayout>);
static_assert(SpaceBackend<opt::analysis::EchelonSpace, opt::LinearLayout>);
static_assert(std::same_as<Space<opt::LinearLayout>, opt::analysis::EchelonSpace>);

F2LAY_INSTANTIATE_VECTORIZATION(opt::LinearLayout)
F2LAY_INSTANTIATE_CONVERSION(opt::LinearLayout)
F2LAY_INSTANTIATE_SHUFFLE_PLAN(opt::LinearLayout)
F2LAY_INSTANTIATE_GATHER(opt::LinearLayout)
F2LAY_INSTANTIATE_OPTIMAL_SWIZZLE(opt::LinearLayout)
F2LAY_INSTANTIATE_SWIZZLE_OPTIMUM(opt::LinearLayout)

}  // namespace f2lay::analysis
