// Where a generator's random choices come from. A family that both the
// properties and the fuzz targets generate is written once against this
// interface: RapidCheck makes the choices in properties/ (and shrinks each
// toward its low end), a fuzzer's bytes make them in fuzz/ (so that
// coverage guides them).
#pragma once

#include <rapidcheck.h>

namespace f2lay::properties {

class Choices {
 public:
  virtual ~Choices() = default;
  // A value in [lo, hi); hi > lo.
  virtual int inRange(int lo, int hi) = 0;
};

// RapidCheck's choices; use only inside rc::gen::exec.
class RcChoices : public Choices {
 public:
  int inRange(int lo, int hi) override { return *rc::gen::inRange(lo, hi); }
};

}  // namespace f2lay::properties
