// Triton's two text views of a layout, byte for byte as Triton 3.9.0's Python
// binding returns them (`LinearLayout.get_distributed_view(use_hw_point_of_view)`
// and `get_shared_view(...)`, which call getDistributedLayoutStr and
// getSharedLayoutStr in Triton's lib/Dialect/TritonGPU/IR/Dialect.cpp).
// Header-only, for f2lay::ref::LinearLayout and f2lay::opt::LinearLayout alike
// (only getInDimNames, getOutDimNames, hasInDim, getInDimSizeLog2,
// getOutDimSizeLog2, getOutDimSize and apply are used).
//
// The tensor is the out dims in row-major order: the LAST out dim varies
// fastest (the opposite of the layouts' own flattening), whatever the dims are
// called. A coordinate is printed right-aligned to the width of its out dim's
// size ("( 2,10)" for a 16x16 tensor).
//
// distributedView(L, hw)   L's in dims are exactly register, lane, warp, block
//   (any order). Thread t = warp * lanes + lane. Inputs are listed block by
//   block, then warp, lane, register (register fastest).
//   hw false: the tensor, a line per row (a run of the last out dim), nested
//     in brackets like numpy ("[[" opens a 2-D tensor, "]]" closes it); each
//     element lists every input that holds it, in input order, joined by "|":
//     "T<thread>:<register>", "B<block>:T<thread>:<register>" when there are
//     several blocks, each entry preceded by as many spaces as its block,
//     thread and register numbers have digits fewer than the number of blocks,
//     of threads (warps * lanes) and of registers. Elements are separated by
//     ", "; an element no input holds is empty.
//   hw true: per block ("Block<b>:" line, only with several blocks) and per
//     warp ("Warp<w>:" line), one line per register listing, lane by lane and
//     separated by ", ", the coordinate the lane holds: "(i,j)".
//   Paper Figure 1's layout A (2x2 registers, 4x8 lanes, 2 warps, 16x16):
//     hw false:  "[[ T0:0,  T0:1,  T1:0, ..." then "[  T0:2,  T0:3, ..."
//     hw true:   "Warp0:" then "( 0, 0), ( 0, 2), ( 0, 4), ..." (register 0)
// sharedView(L, hw)   L's in dims are exactly offset and block (any order).
//   Triton lists blocks, and in each the offsets 0 .. tensor size / blocks - 1,
//   NOT the offset dim's size: an offset dim narrower than that is read through
//   its low bits only (Triton's apply ignores the bits above a dim's size), so
//   its elements repeat; one wider is cut short.
//   hw false: input number n (block * offsets per block + offset) is drawn at
//     position n of the tensor grid above, as its coordinate "(i:j)" (colons,
//     no spaces); elements separated by ",". So the grid shows where each
//     offset goes, in offset order, not which offset holds an element.
//   hw true: per block a "Block: <b>:" line, then "Offset: <o> -> (i,j)" lines.
//   With more blocks than tensor elements no offset is listed: the grid's
//   cells are empty, hw lists "Block: <b>:" lines only, and as Triton never
//   applies the layout then, only the in dim block must exist.
//
// Preconditions. Where Triton 3.9.0 aborts the process, these throw
// f2lay::Error:
//   - a missing in dim (Triton asserts in getInDimSizeLog2, "inDim not found in
//     layout") or an extra one (Triton's apply: "Dimensions must match,
//     ignoring order"; sharedView with more blocks than elements excepted);
//   - no out dims: sharedView always (Triton reads the first out dim's name),
//     distributedView with hw false (it asserts on the back() of an empty
//     shape); distributedView with hw true prints "()" coordinates.
// And f2lay's own limits, where Triton would print megabytes for minutes or
// compute with undefined behaviour:
//   - at most 2^kMaxViewBits tensor elements and 2^kMaxViewBits listed inputs
//     (Triton builds 2^22 entries, 50 MB of text, in 5 s);
//   - sharedView: an offset dim of at most 31 bits (Triton's apply tests bit i
//     as `val & (1 << i)` on an int, undefined from bit 32 on; the 3.9.0 wheel
//     then reads bit i mod 32).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "formats/error.h"

namespace f2lay::tools {

// Views above 2^kMaxViewBits tensor elements or listed inputs are refused.
inline constexpr int kMaxViewBits = 24;

namespace views_detail {

using Values = std::vector<std::pair<std::string, uint64_t>>;

// The out dims as one row-major index: out dim k occupies the bits
// [shift[k], shift[k] + log2 size[k]), the last dim the lowest. Because every
// size is a power of two, this index is Triton's linearized element index and
// XOR acts on it field by field, so images can be XORed packed.
struct RowMajor {
  std::vector<uint64_t> sizes;
  std::vector<int> shifts;
  int bits = 0;

  template <class L>
  explicit RowMajor(const L& layout) {
    std::vector<std::string> outs = layout.getOutDimNames();
    shifts.resize(outs.size());
    for (size_t k = outs.size(); k-- > 0;) {
      shifts[k] = bits;
      bits += layout.getOutDimSizeLog2(outs[k]);
    }
    for (const std::string& name : outs) sizes.push_back(layout.getOutDimSize(name));
  }
  uint64_t pack(const Values& outs) const {
    uint64_t packed = 0;
    for (size_t k = 0; k < outs.size(); ++k) packed |= outs[k].second << shifts[k];
    return packed;
  }
  uint64_t coordinate(uint64_t packed, size_t k) const {
    return (packed >> shifts[k]) & (sizes[k] - 1);
  }
};

inline int digits(uint64_t value) { return static_cast<int>(std::to_string(value).size()); }

// Triton's paddedString: `value` right-aligned to the width of `max`.
inline std::string padded(uint64_t value, uint64_t max) {
  return std::string(digits(max) - digits(value), ' ') + std::to_string(value);
}

// "(i,j)" (hw views) or "(i:j)" (the shared tensor view).
inline std::string coordinates(uint64_t packed, const RowMajor& rm, const char* separator) {
  std::string text = "(";
  for (size_t k = 0; k < rm.sizes.size(); ++k) {
    if (k > 0) text += separator;
    text += padded(rm.coordinate(packed, k), rm.sizes[k]);
  }
  return text + ")";
}

// table[x] = the packed image of value x of in dim `dim`, for x < count, as
// Triton's apply computes it: only the dim's own bits of x count.
template <class L>
std::vector<uint64_t> imageTable(const L& layout, const std::string& dim, uint64_t count,
                                 const RowMajor& rm) {
  int bits = layout.getInDimSizeLog2(dim);
  std::vector<uint64_t> bitImage;
  for (int i = 0; i < bits; ++i) {
    Values input;
    for (const std::string& name : layout.getInDimNames())
      input.emplace_back(name, name == dim ? uint64_t{1} << i : 0);
    bitImage.push_back(rm.pack(layout.apply(input)));
  }
  std::vector<uint64_t> table(count, 0);
  for (uint64_t x = 1; x < count; ++x) {
    int low = std::countr_zero(x);
    table[x] = table[x & (x - 1)] ^ (low < bits ? bitImage[low] : 0);
  }
  return table;
}

// The tensor grid of both hw-false views: cells in row-major order, a line per
// run of the last dim. Cell i opens one bracket per trailing block of dims it
// starts (i a multiple of the product of shape[m..] for each such m) and
// cell i closes one per block it ends (the same test on i + 1); a line starts
// with one space per bracket it does not open.
inline std::string tensorGrid(const std::vector<std::string>& cells,
                              const std::vector<uint64_t>& shape, const char* separator) {
  std::vector<uint64_t> blockSizes;  // products of shape[m..], m = 0 .. rank-1
  uint64_t product = 1;
  for (size_t m = shape.size(); m-- > 0;) blockSizes.push_back(product *= shape[m]);
  auto blocksStarting = [&](uint64_t i) {
    size_t n = 0;
    for (uint64_t size : blockSizes) n += i % size == 0;
    return n;
  };
  std::string text;
  bool lineStart = true;
  for (uint64_t i = 0; i < cells.size(); ++i) {
    size_t opened = blocksStarting(i);
    text.append(opened, '[');
    if (lineStart) text.append(shape.size() - opened, ' ');
    text += cells[i];
    text.append(blocksStarting(i + 1), ']');
    lineStart = (i + 1) % shape.back() == 0;
    text += lineStart ? "\n" : separator;
  }
  return text;
}

// One input of the distributed tensor view: "[B<block>:]T<thread>:<register>",
// preceded by one space per digit that block, thread and register lack
// against the number of blocks, threads and registers (Triton's
// numCharacterPadding).
inline std::string holder(uint64_t block, uint64_t blocks, uint64_t thread, uint64_t threads,
                          uint64_t reg, uint64_t registers) {
  std::string text(digits(blocks) - digits(block) + digits(threads) - digits(thread) +
                       digits(registers) - digits(reg),
                   ' ');
  if (blocks > 1) text.append("B").append(std::to_string(block)).append(":");
  return text.append("T").append(std::to_string(thread)).append(":").append(std::to_string(reg));
}

inline std::string joinNames(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return "[" + text + "]";
}

// The rule a view's in dims break, as its errors state it.
template <class L>
std::string inDimRule(const L& layout, const std::vector<std::string>& wanted, const char* view) {
  return std::string(view) + ": a layout's in dims must be exactly " + joinNames(wanted) +
         ", in any order; this one has " + joinNames(layout.getInDimNames());
}

// Throws when in dim `name` is missing (Triton's getInDimSizeLog2 asserts).
template <class L>
void requireInDim(const L& layout, const std::string& name, const std::vector<std::string>& wanted,
                  const char* view) {
  if (!layout.hasInDim(name))
    throw Error(inDimRule(layout, wanted, view) + ", no '" + name +
                "' (Triton asserts: \"inDim not found in layout\")");
}

// Throws unless the layout's in dims are exactly `wanted`, in any order
// (Triton's apply aborts on any other set).
template <class L>
void requireInDims(const L& layout, const std::vector<std::string>& wanted, const char* view) {
  for (const std::string& name : wanted) requireInDim(layout, name, wanted, view);
  for (const std::string& name : layout.getInDimNames())
    if (std::find(wanted.begin(), wanted.end(), name) == wanted.end())
      throw Error(inDimRule(layout, wanted, view) + ", '" + name +
                  "' too (Triton's apply aborts: \"Dimensions must match, ignoring order\")");
}

// Throws when `what` (2^bits of it, each listed by the view) passes the limit.
inline void requireAtMost(int bits, const std::string& what, const char* view) {
  if (bits > kMaxViewBits)
    throw Error(std::string(view) + ": " + what + " is 2^" + std::to_string(bits) +
                ", above f2lay's limit of 2^" + std::to_string(kMaxViewBits) +
                " (the view would list every one)");
}

// The packed images of every value of the four hardware in dims; the image of
// (block, warp, lane, register) is the XOR of theirs.
struct HardwareImages {
  std::vector<uint64_t> reg, lane, warp, block;
  uint64_t operator()(uint64_t b, uint64_t w, uint64_t l, uint64_t r) const {
    return block[b] ^ warp[w] ^ lane[l] ^ reg[r];
  }
};

// hw true: per block (headed only when there are several) and warp, a line per
// register of the coordinates each lane holds.
inline std::string hardwareListing(const HardwareImages& images, const RowMajor& rm) {
  std::string text;
  for (uint64_t b = 0; b < images.block.size(); ++b) {
    if (images.block.size() > 1) text.append("Block").append(std::to_string(b)).append(":\n");
    for (uint64_t w = 0; w < images.warp.size(); ++w) {
      text.append("Warp").append(std::to_string(w)).append(":\n");
      for (uint64_t r = 0; r < images.reg.size(); ++r) {
        for (uint64_t l = 0; l < images.lane.size(); ++l)
          text.append(l > 0 ? ", " : "").append(coordinates(images(b, w, l, r), rm, ","));
        text += "\n";
      }
    }
  }
  return text;
}

// hw false: each tensor element lists its holders in input order.
inline std::string holderGrid(const HardwareImages& images, const RowMajor& rm) {
  uint64_t blocks = images.block.size(), warps = images.warp.size(), lanes = images.lane.size(),
           registers = images.reg.size();
  std::vector<std::string> cells(uint64_t{1} << rm.bits);
  for (uint64_t b = 0; b < blocks; ++b)
    for (uint64_t w = 0; w < warps; ++w)
      for (uint64_t l = 0; l < lanes; ++l)
        for (uint64_t r = 0; r < registers; ++r) {
          std::string& cell = cells[images(b, w, l, r)];
          if (!cell.empty()) cell += "|";
          cell += holder(b, blocks, w * lanes + l, warps * lanes, r, registers);
        }
  return tensorGrid(cells, rm.sizes, ", ");
}

// Where each (block, offset) goes, offsets per block of them in each block.
struct SharedImages {
  std::vector<uint64_t> block, offset;
};

// hw true: "Block: <b>:", then a line per offset.
inline std::string offsetListing(const SharedImages& images, const RowMajor& rm) {
  std::string text;
  for (uint64_t b = 0; b < images.block.size(); ++b) {
    text.append("Block: ").append(std::to_string(b)).append(":\n");
    for (uint64_t o = 0; o < images.offset.size(); ++o)
      text.append("Offset: ")
          .append(std::to_string(o))
          .append(" -> ")
          .append(coordinates(images.block[b] ^ images.offset[o], rm, ","))
          .append("\n");
  }
  return text;
}

// hw false: input n drawn at cell n (not at the element it maps to).
inline std::string offsetGrid(const SharedImages& images, const RowMajor& rm) {
  std::vector<std::string> cells(uint64_t{1} << rm.bits);
  uint64_t offsets = images.offset.size();
  for (uint64_t b = 0; b < images.block.size(); ++b)
    for (uint64_t o = 0; o < offsets; ++o)
      cells[b * offsets + o] = coordinates(images.block[b] ^ images.offset[o], rm, ":");
  return tensorGrid(cells, rm.sizes, ",");
}

}  // namespace views_detail

// Triton's getDistributedLayoutStr (see the header comment).
template <class L>
std::string distributedView(const L& layout, bool hwPointOfView) {
  using namespace views_detail;
  const char* view = "distributedView";
  requireInDims(layout, {"register", "lane", "warp", "block"}, view);
  if (!hwPointOfView && layout.getOutDimNames().empty())
    throw Error(std::string(view) +
                ": the tensor view (hwPointOfView false) needs an out dim; the layout has "
                "none (Triton asserts on the back() of an empty shape)");
  RowMajor rm(layout);
  auto bits = [&](const char* dim) { return layout.getInDimSizeLog2(dim); };
  requireAtMost(rm.bits, "the tensor size", view);
  requireAtMost(bits("register") + bits("lane") + bits("warp") + bits("block"),
                "the number of inputs (register x lane x warp x block)", view);
  auto table = [&](const char* dim) {
    return imageTable(layout, dim, uint64_t{1} << bits(dim), rm);
  };
  HardwareImages images{table("register"), table("lane"), table("warp"), table("block")};
  return hwPointOfView ? hardwareListing(images, rm) : holderGrid(images, rm);
}

// Triton's getSharedLayoutStr (see the header comment).
template <class L>
std::string sharedView(const L& layout, bool hwPointOfView) {
  using namespace views_detail;
  const char* view = "sharedView";
  if (layout.getOutDimNames().empty())
    throw Error(std::string(view) +
                ": the layout needs an out dim; it has none (Triton reads the first out "
                "dim's name and asserts)");
  const std::vector<std::string> wanted = {"offset", "block"};
  requireInDim(layout, "block", wanted, view);
  RowMajor rm(layout);
  int blockBits = layout.getInDimSizeLog2("block");
  requireAtMost(rm.bits, "the tensor size", view);
  requireAtMost(blockBits, "the number of blocks", view);
  // Offsets listed per block: none when there are more blocks than elements.
  // Triton then never applies the layout, so no other in dim is checked.
  uint64_t offsets = (uint64_t{1} << rm.bits) >> blockBits;
  SharedImages images;
  if (offsets > 0) {
    requireInDims(layout, wanted, view);
    int offsetBits = layout.getInDimSizeLog2("offset");
    if (offsetBits > 31)
      throw Error(std::string(view) + ": in dim 'offset' has " + std::to_string(offsetBits) +
                  " bits; at most 31 (Triton's apply tests bit i as an int's 1 << i, "
                  "undefined from bit 32 on)");
    images.block = imageTable(layout, "block", uint64_t{1} << blockBits, rm);
    images.offset = imageTable(layout, "offset", offsets, rm);
  } else {
    images.block.resize(uint64_t{1} << blockBits);
  }
  return hwPointOfView ? offsetListing(images, rm) : offsetGrid(images, rm);
}

}  // namespace f2lay::tools
