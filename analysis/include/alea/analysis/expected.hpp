// A minimal "value or error message" return type for the statistics engine.
// Library code never throws for bad data (common brief rule 7); it returns an
// Expected<T> whose error() is one human-readable sentence (no "error:" prefix,
// no trailing period) that the CLI turns into `alea: error: <message>`.
// C++20 has no std::expected, so this is the small subset we need.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace alea::analysis {

// The error half of an Expected: one sentence describing what is wrong.
struct Failure {
  std::string message;
};

inline Failure fail(std::string message) { return Failure{std::move(message)}; }

template <typename T> class Expected {
public:
  Expected(T value) : state_(std::in_place_index<0>, std::move(value)) {}
  Expected(Failure failure) : state_(std::in_place_index<1>, std::move(failure)) {}

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  // Precondition: ok().
  T &value() & {
    assert(ok());
    return std::get<0>(state_);
  }
  const T &value() const & {
    assert(ok());
    return std::get<0>(state_);
  }
  T &&value() && {
    assert(ok());
    return std::get<0>(std::move(state_));
  }
  T &operator*() & { return value(); }
  const T &operator*() const & { return value(); }
  T *operator->() { return &value(); }
  const T *operator->() const { return &value(); }

  // Precondition: !ok().
  const std::string &error() const {
    assert(!ok());
    return std::get<1>(state_).message;
  }

private:
  std::variant<T, Failure> state_;
};

} // namespace alea::analysis
