// libFuzzer target: the layout readers (JSON, Triton text, MLIR attribute).
// The first byte picks the reader (or format detection), the rest is the
// text. Bad input must end in f2lay::Error; anything else escaping is a
// crash. A layout that reads must, in every format that can hold it, write
// and read back to itself.
#include <cstdint>
#include <string>
#include <string_view>

#include "formats/error.h"
#include "formats/formats.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  using f2lay::Format;
  const Format formats[] = {Format::Json, Format::TritonText, Format::Mlir};
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  int pick = data[0] % 4;
  f2lay::LayoutValue layout;
  try {
    layout = pick == 3 ? f2lay::readLayout(text) : f2lay::readLayout(text, formats[pick]);
  } catch (const f2lay::Error&) {
    return 0;  // refused, with a message: what bad input must get
  }
  for (Format f : formats) {
    std::string written;
    try {
      written = f2lay::writeLayout(layout, f);
    } catch (const f2lay::Error&) {
      continue;  // a format that cannot hold this layout says so
    }
    f2lay::LayoutValue again;
    try {
      again = f2lay::readLayout(written, f);
    } catch (const f2lay::Error&) {
      f2lay::fuzz::fail("readers",
                        "a layout that was read does not read back from its own writing");
    }
    if (!(again == layout))
      f2lay::fuzz::fail("readers", "writing and reading back changed the layout");
  }
  return 0;
}
