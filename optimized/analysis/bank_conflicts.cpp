// The entry points of bank_conflicts.h and the checks on their inputs; each
// answers on the offset space through bank_detail.h (by rank where Lemma 9.4
// is exact, by enumeration elsewhere).
#include "optimized/analysis/bank_conflicts.h"

#include <algorithm>
#include <bit>
#include <initializer_list>
#include <string>
#include <vector>

#include "formats/error.h"
#include "optimized/analysis/bank_detail.h"

namespace f2lay::opt::analysis {

using bank_detail::basisOffsets;
using bank_detail::BasisOffsets;
using bank_detail::enumerateOnOffsets;
using bank_detail::kWhat;
using bank_detail::lemmaByRank;
using bank_detail::vectorBits;

namespace {

int bitsOf(const LinearLayout& l, const char* dim) {
  int d = l.inDims().find(intern(dim));
  return d < 0 ? 0 : l.inDims().bits[d];
}

// Every in dim of `l` is one of `allowed`, or a block of size 1.
void checkInDims(const LinearLayout& l, const char* which,
                 std::initializer_list<const char*> allowed) {
  const DimList& ins = l.inDims();
  for (int d = 0; d < ins.count; ++d) {
    const std::string& name = nameOf(ins.id[d]);
    if (std::find(allowed.begin(), allowed.end(), name) != allowed.end()) continue;
    if (name == "block") {
      if (ins.bits[d] == 0) continue;
      throw Error(kWhat + "the " + which + " layout has in dim 'block' of size " +
                  std::to_string(uint64_t{1} << ins.bits[d]) +
                  "; shared memory is per CTA, so only a block of size 1 is allowed");
    }
    std::string expected;
    for (const char* a : allowed) expected += std::string(a) + ", ";
    throw Error(kWhat + "the " + which + " layout has in dim '" + name + "'; expected " + expected +
                "and optionally block (size 1)");
  }
}

std::string outDimsText(const LinearLayout& l) {
  const DimList& outs = l.outDims();
  std::string s;
  for (int k = 0; k < outs.count; ++k)
    s += (k ? ", " : "") + nameOf(outs.id[k]) + " (" + std::to_string(uint64_t{1} << outs.bits[k]) +
         ")";
  return "[" + s + "]";
}

bool sameOutDims(const LinearLayout& a, const LinearLayout& b) {
  if (a.outDims().count != b.outDims().count) return false;
  for (int k = 0; k < a.outDims().count; ++k) {
    int j = b.outDims().find(a.outDims().id[k]);
    if (j < 0 || b.outDims().bits[j] != a.outDims().bits[k]) return false;
  }
  return true;
}

}  // namespace

void checkBankAccess(const LinearLayout& dist, const LinearLayout& shared,
                     const AccessSpec& access) {
  checkInDims(dist, "distributed", {"register", "lane", "warp"});
  checkInDims(shared, "memory", {"offset"});
  if (shared.inDims().find(intern("offset")) < 0)
    throw Error(kWhat + "the memory layout has no in dim 'offset'");
  if (bitsOf(dist, "lane") != 5)
    throw Error(kWhat + "the distributed layout has " +
                std::to_string(uint64_t{1} << bitsOf(dist, "lane")) +
                " lanes; the wavefront rule (device_tests/HARDWARE.md) is for warps of 32");
  if (!sameOutDims(dist, shared))
    throw Error(kWhat + "the distributed layout maps to " + outDimsText(dist) +
                " but the memory layout to " + outDimsText(shared) +
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
  int offsetBits = bitsOf(shared, "offset");
  if (offsetBits > kMaxBankSimulationBits)
    throw Error(kWhat + "the memory layout has 2^" + std::to_string(offsetBits) +
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

uint64_t widestVectorBytes(const LinearLayout& dist, const LinearLayout& shared,
                           uint64_t elementBytes) {
  AccessSpec access;
  access.elementBytes = elementBytes;
  checkBankAccess(dist, shared, access);
  return elementBytes << vectorBits(basisOffsets(dist, shared), elementBytes).size();
}

std::optional<WavefrontReport> lemma94(const LinearLayout& dist, const LinearLayout& shared,
                                       const AccessSpec& access) {
  checkBankAccess(dist, shared, access);
  if (access.instruction != Instruction::kVector) return std::nullopt;  // not the lemma's
  return lemmaByRank(basisOffsets(dist, shared), access);
}

WavefrontReport bankConflictsWithPath(const LinearLayout& dist, const LinearLayout& shared,
                                      const AccessSpec& access, BankPath& path) {
  checkBankAccess(dist, shared, access);
  BasisOffsets b = basisOffsets(dist, shared);
  if (access.instruction == Instruction::kVector) {
    if (std::optional<WavefrontReport> exact = lemmaByRank(b, access)) {
      path = BankPath::kRank;
      return *exact;
    }
  }
  path = BankPath::kEnumeration;
  return enumerateOnOffsets(b, access);
}

WavefrontReport bankConflicts(const LinearLayout& dist, const LinearLayout& shared,
                              const AccessSpec& access) {
  BankPath path;
  return bankConflictsWithPath(dist, shared, access, path);
}

WavefrontReport enumerateBankConflicts(const LinearLayout& dist, const LinearLayout& shared,
                                       const AccessSpec& access) {
  checkBankAccess(dist, shared, access);
  return enumerateOnOffsets(basisOffsets(dist, shared), access);
}

}  // namespace f2lay::opt::analysis
