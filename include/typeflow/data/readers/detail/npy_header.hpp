// typeflow/data/readers/detail/npy_header.hpp — the header of a NumPy .npy file: magic,
// version, and the Python dict literal {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "typeflow/data/readers/detail/bytes.hpp"
#include "typeflow/data/readers/detail/convert.hpp"

namespace typeflow::data::detail {

struct npy_layout {
  stored_type type{};
  bool big_endian = false;
  bool fortran_order = false;
  std::vector<std::size_t> shape;
  const unsigned char* elements = nullptr;
  std::size_t count = 1;
};

// A small parser of the dict literal numpy writes (and of any spacing and key order).
struct npy_dict_parser {
  std::string_view text;
  std::size_t pos = 0;
  std::string_view source;
  std::uint64_t base = 0;  // offset of text[0] in the file

  [[noreturn]] void fail(std::string_view what) const {
    invalid(source, base + pos, "bad .npy header: " + std::string(what) + " in " + std::string(text.substr(0, 200)));
  }
  void skip_space() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\n' || text[pos] == '\r')) ++pos;
  }
  bool eat(char ch) {
    skip_space();
    if (pos < text.size() && text[pos] == ch) {
      ++pos;
      return true;
    }
    return false;
  }
  void expect(char ch) {
    if (!eat(ch)) fail(std::string("expected '") + ch + "'");
  }
  std::string_view string() {
    skip_space();
    if (pos >= text.size() || (text[pos] != '\'' && text[pos] != '"')) fail("expected a string");
    const char q = text[pos++];
    const std::size_t start = pos;
    while (pos < text.size() && text[pos] != q) ++pos;
    if (pos >= text.size()) fail("unterminated string");
    return text.substr(start, pos++ - start);
  }
  bool boolean() {
    skip_space();
    if (text.substr(pos, 4) == "True") { pos += 4; return true; }
    if (text.substr(pos, 5) == "False") { pos += 5; return false; }
    fail("expected True or False");
  }
  std::uint64_t integer() {
    skip_space();
    std::uint64_t v = 0;
    const std::size_t start = pos;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      if (v > (UINT64_MAX - 9) / 10) fail("a dimension too large");
      v = v * 10 + static_cast<std::uint64_t>(text[pos++] - '0');
    }
    if (pos < text.size() && text[pos] == 'L') ++pos;  // Python 2's long suffix
    if (pos == start) fail("expected a non-negative integer");
    return v;
  }
};

inline void npy_descr(std::string_view d, npy_layout& l, npy_dict_parser& p) {
  if (d.size() < 2) p.fail("unsupported descr '" + std::string(d) + "'");
  const char order = d[0];
  const std::string_view code = d.substr(1);
  if (order == '>') l.big_endian = true;
  else if (order == '<' || order == '|' || order == '=') l.big_endian = std::endian::native == std::endian::big && order == '=';
  else p.fail("unsupported byte order in descr '" + std::string(d) + "'");
  if (code == "f4") l.type = stored_type::f32;
  else if (code == "f8") l.type = stored_type::f64;
  else if (code == "i1") l.type = stored_type::i8;
  else if (code == "u1") l.type = stored_type::u8;
  else if (code == "i2") l.type = stored_type::i16;
  else if (code == "u2") l.type = stored_type::u16;
  else if (code == "i4") l.type = stored_type::i32;
  else if (code == "u4") l.type = stored_type::u32;
  else if (code == "i8") l.type = stored_type::i64;
  else if (code == "u8") l.type = stored_type::u64;
  else if (code == "b1") l.type = stored_type::boolean;
  else
    p.fail("unsupported dtype '" + std::string(d) +
           "' (read are b1, i1, u1, i2, u2, i4, u4, i8, u8, f4, f8, either byte order)");
}

/// Parses a .npy file's bytes; the layout's elements point into them.
inline npy_layout npy_parse(std::span<const unsigned char> bytes, std::string_view source) {
  cursor c{bytes.data(), bytes.size(), 0, source};
  const unsigned char* magic = c.take(6, "the .npy magic");
  if (std::string_view(reinterpret_cast<const char*>(magic), 6) != "\x93NUMPY")
    invalid(source, 0, "not a .npy file: the magic is not \\x93NUMPY");
  const auto major = c.be(1, "the .npy version");
  const auto minor = c.be(1, "the .npy version");
  std::uint64_t header_len = 0;
  if (major == 1) header_len = c.le(2, "the header length");
  else if (major == 2 || major == 3) header_len = c.le(4, "the header length");
  else invalid(source, 6, "unsupported .npy version " + std::to_string(major) + "." + std::to_string(minor) + " (read are 1.0, 2.0, 3.0)");
  const std::uint64_t header_at = c.offset();
  const unsigned char* h = c.take(header_len, "the .npy header");
  npy_layout l;
  npy_dict_parser p{std::string_view(reinterpret_cast<const char*>(h), static_cast<std::size_t>(header_len)), 0, source,
                    header_at};
  bool has_descr = false, has_order = false, has_shape = false;
  p.expect('{');
  while (!p.eat('}')) {
    const std::string_view key = p.string();
    p.expect(':');
    if (key == "descr") {
      npy_descr(p.string(), l, p);
      has_descr = true;
    } else if (key == "fortran_order") {
      l.fortran_order = p.boolean();
      has_order = true;
    } else if (key == "shape") {
      p.expect('(');
      while (!p.eat(')')) {
        if (l.shape.size() >= 64) p.fail("more than 64 dimensions");
        const std::uint64_t dim = p.integer();
        if (dim > SIZE_MAX) p.fail("a dimension too large");
        l.shape.push_back(static_cast<std::size_t>(dim));
        if (!p.eat(',')) {
          p.expect(')');
          break;
        }
      }
      has_shape = true;
    } else {
      p.fail("unknown key '" + std::string(key) + "'");
    }
    if (!p.eat(',')) {
      p.expect('}');
      break;
    }
  }
  if (!has_descr || !has_order || !has_shape) p.fail("missing 'descr', 'fortran_order' or 'shape'");
  if (!shape_fits(l.shape)) invalid(source, header_at, "bad .npy header: the shape's product is too large for an array");
  std::uint64_t count = 1;
  bool empty = false;
  for (const std::size_t d : l.shape) empty = empty || d == 0;
  for (const std::size_t d : l.shape)
    if (!empty && !checked_mul(count, d, count))
      data_loss(source, c.offset(), "truncated: the shape's element count overflows");
  l.count = empty ? 0 : static_cast<std::size_t>(count);
  std::uint64_t need = 0;
  if (!checked_mul(l.count, stored_size(l.type), need) || need > c.remaining())
    data_loss(source, c.offset(),
              "truncated: the shape gives " + std::to_string(l.count) + " elements of " +
                  std::to_string(stored_size(l.type)) + " bytes, " + std::to_string(c.remaining()) + " bytes remain");
  if (need < c.remaining())
    data_loss(source, c.offset() + need, std::to_string(c.remaining() - need) + " bytes after the last element");
  l.elements = c.data + c.pos;
  return l;
}

}  // namespace typeflow::data::detail
