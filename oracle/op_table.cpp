#include "oracle/op_table.h"

#include "reference/catalog/shape_fit.h"

namespace f2lay::oracle {

namespace {

const Json& arrayAt(const Json& request, const char* key) {
  const Json& a = request.at(key);
  if (!a.is_array()) throw Error(std::string(key) + ": expected an array");
  return a;
}

std::string at(const char* key, size_t i) {
  return std::string(key) + "[" + std::to_string(i) + "]";
}

}  // namespace

std::string Args::name(const char* key) const { return nameFromJson(request_.at(key), key); }

uint64_t Args::number(const char* key) const { return unsignedFromJson(request_.at(key), key); }

bool Args::boolean(const char* key) const {
  const Json& b = request_.at(key);
  if (!b.is_boolean()) throw Error(std::string(key) + ": expected true or false");
  return b.get<bool>();
}

TritonVersion Args::triton() const {
  if (!has("triton")) return kCurrentTriton;
  const Json& v = request_.at("triton");
  if (!v.is_string()) throw Error("triton: expected a string, \"3.9\" or \"3.6\"");
  return parseTritonVersion(v.get<std::string>());
}

std::vector<std::string> Args::names(const char* key) const {
  const Json& a = arrayAt(request_, key);
  std::vector<std::string> out;
  for (size_t i = 0; i < a.size(); ++i) out.push_back(nameFromJson(a[i], at(key, i)));
  return out;
}

std::vector<uint64_t> Args::numbers(const char* key) const {
  const Json& a = arrayAt(request_, key);
  std::vector<uint64_t> out;
  for (size_t i = 0; i < a.size(); ++i) out.push_back(unsignedFromJson(a[i], at(key, i)));
  return out;
}

std::vector<std::vector<uint64_t>> Args::numberLists(const char* key) const {
  const Json& a = arrayAt(request_, key);
  std::vector<std::vector<uint64_t>> out;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!a[i].is_array()) throw Error(at(key, i) + ": expected an array");
    std::vector<uint64_t> row;
    for (size_t j = 0; j < a[i].size(); ++j)
      row.push_back(unsignedFromJson(a[i][j], at(key, i) + "[" + std::to_string(j) + "]"));
    out.push_back(std::move(row));
  }
  return out;
}

ref::DimSizes Args::dimSizes(const char* key) const {
  const Json& a = arrayAt(request_, key);
  ref::DimSizes out;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!a[i].is_object() || a[i].size() != 2 || !a[i].contains("name") || !a[i].contains("size"))
      throw Error(at(key, i) + ": expected {\"name\": ..., \"size\": ...}");
    out.push_back({nameFromJson(a[i]["name"], at(key, i) + ".name"),
                   unsignedFromJson(a[i]["size"], at(key, i) + ".size")});
  }
  return out;
}

ref::DimValues Args::dimValues(const char* key) const {
  const Json& o = request_.at(key);
  if (!o.is_object()) throw Error(std::string(key) + ": expected an object {dim: value}");
  ref::DimValues out;
  for (const auto& [dim, value] : o.items())
    out.push_back({dim, unsignedFromJson(value, std::string(key) + "." + dim)});
  return out;
}

std::vector<unsigned> Args::order(const char* key, size_t rank) const {
  std::vector<unsigned> order;
  for (uint64_t v : numbers(key)) {
    if (v >= rank)
      throw Error(std::string(key) + ": must be a permutation of 0..rank-1 (rank " +
                  std::to_string(rank) + ", has " + std::to_string(v) + ")");
    order.push_back(static_cast<unsigned>(v));
  }
  ref::catalog::checkOrder(key, order, rank);
  return order;
}

std::optional<Layout> Args::cgaLayout(size_t rank) const {
  if (!has("cga_layout")) return std::nullopt;
  std::vector<std::vector<uint64_t>> bases = numberLists("cga_layout");
  LayoutValue v{{{"block", {}}}, {}};
  for (size_t i = 0; i < bases.size(); ++i) {
    if (bases[i].size() != rank)
      throw Error(at("cga_layout", i) + ": has " + std::to_string(bases[i].size()) +
                  " values, expected one per dim (" + std::to_string(rank) + ")");
    v.in_dims[0].bases.push_back(bases[i]);
  }
  for (size_t k = 0; k < rank; ++k) v.out_dims.push_back({"dim" + std::to_string(k), 1});
  // Sizes as Triton infers them (Gluon's cga_layout carries none).
  try {
    inferOutDimSizes(v);
  } catch (const Error& e) {
    throw Error(std::string("cga_layout: ") + e.what());
  }
  return Layout(std::move(v));
}

Layout legacyCgaLayout(const Args& a, size_t rank) {
  for (const char* key : {"ctas_per_cga", "cta_split_num", "cta_order"})
    if (!a.has(key))
      throw Error(std::string("\"ctas_per_cga\", \"cta_split_num\" and \"cta_order\" go "
                              "together; \"") +
                  key + "\" is missing");
  std::vector<uint64_t> ctas = a.numbers("ctas_per_cga");
  std::vector<uint64_t> split = a.numbers("cta_split_num");
  ref::catalog::checkPowersOfTwo("ctas_per_cga", ctas, rank);
  ref::catalog::checkPowersOfTwo("cta_split_num", split, rank);
  for (size_t d = 0; d < rank; ++d)
    if (split[d] > ctas[d])
      throw Error("cta_split_num[" + std::to_string(d) + "] = " + std::to_string(split[d]) +
                  " must be at most ctas_per_cga[" + std::to_string(d) +
                  "] = " + std::to_string(ctas[d]));
  return ref::catalog::makeCgaLayout(ctas, split, a.order("cta_order", rank));
}

LayoutValue Args::layoutValue(const char* key) const {
  const Json& j = request_.at(key);
  if (j.is_object() && j.contains("padding"))
    throw Error(std::string(key) +
                ": is a padded layout (it has \"padding\", as padded_shared answers); its "
                "offset-to-address map adds padding with carries, so it is not linear over F2 "
                "(analysis/padding.h), and this op needs a linear layout. bank_conflicts takes "
                "padded memory layouts");
  return layoutFromJson(j, key);
}

LayoutValue Args::unpaddedLayoutValue(const char* key) const {
  Json j = request_.at(key);
  j.erase("padding");
  return layoutFromJson(j, key);
}

analysis::Padding Args::paddingPairs(const char* key) const {
  analysis::Padding out;
  std::vector<std::vector<uint64_t>> pairs = numberLists(key);
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (pairs[i].size() != 2)
      throw Error(at(key, i) + ": expected [interval, padding], found " +
                  std::to_string(pairs[i].size()) + " values");
    out.push_back({pairs[i][0], pairs[i][1]});
  }
  analysis::checkPadding(out, key);
  return out;
}

analysis::Padding Args::padding(const char* key) const {
  if (!request_.is_object() || !request_.contains(key)) return {};
  const Json& j = request_.at(key);
  if (!j.is_object() || !j.contains("padding")) return {};
  Json wrapped = {{"padding", j.at("padding")}};
  Args inner(wrapped);
  try {
    return inner.paddingPairs("padding");
  } catch (const Error& e) {
    throw Error(std::string(key) + "." + e.what());
  }
}

Json layoutJson(const Layout& l) { return layoutToJson(l.value()); }
Json layoutJson(const opt::LinearLayout& l) { return layoutToJson(l.value()); }

Json dimValuesJson(const ref::DimValues& values) {
  Json o = Json::object();
  for (const auto& [dim, v] : values) o[dim] = v;
  return o;
}

}  // namespace f2lay::oracle
