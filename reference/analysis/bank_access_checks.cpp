#include "reference/analysis/bank_access_checks.h"

#include <bit>
#include <string>

#include "formats/error.h"

namespace f2lay::ref::analysis {

namespace {

const std::string kWhat = "bank conflicts: ";

int bitsOf(const LinearLayout& l, const char* dim) {
  return l.hasInDim(dim) ? l.getInDimSizeLog2(dim) : 0;
}

// Every in dim of `l` is one of `allowed`, or a block of size 1 (one CTA:
// shared memory is per CTA).
void checkInDims(const LinearLayout& l, const char* which,
                 const std::vector<std::string>& allowed) {
  for (const std::string& d : l.getInDimNames()) {
    bool ok = false;
    for (const std::string& a : allowed) ok = ok || d == a;
    if (ok) continue;
    if (d == "block") {
      if (l.getInDimSizeLog2(d) == 0) continue;
      throw Error(kWhat + "the " + which + " layout has in dim 'block' of size " +
                  std::to_string(uint64_t{1} << l.getInDimSizeLog2(d)) +
                  "; shared memory is per CTA, so only a block of size 1 is allowed");
    }
    std::string list;
    for (const std::string& a : allowed) list += a + ", ";
    throw Error(kWhat + "the " + which + " layout has in dim '" + d + "'; expected " + list +
                "and optionally block (size 1)");
  }
}

std::string dimList(const LinearLayout& l) {
  std::string s;
  for (const std::string& d : l.getOutDimNames())
    s += (s.empty() ? "" : ", ") + d + " (" + std::to_string(l.getOutDimSize(d)) + ")";
  return "[" + s + "]";
}

}  // namespace

void checkBankAccess(const LinearLayout& dist, const LinearLayout& shared,
                     const AccessSpec& access) {
  checkInDims(dist, "distributed", {"register", "lane", "warp"});
  checkInDims(shared, "memory", {"offset"});
  if (!shared.hasInDim("offset")) throw Error(kWhat + "the memory layout has no in dim 'offset'");
  if (bitsOf(dist, "lane") != 5)
    throw Error(kWhat + "the distributed layout has " +
                std::to_string(uint64_t{1} << bitsOf(dist, "lane")) +
                " lanes; the wavefront rule (device_tests/HARDWARE.md) is for warps of 32");
  bool sameOuts = dist.getOutDimNames().size() == shared.getOutDimNames().size();
  for (const std::string& d : dist.getOutDimNames())
    sameOuts = sameOuts && shared.hasOutDim(d) && shared.getOutDimSize(d) == dist.getOutDimSize(d);
  if (!sameOuts)
    throw Error(kWhat + "the distributed layout maps to " + dimList(dist) +
                " but the memory layout to " + dimList(shared) +
                "; they must map to the same out dims (names and sizes)");
  if (!shared.isInvertible())
    throw Error(kWhat +
                "the memory layout is not invertible (Def 4.14): some offsets hold "
                "the same element or some element has no offset");
  uint64_t w = access.elementBytes;
  if (w != 1 && w != 2 && w != 4 && w != 8 && w != 16)
    throw Error(kWhat + "element_bytes = " + std::to_string(w) + " must be 1, 2, 4, 8 or 16");
  if (access.instruction != Instruction::kVector) {
    if (w != 2)
      throw Error(kWhat +
                  "ldmatrix/stmatrix are modelled for b16 elements only "
                  "(element_bytes = 2), not element_bytes = " +
                  std::to_string(w));
    if (access.vectorBytes)
      throw Error(kWhat + "vector_bytes does not apply to ldmatrix/stmatrix (rows are 16 bytes)");
  }
  if (bitsOf(shared, "offset") > kMaxBankSimulationBits)
    throw Error(kWhat + "the memory layout has 2^" + std::to_string(bitsOf(shared, "offset")) +
                " offsets; at most 2^" + std::to_string(kMaxBankSimulationBits) + " are simulated");
  int accessBits = bitsOf(dist, "register") + bitsOf(dist, "lane") + bitsOf(dist, "warp");
  if (accessBits > kMaxBankSimulationBits)
    throw Error(kWhat + "the distributed layout makes 2^" + std::to_string(accessBits) +
                " element accesses; at most 2^" + std::to_string(kMaxBankSimulationBits) +
                " are simulated");
}

uint64_t chosenVectorBytes(const AccessSpec& access, uint64_t widest) {
  if (!access.vectorBytes) return widest;
  uint64_t v = *access.vectorBytes, w = access.elementBytes;
  std::string named = "vector_bytes = " + std::to_string(v);
  if (!std::has_single_bit(v)) throw Error(kWhat + named + " is not a power of two");
  if (v < w)
    throw Error(kWhat + named + " is not a multiple of element_bytes = " + std::to_string(w));
  if (v > 16) throw Error(kWhat + named + " is more than 16, the widest ld/st.shared");
  if (v > widest)
    throw Error(kWhat + named + " is wider than this layout allows on this memory layout (" +
                std::to_string(widest) +
                " bytes: registers at offsets 1, 2, 4, ... with every "
                "other basis aligned)");
  return v;
}

}  // namespace f2lay::ref::analysis
