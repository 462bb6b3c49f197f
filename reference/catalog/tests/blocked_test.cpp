// Blocked layouts: Gluon's to_linear_layout (Triton 3.6) and an element-wise
// definition written independently of the constructor.
#include "reference/catalog/blocked.h"

#include <gtest/gtest.h>

#include "definitions/layout_literals.h"

namespace f2lay::ref::catalog {
namespace {

using testkit::distributed;

// device_tests/HARDWARE.md#triton-calibration:
// BlockedLayout([1,4],[4,8],[4,1],[1,0]) at 64x64, as Gluon's
// to_linear_layout prints it.
TEST(Blocked, HardwareMdCalibrationValue) {
  EXPECT_EQ(blocked({{1, 4}, {4, 8}, {4, 1}, {1, 0}, {}}, {64, 64}),
            distributed({{0, 1}, {0, 2}, {0, 32}, {16, 0}, {32, 0}},
                        {{0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 0}}, {{4, 0}, {8, 0}}, {}, {64, 64}));
}

// Paper §4.1, Figure 1: layout A is blocked [2,2] x [4,8] x [2,1], order [1,0].
TEST(Blocked, PaperFigure1LayoutA) {
  EXPECT_EQ(blocked({{2, 2}, {4, 8}, {2, 1}, {1, 0}, {}}, {16, 16}),
            distributed({{0, 1}, {1, 0}}, {{0, 2}, {0, 4}, {0, 8}, {2, 0}, {4, 0}}, {{8, 0}}, {},
                        {16, 16}));
}

}  // namespace
}  // namespace f2lay::ref::catalog
