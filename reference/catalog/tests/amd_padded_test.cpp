// AMD's choice of a padded shared layout (amdEfficientPaddedShared) against
// amd_padded_definition.h, written from Triton's stated rule, at every
// element of every layout of a sweep over the parameters; and against Gluon
// 3.9.0's answers, literal.
#include <gtest/gtest.h>

#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "analysis/padding.h"
#include "definitions/amd_padded_definition.h"
#include "definitions/elementwise_compare.h"
#include "reference/catalog/padded_shared.h"
#include "reference/catalog/tests/test_support.h"

namespace f2lay::ref::catalog {
namespace {

namespace def = amd_padded_definition;

std::string describe(const AmdPaddedParams& p) {
  return "operand " + std::to_string(p.operandIndex) + " k_width " + std::to_string(p.kWidth) +
         " mfma " + std::to_string(p.mfmaNonKDim) + " shape " + std::to_string(p.shape[0]) + "x" +
         std::to_string(p.shape[1]) + " bits " + std::to_string(p.dtypeBitwidth) +
         (p.kContig ? " K contiguous" : " K not contiguous");
}

// "" when the constructor does what the definition says at `p`: refuses
// where Triton aborts, answers None where it does, and otherwise puts every
// element at the definition's offset, with the one pair (1024 bytes, padding).
std::string mismatch(const AmdPaddedParams& p, def::Choice& want) {
  want = def::choose(p);
  std::optional<std::optional<PaddedShared>> got;
  std::string error = errorMessage([&] { got = amdEfficientPaddedShared(p); });
  if (want.verdict == def::Verdict::kAborts) return got ? "answered where Triton aborts" : "";
  if (!got) return "refused: " + error;
  if (want.verdict == def::Verdict::kNone)
    return got->has_value() ? "answered a layout where Gluon gives None" : "";
  if (!got->has_value()) return "answered None, the definition a layout";
  const def::Arrangement& a = want.arrangement;
  if ((*got)->padding != analysis::Padding{{a.intervalElems, a.paddingElems}})
    return "padding [" + std::to_string((*got)->padding.at(0).interval) + ", " +
           std::to_string((*got)->padding.at(0).padding) + "], the definition [" +
           std::to_string(a.intervalElems) + ", " + std::to_string(a.paddingElems) + "]";
  return memoryMismatch((*got)->linear, p.shape,
                        [&](const std::vector<uint64_t>& x) { return def::offsetOf(a, x); });
}

TEST(AmdEfficientPaddedShared, MatchesTheDefinitionAtEveryElement) {
  int verdicts[3] = {0, 0, 0}, kRowExchanges = 0, row16Exchanges = 0, twoWay = 0;
  uint64_t elements = 0;
  for (uint64_t op : {0, 1})
    for (uint64_t kWidth : {2, 4, 8, 16, 32})
      for (uint64_t mfma : {8, 16, 32})
        for (uint64_t bits : {4, 8, 16, 32})
          for (bool kContig : {true, false})
            for (uint64_t s0 = 4; s0 <= 512; s0 *= 2)
              for (uint64_t s1 = 4; s1 <= 512 && s0 * s1 <= (uint64_t{1} << 14); s1 *= 2) {
                AmdPaddedParams p{op, kWidth, mfma, {s0, s1}, bits, kContig, 64};
                def::Choice want;
                std::string m = mismatch(p, want);
                ASSERT_EQ(m, "") << describe(p);
                ++verdicts[static_cast<int>(want.verdict)];
                if (want.verdict != def::Verdict::kLayout) continue;
                elements += s0 * s1;
                const def::Arrangement& a = want.arrangement;
                row16Exchanges += a.exchange.first == 16;
                kRowExchanges += a.exchange.first != 0 && a.exchange.first != 16;
                twoWay += a.conflictWays == 2;
              }
  // The sweep reaches every verdict and Triton's exchanges of rows.
  EXPECT_GT(verdicts[0], 100);
  EXPECT_GT(verdicts[1], 10);
  EXPECT_GT(verdicts[2], 300);
  EXPECT_GT(kRowExchanges, 10);
  EXPECT_GT(row16Exchanges, 10);
  EXPECT_GT(twoWay, 10);
  std::cout << "AMD padded sweep: " << verdicts[2] << " layouts (" << elements << " elements), "
            << verdicts[0] << " None, " << verdicts[1] << " aborts; " << kRowExchanges
            << " with K rows exchanged, " << row16Exchanges << " with row 16 exchanged, " << twoWay
            << " tolerating 2-way conflicts\n";
}

// Gluon 3.9.0's answers: ttgl.amd.cdna4.compute_efficient_padded_shared_layout(
// DotOperandLayout(operand_index, AMDMFMALayout(version=4, instr_shape,
// transposed=True, warps_per_cta=[4, 1]), k_width), shape, dtype,
// is_k_contig), read through adapters/gluon_shared_check.py --answer (the
// same requests are in oracle/cases/catalog_shared.jsonl). Each is checked
// against the constructor and against the definition.
void expectGluon(const AmdPaddedParams& p, const std::vector<Basis>& offsetBases,
                 analysis::PaddingPair pair) {
  std::optional<PaddedShared> got = amdEfficientPaddedShared(p);
  ASSERT_TRUE(got.has_value()) << describe(p);
  EXPECT_EQ(got->linear.value().in_dims.at(0).bases, offsetBases) << describe(p);
  EXPECT_EQ(got->padding, analysis::Padding{pair}) << describe(p);
  def::Choice want = def::choose(p);
  ASSERT_EQ(want.verdict, def::Verdict::kLayout) << describe(p);
  EXPECT_EQ(want.arrangement.intervalElems, pair.interval);
  EXPECT_EQ(want.arrangement.paddingElems, pair.padding);
  LayoutValue gluon{{{"offset", offsetBases}, {"block", {}}},
                    {{"dim0", p.shape[0]}, {"dim1", p.shape[1]}}};
  EXPECT_EQ(memoryMismatch(
                LinearLayout(gluon), p.shape,
                [&](const std::vector<uint64_t>& x) { return def::offsetOf(want.arrangement, x); }),
            "")
      << describe(p);
}

TEST(AmdEfficientPaddedShared, GluonAnswers) {
  // bf16 A [128, 64], K not contiguous, k_width 8, instr_shape [16, 16, 32]:
  // ds_read_b64_tr of 16 bytes, the K rows 4 and 8 exchanged.
  expectGluon({0, 8, 16, {128, 64}, 16, false, 64},
              {{1, 0},
               {2, 0},
               {4, 0},
               {8, 0},
               {16, 0},
               {32, 0},
               {64, 0},
               {0, 16},
               {0, 32},
               {0, 1},
               {0, 2},
               {0, 8},
               {0, 4}},
              {512, 16});
  // bf16 A [64, 64], K contiguous, k_width 4 (ds_read2_b64, 32 banks): 2-way
  // conflicts tolerated, wrap 8.
  expectGluon({0, 4, 16, {64, 64}, 16, true, 64},
              {{0, 1},
               {0, 2},
               {0, 4},
               {0, 8},
               {0, 16},
               {0, 32},
               {8, 0},
               {16, 0},
               {32, 0},
               {1, 0},
               {2, 0},
               {4, 0}},
              {512, 4});
  // uint8 B [64, 256], K contiguous, k_width 16, instr_shape [32, 32, 16]:
  // ds_read_b128, N rows 16 and 64 exchanged.
  expectGluon({1, 16, 32, {64, 256}, 8, true, 64},
              {{1, 0},
               {2, 0},
               {4, 0},
               {8, 0},
               {16, 0},
               {32, 0},
               {0, 64},
               {0, 32},
               {0, 16},
               {0, 128},
               {0, 1},
               {0, 2},
               {0, 4},
               {0, 8}},
              {1024, 16});
  // bf16 A [16, 64], K contiguous, k_width 4: too few rows (8-way): None.
  AmdPaddedParams none{0, 4, 16, {16, 64}, 16, true, 64};
  EXPECT_FALSE(amdEfficientPaddedShared(none).has_value());
  EXPECT_EQ(def::choose(none).verdict, def::Verdict::kNone);
}

// Triton's comment on composePaddedLayoutForAsyncCopyCDNA4 (Mx64xbf16, K
// contiguous, kWidth 8, 16 elements of padding): the rows are laid out
//   r0, r4, r8, ..., r28, pad, r1, r5, ..., r29, pad, r2, ...
// With M = 32 (too few rows for the 16-row wrap), row 4j + i starts at
// linear offset 64 j + 512 i, padded by 16 elements per 512.
TEST(AmdEfficientPaddedShared, TritonsCommentedArrangement) {
  std::optional<PaddedShared> p = amdEfficientPaddedShared({0, 8, 16, {32, 64}, 16, true, 64});
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->padding, (analysis::Padding{{512, 16}}));
  LinearLayout inverse = p->linear.pseudoinvert();
  for (uint64_t row = 0; row < 32; ++row)
    for (uint64_t col = 0; col < 64; col += 9) {
      uint64_t offset = 0;
      for (const auto& [dim, v] : inverse.apply({{"dim0", row}, {"dim1", col}}))
        if (dim == "offset") offset = v;
      uint64_t want = 64 * (row / 4) + 512 * (row % 4) + col;
      ASSERT_EQ(offset, want) << "row " << row << " col " << col;
      EXPECT_EQ(analysis::paddedOffset(p->padding, offset), want + 16 * (want / 512));
    }
  // Gluon returns None for k_width 2 and for 32-bit elements.
  EXPECT_FALSE(amdEfficientPaddedShared({0, 2, 16, {32, 64}, 16, true, 64}).has_value());
  EXPECT_FALSE(amdEfficientPaddedShared({0, 8, 16, {32, 64}, 32, true, 64}).has_value());
  EXPECT_PRED2(contains, errorMessage([] {
                 (void)amdEfficientPaddedShared({2, 8, 16, {32, 64}, 16, true, 64});
               }),
               "operand_index = 2 must be 0 or 1");
}

}  // namespace
}  // namespace f2lay::ref::catalog
