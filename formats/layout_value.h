// The plain layout value shared by every implementation and every format.
//
// A LayoutValue is exactly what Triton's LinearLayout stores: ordered, named
// input dims, each with one basis per input bit (a basis holds one integer per
// output dim, in out_dims order), and ordered, named output dims with
// power-of-two sizes. It carries no behaviour beyond validation; the
// implementations (f2lay::ref and f2lay::opt) are built from it and turn
// back into it.
//
// Limits, checked by validate(): at most kMaxDims dims on each side; at most
// kMaxInBits input bits and kMaxOutBits output bits in total; one dim, in or out, has at most 63
// bits (so every size is a power of two below 2^64 and fits a uint64_t); every basis value is below
// its out-dim size; names are identifiers ([A-Za-z_][A-Za-z0-9_.]*) and unique on their side, so
// that every format can write them back unchanged.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace f2lay {

inline constexpr int kMaxInBits = 64;
inline constexpr int kMaxOutBits = 64;
// Dims per side: Triton's layouts have at most 5 in dims and a few out dims;
// the bound lets f2lay::opt keep dims inline, without allocation.
inline constexpr size_t kMaxDims = 16;

using Basis = std::vector<uint64_t>;

struct InDim {
  std::string name;
  std::vector<Basis> bases;  // bases[i] is the image of input bit i
  bool operator==(const InDim&) const = default;
};

struct OutDim {
  std::string name;
  uint64_t size = 1;  // a power of two
  bool operator==(const OutDim&) const = default;
};

struct LayoutValue {
  std::vector<InDim> in_dims;
  std::vector<OutDim> out_dims;
  bool operator==(const LayoutValue&) const = default;
};

// Triton's LinearLayout(bases, outDimNames) constructor: each out dim's size
// becomes the smallest power of two above its largest basis value (1 when
// they are all 0). Throws f2lay::Error when a value would need 2^64.
void inferOutDimSizes(LayoutValue& layout);

// Throws f2lay::Error naming the first broken rule (see the header comment).
void validate(const LayoutValue& layout);

// Triton's 1-D constructors as plain values, with their errors, for both
// implementations (size 0 gives the empty layout): in=2^i -> out=2^i; every
// input to 0 (out dim of outDimSize); in=2^i -> out=stride*2^i.
LayoutValue identity1DValue(uint64_t size, const std::string& inDim, const std::string& outDim);
LayoutValue zeros1DValue(uint64_t size, const std::string& inDim, const std::string& outDim,
                         uint64_t outDimSize);
LayoutValue strided1DValue(uint64_t size, uint64_t stride, const std::string& inDim,
                           const std::string& outDim);

bool isPowerOfTwo(uint64_t x);
// log2 of a power of two.
int log2Exact(uint64_t powerOfTwo);
bool isIdentifier(const std::string& name);

int totalInBits(const LayoutValue& layout);
int totalOutBits(const LayoutValue& layout);

}  // namespace f2lay
