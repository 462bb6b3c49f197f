// The entry points of bank_conflicts.h, after analysis/bank_access.h's checks;
// each answers on the offset space through bank_detail.h (by rank where Lemma 9.4
// is exact, by enumeration elsewhere).
#include "optimized/analysis/bank_conflicts.h"

#include "optimized/analysis/bank_detail.h"

namespace f2lay::opt::analysis {

using bank_detail::basisOffsets;
using bank_detail::BasisOffsets;
using bank_detail::enumerateOnOffsets;
using bank_detail::lemmaByRank;
using bank_detail::vectorBits;

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
  if (f2lay::analysis::paddedInside(shared, access))
    return std::nullopt;  // not linear (analysis/padding.h)
  return lemmaByRank(basisOffsets(dist, shared), access);
}

WavefrontReport bankConflictsWithPath(const LinearLayout& dist, const LinearLayout& shared,
                                      const AccessSpec& access, BankPath& path) {
  checkBankAccess(dist, shared, access);
  BasisOffsets b = basisOffsets(dist, shared);
  b.vectorLimit = f2lay::analysis::paddedVectorElements(shared, access);
  if (access.instruction == Instruction::kVector &&
      !f2lay::analysis::paddedInside(shared, access)) {
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
  BasisOffsets b = basisOffsets(dist, shared);
  b.vectorLimit = f2lay::analysis::paddedVectorElements(shared, access);
  return enumerateOnOffsets(b, access);
}

}  // namespace f2lay::opt::analysis
