// The oracle protocol: JSON Lines in, one JSON response line per request out.
//
//   request:  {"op": "compose", "self": L1, "other": L2, "id": 7}
//   response: {"id": 7, "ok": true, "result": ...}
//             {"id": 7, "ok": false, "error": "compose: ..."}
//
// Layouts are in the JSON format of formats/json_format.h. "id" is optional
// and echoed back unchanged. Each op takes exactly the keys its entry in
// oracleOps() lists; a missing or unknown key is an error that names it.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "formats/json_format.h"

namespace f2lay::oracle {

struct OpArg {
  const char* key;
  const char* description;
  bool required = true;
};

struct OpDoc {
  std::string name;
  std::vector<OpArg> args;
  std::string result;
  std::string meaning;
  bool byBoth = false;  // answered by f2lay::opt too (else the reference only)
};

// Every op, in the order --help lists them.
const std::vector<OpDoc>& oracleOps();

// Which implementation answers: f2lay::opt (the default), f2lay::ref, or
// both (check), where an op has both. Under check a difference is answered
// as an error that shows both answers, with "check_failed": true.
enum class Impl { kOpt, kRef, kCheck };

// Answers one request; never throws. The response holds "ok" and either
// "result" or "error" (and "id" when the request had one).
Json answer(const Json& request, Impl impl = Impl::kOpt);
// Parses one line and answers it; never throws.
Json answerLine(std::string_view line, Impl impl = Impl::kOpt);
// Answers every non-blank line of `in` on `out`, one line per request, in
// order. `out` is flushed whenever the next request is not already read in
// full, before waiting for it: a client that waits for an answer gets it, and
// requests that arrive together are answered with one write per block.
struct Served {
  size_t failures = 0;     // requests answered with "ok": false
  size_t differences = 0;  // of those, where ref and opt differed (check)
};
Served serve(std::istream& in, std::ostream& out, Impl impl = Impl::kOpt);
// The response as one line of text (invalid UTF-8 replaced, never throws).
std::string dumpLine(const Json& response);

}  // namespace f2lay::oracle
