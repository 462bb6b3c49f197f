#include "optimized/names.h"

#include <deque>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

namespace f2lay::opt {

namespace {

struct Table {
  std::shared_mutex mutex;
  std::deque<std::string> names;  // a deque keeps references valid as it grows
  std::unordered_map<std::string, NameId> ids;
};

Table& table() {
  static Table t;
  return t;
}

}  // namespace

NameId intern(const std::string& name) {
  Table& t = table();
  {
    std::shared_lock lock(t.mutex);
    auto it = t.ids.find(name);
    if (it != t.ids.end()) return it->second;
  }
  std::unique_lock lock(t.mutex);
  auto [it, added] = t.ids.emplace(name, static_cast<NameId>(t.names.size()));
  if (added) t.names.push_back(name);
  return it->second;
}

const std::string& nameOf(NameId id) {
  Table& t = table();
  std::shared_lock lock(t.mutex);
  return t.names.at(id);
}

std::vector<std::string> DimList::names() const {
  std::vector<std::string> out;
  for (int k = 0; k < count; ++k) out.push_back(nameOf(id[k]));
  return out;
}

}  // namespace f2lay::opt
