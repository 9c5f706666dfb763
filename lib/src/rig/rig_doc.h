// SPDX-License-Identifier: Apache-2.0
// A rig's JSON value laid out flat: exactly the value rig_to_json builds (same keys in the same order,
// same number types, NaN/infinities as null, -0 as 0), for the checked write to run both readers on
// without building and freeing a DOM. It reads through the part of nlohmann's interface the readers
// use, so they are one template for both. Private to the library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "json/json_util.h"
#include "rig/js_values.h"
#include "rig2d/rig/rig.h"

namespace rig2d::detail {

class DocValue {
 public:
  using value_t = Json::value_t;

  // Over an array's or object's children (objects: with their keys); a primitive iterates itself, as
  // in nlohmann, with an empty key.
  class const_iterator {
   public:
    explicit const_iterator(const DocValue* at) : at_(at) {}
    const DocValue& operator*() const { return *at_; }
    const DocValue* operator->() const { return at_; }
    const_iterator& operator++() {
      ++at_;
      return *this;
    }
    bool operator==(const const_iterator&) const = default;
    const std::string& key() const;

   private:
    const DocValue* at_;
  };

  static DocValue string_value(const std::string& s);
  static DocValue integer_value(std::int64_t i);

  value_t type() const { return type_; }
  bool is_null() const { return type_ == value_t::null; }
  bool is_boolean() const { return type_ == value_t::boolean; }
  bool is_string() const { return type_ == value_t::string; }
  bool is_array() const { return type_ == value_t::array; }
  bool is_object() const { return type_ == value_t::object; }
  bool is_number_unsigned() const { return type_ == value_t::number_unsigned; }
  bool is_number_integer() const { return type_ == value_t::number_integer || is_number_unsigned(); }
  bool is_number_float() const { return type_ == value_t::number_float; }
  bool is_number() const { return is_number_integer() || is_number_float(); }

  // nlohmann's: null has no elements, a primitive one.
  std::size_t size() const { return is_array() || is_object() ? count_ : is_null() ? 0 : 1; }
  bool empty() const { return size() == 0; }
  const DocValue& operator[](std::size_t i) const { return children_[i]; }  // arrays only
  const_iterator begin() const {
    return const_iterator(is_array() || is_object() ? children_ : is_null() ? this + 1 : this);
  }
  const_iterator end() const { return const_iterator(is_array() || is_object() ? children_ + count_ : this + 1); }
  const_iterator find(std::string_view key) const;

  template <class T>
  T get() const {
    if constexpr (std::is_same_v<T, std::string>)
      return *string_;
    else if constexpr (std::is_same_v<T, bool>)
      return boolean_;
    else if (type_ == value_t::number_float)
      return static_cast<T>(number_.f);
    else if (type_ == value_t::number_unsigned)
      return static_cast<T>(number_.u);
    else
      return static_cast<T>(number_.i);
  }
  template <class T>
  T get_ref() const {
    static_assert(std::is_same_v<T, const std::string&>, "only strings are read by reference");
    return *string_;
  }

 private:
  friend class RigDoc;
  value_t type_ = value_t::null;
  bool boolean_ = false;
  std::uint32_t count_ = 0;              // an array's or object's children
  std::uint32_t first_ = 0;              // their index while the document is built
  const std::string* key_ = nullptr;     // a member's key
  const std::string* string_ = nullptr;  // a string's text: the rig's own
  const DocValue* children_ = nullptr;
  union {
    double f;
    std::int64_t i;
    std::uint64_t u;
  } number_{0.0};
};

// Holds the nodes; the strings stay the rig's, so the rig must outlive the document.
class RigDoc {
 public:
  explicit RigDoc(const Rig& rig);
  RigDoc(const RigDoc&) = delete;
  RigDoc& operator=(const RigDoc&) = delete;
  const DocValue& root() const { return nodes_.front(); }

 private:
  class Builder;
  std::vector<DocValue> nodes_;
};

// js_values.h and json_type_name for document values (the readers call them by these names).
inline double js_number_value(const DocValue& v) { return js_number_value_of(v); }
inline double js_to_number(const DocValue& v) { return js_to_number_of(v); }
inline double js_number_or_zero(const DocValue* v) { return js_number_or_zero_of(v); }
inline bool js_is_finite_number(const DocValue& v) { return js_is_finite_number_of(v); }
inline bool js_is_integer(const DocValue& v) { return js_is_integer_of(v); }
inline bool js_truthy(const DocValue& v) { return js_truthy_of(v); }
inline const char* json_type_name(const DocValue& v) { return json_type_name_of(v); }

}  // namespace rig2d::detail
