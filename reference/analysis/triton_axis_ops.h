// What Triton generates on NVIDIA GPUs (one CTA) for the ops that work along
// an axis and may go through shared memory: tt.reduce, tt.scan, tt.gather.
//
// tt.reduce, Triton 3.9.0: the convert_layouts it lowers the reduction's data
// movement to. Since Triton's PR #9219 the reduce has no shared-memory code
// of its own:
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

#include "formats/triton_version.h"
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
  size_t operand = 0;   // whose data it moves
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

// What Triton (3.6.0 and 3.9.0 alike) generates for a tt.scan along `axis`
// of a blocked operand, when more than one warp holds the axis (else the scan
// stays in registers and shuffles: empty). Each warp scans its part, then
//   1. the last lane along the axis of each warp stores its running total per
//      chunk (the registers of a run along the axis), a scalar st.shared at
//      par + warpAxis * NPL + chunk * NPL * W, where par numbers the threads
//      by their coordinates off the axis and NPL counts them;
//   2. after a barrier every thread loads, per chunk, the totals of the W
//      warps along the axis (scalar loads, the last warp's dead in the last
//      block along the axis, which LLVM deletes).
// Where every thread is on the axis (NPL = 1) the loads of a chunk are
// adjacent and LLVM merges them into vector loads: Triton 3.9.0's LLVM per
// 16-byte window, rounded up to a power of two; 3.6.0's in power-of-two
// pieces of the run.
//   Requires: operand a blocked layout's linear layout (register, lane, warp:
//     single-bit bases); axis one of its out dims' positions; operandBytes
//     as for tritonReduceAccesses36.
//   Throws: f2lay::Error naming what is outside that.
std::vector<WarpAccess> tritonScanAccesses(const LinearLayout& operand, size_t axis,
                                           const std::vector<uint64_t>& operandBytes,
                                           TritonVersion triton);

// Whether Triton's tt.gather of `src` by `index` along `axis` stays within
// warps (GatherLoweringHelper::isWarpLocal: shuffles and selects, no shared
// memory): no warp basis of either moves along the axis, and their warp
// bases and their lane bases agree off the axis. Otherwise Triton stores src
// whole into shared memory and loads each gathered element from the address
// its index names (data-dependent).
//   Requires: two distributed layouts over the same out dims; axis below
//     their rank. Throws: f2lay::Error naming what is outside that.
bool tritonGatherIsWarpLocal(const LinearLayout& src, const LinearLayout& index, size_t axis);

}  // namespace f2lay::ref::analysis
