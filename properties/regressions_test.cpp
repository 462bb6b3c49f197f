// Every counterexample the properties kept (properties/regressions/*.json,
// case.h) is replayed here, deterministically, by the law that found it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "properties/case.h"
#include "properties/laws.h"

namespace f2lay::properties {
namespace {

std::vector<std::filesystem::path> regressionFiles() {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(regressionsDir()))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(Regressions, EveryKeptCounterexampleNowHolds) {
  std::vector<std::filesystem::path> files = regressionFiles();
  ASSERT_FALSE(files.empty()) << "no regression files in " << regressionsDir();
  for (const auto& path : files) {
    SCOPED_TRACE(path.string());
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    Json kept = parseJson(text.str());
    ASSERT_TRUE(kept.contains("law") && kept.contains("case")) << "not a regression file";
    std::string law = kept["law"].get<std::string>();
    ASSERT_TRUE(laws().count(law)) << "no law named " << law;
    EXPECT_EQ(check(law, caseFromJson(kept["case"]), false), "");
  }
}

}  // namespace
}  // namespace f2lay::properties
