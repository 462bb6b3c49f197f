// What Triton 3.9.0 generates for a tt.reduce on NVIDIA GPUs (one CTA): the
// convert_layouts it lowers the reduction's data movement to. Since Triton's
// PR #9219 the reduce has no shared-memory code of its own:
//   1. it combines the values a thread holds along the axis (registers),
//   2. then the lanes' along it (shfl.sync.bfly),
//   3. then moves the warp bits that still run along the axis into lanes with
//      an ordinary convert_layout (the "inter-warp" layout: they swap with
//      lanes that now hold copies, or else with lanes 0, 1, ...), and
//      combines those lanes again,
//   4. and converts to the result's slice layout if it is not there yet.
// Each convert runs once per operand (argmax's value and index apart), and
// is lowered like any other (triton_lowering.h), so its cost is that of the
// swizzle Triton's generic swizzling picks for it.
//
// Triton's names: ReduceOpHelper's zeroBasesAlongDimAndReorder and
// getInterWarpReductionLayout, ReduceOpConversion's convertLayoutValues.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "reference/analysis/wavefront_rule.h"
#include "reference/linear_layout.h"

namespace f2lay::ref::analysis {

// The convert_layouts of a tt.reduce along out dim `axis` of `operand`, in
// order, each (from, to); none where warps hold no part of the axis (the
// reduce then stays in registers and lanes).
//   Requires: operand a distributed layout (register, lane, warp, and
//     optionally block: Triton's in dims); axis one of its out dims' positions;
//     result the layout of the reduce's result (the operand's slice along the
//     axis, as Triton's toLinearLayout gives it), or the empty layout for the
//     operand's bases off the axis (Triton's slice of a blocked or mma parent;
//     nothing for a scalar result, from a rank-1 operand).
//   Throws: f2lay::Error naming what is outside that.
//   Ensures: the layouts of the first convert keep the axis (with only its
//     bits not yet combined); a last convert to `result` drops it.
std::vector<std::pair<LinearLayout, LinearLayout>> tritonReduceConversions(
    const LinearLayout& operand, size_t axis, const LinearLayout& result);

// One warp's shared-memory instruction of scalar accesses: st.shared or
// ld.shared of `bytes` a lane, each lane's address (inactive lanes, under a
// false predicate, access nothing).
struct WarpAccess {
  bool store = false;
  uint64_t bytes = 0;
  std::vector<LaneAccess> lanes;
  size_t operand = 0;  // whose data it moves
  bool result = false;  // a load of the op's result, its last code
};

// What Triton 3.6.0 generated for the same tt.reduce (the lowering PR #9219
// replaced): after the registers and lanes along the axis are combined,
//   1. the first lane along the axis of each warp stores its partial, a
//      scalar st.shared, into a scratch of the tensor's shape with W (the
//      warps along the axis) in place of the axis, unswizzled, axis fastest
//      then the layout's order; each operand in its own region, the widest
//      first;
//   2. after a barrier every thread loads one partial (tid + r * threads),
//      the W partials of a row are combined by shuffles and its first lane
//      stores the sum back;
//   3. after a barrier every thread loads its results, a scalar ld.shared
//      each, from the row's first partial.
// Every warp-instruction in program order, per warp, with each lane's byte
// address: the audit prices them with the wavefront rule.
//   Requires: as tritonReduceConversions, for the layouts Triton 3.6 gives a
//     reduce (blocked, mma, slices: single-bit bases); order the operand
//     encoding's dims, fastest first; operandBytes each operand's element
//     bytes (1, 2, 4 or 8), in operand order.
//   Throws: f2lay::Error naming what is outside that.
//   Ensures: empty when no warp holds part of the axis (shuffles suffice).
std::vector<WarpAccess> tritonReduceAccesses36(const LinearLayout& operand, size_t axis,
                                               const LinearLayout& result,
                                               const std::vector<size_t>& order,
                                               const std::vector<uint64_t>& operandBytes);

}  // namespace f2lay::ref::analysis
