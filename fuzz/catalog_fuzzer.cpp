// libFuzzer target: the catalog's constructors at random parameters, each
// against its element-wise definition, written independently of it in
// reference/catalog/tests (elementwise.h, mma_fragments.h, amd_fragments.h,
// amd_operand_fragments.h, cga_tiling.h, shared_formulas.h, cute_formula.h, cutlass_formula.h,
// linear_definition.h, tmem_fragments.h, tmem_scales.h, padded_definition.h with padded_walk.h,
// amd_padded_definition.h) and compared at every input by elementwise_compare.h.
//
// FuzzedDataProvider picks a family and decodes its parameters: mostly small
// powers of two, and one value in 16 off that range (0, odd, huge, a list of
// the wrong length, an order that is not a permutation, a rank out of range).
// A constructor must throw f2lay::Error or return the definition's layout.
// Parameters that break a rule the family's header states must be refused;
// where the rules are short (blocked, slice, swizzled shared, ldmatrix, CuTe,
// CUTLASS, the layouts given by their bases) plain legal parameters must be
// accepted. Anything else aborts with
// the family, the parameters and the first differing input. Sizes are drawn
// so that a layout has at most 2^12 inputs; a larger one (from a huge legal
// value) is built but not compared.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <iterator>

#include "fuzz/catalog_decoder.h"
#include "fuzz/catalog_families.h"

using namespace f2lay::fuzz::catalog_fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider provider(data, size);
  Decoder in(provider);
  void (*const families[])(Decoder&) = {fuzzBlocked,      fuzzSlice,
                                        fuzzNvidiaMma,    fuzzDotOperand,
                                        fuzzLdmatrix,     fuzzAmdMfma,
                                        fuzzAmdWmma,      fuzzSwizzledShared,
                                        fuzzNvmmaShared,  fuzzCute,
                                        fuzzCutlass,      fuzzDistributedLinear,
                                        fuzzSharedLinear, fuzzTmemRegLayout,
                                        fuzzAmdMfmaScale, fuzzAmdWmmaScale,
                                        fuzzPaddedShared, fuzzAmdPaddedShared,
                                        fuzzTensorMemory, fuzzTensorMemoryScales};
  families[provider.ConsumeIntegralInRange<size_t>(0, std::size(families) - 1)](in);
  return 0;
}
