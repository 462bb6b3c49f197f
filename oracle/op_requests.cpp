#include "oracle/op_requests.h"

#include <algorithm>

#include "formats/dim_names.h"
#include "testkit/dims.h"

namespace f2lay::oracle {

using testkit::inDimNames;
using testkit::outDimNames;

namespace {

const Json& noJson() {
  static const Json empty = Json::object();
  return empty;
}

template <class T>
const T& oneOf(const std::vector<T>& options, uint64_t i) {
  return options[i % options.size()];
}

bool isIn(const char* key) { return std::string(key).find("in_") != std::string::npos; }

}  // namespace

DrawnRequest::DrawnRequest(std::function<uint64_t(uint64_t)> below,
                           std::vector<LayoutValue> layouts)
    : Args(noJson()), below_(std::move(below)), layouts_(std::move(layouts)) {
  layouts_.resize(3);
}

template <class T, class Draw>
const T& DrawnRequest::memo(std::map<std::string, T>& seen, const char* key,
                            const Draw& draw) const {
  auto found = seen.find(key);
  if (found == seen.end()) found = seen.emplace(key, draw()).first;
  return found->second;
}

// Optional keys are given about half the time.
bool DrawnRequest::has(const char* key) const {
  return memo(has_, key, [&] { return pick(2) == 1; });
}

LayoutValue DrawnRequest::layoutValue(const char* key) const {
  std::string k = key;
  return k == "other" ? layouts_[1] : k == "shared" ? layouts_[2] : layouts_[0];
}

bool DrawnRequest::boolean(const char* key) const {
  return memo(booleans_, key, [&] { return pick(2) == 1; });
}

TritonVersion DrawnRequest::triton() const {
  return has("triton") && boolean("triton_3_6") ? TritonVersion::k3_6 : kCurrentTriton;
}

// Powers of two mostly, by the key's meaning, and now and then a value the
// op must refuse.
uint64_t DrawnRequest::number(const char* key) const {
  return memo(numbers_, key, [&]() -> uint64_t {
    std::string k = key;
    if (k == "element_bytes") return oneOf<uint64_t>({1, 2, 4, 8, 16, 2, 4, 3}, pick(8));
    if (k == "vector_bytes") return oneOf<uint64_t>({2, 4, 8, 16, 32, 6}, pick(6));
    if (k == "axis") return pick(4);
    if (pick(16) == 0) return oneOf<uint64_t>({0, 3, 12, uint64_t{1} << 63}, pick(4));
    return uint64_t{1} << pick(k == "stride" || k == "out_dim_size" ? 12 : 9);
  });
}

// The layout's own dim names mostly (so that ops find what they look for),
// a hardware or tensor name otherwise, by the key.
std::string DrawnRequest::name(const char* key) const {
  return memo(names_, key, [&]() -> std::string {
    std::string k = key;
    if (k == "access")
      return oneOf<std::string>(
          {"load", "store", "ldmatrix", "stmatrix", "ldmatrix_trans", "stmatrix_trans", "copy"},
          pick(7));
    if (k == "write") return oneOf<std::string>({"vector", "stmatrix", "stmatrix_trans"}, pick(3));
    if (k == "read") return oneOf<std::string>({"vector", "ldmatrix", "ldmatrix_trans"}, pick(3));
    if (k == "tile") return oneOf<std::string>({"vector", "matrix", "square"}, pick(3));
    std::vector<std::string> pool = k == "axis" ? outDimNames(first()) : inDimNames(first());
    if (k == "out_dim") pool = outDimNames(first());
    for (const char* other : {"register", "lane", "dim0", "dim1"}) pool.push_back(other);
    return oneOf(pool, pick(pool.size()));
  });
}

// new_in_dims / new_out_dims: a permutation of the layout's dims, one of
// them now and then dropped or renamed; in_dim_names / out_dim_names: a
// subset of them, in the layout's order or reversed.
std::vector<std::string> DrawnRequest::names(const char* key) const {
  return memo(nameLists_, key, [&] {
    std::vector<std::string> dims = isIn(key) ? inDimNames(first()) : outDimNames(first());
    for (size_t i = dims.size(); i > 1; --i) std::swap(dims[i - 1], dims[pick(i)]);
    std::string k = key;
    if (k.rfind("new_", 0) == 0) {
      uint64_t spoil = pick(8);
      if (spoil == 0 && !dims.empty()) dims.pop_back();
      if (spoil == 1 && !dims.empty()) dims[0] = "nope";
      return dims;
    }
    std::vector<std::string> subset;
    for (const std::string& d : dims)
      if (pick(3) != 0) subset.push_back(d);
    if (pick(8) == 0) subset.push_back("nope");
    return subset;
  });
}

std::vector<uint64_t> DrawnRequest::numbers(const char* key) const {
  std::vector<uint64_t> out(pick(4));
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = number((std::string(key) + "[" + std::to_string(i) + "]").c_str());
  return out;
}

std::vector<std::vector<uint64_t>> DrawnRequest::numberLists(const char* key) const {
  std::vector<std::vector<uint64_t>> out(pick(3));
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = numbers((std::string(key) + "[" + std::to_string(i) + "]").c_str());
  return out;
}

// The layout's in or out bits split into up to three new dims (a, b, c),
// now and then one bit off, a name twice or a size not a power of two.
DimSizes DrawnRequest::dimSizes(const char* key) const {
  return memo(dimSizes_, key, [&] {
    int bits = isIn(key) ? totalInBits(first()) : totalOutBits(first());
    if (pick(8) == 0) bits += 1;
    DimSizes out;
    int parts = 1 + static_cast<int>(pick(3));
    for (int p = 0; p < parts; ++p) {
      int b = p + 1 == parts ? bits : static_cast<int>(pick(static_cast<uint64_t>(bits) + 1));
      b = std::min(b, 63);
      out.push_back({std::string(1, static_cast<char>('a' + p)), uint64_t{1} << b});
      bits -= b;
    }
    uint64_t spoil = pick(12);
    if (spoil == 0 && out.size() > 1) out[1].first = out[0].first;
    if (spoil == 1) out[0].second = 3;
    return out;
  });
}

// A value for each in dim of the layout (below its size), now and then a
// dim missing, unknown, or too large.
DimValues DrawnRequest::dimValues(const char* key) const {
  return memo(dimValues_, key, [&] {
    DimValues out;
    for (const InDim& d : first().in_dims) {
      int bits = static_cast<int>(d.bases.size());
      out.push_back({d.name, bits == 0 ? 0 : pick(uint64_t{1} << std::min(bits, 62))});
    }
    uint64_t spoil = pick(12);
    if (spoil == 0 && !out.empty()) out.pop_back();
    if (spoil == 1) out.push_back({"nope", 0});
    if (spoil == 2 && !out.empty()) out[0].second = ~uint64_t{0};
    return out;
  });
}

std::string DrawnRequest::describe() const {
  std::string s;
  auto add = [&](const std::string& key, const std::string& value) {
    s += (s.empty() ? "" : ", ") + key + "=" + value;
  };
  for (const auto& [k, v] : has_) add("has " + k, v ? "yes" : "no");
  for (const auto& [k, v] : numbers_) add(k, std::to_string(v));
  for (const auto& [k, v] : names_) add(k, v);
  for (const auto& [k, v] : nameLists_) add(k, joinNames(v));
  for (const auto& [k, v] : dimSizes_) {
    std::string d;
    for (const auto& [n, size] : v) d += n + ":" + std::to_string(size) + " ";
    add(k, d);
  }
  for (const auto& [k, v] : booleans_) add(k, v ? "true" : "false");
  return s;
}

}  // namespace f2lay::oracle
