// SPDX-License-Identifier: Apache-2.0
// Result<T>: the subset of C++23 std::expected<T, Error> the library uses. Failures that depend on
// the input data come back as a Result; exceptions never cross the public API.
#pragma once

#include <utility>
#include <variant>

#include "rig2d/core/error.h"

namespace rig2d {

struct Unexpected {
  Error error;
};

inline Unexpected make_error(std::string code, std::string message, Location where = {}) {
  return Unexpected{Error{std::move(code), std::move(message), std::move(where)}};
}

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : storage_(std::in_place_index<0>, std::move(value)) {}
  Result(Unexpected failure) : storage_(std::in_place_index<1>, std::move(failure.error)) {}

  bool has_value() const { return storage_.index() == 0; }
  explicit operator bool() const { return has_value(); }

  T& value() & { return std::get<0>(storage_); }
  const T& value() const& { return std::get<0>(storage_); }
  T&& value() && { return std::get<0>(std::move(storage_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const { return std::get<1>(storage_); }
  Error& error() { return std::get<1>(storage_); }

 private:
  std::variant<T, Error> storage_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Unexpected failure) : error_(std::move(failure.error)), failed_(true) {}

  bool has_value() const { return !failed_; }
  explicit operator bool() const { return has_value(); }
  const Error& error() const { return error_; }
  Error& error() { return error_; }

 private:
  Error error_;
  bool failed_ = false;
};

}  // namespace rig2d
