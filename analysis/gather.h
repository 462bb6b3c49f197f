// The warp-shuffle gather of paper §5.5: out[pos] = src[pos with its `axis`
// coordinate replaced by index[pos]], where src, index and out share the
// distributed layout L.
//
// Warp-local (§5.5): no warp or block basis of L has a nonzero component
// along the axis, so every element a position can read is in its own warp.
// For layouts beyond Def 4.10 (bases that are not unit vectors) that is not
// enough, so the axis' unit vectors must also lie in span(L_Reg ∪ L_Thr).
//
// The rounds. Moving bit j along the axis moves a location by a fixed
// (register, lane) XOR, axisSources[j]. So the element index[pos] names sits
// in register r ^ dr and lane t ^ dt of the reading location (r, t), with
// (dr, dt) the XOR of the axisSources of the bits of pos[axis] ^ index[pos].
// The register offsets dr span a space K; a lane reads register r's source
// in 2^|K| shuffles: in round i every lane sends its register r ^ K(i), reads
// from its own source lane t ^ dt, and keeps the value when r ^ K(i) is the
// register it needs. What a lane sends does not depend on the lane (it is one
// shfl instruction per round), only on the index register r.
//
// The paper writes n = 2^|L_Thr^axis| rounds. The register a round sends
// ranges over the registers a column holds, though, and those are counted by
// the register bits along the axis: 2^|L_Reg^axis| for Def 4.10 layouts (as
// Triton's emitWarpLocalGather emits, one shuffle per source register of the
// column). Both numbers are reported; the simulator checks `rounds`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/layout_api.h"
#include "analysis/space.h"

namespace f2lay::analysis {

struct GatherLocality {
  bool warpLocal;
  std::string reason;  // why not (empty when warp-local)
};

// Whether the gather along out dim number `axis` of l is warp-local.
//   Requires: l's in dims are among register, lane, warp and block; axis <
//     the number of out dims; l is surjective.
//   Throws f2lay::Error otherwise: "gather: the layout has in dim 'x'; a
//     distributed layout maps register, lane, warp and block only", "gather:
//     axis n is not an out dim of the layout (k out dims)", "gather: the
//     layout is not surjective: ...".
//   Ensures: warpLocal exactly when no warp or block basis moves along the
//     axis and every unit vector of the axis lies in span(L_Reg ∪ L_Thr);
//     reason is empty exactly when warpLocal, else one sentence naming the
//     bit.
template <LayoutApi L>
[[nodiscard]] GatherLocality gatherLocality(const L& l, size_t axis);

struct AxisSource {
  uint64_t registerMask;  // L(r ^ registerMask, t ^ laneMask) =
  uint64_t laneMask;      //   L(r, t) ^ (1 << j along the axis)
};

struct GatherPlan {
  int laneBitsAlongAxis;                // |L_Thr^axis|: lane bases with a nonzero axis part
  int registerBitsAlongAxis;            // |L_Reg^axis|
  uint64_t paperRounds;                 // 2^|L_Thr^axis|, §5.5 as printed
  uint64_t rounds;                      // shuffles per index register, 2^|K|
  std::vector<AxisSource> axisSources;  // one per bit of the axis
  // sendRegisters[r][i]: the register every lane sends in round i while it
  // fills its index register r.
  std::vector<std::vector<uint64_t>> sendRegisters;
};

// The plan of the warp-local gather along out dim number `axis` of l.
//   Requires: gatherLocality's preconditions, and a warp-local gather;
//     2^(register bits) * rounds <= 2^20 table entries.
//   Throws f2lay::Error otherwise: gatherLocality's errors; "gather plan: not
//     warp-local: <gatherLocality's reason>"; "gather plan: 2^r index
//     registers times 2^k rounds; at most 2^20 entries are planned".
//   Ensures: one axisSources entry per bit of the axis, satisfying
//     L(r ^ registerMask, t ^ laneMask) == L(r, t) ^ (1 << j along the axis);
//     rounds is a power of two; sendRegisters has one row per index register
//     r, of `rounds` entries, starting with r itself; paperRounds ==
//     2^laneBitsAlongAxis.
template <LayoutApi L>
[[nodiscard]] GatherPlan gatherPlan(const L& l, size_t axis);

}  // namespace f2lay::analysis
