#include "oracle/cases.h"

#include <iomanip>
#include <map>
#include <ostream>
#include <sstream>

#include "formats/error.h"
#include "oracle/oracle.h"

namespace f2lay::oracle {

namespace {

// Whether `got` holds everything `want` states: each key of an object,
// recursively; any other value equal.
bool includes(const Json& got, const Json& want) {
  if (!want.is_object()) return got == want;
  if (!got.is_object()) return false;
  for (const auto& [key, value] : want.items())
    if (!got.contains(key) || !includes(got[key], value)) return false;
  return true;
}

CaseResult runCase(const std::string& file, size_t lineNo, const Json& c, Impl impl) {
  std::string where = file + ":" + std::to_string(lineNo);
  if (!c.is_object() || !c.contains("name") || !c["name"].is_string() || !c.contains("request") ||
      !c.contains("expect") || !c["expect"].is_object() || !c["expect"].contains("ok") ||
      !c["expect"]["ok"].is_boolean())
    throw Error(where +
                ": a case needs \"name\", \"request\" and \"expect\" "
                "with a boolean \"ok\"");
  if (c.contains("source") && !c["source"].is_string())
    throw Error(where + ": \"source\" must be a string");
  const Json& expect = c["expect"];
  bool expectOk = expect["ok"].get<bool>();
  // Checked before running, so that a malformed case is reported whatever the
  // oracle answers (a misspelt "error_contains" would match any error).
  // "result_includes" states only some keys of the answer: those with a
  // source (a measured count, say) where the rest has none.
  const char* resultKey = expect.contains("result_includes") ? "result_includes" : "result";
  if (expectOk && (expect.size() != 2 || !expect.contains(resultKey) ||
                   (std::string(resultKey) == "result_includes" && !expect[resultKey].is_object())))
    throw Error(where +
                ": an ok case needs \"expect\": {\"ok\": true, \"result\": ...} or "
                "{\"ok\": true, \"result_includes\": {...}}");
  if (!expectOk && (expect.size() != 2 || !expect.contains("error_contains") ||
                    !expect["error_contains"].is_string()))
    throw Error(where +
                ": a failing case needs \"expect\": {\"ok\": false, "
                "\"error_contains\": \"...\"}");
  CaseResult r{file, c["name"].get<std::string>(), c.value("source", std::string()), false, ""};
  Json got = answer(c["request"], impl);
  bool ok = got["ok"].get<bool>();
  if (ok != expectOk) {
    r.detail = "expected ok=" + std::string(expectOk ? "true" : "false") + ", got " + dumpLine(got);
  } else if (ok) {
    bool exact = resultKey == std::string("result");
    r.passed =
        exact ? got["result"] == expect["result"] : includes(got["result"], expect[resultKey]);
    if (!r.passed)
      r.detail = std::string("expected ") + (exact ? "" : "at least ") +
                 dumpLine(expect[resultKey]) + ", got " + dumpLine(got["result"]);
  } else {
    std::string want = expect["error_contains"].get<std::string>();
    std::string error = got["error"].get<std::string>();
    r.passed = error.find(want) != std::string::npos;
    if (!r.passed) r.detail = "expected an error containing '" + want + "', got '" + error + "'";
  }
  return r;
}

}  // namespace

std::vector<CaseResult> runCases(const CaseFile& file, Impl impl) {
  std::vector<CaseResult> results;
  std::istringstream in(file.text);
  std::string line;
  for (size_t lineNo = 1; std::getline(in, line); ++lineNo) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    Json c;
    try {
      c = parseJson(line);
    } catch (const Error& e) {
      throw Error(file.name + ":" + std::to_string(lineNo) + ": bad JSON: " + e.what());
    }
    results.push_back(runCase(file.name, lineNo, c, impl));
  }
  return results;
}

size_t verifyAndReport(const std::vector<CaseFile>& files, std::ostream& out,
                       const std::vector<CaseResult>& extraChecks, Impl impl) {
  size_t total = 0, failed = 0;
  std::vector<CaseResult> failures;
  out << std::left << std::setw(36) << "case file" << std::right << std::setw(8) << "cases"
      << std::setw(8) << "passed" << std::setw(8) << "failed" << '\n';
  for (const CaseFile& file : files) {
    size_t n = 0, bad = 0;
    for (CaseResult& r : runCases(file, impl)) {
      ++n;
      if (!r.passed) {
        ++bad;
        failures.push_back(std::move(r));
      }
    }
    out << std::left << std::setw(36) << file.name << std::right << std::setw(8) << n
        << std::setw(8) << n - bad << std::setw(8) << bad << '\n';
    total += n;
    failed += bad;
  }
  // Checks that are not case files (e.g. the catalog pairs through the
  // analyses), one row per group of results.
  for (size_t i = 0; i < extraChecks.size();) {
    const std::string& group = extraChecks[i].file;
    size_t n = 0, bad = 0;
    for (; i < extraChecks.size() && extraChecks[i].file == group; ++i, ++n) {
      if (extraChecks[i].passed) continue;
      ++bad;
      failures.push_back(extraChecks[i]);
    }
    out << std::left << std::setw(36) << group << std::right << std::setw(8) << n << std::setw(8)
        << n - bad << std::setw(8) << bad << '\n';
    total += n;
    failed += bad;
  }
  out << std::left << std::setw(36) << "total" << std::right << std::setw(8) << total
      << std::setw(8) << total - failed << std::setw(8) << failed << '\n';
  for (const CaseResult& r : failures)
    out << "FAILED " << r.file << ": " << r.name << " (" << r.source << "): " << r.detail << '\n';
  return failed;
}

}  // namespace f2lay::oracle
