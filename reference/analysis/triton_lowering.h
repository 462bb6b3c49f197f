// What Triton 3.9.0 generates for the ops that move data through shared
// memory on NVIDIA GPUs (one CTA): which instructions, how wide, how many,
// and, for a convert_layout, the scratch memory layout its generic swizzling
// chooses. The audit costs that code with the wavefront simulator
// (bank_conflicts), so that its prediction is the cost of the code Triton
// emits, not of the optimum (analysis/swizzle_optimum.h).
//
// The rules are Triton's own (lib/Tools/GenericSwizzling.cpp, LayoutUtils'
// largestVectorisation, the NVIDIA lowering of convert_layout and of the local
// memory ops), restated on the flattened tensor (dim0 most minor): a basis is
// one integer, and Triton's tie-breaks, which follow the integer order of the
// bases, are kept exactly:
//   convert_layout    the conversion B^-1 A reduced by block, warp, lane and
//                     register in turn (minimalCvtLayout): nothing left is a
//                     no-op, registers alone a renaming; lanes and registers
//                     are exchanged by warp shuffles when fewer than two
//                     register bits trade places with lane bits, and
//                     otherwise, like anything that crosses warps, through
//                     shared memory. There each (store, load) instruction pair
//                     (st.shared or stmatrix[.trans], ld.shared or
//                     ldmatrix[.trans]) whose 16-byte tiles both layouts can
//                     fill gets a swizzle; the pair with the fewest bank
//                     conflicts (then the most rounds) wins; with none, both
//                     sides use ld/st.shared on a swizzle whose vector is
//                     filled toward a 32-bit word with warp bits.
//   local_alloc, local_store, local_load
//                     stmatrix / ldmatrix where the layout puts each lane's 4
//                     bytes and the next two lanes along a 16-byte row (then
//                     the .trans forms), else st/ld.shared as wide as the
//                     registers are contiguous in memory (up to 16 bytes).
// Register copies (zero register bases) are never stored twice; copies in
// lanes and warps are: every warp issues every store.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "reference/linear_layout.h"

namespace f2lay::ref::analysis {

// One side's code: the instruction ("st.shared", "stmatrix", "stmatrix.trans",
// "ld.shared", "ldmatrix", "ldmatrix.trans"), the bytes each lane moves per
// instruction, and the warp-instructions per CTA (every warp counted).
struct TritonSide {
  std::string instruction;
  uint64_t vectorBytes = 0;
  uint64_t instructions = 0;
};

struct TritonConvert {
  std::string path;     // "no_op", "registers", "warp_shuffle" or "shared_memory"
  uint64_t rounds = 0;  // stores then loads, each round through the scratch
  uint64_t scratchElements = 0;
  // The scratch layout, (offset, reps) -> the tensor's dims: offset is one
  // round's address in elements, reps the round. Only on the shared path.
  std::optional<LinearLayout> shared;
  TritonSide store, load;
};

// The code of a convert_layout from A to B.
//   Requires: A and B distributed layouts (register, lane, warp, and a block
//     of one CTA) over the same out dims; elementBytes 1, 2, 4 or 8 (Triton
//     moves pointers as 8-byte integers and narrower types as bytes);
//     computeCapability 80 or above (mma.sync GPUs and later).
//   Throws: f2lay::Error naming what is outside that.
TritonConvert tritonConvert(const LinearLayout& a, const LinearLayout& b, uint64_t elementBytes,
                            int computeCapability);

// The code of a store (local_alloc with a source, local_store) or a load
// (local_load) between a distributed layout and a memory layout (offset ->
// the same out dims; a memory descriptor's layout).
//   Requires: as tritonConvert; shared invertible onto the tensor.
//   Throws: f2lay::Error naming what is outside that.
TritonSide tritonLocal(const LinearLayout& dist, const LinearLayout& shared, bool store,
                       uint64_t elementBytes, int computeCapability);

// Triton's own bank-conflict number for a distributed layout and a memory
// layout (Gluon's ttgl.bank_conflicts, bankConflictsMemDesc): the excess
// wavefronts per phase of one ld/st.shared at Triton's vector width, read as
// 2^dim(span(segment vectors) ∩ span(one phase's lanes)) - 1, the store's
// phases used for loads too. It knows nothing of ldmatrix/stmatrix, warps
// holding copies, sub-word conflicts or the load's quad merge; nullopt where
// Triton aborts (a buffer smaller than one bank row of vectors).
//   Requires, throws: as tritonLocal.
std::optional<uint64_t> tritonBankConflicts(const LinearLayout& dist, const LinearLayout& shared,
                                            uint64_t elementBytes);

}  // namespace f2lay::ref::analysis
