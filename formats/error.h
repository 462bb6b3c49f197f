// The one error type of f2lay. Every rule that input or an operation's
// arguments can break is reported by throwing f2lay::Error with a message that
// names the offending input and the rule; the `f2lay` command turns it into
// exit code 2 (or an {"ok":false} line in the oracle).
#pragma once

#include <stdexcept>
#include <string>

namespace f2lay {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace f2lay
