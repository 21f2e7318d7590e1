// Error values for the runner library: library code returns them instead of
// throwing (STYLE.md principle 8); the `alea` command turns one into a single
// `alea: error: ...` line. `Expected<T>` holds either a value or a message.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace alea::runner {

// What kind of failure an Error reports, where a caller acts on the kind
// (`alea run` exits with a distinct status when another run holds the campaign).
enum class ErrorKind {
  Failure, // anything that stopped the operation
  Busy,    // the campaign directory is locked by another `alea run`
};

struct Error {
  std::string message;
  ErrorKind kind = ErrorKind::Failure;
};

template <typename T> class Expected {
public:
  Expected(T value) : value_(std::move(value)) {}
  Expected(Error error) : error_(std::move(error.message)), kind_(error.kind) {}

  explicit operator bool() const { return value_.has_value(); }
  bool ok() const { return value_.has_value(); }
  T &operator*() { return *value_; }
  const T &operator*() const { return *value_; }
  T *operator->() { return &*value_; }
  const T *operator->() const { return &*value_; }
  const std::string &error() const { return error_; }
  ErrorKind errorKind() const { return kind_; }

private:
  std::optional<T> value_;
  std::string error_;
  ErrorKind kind_ = ErrorKind::Failure;
};

// A success-or-message result for operations without a value.
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

} // namespace alea::runner
