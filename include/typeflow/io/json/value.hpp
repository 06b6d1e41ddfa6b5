// typeflow/io/json/value.hpp — a JSON value: null, bool, number, string, array or object.
#pragma once

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <variant>
#include <vector>

#include "typeflow/core/errors.hpp"
#include "typeflow/io/json/write.hpp"

namespace typeflow::io {

/// A JSON value: null, bool, number, string, array or object (keys sorted when written).
/// A number is an integer (int64, or uint64 above the int64 range) or a double; the
/// default reader makes only int64 integers.
class json {
 public:
  using array = std::vector<json>;
  using object = std::map<std::string, json, std::less<>>;

  json() = default;
  json(std::nullptr_t) {}                                           // NOLINT
  json(bool b) : v_(b) {}                                           // NOLINT
  json(std::int64_t i) : v_(i) {}                                   // NOLINT
  json(int i) : v_(std::int64_t{i}) {}                              // NOLINT
  json(std::uint64_t u) {                                           // NOLINT
    if (u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      v_ = static_cast<std::int64_t>(u);
    } else {
      v_ = u;
    }
  }
  json(double d) : v_(d) {}                                         // NOLINT
  json(std::string s) : v_(std::make_shared<const std::string>(std::move(s))) {}  // NOLINT
  json(std::string_view s) : json(std::string(s)) {}               // NOLINT
  json(const char* s) : json(std::string(s)) {}                     // NOLINT
  json(array a) : v_(std::make_shared<array>(std::move(a))) {}      // NOLINT
  json(object o) : v_(std::make_shared<object>(std::move(o))) {}    // NOLINT

  bool is_null() const noexcept { return std::holds_alternative<std::monostate>(v_); }
  bool is_bool() const noexcept { return std::holds_alternative<bool>(v_); }
  /// An integer in the int64 range.
  bool is_int() const noexcept { return std::holds_alternative<std::int64_t>(v_); }
  /// An integer in [0, 2^64).
  bool is_uint() const noexcept {
    return std::holds_alternative<std::uint64_t>(v_) || (is_int() && as_int() >= 0);
  }
  /// A double: a number with a fraction or an exponent, NaN, an infinity, or an integer
  /// beyond [-2^63, 2^64).
  bool is_real() const noexcept { return std::holds_alternative<double>(v_); }
  bool is_number() const noexcept { return is_int() || is_uint() || is_real(); }
  bool is_string() const noexcept { return std::holds_alternative<std::shared_ptr<const std::string>>(v_); }
  bool is_array() const noexcept { return std::holds_alternative<std::shared_ptr<array>>(v_); }
  bool is_object() const noexcept { return std::holds_alternative<std::shared_ptr<object>>(v_); }

  // Unchecked access: callers test the kind first (the description reader does, through
  // its `expect_*` helpers, which name the field).
  bool as_bool() const { return std::get<bool>(v_); }
  std::int64_t as_int() const { return std::get<std::int64_t>(v_); }
  std::uint64_t as_uint() const {
    return is_int() ? static_cast<std::uint64_t>(as_int()) : std::get<std::uint64_t>(v_);
  }
  /// Any number, as the nearest double.
  double as_double() const {
    if (is_int()) return static_cast<double>(as_int());
    if (is_real()) return std::get<double>(v_);
    return static_cast<double>(std::get<std::uint64_t>(v_));
  }
  const std::string& as_string() const { return *std::get<std::shared_ptr<const std::string>>(v_); }
  const array& as_array() const { return *std::get<std::shared_ptr<array>>(v_); }
  const object& as_object() const { return *std::get<std::shared_ptr<object>>(v_); }

  /// The member `key` of an object, or nullptr.
  const json* find(std::string_view key) const {
    if (!is_object()) return nullptr;
    const auto& o = as_object();
    const auto it = o.find(key);
    return it == o.end() ? nullptr : &it->second;
  }

  /// Indented JSON text, two spaces a level; short arrays of scalars on one line.
  std::string dump() const {
    std::string out;
    write(out, 0);
    out += '\n';
    return out;
  }

 private:
  void write(std::string& out, std::size_t indent) const {
    const std::string pad(indent + 2, ' ');
    if (is_null()) {
      out += "null";
    } else if (is_bool()) {
      out += as_bool() ? "true" : "false";
    } else if (is_int()) {
      out += std::to_string(as_int());
    } else if (std::holds_alternative<std::uint64_t>(v_)) {
      out += std::to_string(std::get<std::uint64_t>(v_));
    } else if (is_real()) {
      write_json_number(out, std::get<double>(v_));
    } else if (is_string()) {
      write_json_string(out, as_string());
    } else if (is_array()) {
      const auto& a = as_array();
      bool flat = a.size() <= 8;
      for (const auto& e : a) flat = flat && !e.is_array() && !e.is_object();
      out += '[';
      for (std::size_t i = 0; i < a.size(); ++i) {
        out += i ? (flat ? ", " : ",\n") : (flat ? "" : "\n");
        if (!flat) out += pad;
        a[i].write(out, indent + 2);
      }
      if (!flat && !a.empty()) out += "\n" + std::string(indent, ' ');
      out += ']';
    } else {
      const auto& o = as_object();
      out += '{';
      bool first = true;
      for (const auto& [k, v] : o) {
        out += first ? "\n" : ",\n";
        first = false;
        out += pad;
        write_json_string(out, k);
        out += ": ";
        v.write(out, indent + 2);
      }
      if (!o.empty()) out += "\n" + std::string(indent, ' ');
      out += '}';
    }
  }

  // Strings behind a pointer: a value is 24 bytes, and a checkpoint's arrays hold millions.
  std::variant<std::monostate, bool, std::int64_t, std::uint64_t, double, std::shared_ptr<const std::string>,
               std::shared_ptr<array>, std::shared_ptr<object>>
      v_;
};

}  // namespace typeflow::io
