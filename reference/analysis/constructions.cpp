// The §5 constructions (analysis/) for the reference's layouts, on its F2
// spaces by plain elimination (f2_space.h).
#include "analysis/gather_impl.h"
#include "analysis/layout_api.h"
#include "analysis/optimal_swizzle_impl.h"
#include "analysis/shuffle_plan_impl.h"
#include "analysis/swizzle_optimum_impl.h"
#include "analysis/vectorization_impl.h"
#include "reference/analysis/f2_space.h"

namespace f2lay::analysis {

// The layout meets the API the constructions call (and the whole shared
// API), and its F2-space backend the interface of space.h.
static_assert(LayoutApi<ref::LinearLayout>);
static_assert(SharedLayoutApi<ref::LinearLayout>);
static_assert(SpaceBackend<ref::analysis::EliminationSpace, ref::LinearLayout>);
static_assert(std::same_as<Space<ref::LinearLayout>, ref::analysis::EliminationSpace>);

F2LAY_INSTANTIATE_VECTORIZATION(ref::LinearLayout)
F2LAY_INSTANTIATE_CONVERSION(ref::LinearLayout)
F2LAY_INSTANTIATE_SHUFFLE_PLAN(ref::LinearLayout)
F2LAY_INSTANTIATE_GATHER(ref::LinearLayout)
F2LAY_INSTANTIATE_OPTIMAL_SWIZZLE(ref::LinearLayout)
F2LAY_INSTANTIATE_SWIZZLE_OPTIMUM(ref::LinearLayout)

}  // namespace f2lay::analysis
