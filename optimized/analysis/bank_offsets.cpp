// The offset space of the bank-conflict analysis: where each input bit of
// `dist` lands in `shared`, and what follows from it (the widest vector).
#include <algorithm>
#include <vector>

#include "optimized/analysis/bank_detail.h"

namespace f2lay::opt::analysis::bank_detail {

// shared^-1 of each packed column of `dist`: shared's columns (over dist's
// out-dim order) in a core::Echelon, each dist column reduced against it; the
// combination found is the offset (shared is invertible, checked before).
BasisOffsets basisOffsets(const LinearLayout& dist, const LinearLayout& shared) {
  LinearLayout s = shared.transposeOuts(dist.getOutDimNames());
  core::Echelon e = core::echelon(s.columns(), s.getTotalInDimSizeLog2());
  int firstOffsetBit = s.inDims().offset(s.inDims().find(intern("offset")));
  auto offsetsOf = [&](const char* dim) {
    std::vector<uint64_t> out;
    int d = dist.inDims().find(intern(dim));
    if (d < 0) return out;
    const uint64_t* cols = dist.columns() + dist.inDims().offset(d);
    for (int i = 0; i < dist.inDims().bits[d]; ++i) {
      uint64_t combination;
      e.reduce(cols[i], &combination);
      out.push_back(combination >> firstOffsetBit);
    }
    return out;
  };
  return {offsetsOf("register"), offsetsOf("lane"), offsetsOf("warp")};
}

// The OR of every offset but the register bits of `exceptRegs` and the lane
// bits of `exceptLanes`: its low zero bits are the alignment they all share.
uint64_t offsetsOr(const BasisOffsets& b, uint64_t exceptRegs, uint64_t exceptLanes) {
  uint64_t all = 0;
  for (size_t j = 0; j < b.reg.size(); ++j)
    if (!(exceptRegs >> j & 1)) all |= b.reg[j];
  for (size_t j = 0; j < b.lane.size(); ++j)
    if (!(exceptLanes >> j & 1)) all |= b.lane[j];
  for (uint64_t o : b.warp) all |= o;
  return all;
}

// The register bits of the widest vector, element bit k first: the lowest
// register bit at offset 2^k (never one chosen before, which sits at a lower
// power), while the OR of every other offset has its k+1 low bits clear (each
// lane's vector one aligned block) and the vector stays within 16 bytes.
std::vector<int> vectorBits(const BasisOffsets& b, uint64_t elementBytes) {
  std::vector<int> bits;
  uint64_t used = 0;
  for (uint64_t want = 1; elementBytes * want * 2 <= 16; want <<= 1) {
    auto at = std::find(b.reg.begin(), b.reg.end(), want);
    if (at == b.reg.end()) break;
    uint64_t mine = used | uint64_t{1} << (at - b.reg.begin());
    if (offsetsOr(b, mine, 0) & (2 * want - 1)) break;
    used = mine;
    bits.push_back(static_cast<int>(at - b.reg.begin()));
  }
  return bits;
}

// The XOR of offsets[which[i]] over the set bits i of k: the offset of the
// input whose bits `which` are spread from k.
uint64_t xorOfBits(const std::vector<uint64_t>& offsets, const std::vector<int>& which,
                   uint64_t k) {
  uint64_t x = 0;
  for (size_t i = 0; i < which.size(); ++i)
    if (k >> i & 1) x ^= offsets[static_cast<size_t>(which[i])];
  return x;
}

}  // namespace f2lay::opt::analysis::bank_detail
