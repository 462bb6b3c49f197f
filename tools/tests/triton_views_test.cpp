// tools/triton_views.h against Triton 3.9.0: every expected text below is
// literally what Triton 3.9.0's Python binding printed
// (triton._C.libtriton.linear_layout.LinearLayout, built by
// LinearLayout.from_bases(bases, out_dim_names, out_dim_sizes, False) from the
// same bases as the JSON next to it), for f2lay::ref and f2lay::opt alike;
// and the layouts on which Triton 3.9.0 aborts, refused with f2lay::Error.
#include "tools/triton_views.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "formats/error.h"
#include "formats/json_format.h"
#include "optimized/opt_linear_layout.h"
#include "reference/linear_layout.h"
#include "testkit/outcome.h"

namespace f2lay::tools {
namespace {

// The paper's Figure 1 layout A: 16x16, 2x2 registers, 4x8 lanes, 2 warps.
const char* kA = R"({"in_dims": [
  {"name": "register", "bases": [[0,1],[1,0]]},
  {"name": "lane", "bases": [[0,2],[0,4],[0,8],[2,0],[4,0]]},
  {"name": "warp", "bases": [[8,0]]}, {"name": "block", "bases": []}],
  "out_dims": [{"name": "dim0", "size": 16}, {"name": "dim1", "size": 16}]})";
// 3-D out dims not named dim0.., in dims out of order, 2 blocks, a broadcast
// lane bit and a broadcast register bit (4 inputs per element).
const char* kD = R"({"in_dims": [
  {"name": "warp", "bases": [[0,0,2]]}, {"name": "block", "bases": [[0,2,0]]},
  {"name": "lane", "bases": [[0,1,0],[1,0,0],[0,0,0]]},
  {"name": "register", "bases": [[0,0,1],[0,0,0]]}],
  "out_dims": [{"name": "a", "size": 2}, {"name": "b", "size": 4}, {"name": "c", "size": 4}]})";
// 16 blocks (two digits: block numbers padded), a broadcast block bit, and a
// tensor of 32 of which only 16 elements are held (the rest print empty).
const char* kE = R"({"in_dims": [
  {"name": "register", "bases": []}, {"name": "lane", "bases": [[1]]},
  {"name": "warp", "bases": []}, {"name": "block", "bases": [[2],[4],[8],[0]]}],
  "out_dims": [{"name": "x", "size": 32}]})";
// Shared, block first, 2 blocks; the offset dim (8) is wider than the 4
// offsets per block Triton lists, so offset bit 2 never shows.
const char* kS = R"({"in_dims": [
  {"name": "block", "bases": [[0,2]]}, {"name": "offset", "bases": [[1,0],[0,1],[1,1]]}],
  "out_dims": [{"name": "r", "size": 2}, {"name": "c", "size": 4}]})";
// Shared, not surjective: 2 offsets for a tensor of 8; Triton lists 8 offsets
// and reads only their bit 0.
const char* kS2 = R"({"in_dims": [
  {"name": "offset", "bases": [[1]]}, {"name": "block", "bases": []}],
  "out_dims": [{"name": "dim0", "size": 8}]})";
// Shared, 8 blocks for a tensor of 2: no offset per block, empty cells.
const char* kS3 = R"({"in_dims": [
  {"name": "offset", "bases": []}, {"name": "block", "bases": [[1],[0],[0]]}],
  "out_dims": [{"name": "dim0", "size": 2}]})";
// More blocks than elements and no offset dim but a lane dim: Triton lists no
// offset, never applies the layout, and so checks no in dim but block.
const char* kS4 = R"({"in_dims": [
  {"name": "block", "bases": [[1],[0],[1]]}, {"name": "lane", "bases": [[1]]}],
  "out_dims": [{"name": "dim0", "size": 2}]})";
// No out dims: only the distributed hw view is defined.
const char* kZ = R"({"in_dims": [
  {"name": "register", "bases": [[]]}, {"name": "lane", "bases": [[]]},
  {"name": "warp", "bases": []}, {"name": "block", "bases": []}], "out_dims": []})";

// Triton 3.9.0's binding: for each name, get_distributed_view(False)
// (kXDistributed), get_distributed_view(True) (kXDistributedHw),
// get_shared_view(False) (kXShared) or get_shared_view(True) (kXSharedHw) of
// layout kX above.
const char* kADistributed =
    R"([[ T0:0,  T0:1,  T1:0,  T1:1,  T2:0,  T2:1,  T3:0,  T3:1,  T4:0,  T4:1,  T5:0,  T5:1,  T6:0,  T6:1,  T7:0,  T7:1]
[  T0:2,  T0:3,  T1:2,  T1:3,  T2:2,  T2:3,  T3:2,  T3:3,  T4:2,  T4:3,  T5:2,  T5:3,  T6:2,  T6:3,  T7:2,  T7:3]
[  T8:0,  T8:1,  T9:0,  T9:1, T10:0, T10:1, T11:0, T11:1, T12:0, T12:1, T13:0, T13:1, T14:0, T14:1, T15:0, T15:1]
[  T8:2,  T8:3,  T9:2,  T9:3, T10:2, T10:3, T11:2, T11:3, T12:2, T12:3, T13:2, T13:3, T14:2, T14:3, T15:2, T15:3]
[ T16:0, T16:1, T17:0, T17:1, T18:0, T18:1, T19:0, T19:1, T20:0, T20:1, T21:0, T21:1, T22:0, T22:1, T23:0, T23:1]
[ T16:2, T16:3, T17:2, T17:3, T18:2, T18:3, T19:2, T19:3, T20:2, T20:3, T21:2, T21:3, T22:2, T22:3, T23:2, T23:3]
[ T24:0, T24:1, T25:0, T25:1, T26:0, T26:1, T27:0, T27:1, T28:0, T28:1, T29:0, T29:1, T30:0, T30:1, T31:0, T31:1]
[ T24:2, T24:3, T25:2, T25:3, T26:2, T26:3, T27:2, T27:3, T28:2, T28:3, T29:2, T29:3, T30:2, T30:3, T31:2, T31:3]
[ T32:0, T32:1, T33:0, T33:1, T34:0, T34:1, T35:0, T35:1, T36:0, T36:1, T37:0, T37:1, T38:0, T38:1, T39:0, T39:1]
[ T32:2, T32:3, T33:2, T33:3, T34:2, T34:3, T35:2, T35:3, T36:2, T36:3, T37:2, T37:3, T38:2, T38:3, T39:2, T39:3]
[ T40:0, T40:1, T41:0, T41:1, T42:0, T42:1, T43:0, T43:1, T44:0, T44:1, T45:0, T45:1, T46:0, T46:1, T47:0, T47:1]
[ T40:2, T40:3, T41:2, T41:3, T42:2, T42:3, T43:2, T43:3, T44:2, T44:3, T45:2, T45:3, T46:2, T46:3, T47:2, T47:3]
[ T48:0, T48:1, T49:0, T49:1, T50:0, T50:1, T51:0, T51:1, T52:0, T52:1, T53:0, T53:1, T54:0, T54:1, T55:0, T55:1]
[ T48:2, T48:3, T49:2, T49:3, T50:2, T50:3, T51:2, T51:3, T52:2, T52:3, T53:2, T53:3, T54:2, T54:3, T55:2, T55:3]
[ T56:0, T56:1, T57:0, T57:1, T58:0, T58:1, T59:0, T59:1, T60:0, T60:1, T61:0, T61:1, T62:0, T62:1, T63:0, T63:1]
[ T56:2, T56:3, T57:2, T57:3, T58:2, T58:3, T59:2, T59:3, T60:2, T60:3, T61:2, T61:3, T62:2, T62:3, T63:2, T63:3]]
)";
const char* kADistributedHw = R"(Warp0:
( 0, 0), ( 0, 2), ( 0, 4), ( 0, 6), ( 0, 8), ( 0,10), ( 0,12), ( 0,14), ( 2, 0), ( 2, 2), ( 2, 4), ( 2, 6), ( 2, 8), ( 2,10), ( 2,12), ( 2,14), ( 4, 0), ( 4, 2), ( 4, 4), ( 4, 6), ( 4, 8), ( 4,10), ( 4,12), ( 4,14), ( 6, 0), ( 6, 2), ( 6, 4), ( 6, 6), ( 6, 8), ( 6,10), ( 6,12), ( 6,14)
( 0, 1), ( 0, 3), ( 0, 5), ( 0, 7), ( 0, 9), ( 0,11), ( 0,13), ( 0,15), ( 2, 1), ( 2, 3), ( 2, 5), ( 2, 7), ( 2, 9), ( 2,11), ( 2,13), ( 2,15), ( 4, 1), ( 4, 3), ( 4, 5), ( 4, 7), ( 4, 9), ( 4,11), ( 4,13), ( 4,15), ( 6, 1), ( 6, 3), ( 6, 5), ( 6, 7), ( 6, 9), ( 6,11), ( 6,13), ( 6,15)
( 1, 0), ( 1, 2), ( 1, 4), ( 1, 6), ( 1, 8), ( 1,10), ( 1,12), ( 1,14), ( 3, 0), ( 3, 2), ( 3, 4), ( 3, 6), ( 3, 8), ( 3,10), ( 3,12), ( 3,14), ( 5, 0), ( 5, 2), ( 5, 4), ( 5, 6), ( 5, 8), ( 5,10), ( 5,12), ( 5,14), ( 7, 0), ( 7, 2), ( 7, 4), ( 7, 6), ( 7, 8), ( 7,10), ( 7,12), ( 7,14)
( 1, 1), ( 1, 3), ( 1, 5), ( 1, 7), ( 1, 9), ( 1,11), ( 1,13), ( 1,15), ( 3, 1), ( 3, 3), ( 3, 5), ( 3, 7), ( 3, 9), ( 3,11), ( 3,13), ( 3,15), ( 5, 1), ( 5, 3), ( 5, 5), ( 5, 7), ( 5, 9), ( 5,11), ( 5,13), ( 5,15), ( 7, 1), ( 7, 3), ( 7, 5), ( 7, 7), ( 7, 9), ( 7,11), ( 7,13), ( 7,15)
Warp1:
( 8, 0), ( 8, 2), ( 8, 4), ( 8, 6), ( 8, 8), ( 8,10), ( 8,12), ( 8,14), (10, 0), (10, 2), (10, 4), (10, 6), (10, 8), (10,10), (10,12), (10,14), (12, 0), (12, 2), (12, 4), (12, 6), (12, 8), (12,10), (12,12), (12,14), (14, 0), (14, 2), (14, 4), (14, 6), (14, 8), (14,10), (14,12), (14,14)
( 8, 1), ( 8, 3), ( 8, 5), ( 8, 7), ( 8, 9), ( 8,11), ( 8,13), ( 8,15), (10, 1), (10, 3), (10, 5), (10, 7), (10, 9), (10,11), (10,13), (10,15), (12, 1), (12, 3), (12, 5), (12, 7), (12, 9), (12,11), (12,13), (12,15), (14, 1), (14, 3), (14, 5), (14, 7), (14, 9), (14,11), (14,13), (14,15)
( 9, 0), ( 9, 2), ( 9, 4), ( 9, 6), ( 9, 8), ( 9,10), ( 9,12), ( 9,14), (11, 0), (11, 2), (11, 4), (11, 6), (11, 8), (11,10), (11,12), (11,14), (13, 0), (13, 2), (13, 4), (13, 6), (13, 8), (13,10), (13,12), (13,14), (15, 0), (15, 2), (15, 4), (15, 6), (15, 8), (15,10), (15,12), (15,14)
( 9, 1), ( 9, 3), ( 9, 5), ( 9, 7), ( 9, 9), ( 9,11), ( 9,13), ( 9,15), (11, 1), (11, 3), (11, 5), (11, 7), (11, 9), (11,11), (11,13), (11,15), (13, 1), (13, 3), (13, 5), (13, 7), (13, 9), (13,11), (13,13), (13,15), (15, 1), (15, 3), (15, 5), (15, 7), (15, 9), (15,11), (15,13), (15,15)
)";
const char* kDDistributed =
    R"([[[ B0:T0:0| B0:T0:2| B0:T4:0| B0:T4:2,  B0:T0:1| B0:T0:3| B0:T4:1| B0:T4:3,  B0:T8:0| B0:T8:2|B0:T12:0|B0:T12:2,  B0:T8:1| B0:T8:3|B0:T12:1|B0:T12:3]
[   B0:T1:0| B0:T1:2| B0:T5:0| B0:T5:2,  B0:T1:1| B0:T1:3| B0:T5:1| B0:T5:3,  B0:T9:0| B0:T9:2|B0:T13:0|B0:T13:2,  B0:T9:1| B0:T9:3|B0:T13:1|B0:T13:3]
[   B1:T0:0| B1:T0:2| B1:T4:0| B1:T4:2,  B1:T0:1| B1:T0:3| B1:T4:1| B1:T4:3,  B1:T8:0| B1:T8:2|B1:T12:0|B1:T12:2,  B1:T8:1| B1:T8:3|B1:T12:1|B1:T12:3]
[   B1:T1:0| B1:T1:2| B1:T5:0| B1:T5:2,  B1:T1:1| B1:T1:3| B1:T5:1| B1:T5:3,  B1:T9:0| B1:T9:2|B1:T13:0|B1:T13:2,  B1:T9:1| B1:T9:3|B1:T13:1|B1:T13:3]]
[[  B0:T2:0| B0:T2:2| B0:T6:0| B0:T6:2,  B0:T2:1| B0:T2:3| B0:T6:1| B0:T6:3, B0:T10:0|B0:T10:2|B0:T14:0|B0:T14:2, B0:T10:1|B0:T10:3|B0:T14:1|B0:T14:3]
[   B0:T3:0| B0:T3:2| B0:T7:0| B0:T7:2,  B0:T3:1| B0:T3:3| B0:T7:1| B0:T7:3, B0:T11:0|B0:T11:2|B0:T15:0|B0:T15:2, B0:T11:1|B0:T11:3|B0:T15:1|B0:T15:3]
[   B1:T2:0| B1:T2:2| B1:T6:0| B1:T6:2,  B1:T2:1| B1:T2:3| B1:T6:1| B1:T6:3, B1:T10:0|B1:T10:2|B1:T14:0|B1:T14:2, B1:T10:1|B1:T10:3|B1:T14:1|B1:T14:3]
[   B1:T3:0| B1:T3:2| B1:T7:0| B1:T7:2,  B1:T3:1| B1:T3:3| B1:T7:1| B1:T7:3, B1:T11:0|B1:T11:2|B1:T15:0|B1:T15:2, B1:T11:1|B1:T11:3|B1:T15:1|B1:T15:3]]]
)";
const char* kDDistributedHw = R"(Block0:
Warp0:
(0,0,0), (0,1,0), (1,0,0), (1,1,0), (0,0,0), (0,1,0), (1,0,0), (1,1,0)
(0,0,1), (0,1,1), (1,0,1), (1,1,1), (0,0,1), (0,1,1), (1,0,1), (1,1,1)
(0,0,0), (0,1,0), (1,0,0), (1,1,0), (0,0,0), (0,1,0), (1,0,0), (1,1,0)
(0,0,1), (0,1,1), (1,0,1), (1,1,1), (0,0,1), (0,1,1), (1,0,1), (1,1,1)
Warp1:
(0,0,2), (0,1,2), (1,0,2), (1,1,2), (0,0,2), (0,1,2), (1,0,2), (1,1,2)
(0,0,3), (0,1,3), (1,0,3), (1,1,3), (0,0,3), (0,1,3), (1,0,3), (1,1,3)
(0,0,2), (0,1,2), (1,0,2), (1,1,2), (0,0,2), (0,1,2), (1,0,2), (1,1,2)
(0,0,3), (0,1,3), (1,0,3), (1,1,3), (0,0,3), (0,1,3), (1,0,3), (1,1,3)
Block1:
Warp0:
(0,2,0), (0,3,0), (1,2,0), (1,3,0), (0,2,0), (0,3,0), (1,2,0), (1,3,0)
(0,2,1), (0,3,1), (1,2,1), (1,3,1), (0,2,1), (0,3,1), (1,2,1), (1,3,1)
(0,2,0), (0,3,0), (1,2,0), (1,3,0), (0,2,0), (0,3,0), (1,2,0), (1,3,0)
(0,2,1), (0,3,1), (1,2,1), (1,3,1), (0,2,1), (0,3,1), (1,2,1), (1,3,1)
Warp1:
(0,2,2), (0,3,2), (1,2,2), (1,3,2), (0,2,2), (0,3,2), (1,2,2), (1,3,2)
(0,2,3), (0,3,3), (1,2,3), (1,3,3), (0,2,3), (0,3,3), (1,2,3), (1,3,3)
(0,2,2), (0,3,2), (1,2,2), (1,3,2), (0,2,2), (0,3,2), (1,2,2), (1,3,2)
(0,2,3), (0,3,3), (1,2,3), (1,3,3), (0,2,3), (0,3,3), (1,2,3), (1,3,3)
)";
const char* kEDistributed =
    R"([ B0:T0:0| B8:T0:0,  B0:T1:0| B8:T1:0,  B1:T0:0| B9:T0:0,  B1:T1:0| B9:T1:0,  B2:T0:0|B10:T0:0,  B2:T1:0|B10:T1:0,  B3:T0:0|B11:T0:0,  B3:T1:0|B11:T1:0,  B4:T0:0|B12:T0:0,  B4:T1:0|B12:T1:0,  B5:T0:0|B13:T0:0,  B5:T1:0|B13:T1:0,  B6:T0:0|B14:T0:0,  B6:T1:0|B14:T1:0,  B7:T0:0|B15:T0:0,  B7:T1:0|B15:T1:0, , , , , , , , , , , , , , , , ]
)";
const char* kSShared = R"([[(0:0),(1:0),(0:1),(1:1)]
[ (0:2),(1:2),(0:3),(1:3)]]
)";
const char* kSSharedHw = R"(Block: 0:
Offset: 0 -> (0,0)
Offset: 1 -> (1,0)
Offset: 2 -> (0,1)
Offset: 3 -> (1,1)
Block: 1:
Offset: 0 -> (0,2)
Offset: 1 -> (1,2)
Offset: 2 -> (0,3)
Offset: 3 -> (1,3)
)";
const char* kS2Shared = R"([(0),(1),(0),(1),(0),(1),(0),(1)]
)";
const char* kS2SharedHw = R"(Block: 0:
Offset: 0 -> (0)
Offset: 1 -> (1)
Offset: 2 -> (0)
Offset: 3 -> (1)
Offset: 4 -> (0)
Offset: 5 -> (1)
Offset: 6 -> (0)
Offset: 7 -> (1)
)";
const char* kS3Shared = R"([,]
)";
const char* kS3SharedHw = R"(Block: 0:
Block: 1:
Block: 2:
Block: 3:
Block: 4:
Block: 5:
Block: 6:
Block: 7:
)";
const char* kS4Shared = R"([,]
)";
const char* kS4SharedHw = R"(Block: 0:
Block: 1:
Block: 2:
Block: 3:
Block: 4:
Block: 5:
Block: 6:
Block: 7:
)";
const char* kZDistributedHw = R"(Warp0:
(), ()
(), ()
)";

template <class L>
class TritonViews : public ::testing::Test {
 protected:
  static L layout(const char* json) { return L(layoutFromJson(parseJson(json))); }
};
using Implementations = ::testing::Types<ref::LinearLayout, opt::LinearLayout>;
TYPED_TEST_SUITE(TritonViews, Implementations);

TYPED_TEST(TritonViews, PaperLayoutA) {
  auto a = this->layout(kA);
  EXPECT_EQ(distributedView(a, false), kADistributed);
  EXPECT_EQ(distributedView(a, true), kADistributedHw);
}

TYPED_TEST(TritonViews, ThreeDimsBlocksBroadcast) {
  auto d = this->layout(kD);
  EXPECT_EQ(distributedView(d, false), kDDistributed);
  EXPECT_EQ(distributedView(d, true), kDDistributedHw);
}

TYPED_TEST(TritonViews, SixteenBlocksNotSurjective) {
  EXPECT_EQ(distributedView(this->layout(kE), false), kEDistributed);
}

TYPED_TEST(TritonViews, NoOutDimsHardwareView) {
  EXPECT_EQ(distributedView(this->layout(kZ), true), kZDistributedHw);
}

TYPED_TEST(TritonViews, SharedBlocks) {
  auto s = this->layout(kS);
  EXPECT_EQ(sharedView(s, false), kSShared);
  EXPECT_EQ(sharedView(s, true), kSSharedHw);
}

TYPED_TEST(TritonViews, SharedNarrowOffset) {
  auto s = this->layout(kS2);
  EXPECT_EQ(sharedView(s, false), kS2Shared);
  EXPECT_EQ(sharedView(s, true), kS2SharedHw);
}

TYPED_TEST(TritonViews, SharedMoreBlocksThanElements) {
  auto s = this->layout(kS3);
  EXPECT_EQ(sharedView(s, false), kS3Shared);
  EXPECT_EQ(sharedView(s, true), kS3SharedHw);
}

TYPED_TEST(TritonViews, SharedNoOffsetListed) {
  auto s = this->layout(kS4);
  EXPECT_EQ(sharedView(s, false), kS4Shared);
  EXPECT_EQ(sharedView(s, true), kS4SharedHw);
}

// The message of the f2lay::Error that a call throws; nullopt if none.
using testkit::errorOf;

// Triton 3.9.0 aborts on each of these (asked in a child process): a missing
// in dim asserts in getInDimSizeLog2, an extra one in apply, no out dims on
// an empty shape's back() or the first out dim's name.
TYPED_TEST(TritonViews, RefusedWhereTritonAborts) {
  auto noBlock = this->layout(R"({"in_dims": [{"name": "register", "bases": [[1]]},
      {"name": "lane", "bases": [[2]]}, {"name": "warp", "bases": []}],
      "out_dims": [{"name": "dim0", "size": 4}]})");
  EXPECT_EQ(errorOf([&] { distributedView(noBlock, false); }),
            "distributedView: a layout's in dims must be exactly [register, lane, warp, block], "
            "in any order; this one has [register, lane, warp], no 'block' (Triton asserts: "
            "\"inDim not found in layout\")");
  auto extra = this->layout(R"({"in_dims": [{"name": "register", "bases": [[1]]},
      {"name": "lane", "bases": []}, {"name": "warp", "bases": []},
      {"name": "block", "bases": []}, {"name": "offset", "bases": []}],
      "out_dims": [{"name": "dim0", "size": 2}]})");
  EXPECT_EQ(errorOf([&] { distributedView(extra, true); }),
            "distributedView: a layout's in dims must be exactly [register, lane, warp, block], "
            "in any order; this one has [register, lane, warp, block, offset], 'offset' too "
            "(Triton's apply aborts: \"Dimensions must match, ignoring order\")");
  EXPECT_NE(errorOf([&] { sharedView(extra, false); }), std::nullopt);
  EXPECT_EQ(errorOf([&] { distributedView(this->layout(kZ), false); }),
            "distributedView: the tensor view (hwPointOfView false) needs an out dim; the "
            "layout has none (Triton asserts on the back() of an empty shape)");

  auto noSharedBlock = this->layout(R"({"in_dims": [{"name": "offset", "bases": [[1],[2]]}],
      "out_dims": [{"name": "dim0", "size": 4}]})");
  EXPECT_EQ(errorOf([&] { sharedView(noSharedBlock, true); }),
            "sharedView: a layout's in dims must be exactly [offset, block], in any order; "
            "this one has [offset], no 'block' (Triton asserts: \"inDim not found in "
            "layout\")");
  EXPECT_NE(errorOf([&] { distributedView(noSharedBlock, true); }), std::nullopt);
  auto sharedNoOuts = this->layout(R"({"in_dims": [{"name": "offset", "bases": [[]]},
      {"name": "block", "bases": []}], "out_dims": []})");
  EXPECT_EQ(errorOf([&] { sharedView(sharedNoOuts, true); }),
            "sharedView: the layout needs an out dim; it has none (Triton reads the first "
            "out dim's name and asserts)");
  EXPECT_NE(errorOf([&] { sharedView(this->layout(kA), false); }), std::nullopt);
}

// f2lay's own limits: views that would list more than 2^24 entries, and
// offset dims past 31 bits, where Triton's apply shifts an int by 32 or more.
TYPED_TEST(TritonViews, RefusedPastLimits) {
  auto big = this->layout(R"({"in_dims": [{"name": "register", "bases": []},
      {"name": "lane", "bases": []}, {"name": "warp", "bases": []},
      {"name": "block", "bases": []}], "out_dims": [{"name": "dim0", "size": 33554432}]})");
  EXPECT_EQ(errorOf([&] { distributedView(big, true); }),
            "distributedView: the tensor size is 2^25, above f2lay's limit of 2^24 (the view "
            "would list every one)");
  std::string wide = R"({"in_dims": [{"name": "offset", "bases": [[1])";
  for (int i = 1; i < 32; ++i) wide += ",[0]";
  wide += R"(]}, {"name": "block", "bases": []}], "out_dims": [{"name": "dim0", "size": 2}]})";
  EXPECT_EQ(errorOf([&] { sharedView(this->layout(wide.c_str()), false); }),
            "sharedView: in dim 'offset' has 32 bits; at most 31 (Triton's apply tests bit i "
            "as an int's 1 << i, undefined from bit 32 on)");
}

}  // namespace
}  // namespace f2lay::tools
