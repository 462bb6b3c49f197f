#include "formats/op_errors.h"

#include "formats/dim_names.h"

namespace f2lay::op_errors {

namespace {

const char* side(bool in) { return in ? "in" : "out"; }

}  // namespace

std::string noSuchDim(bool in, const std::string& name, const Names& dims) {
  return std::string(side(in)) + " dim '" + name + "' is not in the layout (" + side(in) +
         " dims " + joinNames(dims) + ")";
}

std::string applyUnknownDim(const std::string& name, const Names& inDims) {
  return "apply: '" + name + "' is not an in dim of the layout (in dims " + joinNames(inDims) + ")";
}

std::string applyDimTwice(const std::string& name) {
  return "apply: in dim '" + name + "' is given twice";
}

std::string applyValueTooLarge(uint64_t value, const std::string& name, int bits) {
  return "apply: value " + std::to_string(value) + " of in dim '" + name +
         "' is not below its size 2^" + std::to_string(bits);
}

std::string applyDimMissing(const std::string& name) {
  return "apply: in dim '" + name + "' is missing";
}

std::string composeDims(const Names& selfOuts, const Names& otherIns) {
  return "compose: the out dims of self " + joinNames(selfOuts) + " must be the in dims of other " +
         joinNames(otherIns) + ", in any order";
}

std::string composeOutTooLarge(const std::string& name, uint64_t size, int otherBits) {
  return "compose: out dim '" + name + "' of self has size " + std::to_string(size) +
         ", larger than in dim '" + name + "' of other (2^" + std::to_string(otherBits) + ")";
}

std::string dimsInDifferentOrders(const Names& x, const Names& y) {
  return "the dims " + joinNames(x) + " and " + joinNames(y) +
         " share dims in different relative orders";
}

std::string productOutTooWide(const std::string& name, int bits) {
  return "product: out dim '" + name + "' would have " + std::to_string(bits) +
         " bits; one dim has at most 63";
}

std::string invertAndComposeOutDims(const Names& selfOuts, const Names& otherOuts) {
  return "invert_and_compose: the out dims of self " + joinNames(selfOuts) + " and other " +
         joinNames(otherOuts) + " must match, in any order";
}

std::string invertAndComposeOutTooLarge(const std::string& name, uint64_t size,
                                        uint64_t otherSize) {
  return "invert_and_compose: out dim '" + name + "' of self has size " + std::to_string(size) +
         ", larger than in other (" + std::to_string(otherSize) + ")";
}

std::string invertAndComposeImage(const Names& selfRest, const Names& otherRest) {
  return "invert_and_compose: the image of self " + joinNames(selfRest) +
         " is not inside the image of other " + joinNames(otherRest) + " (Triton asserts here)";
}

std::string invertAndComposeAlike(bool otherAllAlike, const Names& rest) {
  return "invert_and_compose: every in dim of " + std::string(otherAllAlike ? "other" : "self") +
         " maps like the same-named dim of the other layout, but " +
         std::string(otherAllAlike ? "self" : "other") + " has more in dims " + joinNames(rest) +
         " (Triton 3.6 asserts here)";
}

std::string notSurjective(int rank, int outBits) {
  return "pseudoinvert: the layout is not surjective (rank " + std::to_string(rank) + " < " +
         std::to_string(outBits) +
         " output bits); only a surjective layout has a right inverse (Def 4.5)";
}

std::string notInvertible(int rank, int inBits, int outBits) {
  return "invert: the layout is not invertible (rank " + std::to_string(rank) + ", " +
         std::to_string(inBits) + " input bits, " + std::to_string(outBits) + " output bits)";
}

std::string notAPermutation(bool in, const Names& newDims, const Names& dims) {
  return std::string(in ? "transpose_ins: " : "transpose_outs: ") + joinNames(newDims) +
         " is not a permutation of the " + side(in) + " dims " + joinNames(dims);
}

std::string flattenTooWide(bool in, int bits) {
  return std::string(in ? "flatten_ins" : "flatten_outs") + ": one " + side(in) + " dim of " +
         std::to_string(bits) + " bits exceeds the limit of 63";
}

std::string sublayoutUnknownDim(bool in, const std::string& name, const Names& dims) {
  return "sublayout: '" + name + "' is not an " + side(in) + " dim " + joinNames(dims);
}

std::string concatSidesDiffer(bool ins) {
  return std::string(ins ? "concat_ins: the layouts must have the same out dims"
                         : "concat_outs: the layouts must have the same in dims") +
         " in the same order with the same sizes";
}

std::string concatDimInBoth(bool ins, const std::string& name) {
  return std::string(ins ? "concat_ins: in dim '" : "concat_outs: out dim '") + name +
         "' is in both layouts";
}

}  // namespace f2lay::op_errors
