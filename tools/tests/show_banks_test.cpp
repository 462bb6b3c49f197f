// `f2lay show --banks` on the 16x32 transpose's read with offset = 32m +
// (n xor 2m) (device_tests/HARDWARE.md#seed-transpose): at step r, threads
// 0-15 read (m, 2r) at banks 2r xor 2m, the sixteen even banks once each,
// while threads 16-31 read (m, 2r+1) at banks (2r+1) xor 2m, the sixteen odd
// banks.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "formats/error.h"
#include "formats/json_format.h"
#include "tools/show.h"

namespace f2lay::tools {
namespace {

// Bases [n, m]: the read's lane bits 0-3 are m, lane bit 4 is n0, registers
// n1..n4; the memory's row bits carry n xor 2m.
const char* kSeedXor2mRead = R"({"op": "bank_conflicts", "element_bytes": 4, "access": "load",
  "layout": {"in_dims": [{"name": "register", "bases": [[2,0],[4,0],[8,0],[16,0]]},
                         {"name": "lane", "bases": [[0,1],[0,2],[0,4],[0,8],[1,0]]},
                         {"name": "warp", "bases": []}],
             "out_dims": [{"name": "n", "size": 32}, {"name": "m", "size": 16}]},
  "shared": {"in_dims": [{"name": "offset", "bases": [[1,0],[2,0],[4,0],[8,0],[16,0],
                                                     [2,1],[4,2],[8,4],[16,8]]}],
             "out_dims": [{"name": "n", "size": 32}, {"name": "m", "size": 16}]}})";

// The line of `text` that starts with `prefix` after the first line starting
// with `after`.
std::string lineAfter(const std::string& text, const std::string& after,
                      const std::string& prefix) {
  size_t at = text.find(after);
  if (at == std::string::npos) return "";
  std::istringstream in(text.substr(at));
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(prefix, 0) == 0) return line;
  return "";
}

std::string row(const std::string& label, const std::vector<int>& cells) {
  std::ostringstream s;
  s << "  " << label << std::string(6 - label.size(), ' ');
  for (int c : cells) s << std::string(c < 10 ? 3 : 2, ' ') << c;
  return s.str();
}

TEST(ShowBanks, SeedXor2mRead) {
  std::ostringstream out;
  showBanks(parseJson(kSeedXor2mRead), 0, out);
  std::string text = out.str();
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "load of 4 bytes per lane, warp 0: 16 instructions, 16 wavefronts");
  // Step r = 1 (instruction 1, register 1 = column pair n = 2, 3): lanes 0-15
  // at banks 2 xor 2m, lanes 16-31 at 3 xor 2m; lane l reads row m = l % 16.
  std::vector<int> banks, rows, ones(32, 1);
  for (int l = 0; l < 32; ++l) {
    banks.push_back(l < 16 ? 2 ^ (2 * l) : 3 ^ (2 * (l - 16)));
    rows.push_back(l % 16);
  }
  EXPECT_EQ(lineAfter(text, "instruction 1 ", "instruction"),
            "instruction 1 (registers 1): 1 wavefront, 1 phase (ideal), 0 conflicts");
  EXPECT_EQ(lineAfter(text, "instruction 1 ", "  bank"), row("bank", banks));
  EXPECT_EQ(lineAfter(text, "instruction 1 ", "  row"), row("row", rows));
  EXPECT_EQ(lineAfter(text, "instruction 1 ", "  lanes"), row("lanes", ones));
  EXPECT_EQ(lineAfter(text, "instruction 1 ", "  words"), row("words", ones));
}

TEST(ShowBanks, Errors) {
  std::ostringstream out;
  Json request = parseJson(kSeedXor2mRead);
  request["op"] = "apply";
  EXPECT_THROW(showBanks(request, 0, out), Error);
  request = parseJson(kSeedXor2mRead);
  EXPECT_THROW(showBanks(request, 1, out), Error);  // one warp
}

}  // namespace
}  // namespace f2lay::tools
