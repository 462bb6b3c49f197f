// What a computation under test gave: its answer, or the message of the
// f2lay::Error it threw. Every test that expects an error, or compares two
// computations by their answers and errors, catches them here, so that they
// all agree on what an error is: only f2lay::Error is an answer (it names a
// broken rule); any other exception passes through, and fails the test (or
// aborts the fuzzer) as the bug it is.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <type_traits>

#include "formats/error.h"

namespace f2lay::testkit {

// The message of the f2lay::Error that f() throws; nullopt when it returns.
// (Calls within testing/ are qualified, so that argument-dependent lookup
// cannot pick a test's own helper of the same name.)
template <class F>
std::optional<std::string> errorOf(const F& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return std::nullopt;
}

// errorOf(f) as text, "(no error)" when f returns: written for
// EXPECT_PRED2(contains, errorMessage(f), part), which prints both sides.
template <class F>
std::string errorMessage(const F& f) {
  return testkit::errorOf(f).value_or("(no error)");
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// f()'s answer, or the message of its error: two outcomes are equal when
// both answered alike or both refused with the same words.
template <class T>
struct Outcome {
  std::optional<T> answer;
  std::string error;  // set when there is no answer
  bool operator==(const Outcome&) const = default;
};

template <class F>
auto attempt(const F& f) -> Outcome<std::decay_t<decltype(f())>> {
  try {
    return {f(), ""};
  } catch (const Error& e) {
    return {std::nullopt, e.what()};
  }
}

// For gtest's messages (T written with <<).
template <class T>
std::ostream& operator<<(std::ostream& os, const Outcome<T>& o) {
  if (o.answer) return os << "answer " << *o.answer;
  return os << "error " << o.error;
}

// A computation that answers in text: its answer, or "error: " and the
// message, so that outcomes compare and print as plain strings.
template <class F>
std::string outcome(const F& f) {
  auto o = testkit::attempt(f);
  return o.answer ? *o.answer : "error: " + o.error;
}

}  // namespace f2lay::testkit
