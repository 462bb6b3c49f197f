#include "formats/tests/format_test_support.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "formats/error.h"
#include "formats/layout_value.h"
#include "testkit/outcome.h"
#include "testkit/random_layout.h"

namespace f2lay::format_tests {

LayoutValue figure1A() {
  return {{{"register", {{0, 1}, {1, 0}}},
           {"lane", {{0, 2}, {0, 4}, {0, 8}, {2, 0}, {4, 0}}},
           {"warp", {{8, 0}}},
           {"block", {}}},
          {{"dim0", 16}, {"dim1", 16}}};
}

std::string printable(std::string_view text) {
  static const char* hex = "0123456789abcdef";
  std::string s;
  for (unsigned char c : text) {
    if (c >= 0x20 && c < 0x7f) {
      s += static_cast<char>(c);
    } else {
      s += "\\x";
      s += hex[c >> 4];
      s += hex[c & 15];
    }
  }
  return s;
}

std::string replaced(std::string text, std::string_view from, std::string_view to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "'" << from << "' not in: " << text;
  EXPECT_EQ(text.find(from, at + 1), std::string::npos) << "'" << from << "' twice";
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

std::string errorMessage(const Reader& read, std::string_view text) {
  std::optional<std::string> error;
  try {
    error = testkit::errorOf([&] { read(text); });
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw a non-f2lay exception (" << e.what() << ") on: " << printable(text);
    return {};
  }
  if (!error) ADD_FAILURE() << "accepted bad input: " << printable(text);
  return error.value_or("");
}

std::string writeErrorMessage(const std::function<std::string()>& write) {
  testkit::Outcome<std::string> written = testkit::attempt(write);
  if (written.answer) ADD_FAILURE() << "wrote a layout it should refuse: " << *written.answer;
  return written.error;
}

void expectContains(const std::string& message, const std::string& part) {
  EXPECT_NE(message.find(part), std::string::npos) << "message: " << message << "\nlacks: " << part;
}

// One bad input and the parts its error message must contain: where (line
// and column, or JSON path) and what (the broken rule).

void expectAllRejected(const Reader& read, const std::vector<BadInput>& cases) {
  for (const BadInput& c : cases) {
    SCOPED_TRACE(c.what);
    std::string message = errorMessage(read, c.text);
    for (const std::string& part : c.messageParts) expectContains(message, part);
  }
}

int randomInt(std::mt19937& rng, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}

namespace {

uint64_t random64(std::mt19937& rng) {
  uint64_t high = rng();
  return (high << 32) | rng();
}

// A random value below `size` (a power of two): zero, a single bit or random
// bits, so that both sparse and dense bases occur.
uint64_t randomValueBelow(std::mt19937& rng, uint64_t size) {
  switch (randomInt(rng, 0, 2)) {
    case 0:
      return 0;
    case 1:
      return size == 1 ? 0 : uint64_t{1} << randomInt(rng, 0, log2Exact(size) - 1);
    default:
      return random64(rng) & (size - 1);
  }
}

}  // namespace

LayoutValue randomLayout(std::mt19937& rng) {
  std::vector<std::string> outNames = {"dim0", "dim1", "dim2", "dim3", "x", "y.z", "_k9"};
  std::vector<std::string> inNames = {"register", "lane", "warp", "block",
                                      "offset",   "iter", "a.b",  "Q_1"};
  std::shuffle(outNames.begin(), outNames.end(), rng);
  std::shuffle(inNames.begin(), inNames.end(), rng);
  LayoutValue layout;
  int outBitsLeft = kMaxOutBits;
  int numOut = randomInt(rng, 0, 4);
  for (int k = 0; k < numOut; ++k) {
    int bits = randomInt(rng, 0, 9) == 0 ? 63 : randomInt(rng, 0, 20);
    bits = std::min(bits, outBitsLeft);
    outBitsLeft -= bits;
    layout.out_dims.push_back({outNames[k], uint64_t{1} << bits});
  }
  int inBitsLeft = kMaxInBits;
  int numIn = randomInt(rng, 0, 4);
  for (int d = 0; d < numIn; ++d) {
    int n = randomInt(rng, 0, 19) == 0 ? 63 : randomInt(rng, 0, 8);
    n = std::min(n, inBitsLeft);
    inBitsLeft -= n;
    layout.in_dims.push_back(
        {inNames[d], testkit::drawBases(n, layout.out_dims, [&](uint64_t size) {
           return randomValueBelow(rng, size);
         })});
  }
  validate(layout);  // the generator must only make valid layouts
  return layout;
}

LayoutValue randomMlirLayout(std::mt19937& rng) {
  size_t rank = static_cast<size_t>(randomInt(rng, 1, 3));
  LayoutValue layout;
  for (const char* name : {"register", "lane", "warp", "block"}) {
    InDim dim{name, {}};
    int n = randomInt(rng, 0, 5);
    for (int i = 0; i < n; ++i) {
      Basis basis;
      for (size_t k = 0; k < rank; ++k)
        basis.push_back(randomValueBelow(rng, uint64_t{1} << randomInt(rng, 0, 12)));
      dim.bases.push_back(basis);
    }
    layout.in_dims.push_back(dim);
  }
  if (totalInBits(layout) == 0) layout.in_dims[0].bases.push_back(Basis(rank, 1));
  for (size_t k = 0; k < rank; ++k) {
    uint64_t size = 1;
    for (const InDim& d : layout.in_dims)
      for (const Basis& b : d.bases)
        while (size <= b[k]) size *= 2;
    layout.out_dims.push_back({"dim" + std::to_string(k), size});
  }
  validate(layout);
  return layout;
}

const std::string kJsonBase =
    R"({"in_dims": [{"name": "register", "bases": [[0, 1], [1, 0]]}, )"
    R"({"name": "lane", "bases": []}], )"
    R"("out_dims": [{"name": "dim0", "size": 2}, {"name": "dim1", "size": 2}]})";
const std::string kTritonBase =
    "\n - register=1 -> (0, 1)\n   register=2 -> (1, 0)\n - lane is a size 1 dimension\n"
    "where out dims are: [dim0 (size 2), dim1 (size 2)]";
const std::string kMlirBase =
    "#ttg.linear<{register = [[0, 1], [1, 0]],\n lane = [], warp = [], block = []}>";

}  // namespace f2lay::format_tests
