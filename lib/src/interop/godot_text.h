// SPDX-License-Identifier: Apache-2.0
// A reader for Godot 4 text resources (.tscn): [sections] with attributes, "key = value" properties,
// and the Variant text syntax (numbers, strings, &"StringName", ^"NodePath", Constructor(args),
// [arrays], {dictionaries}, typed Array[T]([...])). Private to the library.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rig2d/core/result.h"

namespace rig2d::godot {

struct Value {
  enum class Kind { Null, Bool, Number, String, Call, Array, Dict };
  Kind kind = Kind::Null;
  double number = 0;
  bool boolean = false;
  std::string text;          // String: the string; Call: the constructor name (Vector2, NodePath, ...)
  std::vector<Value> items;  // Call arguments, Array items, Dict keys and values alternating
  int line = 0, column = 0;

  // Flat numbers of a Call whose arguments are all numbers (Vector2, Transform2D, Packed*Array).
  bool numbers(std::vector<double>& out) const;
};

struct Property {
  std::string key;
  Value value;
  int line = 0;
};

struct Section {
  std::string tag;  // gd_scene, ext_resource, sub_resource, node, connection, ...
  std::vector<Property> attributes;
  std::vector<Property> properties;
  int line = 0;

  const Value* attribute(std::string_view key) const;
  const Value* property(std::string_view key) const;
  std::string attribute_text(std::string_view key) const;  // "" when absent or not a string
};

// Errors: godot.syntax with line:col, godot.too_deep (nesting over kMaxJsonDepth).
Result<std::vector<Section>> parse_tscn(std::string_view text, const std::string& path);

}  // namespace rig2d::godot
