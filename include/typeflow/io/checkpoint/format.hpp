// typeflow/io/checkpoint/format.hpp — what a checkpoint file is: the format's constants and
// limits, the header (version, global step, manifest), the checksums and the checks shared by
// the binary and the JSON forms.
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
// The JSON form (io/checkpoint/json.hpp) holds the same header and CRCs; the CRCs are computed
// on the little-endian bytes in both forms.
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

#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "typeflow/core/detail/find_named.hpp"
#include "typeflow/core/dtype.hpp"
#include "typeflow/core/errors.hpp"
#include "typeflow/io/crc32c.hpp"
#include "typeflow/io/format_version.hpp"

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
  const tensor_info* find(std::string_view name) const noexcept { return core::detail::find_named(tensors, name); }
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

/// The CRC32C of native-endian elements, as stored (little-endian).
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

/// A reader refuses a newer major version (InvalidArgument, naming the file).
inline void check_version(const std::string& path, std::uint32_t major, std::uint32_t minor) {
  refuse_newer_major_version<invalid_argument_error>("Checkpoint", path, major, minor, checkpoint_format_major);
}

/// A bool tensor read from a file must hold only 0 and 1.
inline void check_bools(const std::string& path, const tensor_info& t, const unsigned char* p) {
  if (t.dtype != dtype::boolean) return;
  const auto n = t.num_elements();
  for (std::uint64_t i = 0; i < n; ++i)
    if (p[i] > 1)
      throw data_loss_error("Tensor " + t.name + " in checkpoint " + path + " holds a bool that is neither 0 nor 1");
}

}  // namespace detail

}  // namespace typeflow::io
