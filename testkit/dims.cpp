#include "testkit/dims.h"

namespace f2lay::testkit {

int totalBits(const DimBits& dims) {
  int n = 0;
  for (const auto& d : dims) n += d.second;
  return n;
}

DimBits inDimBits(const LayoutValue& l) {
  DimBits dims;
  for (const InDim& d : l.in_dims) dims.push_back({d.name, static_cast<int>(d.bases.size())});
  return dims;
}

DimBits outDimBits(const LayoutValue& l) {
  DimBits dims;
  for (const OutDim& d : l.out_dims) dims.push_back({d.name, log2Exact(d.size)});
  return dims;
}

std::vector<std::string> inDimNames(const LayoutValue& l) {
  std::vector<std::string> names;
  for (const InDim& d : l.in_dims) names.push_back(d.name);
  return names;
}

std::vector<std::string> outDimNames(const LayoutValue& l) {
  std::vector<std::string> names;
  for (const OutDim& d : l.out_dims) names.push_back(d.name);
  return names;
}

}  // namespace f2lay::testkit
