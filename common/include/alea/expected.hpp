// alea's one "value or error" return type, shared by every library (the
// statistics engine, the runner, the commands over them). Library code never
// throws for bad input (STYLE.md principle 8): it returns an Expected<T>, or a
// Status when there is no value, whose error() is one sentence (no "error:"
// prefix, no trailing period) that `alea` prints once as `alea: error: ...`.
// C++20 has no std::expected, so this is the small subset we need. Both
// spellings of a failure work: `return Error{"..."}` and `return fail("...")`.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace alea {

// What kind of failure an Error reports, where a caller acts on the kind
// (`alea` exits with a distinct status for each: cli/command.hpp).
enum class ErrorKind {
  Failure, // anything that stopped the operation
  Busy,    // the campaign directory is locked by another `alea run`
  Usage,   // a mistake on the command line (an option's value, options that clash)
};

// The error half of an Expected: one sentence describing what is wrong.
struct Error {
  std::string message;
  ErrorKind kind = ErrorKind::Failure;
};

inline Error fail(std::string message) { return Error{std::move(message)}; }

template <typename T> class Expected {
public:
  Expected(T value) : state_(std::in_place_index<0>, std::move(value)) {}
  Expected(Error error) : state_(std::in_place_index<1>, std::move(error)) {}

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
  T &&operator*() && { return std::move(*this).value(); }
  T *operator->() { return &value(); }
  const T *operator->() const { return &value(); }

  // The error's message, "" when ok() (callers may log it unconditionally).
  const std::string &error() const {
    static const std::string none;
    const Error *e = std::get_if<1>(&state_);
    return e ? e->message : none;
  }
  ErrorKind errorKind() const {
    const Error *e = std::get_if<1>(&state_);
    return e ? e->kind : ErrorKind::Failure;
  }

private:
  std::variant<T, Error> state_;
};

// A success-or-error result for operations without a value.
class Status {
public:
  Status() = default;
  Status(Error error) : error_(std::move(error.message)), failed_(true) {}
  static Status success() { return {}; }
  explicit operator bool() const { return !failed_; }
  bool ok() const { return !failed_; }
  const std::string &error() const { return error_; }

private:
  std::string error_;
  bool failed_ = false;
};

} // namespace alea
