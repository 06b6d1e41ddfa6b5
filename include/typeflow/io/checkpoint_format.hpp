// typeflow/io/checkpoint_format.hpp — the checkpoint file: one cereal archive per checkpoint.
//
// Portable binary (the default; every number little-endian, whatever the machine):
//
//   u8      1                       cereal's endianness flag (little-endian data)
//   8 bytes "TFLWCKPT"              magic
//   u32     format major, u32 minor a reader refuses a newer major version
//   u32     CRC32C of the 16 bytes above (magic and version)
//   header: u8 has_global_step, i64 global_step (0 when has_global_step is 0), u64 tensor
//           count, then per tensor u64 name length, name bytes, u8 dtype, u64 rank,
//           rank x u64 dims
//   u32     CRC32C of the header bytes, every one of them as stored (also the step's
//           when has_global_step is 0); with the endianness flag and magic checked
//           for their values and the version covered by its CRC, no byte before the
//           data can change unnoticed
//   data:   per tensor, in header order: u64 byte count, the elements (little-endian),
//           u32 CRC32C of those bytes
//   (end of file: trailing bytes are an error)
//
// JSON (on request, for people to read): an object with "magic", "format_version"
// ({"major", "minor"}), "has_global_step", "global_step", "header_crc32c" and "tensors", an
// array of {"name", "dtype", "shape", "crc32c", "values", "nan_bits"}; values are JSON
// numbers (floating-point values as the shortest digits that read back as the same double,
// NaN, Infinity and -Infinity as rapidjson spells them), and "nan_bits" lists [index, bits]
// for every NaN whose bit pattern is not the default quiet NaN, so NaN payloads survive too.
// The CRCs are the same as in the binary format: computed on the little-endian bytes.
// Written and read by io/json.hpp (the layout is the one cereal's JSON archive wrote, 4
// spaces a level, one value a line; members are found by name, in any order).
//
// Reading trusts no size in the file. Every length, count, rank and shape is checked
// against caps and against the bytes that remain *before* anything is allocated (cereal's
// std::vector/std::string loaders allocate whatever size the file claims, so they are never
// used here); shape products use checked multiplication. Every failure is a typeflow
// error: DataLoss for a corrupt or truncated file (naming the header or the tensor),
// InvalidArgument for a newer format version, NotFound for a missing file,
// FailedPrecondition for a path that is not a regular file (a directory, a FIFO: refused
// before anything is read, so a FIFO cannot block the reader).
#pragma once

#include <sys/stat.h>

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <istream>
#include <limits>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include <cereal/archives/portable_binary.hpp>
#include <cereal/cereal.hpp>

#include "typeflow/core/dtype.hpp"
#include "typeflow/core/errors.hpp"
#include "typeflow/io/crc32c.hpp"
#include "typeflow/io/file.hpp"
#include "typeflow/io/json.hpp"

namespace typeflow::io {

// --- format constants and limits ----------------------------------------------------------

inline constexpr std::uint32_t checkpoint_format_major = 1;
inline constexpr std::uint32_t checkpoint_format_minor = 0;
inline constexpr std::string_view checkpoint_magic = "TFLWCKPT";
inline constexpr std::string_view checkpoint_json_magic = "typeflow checkpoint";
/// Longest tensor name a checkpoint may hold, in bytes.
inline constexpr std::size_t max_name_length = 1024;
/// Highest rank of a tensor in a checkpoint.
inline constexpr std::size_t max_rank = 32;
/// Most tensors in one checkpoint.
inline constexpr std::uint64_t max_tensors = std::uint64_t{1} << 20;
/// Largest JSON checkpoint read (JSON is for people; large models use the binary format).
inline constexpr std::uint64_t max_json_bytes = std::uint64_t{1} << 30;
/// Deepest nesting of a JSON checkpoint (the format needs 4).
inline constexpr std::size_t max_json_depth = 16;

/// The archive a checkpoint is written with.
enum class archive_format { portable_binary, json };

// --- what a checkpoint holds ----------------------------------------------------------------

/// "[2, 3]", as typeflow::shape_string spells shapes.
inline std::string dims_string(std::span<const std::uint64_t> dims) {
  std::string s = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(dims[i]);
  }
  return s + "]";
}

/// One tensor of a checkpoint's manifest: name, dtype and shape.
struct tensor_info {
  std::string name;
  typeflow::dtype dtype = typeflow::dtype::float32;
  std::vector<std::uint64_t> shape;

  /// Product of the dims (1 for a scalar); headers read from files are checked not to overflow.
  std::uint64_t num_elements() const noexcept {
    std::uint64_t n = 1;
    for (auto d : shape) n *= d;
    return n;
  }
  std::uint64_t num_bytes() const noexcept { return num_elements() * dtype_size(dtype); }
  std::string shape_string() const { return dims_string(shape); }
  friend bool operator==(const tensor_info&, const tensor_info&) = default;
};

/// The header of a checkpoint: format version, global step and the manifest.
struct checkpoint_header {
  std::uint32_t format_major = checkpoint_format_major;
  std::uint32_t format_minor = checkpoint_format_minor;
  archive_format format = archive_format::portable_binary;
  std::optional<std::int64_t> global_step;
  std::vector<tensor_info> tensors;

  /// The tensor named `name`, or nullptr.
  const tensor_info* find(std::string_view name) const noexcept {
    for (const auto& t : tensors)
      if (t.name == name) return &t;
    return nullptr;
  }
};

/// A tensor to write: `data` points to num_elements native-endian values of `dtype`.
struct tensor_data_view {
  std::string_view name;
  typeflow::dtype dtype;
  std::span<const std::uint64_t> shape;
  const void* data;
};

namespace detail {

// --- checked arithmetic and validation ------------------------------------------------------

/// a * b, or nullopt on overflow.
inline std::optional<std::uint64_t> checked_mul(std::uint64_t a, std::uint64_t b) noexcept {
  std::uint64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}
inline std::optional<std::uint64_t> checked_add(std::uint64_t a, std::uint64_t b) noexcept {
  std::uint64_t r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

/// The byte count of a tensor, or nullopt when the shape's product overflows.
inline std::optional<std::uint64_t> checked_num_bytes(typeflow::dtype d, std::span<const std::uint64_t> shape) noexcept {
  std::optional<std::uint64_t> n = std::uint64_t{1};
  for (auto dim : shape) {
    n = checked_mul(*n, dim);
    if (!n) return n;
  }
  return checked_mul(*n, dtype_size(d));
}

inline std::optional<typeflow::dtype> dtype_from_code(std::uint64_t code) noexcept {
  switch (code) {
    case static_cast<std::uint8_t>(dtype::float32): return dtype::float32;
    case static_cast<std::uint8_t>(dtype::float64): return dtype::float64;
    case static_cast<std::uint8_t>(dtype::int32): return dtype::int32;
    case static_cast<std::uint8_t>(dtype::int64): return dtype::int64;
    case static_cast<std::uint8_t>(dtype::boolean): return dtype::boolean;
    default: return std::nullopt;
  }
}

inline std::optional<typeflow::dtype> dtype_from_name(std::string_view name) noexcept {
  for (auto d : {dtype::float32, dtype::float64, dtype::int32, dtype::int64, dtype::boolean})
    if (dtype_name(d) == name) return d;
  return std::nullopt;
}

/// Why `name` cannot be a tensor name, or "" when it can: non-empty, at most
/// max_name_length bytes, no control characters (names are never used as paths).
inline std::string name_problem(std::string_view name) {
  if (name.empty()) return "an empty tensor name";
  if (name.size() > max_name_length)
    return "a tensor name of " + std::to_string(name.size()) + " bytes (at most " + std::to_string(max_name_length) +
           " are allowed)";
  for (unsigned char c : name)
    if (c < 0x20 || c == 0x7F) return "a tensor name with a control character";
  return {};
}

// --- little-endian canonical encoding (what the CRCs cover) ---------------------------------

struct le_encoder {
  std::string bytes;
  void u8(std::uint8_t v) { bytes.push_back(static_cast<char>(v)); }
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  }
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  }
  void raw(std::string_view s) { bytes.append(s); }
};

inline std::uint32_t preamble_crc(std::uint32_t major, std::uint32_t minor) {
  le_encoder e;
  e.raw(checkpoint_magic);
  e.u32(major);
  e.u32(minor);
  return crc32c(e.bytes);
}

/// The CRC32C of the header's bytes. `stored_step` is the global-step field as the file
/// holds it: a checkpoint without a step stores 0 there, and a reader passes what it read,
/// so that every stored byte, those of an unused step too, is covered.
inline std::uint32_t header_crc(const checkpoint_header& h, std::optional<std::int64_t> stored_step = std::nullopt) {
  le_encoder e;
  e.u8(h.global_step.has_value());
  e.u64(static_cast<std::uint64_t>(stored_step.value_or(h.global_step.value_or(0))));
  e.u64(h.tensors.size());
  for (const auto& t : h.tensors) {
    e.u64(t.name.size());
    e.raw(t.name);
    e.u8(static_cast<std::uint8_t>(t.dtype));
    e.u64(t.shape.size());
    for (auto d : t.shape) e.u64(d);
  }
  return crc32c(e.bytes);
}

inline constexpr bool little_endian_host = std::endian::native == std::endian::little;

/// Reverses the bytes of each element of `n` bytes of elements `width` wide, in place.
inline void swap_elements(unsigned char* p, std::size_t n, std::size_t width) noexcept {
  if (width <= 1) return;
  for (std::size_t i = 0; i + width <= n; i += width)
    for (std::size_t a = i, b = i + width - 1; a < b; ++a, --b) std::swap(p[a], p[b]);
}

inline constexpr std::size_t io_chunk = std::size_t{1} << 20;

[[noreturn]] inline void throw_corrupt(const std::string& path, const std::string& what) {
  throw data_loss_error("Checkpoint " + path + " is corrupt: " + what);
}

inline void check_writable(std::span<const tensor_data_view> tensors) {
  if (tensors.size() > max_tensors)
    throw invalid_argument_error("Cannot save " + std::to_string(tensors.size()) + " tensors in one checkpoint (at most " +
                                 std::to_string(max_tensors) + ")");
  std::unordered_set<std::string_view> seen;
  for (const auto& t : tensors) {
    if (auto p = name_problem(t.name); !p.empty())
      throw invalid_argument_error("Cannot save " + p + ": '" + std::string(t.name.substr(0, 64)) + "'");
    if (!seen.insert(t.name).second)
      throw invalid_argument_error("Cannot save two tensors named " + std::string(t.name) + " in one checkpoint");
    if (t.shape.size() > max_rank)
      throw invalid_argument_error("Cannot save tensor " + std::string(t.name) + " of rank " +
                                   std::to_string(t.shape.size()) + " (at most " + std::to_string(max_rank) + ")");
    if (!checked_num_bytes(t.dtype, t.shape))
      throw invalid_argument_error("Cannot save tensor " + std::string(t.name) + ": its size overflows");
  }
}

inline checkpoint_header header_of(std::optional<std::int64_t> global_step, std::span<const tensor_data_view> tensors,
                                   archive_format format) {
  checkpoint_header h;
  h.format = format;
  h.global_step = global_step;
  for (const auto& t : tensors) h.tensors.push_back({std::string(t.name), t.dtype, {t.shape.begin(), t.shape.end()}});
  return h;
}

// --- portable binary writer --------------------------------------------------------------------

inline void write_binary(std::ostream& out, const checkpoint_header& h, std::span<const tensor_data_view> tensors) {
  cereal::PortableBinaryOutputArchive ar(out, cereal::PortableBinaryOutputArchive::Options::LittleEndian());
  ar(cereal::binary_data(checkpoint_magic.data(), checkpoint_magic.size()));
  ar(h.format_major, h.format_minor, preamble_crc(h.format_major, h.format_minor));
  ar(static_cast<std::uint8_t>(h.global_step.has_value()), static_cast<std::int64_t>(h.global_step.value_or(0)),
     static_cast<std::uint64_t>(h.tensors.size()));
  for (const auto& t : h.tensors) {
    ar(static_cast<std::uint64_t>(t.name.size()));
    ar(cereal::binary_data(t.name.data(), t.name.size()));
    ar(static_cast<std::uint8_t>(t.dtype), static_cast<std::uint64_t>(t.shape.size()));
    for (auto d : t.shape) ar(d);
  }
  ar(header_crc(h));
  std::unique_ptr<unsigned char[]> swapped;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const auto& t = tensors[i];
    const std::uint64_t bytes = h.tensors[i].num_bytes();
    ar(bytes);
    const auto* p = static_cast<const unsigned char*>(t.data);
    std::uint32_t crc = 0;
    // In chunks, so that each chunk is checksummed while it is in the cache.
    for (std::uint64_t off = 0; off < bytes; off += io_chunk) {
      const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(io_chunk, bytes - off));
      const unsigned char* chunk = p + off;
      if constexpr (!little_endian_host) {
        if (!swapped) swapped.reset(new unsigned char[io_chunk]);
        std::memcpy(swapped.get(), chunk, n);
        swap_elements(swapped.get(), n, dtype_size(t.dtype));
        chunk = swapped.get();
      }
      crc = crc32c_extend(crc, chunk, n);
      ar(cereal::binary_data(chunk, n));
    }
    ar(crc);
  }
}

// --- JSON writer --------------------------------------------------------------------------------

template <class T>
std::uint64_t bits_of(T v) {
  if constexpr (sizeof(T) == 4) {
    return std::bit_cast<std::uint32_t>(v);
  } else {
    return std::bit_cast<std::uint64_t>(v);
  }
}

/// JSON text in the layout cereal's JSON archive wrote (4 spaces a level, one value a line,
/// "[]" for an empty array), written to a stream a megabyte at a time.
class pretty_json_writer {
 public:
  explicit pretty_json_writer(std::ostream& out) : out_(out) {}

  void key(std::string_view k) {
    next_item();
    write_json_string(buf_, k);
    buf_ += ": ";
    after_key_ = true;
  }
  void open(char bracket) {
    next_item();
    buf_ += bracket;
    empty_.push_back(true);
  }
  void close(char bracket) {
    const bool empty = empty_.back();
    empty_.pop_back();
    if (!empty) {
      buf_ += '\n';
      buf_.append(4 * empty_.size(), ' ');
    }
    buf_ += bracket;
    if (buf_.size() >= io_chunk) flush();
  }
  void string(std::string_view v) {
    next_item();
    write_json_string(buf_, v);
  }
  void number(double v) {
    next_item();
    write_json_number(buf_, v);
  }
  template <class Int>
  void integer(Int v) {
    next_item();
    buf_ += std::to_string(v);
  }
  void boolean(bool v) {
    next_item();
    buf_ += v ? "true" : "false";
  }
  void flush() {
    out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    buf_.clear();
  }

 private:
  // Before a value or a key: a comma after the previous item, a new line, the indentation.
  void next_item() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (empty_.empty()) return;
    buf_ += empty_.back() ? "\n" : ",\n";
    empty_.back() = false;
    buf_.append(4 * empty_.size(), ' ');
  }

  std::ostream& out_;
  std::string buf_;
  std::vector<bool> empty_;  // per open object or array: nothing written in it yet
  bool after_key_ = false;
};

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

inline std::uint32_t crc_of_native(const void* data, std::uint64_t bytes, typeflow::dtype d) {
  if constexpr (little_endian_host) {
    return crc32c(data, static_cast<std::size_t>(bytes));
  } else {
    std::vector<unsigned char> copy(static_cast<const unsigned char*>(data),
                                    static_cast<const unsigned char*>(data) + bytes);
    swap_elements(copy.data(), copy.size(), dtype_size(d));
    return crc32c(copy.data(), copy.size());
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

}  // namespace detail

/// Writes one checkpoint to `out`. Names must be unique, non-empty, at most
/// max_name_length bytes and free of control characters; ranks at most max_rank.
inline void write_checkpoint(std::ostream& out, archive_format format, std::optional<std::int64_t> global_step,
                             std::span<const tensor_data_view> tensors) {
  detail::check_writable(tensors);
  const auto header = detail::header_of(global_step, tensors, format);
  if (format == archive_format::portable_binary) {
    detail::write_binary(out, header, tensors);
  } else {
    detail::write_json(out, header, tensors);
  }
}

// --- reading --------------------------------------------------------------------------------------

/// Reads a checkpoint: the header when constructed, the tensors' data on request.
class checkpoint_reader {
 public:
  /// Opens the checkpoint file at `path` and reads its header. A path that is not a
  /// regular file (a directory, a FIFO, ...) is FailedPrecondition at once, naming it.
  explicit checkpoint_reader(const std::filesystem::path& path) : path_(path.string()) {
    struct ::stat st {};
    const int fd = open_regular_file(path, "Checkpoint", &st);
    file_ = std::make_unique<fd_input_buffer>(fd);
    init(*file_, static_cast<std::uint64_t>(st.st_size));
  }

  /// Reads a checkpoint held in memory; the bytes must outlive the reader.
  checkpoint_reader(const void* data, std::size_t size, std::string name = "<memory>") : path_(std::move(name)) {
    memory_ = std::make_unique<memory_input_buffer>(data, size);
    memory_data_ = static_cast<const unsigned char*>(data);
    memory_size_ = size;
    init(*memory_, size);
  }

  checkpoint_reader(const checkpoint_reader&) = delete;
  checkpoint_reader& operator=(const checkpoint_reader&) = delete;

  const checkpoint_header& header() const noexcept { return header_; }
  const std::string& path() const noexcept { return path_; }

  /// Reads the tensors' data, in header order: `dest(info, index)` returns where to put
  /// info.num_bytes() bytes (native-endian elements), or nullptr to skip the tensor.
  /// Every tensor read is checked against its CRC32C (DataLoss naming it on mismatch);
  /// bool tensors must hold only 0 and 1. Can be called once.
  template <class Dest>
  void read_tensors(Dest&& dest) {
    if (data_read_) throw failed_precondition_error("The tensors of checkpoint " + path_ + " were read already");
    data_read_ = true;
    try {
      if (header_.format == archive_format::json) {
        read_json_tensors(dest);
      } else {
        read_binary_tensors(dest);
      }
    } catch (const cereal::Exception& e) {
      detail::throw_corrupt(path_, std::string("unexpected end of data (") + e.what() + ")");
    }
  }

  /// Whether verify_in_place can be used: a binary checkpoint held in memory (or a
  /// mapping) on a little-endian machine, whose tensors have not been read.
  bool can_verify_in_place() const noexcept {
    return memory_data_ != nullptr && header_.format == archive_format::portable_binary && detail::little_endian_host &&
           !data_read_;
  }

  /// Where one tensor's data lies in the reader's memory, checked against its CRC32C.
  struct tensor_in_place {
    const unsigned char* data = nullptr;  // nullptr: not selected
    std::uint64_t bytes = 0;
    std::uint32_t crc32c = 0;  // the stored CRC32C, which the bytes matched
  };

  /// Checks, without copying, the data of every tensor for which `select(info, index)` is
  /// true, where it lies in memory: its byte count, its CRC32C (DataLoss naming it on
  /// mismatch) and, for bool tensors, that it holds only 0 and 1; the whole data section is
  /// walked (bounded by the bytes left, as read_tensors does). Returns, in header order,
  /// where each selected tensor's bytes are (little-endian elements, which are native
  /// here). Needs can_verify_in_place(); counts as reading the tensors (once).
  template <class Select>
  std::vector<tensor_in_place> verify_in_place(Select&& select) {
    if (!can_verify_in_place())
      throw failed_precondition_error("The tensors of checkpoint " + path_ + " cannot be verified in place");
    data_read_ = true;
    std::vector<tensor_in_place> out(header_.tensors.size());
    auto le = [&](std::size_t width, const char* what) {
      take(width, what);
      const unsigned char* p = memory_data_ + (memory_size_ - remaining_ - width);
      std::uint64_t v = 0;
      for (std::size_t b = 0; b < width; ++b) v |= std::uint64_t{p[b]} << (8 * b);
      return v;
    };
    for (std::size_t i = 0; i < header_.tensors.size(); ++i) {
      const auto& t = header_.tensors[i];
      const auto bytes = le(8, "tensor size");
      if (bytes != t.num_bytes())
        detail::throw_corrupt(path_, "tensor " + t.name + " has " + std::to_string(bytes) + " bytes of data, its shape " +
                                         t.shape_string() + " and dtype " + std::string(dtype_name(t.dtype)) +
                                         " need " + std::to_string(t.num_bytes()));
      take(bytes, "tensor data");
      const unsigned char* data = memory_data_ + (memory_size_ - remaining_ - bytes);
      const auto stored = static_cast<std::uint32_t>(le(4, "tensor checksum"));
      if (!select(static_cast<const tensor_info&>(t), i)) continue;
      const auto crc = crc32c(data, static_cast<std::size_t>(bytes));
      if (stored != crc)
        throw data_loss_error("Checksum does not match for tensor " + t.name + " in checkpoint " + path_ +
                              ": stored " + std::to_string(stored) + ", computed " + std::to_string(crc));
      check_bools(t, data);
      out[i] = {data, bytes, stored};
    }
    if (remaining_ != 0) detail::throw_corrupt(path_, std::to_string(remaining_) + " bytes after the last tensor");
    return out;
  }

 private:
  // --- bounded reading ----------------------------------------------------------------------
  void take(std::uint64_t n, const char* what) {
    if (n > remaining_)
      detail::throw_corrupt(path_, std::string("truncated ") + what + " (needs " + std::to_string(n) + " bytes, " +
                                       std::to_string(remaining_) + " left)");
    remaining_ -= n;
  }
  template <class T>
  T read_value(const char* what) {
    take(sizeof(T), what);
    T v{};
    (*binary_)(v);
    return v;
  }
  void read_bytes(void* p, std::uint64_t n, const char* what) {
    take(n, what);
    (*binary_)(cereal::binary_data(static_cast<char*>(p), static_cast<std::size_t>(n)));
  }

  void init(std::streambuf& sb, std::uint64_t size) {
    sb_ = &sb;
    remaining_ = size;
    try {
      // The first non-blank byte tells the archive: '{' is JSON, 1 the binary format.
      int first = sb.sgetc();
      if (first == '{' || first == ' ' || first == '\n' || first == '\t' || first == '\r') {
        read_json(sb, size);
      } else {
        read_binary_header(sb);
      }
    } catch (const cereal::Exception& e) {
      detail::throw_corrupt(path_, std::string("bad header (") + e.what() + ")");
    }
  }

  void read_binary_header(std::streambuf& sb) {
    if (remaining_ == 0) detail::throw_corrupt(path_, "the file is empty");
    const int flag = sb.sgetc();
    if (flag != 1) detail::throw_corrupt(path_, "bad header (not a typeflow checkpoint: bad endianness flag)");
    stream_ = std::make_unique<std::istream>(&sb);
    take(1, "header");
    binary_ = std::make_unique<cereal::PortableBinaryInputArchive>(*stream_);

    char magic[8];
    read_bytes(magic, 8, "header");
    if (std::string_view(magic, 8) != checkpoint_magic)
      detail::throw_corrupt(path_, "bad header (not a typeflow checkpoint: bad magic)");
    header_.format = archive_format::portable_binary;
    header_.format_major = read_value<std::uint32_t>("header");
    header_.format_minor = read_value<std::uint32_t>("header");
    if (read_value<std::uint32_t>("header") != detail::preamble_crc(header_.format_major, header_.format_minor))
      detail::throw_corrupt(path_, "header checksum does not match (format version)");
    check_version();

    const auto has_step = read_value<std::uint8_t>("header");
    const auto step = read_value<std::int64_t>("header");
    if (has_step > 1) detail::throw_corrupt(path_, "bad header (global step flag)");
    if (has_step) header_.global_step = step;
    stored_step_ = step;
    const auto count = read_value<std::uint64_t>("header");
    // The smallest entry: length (8), a 1-byte name, dtype (1), rank (8); plus 12 data bytes.
    if (count > max_tensors || count > remaining_ / 30)
      detail::throw_corrupt(path_, "bad header (" + std::to_string(count) + " tensors cannot fit in the " +
                                       std::to_string(remaining_) + " bytes left)");
    header_.tensors.reserve(static_cast<std::size_t>(count));
    std::unordered_set<std::string> names;
    for (std::uint64_t i = 0; i < count; ++i) {
      tensor_info t;
      const auto len = read_value<std::uint64_t>("header");
      if (len == 0 || len > max_name_length)
        detail::throw_corrupt(path_, "bad header (tensor name length " + std::to_string(len) + ")");
      if (len > remaining_) take(len, "header");
      t.name.resize(static_cast<std::size_t>(len));
      read_bytes(t.name.data(), len, "header");
      if (auto p = detail::name_problem(t.name); !p.empty()) detail::throw_corrupt(path_, "bad header (" + p + ")");
      const auto code = read_value<std::uint8_t>("header");
      const auto d = detail::dtype_from_code(code);
      if (!d)
        detail::throw_corrupt(path_, "bad header (tensor " + t.name + " has unknown dtype code " +
                                         std::to_string(code) + ")");
      t.dtype = *d;
      const auto rank = read_value<std::uint64_t>("header");
      if (rank > max_rank)
        detail::throw_corrupt(path_, "bad header (tensor " + t.name + " has rank " + std::to_string(rank) +
                                         ", at most " + std::to_string(max_rank) + " is allowed)");
      t.shape.resize(static_cast<std::size_t>(rank));
      for (auto& dim : t.shape) dim = read_value<std::uint64_t>("header");
      if (!detail::checked_num_bytes(t.dtype, t.shape))
        detail::throw_corrupt(path_, "bad header (the size of tensor " + t.name + " overflows)");
      if (!names.insert(t.name).second)
        detail::throw_corrupt(path_, "bad header (two tensors are named " + t.name + ")");
      header_.tensors.push_back(std::move(t));
    }
    if (read_value<std::uint32_t>("header") != detail::header_crc(header_, stored_step_))
      detail::throw_corrupt(path_, "header checksum does not match");

    // The data section must be exactly what the manifest describes.
    std::optional<std::uint64_t> need = std::uint64_t{0};
    for (const auto& t : header_.tensors) {
      need = detail::checked_add(*need, t.num_bytes());
      if (need) need = detail::checked_add(*need, 12);
      if (!need) break;
    }
    if (!need || *need != remaining_)
      detail::throw_corrupt(path_, "the data section has " + std::to_string(remaining_) + " bytes, the manifest needs " +
                                       (need ? std::to_string(*need) : std::string("more than 2^64")) +
                                       (need && *need > remaining_ ? " (truncated file)" : ""));
  }

  void check_version() {
    if (header_.format_major > checkpoint_format_major)
      throw invalid_argument_error("Checkpoint " + path_ + " has format version " +
                                   std::to_string(header_.format_major) + "." + std::to_string(header_.format_minor) +
                                   ", newer than this typeflow reads (" + std::to_string(checkpoint_format_major) +
                                   ".x): upgrade typeflow to read it");
  }

  template <class Dest>
  void read_binary_tensors(Dest& dest) {
    for (std::size_t i = 0; i < header_.tensors.size(); ++i) {
      const auto& t = header_.tensors[i];
      const auto bytes = read_value<std::uint64_t>("tensor size");
      if (bytes != t.num_bytes())
        detail::throw_corrupt(path_, "tensor " + t.name + " has " + std::to_string(bytes) + " bytes of data, its shape " +
                                         t.shape_string() + " and dtype " + std::string(dtype_name(t.dtype)) +
                                         " need " + std::to_string(t.num_bytes()));
      if (bytes > remaining_) take(bytes, "tensor data");  // unreachable: the header checked the sizes
      void* out = dest(static_cast<const tensor_info&>(t), i);
      if (out == nullptr) {
        take(bytes, "tensor data");
        skip(bytes);
        (void)read_value<std::uint32_t>("tensor checksum");
        continue;
      }
      auto* p = static_cast<unsigned char*>(out);
      std::uint32_t crc = 0;
      for (std::uint64_t off = 0; off < bytes; off += detail::io_chunk) {
        const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(detail::io_chunk, bytes - off));
        read_bytes(p + off, n, "tensor data");
        crc = crc32c_extend(crc, p + off, n);
      }
      const auto stored = read_value<std::uint32_t>("tensor checksum");
      if (stored != crc)
        throw data_loss_error("Checksum does not match for tensor " + t.name + " in checkpoint " + path_ +
                              ": stored " + std::to_string(stored) + ", computed " + std::to_string(crc));
      if constexpr (!detail::little_endian_host) detail::swap_elements(p, bytes, dtype_size(t.dtype));
      check_bools(t, p);
    }
    if (remaining_ != 0) detail::throw_corrupt(path_, std::to_string(remaining_) + " bytes after the last tensor");
  }

  void skip(std::uint64_t n) {
    const auto pos = sb_->pubseekoff(static_cast<std::streamoff>(n), std::ios::cur, std::ios::in);
    if (pos == std::streampos(-1)) {
      char buf[4096];
      while (n > 0) {
        const auto k = static_cast<std::size_t>(std::min<std::uint64_t>(n, sizeof buf));
        (*binary_)(cereal::binary_data(buf, k));
        n -= k;
      }
    }
  }

  void check_bools(const tensor_info& t, const unsigned char* p) const {
    if (t.dtype != dtype::boolean) return;
    const auto n = t.num_elements();
    for (std::uint64_t i = 0; i < n; ++i)
      if (p[i] > 1)
        throw data_loss_error("Tensor " + t.name + " in checkpoint " + path_ + " holds a bool that is neither 0 nor 1");
  }

  // --- JSON -----------------------------------------------------------------------------------------
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
          detail::throw_corrupt(path, "JSON nested deeper than " + std::to_string(max_json_depth) + " levels");
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
        if (j - i > 64) detail::throw_corrupt(path, "a JSON number of more than 64 characters");
        if (!nonzero && (exponent || decimals > 20)) detail::throw_corrupt(path, "a malformed JSON number (zero with an exponent)");
        // The decimal exponent of the last digit and of the first, bounded by what a double
        // can hold (rapidjson 1.1.0 overflowed below 10^-348, as in 1.0000000031710770e-340,
        // and asserted on some values past 10^308). typeflow writes at most 17 significant
        // digits of a double.
        if (exponent) {
          const long e = exponent_negative ? -exponent_value : exponent_value;
          if (e - static_cast<long>(decimals) < -340 || e + static_cast<long>(integer_digits) > 310)
            detail::throw_corrupt(path, "a JSON number out of the range of double");
        }
        i = j - 1;
      }
    }
  }

  [[noreturn]] void json_kind_error(const std::string& field, const char* kind) const {
    detail::throw_corrupt(path_, "bad header (" + field + " is not " + kind + ")");
  }
  const json& json_member(const json& obj, std::string_view key, const std::string& of) const {
    const json* m = obj.find(key);
    if (m == nullptr) detail::throw_corrupt(path_, "bad header (" + of + " has no member \"" + std::string(key) + "\")");
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
          detail::throw_corrupt(path_, "a value out of range of its dtype in tensor " + t.name);
        v = static_cast<T>(d);
      } else if constexpr (std::is_same_v<T, bool>) {
        v = json_bool(j, field);
      } else {
        if (!j.is_int()) json_kind_error(field, "an integer");
        const std::int64_t x = j.as_int();
        if (x < std::numeric_limits<T>::min() || x > std::numeric_limits<T>::max())
          detail::throw_corrupt(path_, "a value out of range of its dtype in tensor " + t.name);
        v = static_cast<T>(x);
      }
      std::memcpy(out + i * sizeof(T), &v, sizeof(T));
    }
  }

  template <class T>
  void set_nan_bits(unsigned char* out, std::uint64_t n, std::uint64_t index, std::uint64_t bits,
                    const tensor_info& t) {
    if (index >= n) detail::throw_corrupt(path_, "tensor " + t.name + ": nan_bits index out of range");
    using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    if (bits > std::numeric_limits<U>::max()) detail::throw_corrupt(path_, "tensor " + t.name + ": bad nan_bits");
    const T v = std::bit_cast<T>(static_cast<U>(bits));
    if (v == v) detail::throw_corrupt(path_, "tensor " + t.name + ": nan_bits holds a number that is not a NaN");
    std::memcpy(out + index * sizeof(T), &v, sizeof(T));
  }

  void read_json(std::streambuf& sb, std::uint64_t size) {
    if (size > max_json_bytes)
      detail::throw_corrupt(path_, "a JSON checkpoint of " + std::to_string(size) + " bytes (at most " +
                                       std::to_string(max_json_bytes) + " are read; use the binary format)");
    std::string text(static_cast<std::size_t>(size), '\0');
    if (static_cast<std::uint64_t>(sb.sgetn(text.data(), static_cast<std::streamsize>(size))) != size)
      detail::throw_corrupt(path_, "truncated JSON");
    remaining_ = 0;
    check_json_text(text, path_);
    json root;
    try {
      root = parse_json(text, "the file", {.max_depth = max_json_depth, .numbers = json_numbers::real});
    } catch (const data_loss_error& e) {
      detail::throw_corrupt(path_, "bad header (" + e.message() + ")");
    }
    header_.format = archive_format::json;

    const json* magic = root.find("magic");
    if (magic == nullptr || !magic->is_string() || magic->as_string() != checkpoint_json_magic)
      detail::throw_corrupt(path_, "bad header (not a typeflow checkpoint: bad magic)");
    const json& version = json_member(root, "format_version", "the checkpoint");
    header_.format_major = json_integer<std::uint32_t>(json_member(version, "major", "format_version"), "format_version.major");
    header_.format_minor = json_integer<std::uint32_t>(json_member(version, "minor", "format_version"), "format_version.minor");
    check_version();
    const bool has_step = json_bool(json_member(root, "has_global_step", "the checkpoint"), "has_global_step");
    const auto step = json_integer<std::int64_t>(json_member(root, "global_step", "the checkpoint"), "global_step");
    const auto stored_header_crc =
        json_integer<std::uint32_t>(json_member(root, "header_crc32c", "the checkpoint"), "header_crc32c");
    if (has_step) header_.global_step = step;
    stored_step_ = step;

    const auto& tensors = json_array(json_member(root, "tensors", "the checkpoint"), "tensors");
    if (tensors.size() > max_tensors) detail::throw_corrupt(path_, "bad header (too many tensors)");
    std::unordered_set<std::string> names;
    std::vector<std::uint32_t> crcs;
    for (std::size_t i = 0; i < tensors.size(); ++i) {
      const json& entry = tensors[i];
      const std::string field = "tensors[" + std::to_string(i) + "]";
      if (!entry.is_object()) json_kind_error(field, "an object");
      tensor_info t;
      t.name = json_string(json_member(entry, "name", field), field + ".name");
      if (auto p = detail::name_problem(t.name); !p.empty()) detail::throw_corrupt(path_, "bad header (" + p + ")");
      const auto d = detail::dtype_from_name(json_string(json_member(entry, "dtype", field), field + ".dtype"));
      if (!d) detail::throw_corrupt(path_, "bad header (tensor " + t.name + " has unknown dtype)");
      t.dtype = *d;
      const auto& shape = json_array(json_member(entry, "shape", field), field + ".shape");
      if (shape.size() > max_rank) detail::throw_corrupt(path_, "bad header (tensor " + t.name + " has too high a rank)");
      for (const auto& dim : shape) t.shape.push_back(json_integer<std::uint64_t>(dim, field + ".shape"));
      const auto bytes = detail::checked_num_bytes(t.dtype, t.shape);
      if (!bytes) detail::throw_corrupt(path_, "bad header (the size of tensor " + t.name + " overflows)");
      if (!names.insert(t.name).second) detail::throw_corrupt(path_, "bad header (two tensors are named " + t.name + ")");
      crcs.push_back(json_integer<std::uint32_t>(json_member(entry, "crc32c", field), field + ".crc32c"));

      // The number of values actually in the document, not a claim.
      const auto& values = json_array(json_member(entry, "values", field), field + ".values");
      const std::uint64_t n = values.size();
      if (n != t.num_elements())
        detail::throw_corrupt(path_, "tensor " + t.name + " has " + std::to_string(n) + " values, its shape " +
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
        if (ib.size() != 2) detail::throw_corrupt(path_, "tensor " + t.name + ": bad nan_bits");
        const auto index = json_integer<std::uint64_t>(ib[0], field + ".nan_bits");
        const auto bits = json_integer<std::uint64_t>(ib[1], field + ".nan_bits");
        if (t.dtype == dtype::float32) {
          set_nan_bits<float>(data.data(), n, index, bits, t);
        } else if (t.dtype == dtype::float64) {
          set_nan_bits<double>(data.data(), n, index, bits, t);
        } else {
          detail::throw_corrupt(path_, "tensor " + t.name + ": nan_bits in a tensor that is not floating-point");
        }
      }
      header_.tensors.push_back(std::move(t));
      json_data_.push_back(std::move(data));
    }
    if (stored_header_crc != detail::header_crc(header_, stored_step_))
      detail::throw_corrupt(path_, "header checksum does not match");
    json_crcs_ = std::move(crcs);
  }

  template <class Dest>
  void read_json_tensors(Dest& dest) {
    for (std::size_t i = 0; i < header_.tensors.size(); ++i) {
      const auto& t = header_.tensors[i];
      void* out = dest(static_cast<const tensor_info&>(t), i);
      if (out == nullptr) continue;
      const auto& data = json_data_[i];
      const auto crc = detail::crc_of_native(data.data(), data.size(), t.dtype);
      if (crc != json_crcs_[i])
        throw data_loss_error("Checksum does not match for tensor " + t.name + " in checkpoint " + path_ +
                              ": stored " + std::to_string(json_crcs_[i]) + ", computed " + std::to_string(crc));
      if (!data.empty()) std::memcpy(out, data.data(), data.size());
      check_bools(t, data.data());
    }
  }

  std::string path_;
  checkpoint_header header_;
  std::int64_t stored_step_ = 0;  // the global-step field as stored, also when unused
  std::unique_ptr<fd_input_buffer> file_;
  std::unique_ptr<memory_input_buffer> memory_;
  const unsigned char* memory_data_ = nullptr;
  std::size_t memory_size_ = 0;
  std::streambuf* sb_ = nullptr;
  std::unique_ptr<std::istream> stream_;
  std::unique_ptr<cereal::PortableBinaryInputArchive> binary_;
  std::uint64_t remaining_ = 0;
  bool data_read_ = false;
  std::vector<std::vector<unsigned char>> json_data_;
  std::vector<std::uint32_t> json_crcs_;
};

/// The manifest of the checkpoint at `path`: every tensor's name, dtype and shape, in
/// file order (tf.train.list_variables). Reads the header only.
inline std::vector<tensor_info> list_tensors(const std::filesystem::path& path) {
  return checkpoint_reader(path).header().tensors;
}

/// Reads and verifies every tensor of a checkpoint into memory (for tools and tests):
/// the header and each tensor's native-endian bytes.
struct loaded_checkpoint {
  checkpoint_header header;
  std::vector<std::vector<unsigned char>> data;
};
inline loaded_checkpoint load_all(checkpoint_reader& reader) {
  loaded_checkpoint out;
  out.header = reader.header();
  out.data.resize(out.header.tensors.size());
  reader.read_tensors([&](const tensor_info& t, std::size_t i) -> void* {
    out.data[i].resize(static_cast<std::size_t>(t.num_bytes()));
    return out.data[i].data();
  });
  return out;
}

}  // namespace typeflow::io
