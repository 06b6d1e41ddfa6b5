// typeflow/io/json/write.hpp — JSON strings and numbers as typeflow writes them (numbers laid out
// as rapidjson wrote them, so files read the same as before).
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

}  // namespace typeflow::io
