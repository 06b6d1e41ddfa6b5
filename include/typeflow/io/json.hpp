// typeflow/io/json.hpp — a small JSON value, writer and strict reader for the
// human-readable files typeflow writes: a saved model's saved_model.json and the JSON
// checkpoint format (io/checkpoint_format.hpp).
//
// The reader takes text from files it does not trust: nesting is capped (the parser is
// recursive), strings must be valid JSON with \uXXXX escapes of the Basic Multilingual
// Plane, and every size comes from the text itself, never from a length field. Numbers
// are, by default, integers of at most 19 digits (the descriptions hold no fractions);
// json_syntax::numbers = json_numbers::real also reads fractions and exponents (as the
// nearest double), integers up to 2^64 - 1, and NaN, Inf, Infinity, -Inf and -Infinity,
// which the JSON grammar lacks and the checkpoint format spells as rapidjson did. Errors
// name the file and the byte offset.
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

namespace typeflow::io {

/// Appends `s` to `out` as a JSON string (quotes, escapes for '"', '\\' and control characters).
inline void write_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (const unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) {
          static constexpr char hex[] = "0123456789abcdef";
          out += "\\u00";
          out += hex[c >> 4];
          out += hex[c & 15];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

/// Appends `v` to `out` as a JSON number that reads back as the same double: the shortest
/// such digits, laid out as rapidjson writes them ("1.0", "0.001", "1e-7", "1.5e300",
/// "-0.0"); NaN, Infinity and -Infinity, which JSON lacks, as rapidjson spells them.
inline void write_json_number(std::string& out, double v) {
  if (std::isnan(v)) {
    out += "NaN";
    return;
  }
  if (std::isinf(v)) {
    out += v < 0 ? "-Infinity" : "Infinity";
    return;
  }
  if (std::signbit(v)) out += '-';
  v = std::fabs(v);
  if (v == 0) {
    out += "0.0";
    return;
  }
  // The shortest round-trip digits d1.d2d3...e<exp>: v = 0.d1d2d3... * 10^point.
  char buf[40];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  const std::string_view sci(buf, static_cast<std::size_t>(r.ptr - buf));
  const auto e = sci.find('e');
  std::string digits(1, sci[0]);
  if (e > 1) digits.append(sci.substr(2, e - 2));
  int exponent = 0;
  std::from_chars(sci.data() + e + (sci[e + 1] == '+' ? 2 : 1), sci.data() + sci.size(), exponent);
  const int length = static_cast<int>(digits.size());
  const int point = exponent + 1;  // digits before the decimal point
  if (point >= length && point <= 21) {  // 1234e7 -> 12340000000.0
    out += digits;
    out.append(static_cast<std::size_t>(point - length), '0');
    out += ".0";
  } else if (point > 0 && point <= 21) {  // 1234e-2 -> 12.34
    out.append(digits, 0, static_cast<std::size_t>(point));
    out += '.';
    out.append(digits, static_cast<std::size_t>(point));
  } else if (point > -6 && point <= 0) {  // 1234e-6 -> 0.001234
    out += "0.";
    out.append(static_cast<std::size_t>(-point), '0');
    out += digits;
  } else {  // 1e30, 1.234e33, 1e-7
    out += digits[0];
    if (length > 1) {
      out += '.';
      out.append(digits, 1);
    }
    out += 'e';
    out += std::to_string(exponent);
  }
}

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

/// The numbers a reader accepts.
enum class json_numbers {
  integer,  // int64 integers of at most 19 digits
  real,     // also fractions, exponents, integers up to 2^64 - 1, NaN, Inf(inity), -Inf(inity)
};

/// What a reader accepts beyond strict JSON's grammar, and how deep it nests.
struct json_syntax {
  std::size_t max_depth = 32;
  json_numbers numbers = json_numbers::integer;
};

namespace detail {

class json_parser {
 public:
  json_parser(std::string_view text, std::string where, json_syntax syntax)
      : s_(text), where_(std::move(where)), syntax_(syntax) {}

  json parse_document() {
    skip_space();
    json v = value(0);
    skip_space();
    if (i_ != s_.size()) fail("unexpected text after the JSON value");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw data_loss_error("Malformed JSON in " + where_ + " at byte " + std::to_string(i_) + ": " + why);
  }
  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t')) ++i_;
  }
  bool eat(char c) {
    skip_space();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!eat(c)) fail(std::string("expected '") + c + "'");
  }
  bool literal(std::string_view word) {
    if (s_.substr(i_, word.size()) == word) {
      i_ += word.size();
      return true;
    }
    return false;
  }

  json value(std::size_t depth) {
    if (depth > syntax_.max_depth) fail("nested deeper than " + std::to_string(syntax_.max_depth) + " levels");
    skip_space();
    if (i_ >= s_.size()) fail("unexpected end of the text");
    const char c = s_[i_];
    if (c == '{') return object(depth);
    if (c == '[') return array(depth);
    if (c == '"') return json(string());
    if (syntax_.numbers == json_numbers::real) {
      if (c == '-' || (c >= '0' && c <= '9') || c == 'N' || c == 'I') return number();
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      return json(integer());
    }
    if (literal("true")) return json(true);
    if (literal("false")) return json(false);
    if (literal("null")) return json(nullptr);
    fail("unexpected character");
  }

  json object(std::size_t depth) {
    ++i_;
    json::object o;
    if (eat('}')) return json(std::move(o));
    do {
      skip_space();
      if (i_ >= s_.size() || s_[i_] != '"') fail("expected a member name");
      std::string key = string();
      expect(':');
      json v = value(depth + 1);
      if (!o.emplace(std::move(key), std::move(v)).second) fail("a member name appears twice");
    } while (eat(','));
    expect('}');
    return json(std::move(o));
  }

  json array(std::size_t depth) {
    ++i_;
    json::array a;
    if (eat(']')) return json(std::move(a));
    do {
      a.push_back(value(depth + 1));
    } while (eat(','));
    expect(']');
    return json(std::move(a));
  }

  std::int64_t integer() {
    const bool negative = s_[i_] == '-';
    if (negative) ++i_;
    const std::size_t start = i_;
    std::uint64_t v = 0;
    while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') {
      if (i_ - start >= 19) fail("an integer of more than 19 digits");
      v = v * 10 + static_cast<std::uint64_t>(s_[i_] - '0');
      ++i_;
    }
    if (i_ == start) fail("expected digits");
    if (i_ - start > 1 && s_[start] == '0') fail("an integer with a leading zero");
    if (i_ < s_.size() && (s_[i_] == '.' || s_[i_] == 'e' || s_[i_] == 'E')) fail("a number that is not an integer");
    const auto limit = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    if (v > limit) fail("an integer out of range");
    return negative ? -static_cast<std::int64_t>(v) : static_cast<std::int64_t>(v);
  }

  // json_numbers::real: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, or NaN, Inf, Infinity
  // with an optional '-'. An integer token in [-2^63, 2^64) is an integer, any other
  // number the nearest double; a finite number beyond the range of double is an error.
  json number() {
    const std::size_t start = i_;
    const bool negative = s_[i_] == '-';
    if (negative) ++i_;
    if (literal("NaN")) return json(negative ? -std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::quiet_NaN());
    if (literal("Inf")) {
      (void)literal("inity");
      return json(negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity());
    }
    const std::size_t digits = i_;
    while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
    if (i_ == digits) fail("expected digits");
    if (i_ - digits > 1 && s_[digits] == '0') fail("a number with a leading zero");
    bool integral = true;
    if (i_ < s_.size() && s_[i_] == '.') {
      integral = false;
      const std::size_t fraction = ++i_;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
      if (i_ == fraction) fail("expected digits after '.'");
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      integral = false;
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      const std::size_t exponent = i_;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
      if (i_ == exponent) fail("expected digits in an exponent");
    }
    const char* first = s_.data() + digits;
    const char* last = s_.data() + i_;
    if (integral) {
      std::uint64_t u = 0;
      if (std::from_chars(first, last, u).ec == std::errc{}) {
        const auto limit = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
        if (!negative) return json(u);
        if (u <= limit) return json(-static_cast<std::int64_t>(u));
        if (u == limit + 1) return json(std::numeric_limits<std::int64_t>::min());
      }
    }
    double d = 0;
    const auto r = std::from_chars(s_.data() + (negative ? start + 1 : start), last, d);
    if (r.ec != std::errc{} || r.ptr != last) fail("a number out of the range of double");
    return json(negative ? -d : d);
  }

  std::string string() {
    ++i_;  // the opening quote
    std::string out;
    while (true) {
      if (i_ >= s_.size()) fail("unterminated string");
      const auto c = static_cast<unsigned char>(s_[i_++]);
      if (c == '"') return out;
      if (c < 0x20) fail("a control character in a string");
      if (c != '\\') {
        out += static_cast<char>(c);
        continue;
      }
      if (i_ >= s_.size()) fail("unterminated string");
      switch (s_[i_++]) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          if (s_.size() - i_ < 4) fail("a short \\u escape");
          unsigned cp = 0;
          for (int k = 0; k < 4; ++k) {
            const char h = s_[i_++];
            cp <<= 4;
            if (h >= '0' && h <= '9') cp |= static_cast<unsigned>(h - '0');
            else if (h >= 'a' && h <= 'f') cp |= static_cast<unsigned>(h - 'a' + 10);
            else if (h >= 'A' && h <= 'F') cp |= static_cast<unsigned>(h - 'A' + 10);
            else fail("a bad \\u escape");
          }
          if (cp >= 0xD800 && cp <= 0xDFFF) fail("a surrogate \\u escape");
          if (cp < 0x80) {
            out += static_cast<char>(cp);
          } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
          } else {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
          }
          break;
        }
        default: fail("a bad escape in a string");
      }
    }
  }

  std::string_view s_;
  std::string where_;
  json_syntax syntax_;
  std::size_t i_ = 0;
};

}  // namespace detail

/// Parses JSON text; `where` (a file name) is named in errors (DataLoss).
inline json parse_json(std::string_view text, const std::string& where, json_syntax syntax = {}) {
  return detail::json_parser(text, where, syntax).parse_document();
}

}  // namespace typeflow::io
