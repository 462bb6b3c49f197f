#include "reference/catalog/linear.h"

#include <algorithm>

#include "formats/error.h"

namespace f2lay::ref::catalog {

namespace {

struct NamedBases {
  const char* key;    // Gluon's argument, e.g. "reg_bases"
  const char* inDim;  // the layout's in dim, e.g. "register"
  const std::vector<Basis>* bases;
};

std::string at(const NamedBases& b, size_t i) {
  return std::string(b.key) + "[" + std::to_string(i) + "] = " + listText((*b.bases)[i]);
}

void checkRanks(const std::vector<NamedBases>& all, size_t rank) {
  for (const NamedBases& b : all)
    for (size_t i = 0; i < b.bases->size(); ++i)
      if ((*b.bases)[i].size() != rank)
        throw Error(at(b, i) + ": has " + std::to_string((*b.bases)[i].size()) +
                    " values, one per dim of rank " + std::to_string(rank) + " wanted");
}

LayoutValue layoutOf(const std::vector<NamedBases>& all, bool dropZeros) {
  LayoutValue v;
  for (const NamedBases& b : all) {
    InDim d{b.inDim, {}};
    for (const Basis& basis : *b.bases)
      if (!dropZeros || basis != Basis(basis.size(), 0)) d.bases.push_back(basis);
    v.in_dims.push_back(std::move(d));
  }
  return v;
}

}  // namespace

LinearLayout distributedLinear(const DistributedLinearParams& p, const Shape& shape) {
  if (shape.empty()) throw Error("shape: is empty (rank 1 or more wanted)");
  size_t rank = shape.size();
  checkPowersOfTwo("shape", shape, rank);
  std::vector<NamedBases> all = {{"reg_bases", "register", &p.regBases},
                                 {"lane_bases", "lane", &p.laneBases},
                                 {"warp_bases", "warp", &p.warpBases},
                                 {"block_bases", "block", &p.blockBases}};
  checkRanks(all, rank);
  // The bit of the shape each basis reaches, and who reached it first.
  std::vector<std::vector<std::string>> reachedBy(rank);
  for (size_t d = 0; d < rank; ++d) reachedBy[d].resize(log2Exact(shape[d]));
  for (const NamedBases& b : all)
    for (size_t i = 0; i < b.bases->size(); ++i) {
      const Basis& basis = (*b.bases)[i];
      size_t moved = 0, dim = 0;
      for (size_t d = 0; d < rank; ++d)
        if (basis[d] != 0) ++moved, dim = d;
      if (moved == 0) continue;  // a broadcast: the data is held twice
      if (moved > 1)
        throw Error(at(b, i) +
                    ": moves along more than one dim; Triton 3.9 takes only a permutation "
                    "matrix once zero bases are removed (isPermutationMatrixLayout)");
      if (!isPowerOfTwo(basis[dim]) || basis[dim] >= shape[dim])
        throw Error(at(b, i) + ": dim " + std::to_string(dim) + "'s value " +
                    std::to_string(basis[dim]) + " is not a power of two below the shape's " +
                    std::to_string(shape[dim]));
      std::string& first = reachedBy[dim][log2Exact(basis[dim])];
      if (!first.empty())
        throw Error(at(b, i) + ": repeats " + first +
                    " (two non-zero bases alike: not a permutation matrix)");
      first = at(b, i);
    }
  for (size_t d = 0; d < rank; ++d)
    for (size_t k = 0; k < reachedBy[d].size(); ++k)
      if (reachedBy[d][k].empty())
        throw Error("no basis reaches dim " + std::to_string(d) + " = " +
                    std::to_string(uint64_t{1} << k) + " of shape " + listText(shape) +
                    ": the layout must be surjective onto its shape");
  LayoutValue v = layoutOf(all, false);
  std::vector<std::string> names = standardOutDimNames(rank);
  for (size_t d = 0; d < rank; ++d) v.out_dims.push_back({names[d], shape[d]});
  return LinearLayout(std::move(v));
}

LinearLayout linearEncoding(const DistributedLinearParams& p, const Shape& shape) {
  if (shape.empty()) throw Error("shape: is empty (rank 1 or more wanted)");
  checkPowersOfTwo("shape", shape, shape.size());
  std::vector<NamedBases> all = {{"reg_bases", "register", &p.regBases},
                                 {"lane_bases", "lane", &p.laneBases},
                                 {"warp_bases", "warp", &p.warpBases},
                                 {"block_bases", "block", &p.blockBases}};
  checkRanks(all, shape.size());
  // The bases' own extent, as Triton's LinearLayout infers out-dim sizes.
  LayoutValue own = layoutOf(all, false);
  std::vector<std::string> names = standardOutDimNames(shape.size());
  for (const std::string& name : names) own.out_dims.push_back({name, 1});
  inferOutDimSizes(own);
  Shape extent;
  for (const OutDim& d : own.out_dims) extent.push_back(d.size);
  LinearLayout tile = distributedLinear(p, extent);
  std::vector<std::pair<std::string, uint64_t>> wanted;
  for (size_t d = 0; d < shape.size(); ++d) wanted.push_back({names[d], shape[d]});
  // A tile that is too small repeats along its most minor dim first. The
  // order is Triton's getOrder of the encoding: the dims in the order its
  // register bases first move them, then the others from the last dim down.
  std::vector<std::string> order;
  auto add = [&](size_t d) {
    if (std::find(order.begin(), order.end(), names[d]) == order.end()) order.push_back(names[d]);
  };
  for (const Basis& b : p.regBases)
    for (size_t d = 0; d < b.size(); ++d)
      if (b[d] != 0) {
        add(d);
        break;
      }
  for (size_t d = shape.size(); d-- > 0;) add(d);
  LinearLayout grown = ensureLayoutNotSmallerThan(tile.transposeOuts(order), wanted);
  return ensureLayoutNotLargerThan(grown, wanted, /*broadcastRegisters=*/false)
      .transposeOuts(names);
}

LinearLayout sharedLinear(const SharedLinearParams& p) {
  if (p.offsetBases.empty() || p.offsetBases[0].empty())
    throw Error("offset_bases: is empty (at least one basis of rank 1 or more wanted)");
  if (!isPowerOfTwo(p.alignment))
    throw Error("alignment = " + std::to_string(p.alignment) + " is not a power of two");
  size_t rank = p.offsetBases[0].size();
  std::vector<NamedBases> all = {{"offset_bases", "offset", &p.offsetBases},
                                 {"block_bases", "block", &p.blockBases}};
  checkRanks(all, rank);
  std::vector<std::string> names = standardOutDimNames(rank);
  // The sizes Gluon's `shape` property gives: above each dim's largest value.
  LayoutValue v = layoutOf(all, false);
  for (size_t d = 0; d < rank; ++d) v.out_dims.push_back({names[d], 1});
  inferOutDimSizes(v);
  LayoutValue nonZero = layoutOf(all, true);
  nonZero.out_dims = v.out_dims;
  LinearLayout kept(std::move(nonZero));
  if (!kept.isInjective())
    throw Error(
        "offset_bases and block_bases: the non-zero bases are linearly dependent, so an "
        "element would sit at two places (SharedLinearEncodingAttr wants a bijection once zero "
        "bases are removed)");
  if (!kept.isSurjective())
    throw Error("offset_bases and block_bases: reach " +
                std::to_string(uint64_t{1} << kept.rank()) + " of the " +
                std::to_string(uint64_t{1} << kept.getTotalOutDimSizeLog2()) +
                " elements of their shape (each dim up to its largest value): not a bijection");
  return LinearLayout(std::move(v));
}

}  // namespace f2lay::ref::catalog
