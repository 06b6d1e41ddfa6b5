// typeflow/io/checkpoint/json.hpp — the JSON form of a checkpoint, for people to read:
//
// ({"major", "minor"}), "has_global_step", "global_step", "header_crc32c" and "tensors", an
// array of {"name", "dtype", "shape", "crc32c", "values", "nan_bits"}; values are JSON
// numbers (floating-point values as the shortest digits that read back as the same double,
// NaN, Infinity and -Infinity as rapidjson spells them), and "nan_bits" lists [index, bits]
// for every NaN whose bit pattern is not the default quiet NaN, so NaN payloads survive too.
// The CRCs are the same as in the binary format: computed on the little-endian bytes.
// Written and read by io/json.hpp (the layout is the one cereal's JSON archive wrote, 4
// spaces a level, one value a line; members are found by name, in any order).
//
// Reading parses the whole text (at most max_json_bytes) with io/json.hpp after checking its
// nesting and its number tokens, and checks every member's kind, the names, dtypes, shapes,
// value counts and ranges, and the header's CRC; the tensors' CRCs are checked when their
// data is taken.
#pragma once

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <ostream>
#include <span>
#include <streambuf>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>

#include "typeflow/core/dtype.hpp"
#include "typeflow/core/errors.hpp"
#include "typeflow/io/checkpoint/format.hpp"
#include "typeflow/io/detail/pretty_json_writer.hpp"
#include "typeflow/io/json.hpp"

namespace typeflow::io::detail {

// --- JSON writer --------------------------------------------------------------------------------

template <class T>
std::uint64_t bits_of(T v) {
  if constexpr (sizeof(T) == 4) {
    return std::bit_cast<std::uint32_t>(v);
  } else {
    return std::bit_cast<std::uint64_t>(v);
  }
}

template <class T>
void write_json_values(pretty_json_writer& w, const void* data, std::uint64_t n,
                       std::vector<std::pair<std::uint64_t, std::uint64_t>>& nan_bits) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::uint64_t i = 0; i < n; ++i) {
    T v;
    std::memcpy(&v, p + i * sizeof(T), sizeof(T));
    if constexpr (std::is_floating_point_v<T>) {
      if (v != v && bits_of(v) != bits_of(std::numeric_limits<T>::quiet_NaN())) nan_bits.emplace_back(i, bits_of(v));
      w.number(static_cast<double>(v));
    } else if constexpr (std::is_same_v<T, bool>) {
      w.boolean(v);
    } else {
      w.integer(static_cast<std::int64_t>(v));
    }
  }
}

inline void write_json(std::ostream& out, const checkpoint_header& h, std::span<const tensor_data_view> tensors) {
  pretty_json_writer w(out);
  w.open('{');
  w.key("magic");
  w.string(checkpoint_json_magic);
  w.key("format_version");
  w.open('{');
  w.key("major");
  w.integer(h.format_major);
  w.key("minor");
  w.integer(h.format_minor);
  w.close('}');
  w.key("has_global_step");
  w.boolean(h.global_step.has_value());
  w.key("global_step");
  w.integer(static_cast<std::int64_t>(h.global_step.value_or(0)));
  w.key("header_crc32c");
  w.integer(header_crc(h));
  w.key("tensors");
  w.open('[');
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const auto& info = h.tensors[i];
    const auto& t = tensors[i];
    w.open('{');
    w.key("name");
    w.string(info.name);
    w.key("dtype");
    w.string(dtype_name(info.dtype));
    w.key("shape");
    w.open('[');
    for (auto d : info.shape) w.integer(d);
    w.close(']');
    w.key("crc32c");
    w.integer(crc_of_native(t.data, info.num_bytes(), info.dtype));
    std::vector<std::pair<std::uint64_t, std::uint64_t>> nan_bits;
    w.key("values");
    w.open('[');
    const auto n = info.num_elements();
    switch (info.dtype) {
      case dtype::float32: write_json_values<float>(w, t.data, n, nan_bits); break;
      case dtype::float64: write_json_values<double>(w, t.data, n, nan_bits); break;
      case dtype::int32: write_json_values<std::int32_t>(w, t.data, n, nan_bits); break;
      case dtype::int64: write_json_values<std::int64_t>(w, t.data, n, nan_bits); break;
      case dtype::boolean: write_json_values<bool>(w, t.data, n, nan_bits); break;
    }
    w.close(']');
    w.key("nan_bits");
    w.open('[');
    for (const auto& [index, bits] : nan_bits) {
      w.open('[');
      w.integer(index);
      w.integer(bits);
      w.close(']');
    }
    w.close(']');
    w.close('}');
  }
  w.close(']');
  w.close('}');
  w.flush();
}


// --- JSON reader --------------------------------------------------------------------------------

/// A JSON checkpoint as read: its header, the global-step field as stored, and per tensor its
/// native-endian bytes and stored CRC32C (checked when the data is taken).
struct json_checkpoint {
  checkpoint_header header;
  std::int64_t stored_step = 0;
  std::vector<std::vector<unsigned char>> data;
  std::vector<std::uint32_t> crcs;
};

/// Reads a JSON checkpoint of `size` bytes from `sb`, naming the file `path` in errors.
class json_checkpoint_reader {
 public:
  explicit json_checkpoint_reader(std::string path) : path_(std::move(path)) {}

  // Checks the JSON text before it is parsed: nesting depth and number tokens. A number is
  // at most 64 characters (typeflow writes at most 25), a zero significand has no exponent
  // and few decimals, and exponents stay within the range of double. (These limits were
  // set when the format was read by rapidjson 1.1.0, whose strtod misbehaves beyond them;
  // they stay the format's rules, so that a file is accepted or refused as before.)
  static void check_json_text(std::string_view s, const std::string& path) {
    std::size_t depth = 0;
    bool in_string = false, escaped = false;
    for (std::size_t i = 0; i < s.size(); ++i) {
      const char c = s[i];
      if (in_string) {
        if (escaped) {
          escaped = false;
        } else if (c == '\\') {
          escaped = true;
        } else if (c == '"') {
          in_string = false;
        }
      } else if (c == '"') {
        in_string = true;
      } else if (c == '[' || c == '{') {
        if (++depth > max_json_depth)
          throw_corrupt(path, "JSON nested deeper than " + std::to_string(max_json_depth) + " levels");
      } else if ((c == ']' || c == '}') && depth > 0) {
        --depth;
      } else if (c == '-' || (c >= '0' && c <= '9')) {
        std::size_t j = i;
        bool nonzero = false, exponent = false, exponent_negative = false;
        std::size_t decimals = 0, integer_digits = 0;
        long exponent_value = 0;
        bool after_point = false;
        while (j < s.size()) {
          const char d = s[j];
          if (d >= '0' && d <= '9') {
            if (!exponent) {
              nonzero = nonzero || d != '0';
              if (after_point) ++decimals;
              else ++integer_digits;
            } else if (exponent_value < 100000) {
              exponent_value = exponent_value * 10 + (d - '0');
            }
          } else if (d == '.') {
            after_point = true;
          } else if (d == 'e' || d == 'E') {
            exponent = true;
          } else if (d == '-' || d == '+') {
            if (exponent) exponent_negative = d == '-';
          } else {
            break;
          }
          ++j;
        }
        if (j - i > 64) throw_corrupt(path, "a JSON number of more than 64 characters");
        if (!nonzero && (exponent || decimals > 20)) throw_corrupt(path, "a malformed JSON number (zero with an exponent)");
        // The decimal exponent of the last digit and of the first, bounded by what a double
        // can hold (rapidjson 1.1.0 overflowed below 10^-348, as in 1.0000000031710770e-340,
        // and asserted on some values past 10^308). typeflow writes at most 17 significant
        // digits of a double.
        if (exponent) {
          const long e = exponent_negative ? -exponent_value : exponent_value;
          if (e - static_cast<long>(decimals) < -340 || e + static_cast<long>(integer_digits) > 310)
            throw_corrupt(path, "a JSON number out of the range of double");
        }
        i = j - 1;
      }
    }
  }

  json_checkpoint read(std::streambuf& sb, std::uint64_t size) {
    if (size > max_json_bytes)
      throw_corrupt(path_, "a JSON checkpoint of " + std::to_string(size) + " bytes (at most " +
                                       std::to_string(max_json_bytes) + " are read; use the binary format)");
    std::string text(static_cast<std::size_t>(size), '\0');
    if (static_cast<std::uint64_t>(sb.sgetn(text.data(), static_cast<std::streamsize>(size))) != size)
      throw_corrupt(path_, "truncated JSON");
    check_json_text(text, path_);
    json root;
    try {
      root = parse_json(text, "the file", {.max_depth = max_json_depth, .numbers = json_numbers::real});
    } catch (const data_loss_error& e) {
      throw_corrupt(path_, "bad header (" + e.message() + ")");
    }
    out_.header.format = archive_format::json;

    const json* magic = root.find("magic");
    if (magic == nullptr || !magic->is_string() || magic->as_string() != checkpoint_json_magic)
      throw_corrupt(path_, "bad header (not a typeflow checkpoint: bad magic)");
    const json& version = json_member(root, "format_version", "the checkpoint");
    out_.header.format_major = json_integer<std::uint32_t>(json_member(version, "major", "format_version"), "format_version.major");
    out_.header.format_minor = json_integer<std::uint32_t>(json_member(version, "minor", "format_version"), "format_version.minor");
    check_version(path_, out_.header.format_major, out_.header.format_minor);
    const bool has_step = json_bool(json_member(root, "has_global_step", "the checkpoint"), "has_global_step");
    const auto step = json_integer<std::int64_t>(json_member(root, "global_step", "the checkpoint"), "global_step");
    const auto stored_header_crc =
        json_integer<std::uint32_t>(json_member(root, "header_crc32c", "the checkpoint"), "header_crc32c");
    if (has_step) out_.header.global_step = step;
    out_.stored_step = step;

    const auto& tensors = json_array(json_member(root, "tensors", "the checkpoint"), "tensors");
    if (tensors.size() > max_tensors) throw_corrupt(path_, "bad header (too many tensors)");
    std::unordered_set<std::string> names;
    std::vector<std::uint32_t> crcs;
    for (std::size_t i = 0; i < tensors.size(); ++i) {
      const json& entry = tensors[i];
      const std::string field = "tensors[" + std::to_string(i) + "]";
      if (!entry.is_object()) json_kind_error(field, "an object");
      tensor_info t;
      t.name = json_string(json_member(entry, "name", field), field + ".name");
      if (auto p = name_problem(t.name); !p.empty()) throw_corrupt(path_, "bad header (" + p + ")");
      const auto d = dtype_from_name(json_string(json_member(entry, "dtype", field), field + ".dtype"));
      if (!d) throw_corrupt(path_, "bad header (tensor " + t.name + " has unknown dtype)");
      t.dtype = *d;
      const auto& shape = json_array(json_member(entry, "shape", field), field + ".shape");
      if (shape.size() > max_rank) throw_corrupt(path_, "bad header (tensor " + t.name + " has too high a rank)");
      for (const auto& dim : shape) t.shape.push_back(json_integer<std::uint64_t>(dim, field + ".shape"));
      const auto bytes = checked_num_bytes(t.dtype, t.shape);
      if (!bytes) throw_corrupt(path_, "bad header (the size of tensor " + t.name + " overflows)");
      if (!names.insert(t.name).second) throw_corrupt(path_, "bad header (two tensors are named " + t.name + ")");
      crcs.push_back(json_integer<std::uint32_t>(json_member(entry, "crc32c", field), field + ".crc32c"));

      // The number of values actually in the document, not a claim.
      const auto& values = json_array(json_member(entry, "values", field), field + ".values");
      const std::uint64_t n = values.size();
      if (n != t.num_elements())
        throw_corrupt(path_, "tensor " + t.name + " has " + std::to_string(n) + " values, its shape " +
                                         t.shape_string() + " needs " + std::to_string(t.num_elements()));
      std::vector<unsigned char> data(static_cast<std::size_t>(*bytes));
      switch (t.dtype) {
        case dtype::float32: read_json_values<float>(values, data.data(), t); break;
        case dtype::float64: read_json_values<double>(values, data.data(), t); break;
        case dtype::int32: read_json_values<std::int32_t>(values, data.data(), t); break;
        case dtype::int64: read_json_values<std::int64_t>(values, data.data(), t); break;
        case dtype::boolean: read_json_values<bool>(values, data.data(), t); break;
      }
      for (const auto& pair : json_array(json_member(entry, "nan_bits", field), field + ".nan_bits")) {
        const auto& ib = json_array(pair, field + ".nan_bits");
        if (ib.size() != 2) throw_corrupt(path_, "tensor " + t.name + ": bad nan_bits");
        const auto index = json_integer<std::uint64_t>(ib[0], field + ".nan_bits");
        const auto bits = json_integer<std::uint64_t>(ib[1], field + ".nan_bits");
        if (t.dtype == dtype::float32) {
          set_nan_bits<float>(data.data(), n, index, bits, t);
        } else if (t.dtype == dtype::float64) {
          set_nan_bits<double>(data.data(), n, index, bits, t);
        } else {
          throw_corrupt(path_, "tensor " + t.name + ": nan_bits in a tensor that is not floating-point");
        }
      }
      out_.header.tensors.push_back(std::move(t));
      out_.data.push_back(std::move(data));
    }
    if (stored_header_crc != header_crc(out_.header, out_.stored_step))
      throw_corrupt(path_, "header checksum does not match");
    out_.crcs = std::move(crcs);
    return std::move(out_);
  }

 private:
  [[noreturn]] void json_kind_error(const std::string& field, const char* kind) const {
    throw_corrupt(path_, "bad header (" + field + " is not " + kind + ")");
  }
  const json& json_member(const json& obj, std::string_view key, const std::string& of) const {
    const json* m = obj.find(key);
    if (m == nullptr) throw_corrupt(path_, "bad header (" + of + " has no member \"" + std::string(key) + "\")");
    return *m;
  }
  const json::array& json_array(const json& v, const std::string& field) const {
    if (!v.is_array()) json_kind_error(field, "an array");
    return v.as_array();
  }
  const std::string& json_string(const json& v, const std::string& field) const {
    if (!v.is_string()) json_kind_error(field, "a string");
    return v.as_string();
  }
  bool json_bool(const json& v, const std::string& field) const {
    if (!v.is_bool()) json_kind_error(field, "true or false");
    return v.as_bool();
  }
  /// An integer field of type T (uint32, int64 or uint64), as cereal read it.
  template <class T>
  T json_integer(const json& v, const std::string& field) const {
    if constexpr (std::is_signed_v<T>) {
      if (!v.is_int()) json_kind_error(field, "an integer");
      return v.as_int();
    } else {
      if (!v.is_uint() || v.as_uint() > std::numeric_limits<T>::max()) json_kind_error(field, "an unsigned integer");
      return static_cast<T>(v.as_uint());
    }
  }

  template <class T>
  void read_json_values(const json::array& values, unsigned char* out, const tensor_info& t) {
    const std::string field = "a value of tensor " + t.name;
    for (std::size_t i = 0; i < values.size(); ++i) {
      const json& j = values[i];
      T v{};
      if constexpr (std::is_floating_point_v<T>) {
        if (!j.is_number()) json_kind_error(field, "a number");
        const double d = j.as_double();
        if (std::isfinite(d) && std::fabs(d) > static_cast<double>(std::numeric_limits<T>::max()))
          throw_corrupt(path_, "a value out of range of its dtype in tensor " + t.name);
        v = static_cast<T>(d);
      } else if constexpr (std::is_same_v<T, bool>) {
        v = json_bool(j, field);
      } else {
        if (!j.is_int()) json_kind_error(field, "an integer");
        const std::int64_t x = j.as_int();
        if (x < std::numeric_limits<T>::min() || x > std::numeric_limits<T>::max())
          throw_corrupt(path_, "a value out of range of its dtype in tensor " + t.name);
        v = static_cast<T>(x);
      }
      std::memcpy(out + i * sizeof(T), &v, sizeof(T));
    }
  }

  template <class T>
  void set_nan_bits(unsigned char* out, std::uint64_t n, std::uint64_t index, std::uint64_t bits,
                    const tensor_info& t) {
    if (index >= n) throw_corrupt(path_, "tensor " + t.name + ": nan_bits index out of range");
    using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    if (bits > std::numeric_limits<U>::max()) throw_corrupt(path_, "tensor " + t.name + ": bad nan_bits");
    const T v = std::bit_cast<T>(static_cast<U>(bits));
    if (v == v) throw_corrupt(path_, "tensor " + t.name + ": nan_bits holds a number that is not a NaN");
    std::memcpy(out + index * sizeof(T), &v, sizeof(T));
  }

  std::string path_;
  json_checkpoint out_;
};

}  // namespace typeflow::io::detail
