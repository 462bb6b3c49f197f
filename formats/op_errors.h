// The algebra's refusals, worded once for both implementations (f2lay::ref
// and f2lay::opt throw f2lay::Error with these messages), so that "the same
// errors, word for word" holds by construction and the differential tests
// compare what each checks, not how it spells it. Each returns the message;
// dims are listed as joinNames writes them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace f2lay::op_errors {

using Names = std::vector<std::string>;

// A dim looked up by name that the layout does not have.
std::string noSuchDim(bool in, const std::string& name, const Names& dims);

// apply's input: a name not among the in dims, a dim given twice, a value
// past its dim's 2^bits, an in dim not given.
std::string applyUnknownDim(const std::string& name, const Names& inDims);
std::string applyDimTwice(const std::string& name);
std::string applyValueTooLarge(uint64_t value, const std::string& name, int bits);
std::string applyDimMissing(const std::string& name);

// compose (Def 4.2): self's out dims are other's in dims, none larger.
std::string composeDims(const Names& selfOuts, const Names& otherIns);
std::string composeOutTooLarge(const std::string& name, uint64_t size, int otherBits);

// product (Def 4.3): the two orders of one side's dims must agree (unprefixed:
// the caller names the op); an out dim of both may not pass 63 bits.
std::string dimsInDifferentOrders(const Names& x, const Names& y);
std::string productOutTooWide(const std::string& name, int bits);

// invert_and_compose (§5.4): the same out dims, none larger in self; self's
// image inside other's; Triton 3.6's assertion on dims set aside.
std::string invertAndComposeOutDims(const Names& selfOuts, const Names& otherOuts);
std::string invertAndComposeOutTooLarge(const std::string& name, uint64_t size, uint64_t otherSize);
std::string invertAndComposeImage(const Names& selfRest, const Names& otherRest);
std::string invertAndComposeAlike(bool otherAllAlike, const Names& rest);

// pseudoinvert (Def 4.5) and invert.
std::string notSurjective(int rank, int outBits);
std::string notInvertible(int rank, int inBits, int outBits);

// The dim operations: transpose_*, flatten_*, sublayout, concat_*.
std::string notAPermutation(bool in, const Names& newDims, const Names& dims);
std::string flattenTooWide(bool in, int bits);
std::string sublayoutUnknownDim(bool in, const std::string& name, const Names& dims);
std::string concatSidesDiffer(bool ins);
std::string concatDimInBoth(bool ins, const std::string& name);

}  // namespace f2lay::op_errors
