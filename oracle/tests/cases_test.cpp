// Tests of the golden-case runner: runCases and verifyAndReport on small
// in-memory case files, and every built-in case file.
#include "oracle/cases.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "formats/error.h"
#include "testkit/outcome.h"

namespace f2lay::oracle {
namespace {

// identity1D(4, lane, dim0): lane 1 -> 1, lane 2 -> 2.
const std::string kRequest =
    R"({"op": "identity_1d", "size": 4, "in_dim": "lane", "out_dim": "dim0"})";
const std::string kResult = R"({"in_dims": [{"name": "lane", "bases": [[1], [2]]}],)"
                            R"( "out_dims": [{"name": "dim0", "size": 4}]})";

// A request that fails: 3 is not a power of two.
const std::string kBadRequest =
    R"({"op": "identity_1d", "size": 3, "in_dim": "lane", "out_dim": "dim0"})";

std::string caseLine(const std::string& name, const std::string& request,
                     const std::string& expect) {
  return R"({"name": ")" + name + R"(", "source": "hand", "request": )" + request +
         R"(, "expect": )" + expect + "}";
}

std::string okCase(const std::string& name, const std::string& result) {
  return caseLine(name, kRequest, R"({"ok": true, "result": )" + result + "}");
}

std::string errorCase(const std::string& name, const std::string& contains) {
  return caseLine(name, kBadRequest, R"({"ok": false, "error_contains": ")" + contains + "\"}");
}

TEST(Cases, PassingCase) {
  std::vector<CaseResult> results = runCases({"mem.jsonl", okCase("identity", kResult)});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].passed) << results[0].detail;
  EXPECT_EQ(results[0].file, "mem.jsonl");
  EXPECT_EQ(results[0].name, "identity");
  EXPECT_EQ(results[0].source, "hand");
  EXPECT_EQ(results[0].detail, "");
}

TEST(Cases, WrongExpectedResultFailsWithDetail) {
  // The bases swapped: not what identity1D gives.
  std::string wrong = R"({"in_dims": [{"name": "lane", "bases": [[2], [1]]}],)"
                      R"( "out_dims": [{"name": "dim0", "size": 4}]})";
  std::vector<CaseResult> results = runCases({"mem.jsonl", okCase("swapped", wrong)});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_FALSE(results[0].passed);
  EXPECT_NE(results[0].detail.find("expected"), std::string::npos) << results[0].detail;
  EXPECT_NE(results[0].detail.find("[[1],[2]]"), std::string::npos)
      << "the detail shows what the oracle got: " << results[0].detail;
}

TEST(Cases, ExpectedErrors) {
  std::string text = errorCase("matched", "not a power of two") + "\n" +
                     errorCase("other message", "is negative") + "\n" +
                     caseLine("succeeds", kRequest, R"({"ok": false, "error_contains": "x"})") +
                     "\n" + caseLine("fails", kBadRequest, R"({"ok": true, "result": null})") +
                     "\n";
  std::vector<CaseResult> results = runCases({"mem.jsonl", text});
  ASSERT_EQ(results.size(), 4u);
  EXPECT_TRUE(results[0].passed) << results[0].detail;
  EXPECT_FALSE(results[1].passed);
  EXPECT_NE(results[1].detail.find("is negative"), std::string::npos) << results[1].detail;
  EXPECT_FALSE(results[2].passed);
  EXPECT_NE(results[2].detail.find("expected ok=false"), std::string::npos) << results[2].detail;
  EXPECT_FALSE(results[3].passed);
  EXPECT_NE(results[3].detail.find("expected ok=true"), std::string::npos) << results[3].detail;
}

TEST(Cases, BlankLinesAreSkipped) {
  std::string text = "\n" + okCase("a", kResult) + "\r\n   \n\t\r\n" + okCase("b", kResult) + "\n";
  std::vector<CaseResult> results = runCases({"mem.jsonl", text});
  ASSERT_EQ(results.size(), 2u);
  EXPECT_TRUE(results[0].passed && results[1].passed);
  EXPECT_TRUE(runCases({"empty.jsonl", ""}).empty());
}

// A malformed line throws f2lay::Error naming file:line, whatever the oracle
// would answer. Line 1 is a good case and line 2 blank, so the bad one is 3.
TEST(Cases, MalformedLinesNameFileAndLine) {
  const std::string request = R"("request": )" + kRequest;
  const std::vector<std::string> malformed = {
      R"({"name": "x", )",                                          // bad JSON
      R"([1, 2])",                                                  // not an object
      "{" + request + R"(, "expect": {"ok": true, "result": 1}})",  // no name
      R"({"name": 5, )" + request + R"(, "expect": {"ok": true, "result": 1}})",
      R"({"name": "x", "expect": {"ok": true, "result": 1}})",  // no request
      R"({"name": "x", )" + request + "}",                      // no expect
      R"({"name": "x", )" + request + R"(, "expect": [true]})",
      R"({"name": "x", )" + request + R"(, "expect": {"result": 1}})",  // no ok
      R"({"name": "x", )" + request + R"(, "expect": {"ok": "true", "result": 1}})",
      R"({"name": "x", )" + request + R"(, "expect": {"ok": true}})",  // no result
      R"({"name": "x", )" + request + R"(, "expect": {"ok": true, "reslt": 1}})",
      R"({"name": "x", )" + request + R"(, "expect": {"ok": false}})",
      R"({"name": "x", )" + request + R"(, "expect": {"ok": false, "error_contain": "a"}})",
      R"({"name": "x", )" + request + R"(, "expect": {"ok": false, "error_contains": 3}})",
      R"({"name": "x", "source": 5, )" + request + R"(, "expect": {"ok": true, "result": 1}})",
      "{\"name\": \"x\", \"source\": " + std::string(1000, '[') + std::string(1000, ']') + ", " +
          request + R"(, "expect": {"ok": true, "result": 1}})",  // too deep
  };
  for (const std::string& bad : malformed) {
    CaseFile file{"mem.jsonl", okCase("good", kResult) + "\n\n" + bad + "\n"};
    std::string error = testkit::errorMessage([&] { runCases(file); });
    EXPECT_EQ(error.rfind("mem.jsonl:3: ", 0), 0u) << bad << "\n  error: " << error;
  }
}

TEST(Cases, VerifyAndReport) {
  std::vector<CaseFile> files = {
      {"good.jsonl", okCase("fine", kResult) + "\n" + errorCase("refused", "power of two")},
      {"bad.jsonl", okCase("wrong", "null")}};
  std::ostringstream out;
  EXPECT_EQ(verifyAndReport(files, out), 1u);
  std::string text = out.str();
  EXPECT_NE(text.find("FAILED bad.jsonl: wrong (hand): "), std::string::npos) << text;
  EXPECT_EQ(text.find("FAILED good.jsonl"), std::string::npos) << text;
  // The total line: 3 cases, 2 passed, 1 failed.
  std::istringstream lines(text);
  bool sawTotal = false;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string first;
    size_t cases = 0, passed = 0, failed = 0;
    if (words >> first && first == "total" && words >> cases >> passed >> failed) {
      sawTotal = true;
      EXPECT_EQ(cases, 3u);
      EXPECT_EQ(passed, 2u);
      EXPECT_EQ(failed, 1u);
    }
  }
  EXPECT_TRUE(sawTotal) << text;
}

TEST(Cases, EveryBuiltinCaseFileParsesAndPasses) {
  const std::vector<CaseFile>& files = builtinCaseFiles();
  EXPECT_FALSE(files.empty());
  for (const CaseFile& file : files) {
    std::vector<CaseResult> results;
    ASSERT_NO_THROW(results = runCases(file)) << file.name;
    EXPECT_FALSE(results.empty()) << file.name;
    for (const CaseResult& r : results)
      EXPECT_TRUE(r.passed) << file.name << ": " << r.name << ": " << r.detail;
  }
}

}  // namespace
}  // namespace f2lay::oracle
