// typeflow/io/json/parse.hpp — the strict JSON reader, for text from files it does not trust
// (limits in io/json.hpp).
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
#include "typeflow/io/json/value.hpp"

namespace typeflow::io {

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
