// The §5 constructions (analysis/) for f2lay::opt's packed layouts, on the
// packed echelon (subspace.h).
#include "analysis/gather_impl.h"
#include "analysis/optimal_swizzle_impl.h"
#include "analysis/shuffle_plan_impl.h"
#include "analysis/swizzle_optimum_impl.h"
#include "analysis/vectorization_impl.h"
#include "optimized/analysis/subspace.h"

namespace f2lay::analysis {

F2LAY_INSTANTIATE_VECTORIZATION(opt::LinearLayout)
F2LAY_INSTANTIATE_CONVERSION(opt::LinearLayout)
F2LAY_INSTANTIATE_SHUFFLE_PLAN(opt::LinearLayout)
F2LAY_INSTANTIATE_GATHER(opt::LinearLayout)
F2LAY_INSTANTIATE_OPTIMAL_SWIZZLE(opt::LinearLayout)
F2LAY_INSTANTIATE_SWIZZLE_OPTIMUM(opt::LinearLayout)

}  // namespace f2lay::analysis
