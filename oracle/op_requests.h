// Requests drawn key by key, for any op of the op table (oracle/op_table.h):
// the differential tests and the fuzzer pick an op by its index and run it on
// both implementations with the same drawn request, so that every op both
// answer is reached without a list of ops of their own, and without JSON.
//
// Each key is drawn when the op first reads it, from what the reader asks
// (a number, a name, dim names, dim sizes, ...) and the key's name, mostly
// valid for the request's layouts (a permutation of its dims, a reshape of
// its bits, a value of each in dim), sometimes not, so that the errors are
// compared too. A key read again, by the other implementation's run, gives
// the same value: both see one request.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "formats/layout_value.h"
#include "oracle/op_table.h"

namespace f2lay::oracle {

class DrawnRequest : public Args {
 public:
  // below(n): a number in [0, n), from a random generator or fuzz input.
  // layouts: "self" and "layout" are the first, "other" the second,
  // "shared" the third.
  DrawnRequest(std::function<uint64_t(uint64_t)> below, std::vector<LayoutValue> layouts);

  bool has(const char* key) const override;
  LayoutValue layoutValue(const char* key) const override;
  std::string name(const char* key) const override;
  uint64_t number(const char* key) const override;
  bool boolean(const char* key) const override;
  TritonVersion triton() const override;
  std::vector<std::string> names(const char* key) const override;
  std::vector<uint64_t> numbers(const char* key) const override;
  std::vector<std::vector<uint64_t>> numberLists(const char* key) const override;
  DimSizes dimSizes(const char* key) const override;
  DimValues dimValues(const char* key) const override;

  // What was drawn, key by key, for a failure's message.
  std::string describe() const;

 private:
  // The value drawn for (reader, key), drawing it with `draw` the first time.
  template <class T, class Draw>
  const T& memo(std::map<std::string, T>& seen, const char* key, const Draw& draw) const;
  uint64_t pick(uint64_t n) const { return n == 0 ? 0 : below_(n); }
  const LayoutValue& first() const { return layouts_[0]; }

  std::function<uint64_t(uint64_t)> below_;
  std::vector<LayoutValue> layouts_;
  mutable std::map<std::string, bool> has_, booleans_;
  mutable std::map<std::string, uint64_t> numbers_;
  mutable std::map<std::string, std::string> names_;
  mutable std::map<std::string, std::vector<std::string>> nameLists_;
  mutable std::map<std::string, DimSizes> dimSizes_;
  mutable std::map<std::string, DimValues> dimValues_;
};

}  // namespace f2lay::oracle
