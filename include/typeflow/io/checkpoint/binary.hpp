// typeflow/io/checkpoint/binary.hpp — the portable binary form of a checkpoint (layout in
// io/checkpoint/format.hpp): its writer, and its reader, which trusts no size in the file and
// counts every byte it takes against the bytes that remain.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <ios>
#include <istream>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <streambuf>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include <cereal/archives/portable_binary.hpp>
#include <cereal/cereal.hpp>

#include "typeflow/core/dtype.hpp"
#include "typeflow/core/errors.hpp"
#include "typeflow/io/checkpoint/format.hpp"
#include "typeflow/io/crc32c.hpp"

namespace typeflow::io {

/// Where one tensor's data lies in a checkpoint held in memory, checked against its CRC32C.
struct tensor_in_place {
  const unsigned char* data = nullptr;  // nullptr: not selected
  std::uint64_t bytes = 0;
  std::uint32_t crc32c = 0;  // the stored CRC32C, which the bytes matched
};

namespace detail {

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

// --- portable binary reader --------------------------------------------------------------------

/// Reads the binary form from a stream buffer holding `size` bytes: the header, then the
/// tensors. Errors name the checkpoint `path`; cereal's exceptions (a short read) are left to
/// the caller, which names the part being read.
class binary_checkpoint_reader {
 public:
  binary_checkpoint_reader(std::streambuf& sb, std::uint64_t size, std::string path)
      : path_(std::move(path)), sb_(&sb), remaining_(size) {}

  std::uint64_t remaining() const noexcept { return remaining_; }

  /// Reads and checks the header into `header`; `stored_step` gets the global-step field as
  /// stored, also when unused.
  void read_header(checkpoint_header& header, std::int64_t& stored_step) {
    if (remaining_ == 0) detail::throw_corrupt(path_, "the file is empty");
    const int flag = sb_->sgetc();
    if (flag != 1) detail::throw_corrupt(path_, "bad header (not a typeflow checkpoint: bad endianness flag)");
    stream_ = std::make_unique<std::istream>(sb_);
    take(1, "header");
    binary_ = std::make_unique<cereal::PortableBinaryInputArchive>(*stream_);

    char magic[8];
    read_bytes(magic, 8, "header");
    if (std::string_view(magic, 8) != checkpoint_magic)
      detail::throw_corrupt(path_, "bad header (not a typeflow checkpoint: bad magic)");
    header.format = archive_format::portable_binary;
    header.format_major = read_value<std::uint32_t>("header");
    header.format_minor = read_value<std::uint32_t>("header");
    if (read_value<std::uint32_t>("header") != detail::preamble_crc(header.format_major, header.format_minor))
      detail::throw_corrupt(path_, "header checksum does not match (format version)");
    check_version(path_, header.format_major, header.format_minor);

    const auto has_step = read_value<std::uint8_t>("header");
    const auto step = read_value<std::int64_t>("header");
    if (has_step > 1) detail::throw_corrupt(path_, "bad header (global step flag)");
    if (has_step) header.global_step = step;
    stored_step = step;
    const auto count = read_value<std::uint64_t>("header");
    // The smallest entry: length (8), a 1-byte name, dtype (1), rank (8); plus 12 data bytes.
    if (count > max_tensors || count > remaining_ / 30)
      detail::throw_corrupt(path_, "bad header (" + std::to_string(count) + " tensors cannot fit in the " +
                                       std::to_string(remaining_) + " bytes left)");
    header.tensors.reserve(static_cast<std::size_t>(count));
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
      header.tensors.push_back(std::move(t));
    }
    if (read_value<std::uint32_t>("header") != detail::header_crc(header, stored_step))
      detail::throw_corrupt(path_, "header checksum does not match");

    // The data section must be exactly what the manifest describes.
    std::optional<std::uint64_t> need = std::uint64_t{0};
    for (const auto& t : header.tensors) {
      need = detail::checked_add(*need, t.num_bytes());
      if (need) need = detail::checked_add(*need, 12);
      if (!need) break;
    }
    if (!need || *need != remaining_)
      detail::throw_corrupt(path_, "the data section has " + std::to_string(remaining_) + " bytes, the manifest needs " +
                                       (need ? std::to_string(*need) : std::string("more than 2^64")) +
                                       (need && *need > remaining_ ? " (truncated file)" : ""));
  }

  /// Reads the tensors in header order into `dest(info, index)` (nullptr skips one),
  /// checking each against its CRC32C.
  template <class Dest>
  void read_tensors(const checkpoint_header& header, Dest& dest) {
    for (std::size_t i = 0; i < header.tensors.size(); ++i) {
      const auto& t = header.tensors[i];
      const auto bytes = read_value<std::uint64_t>("tensor size");
      if (bytes != t.num_bytes()) size_mismatch(t, bytes);
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
      if (stored != crc) checksum_mismatch(t, stored, crc);
      if constexpr (!detail::little_endian_host) detail::swap_elements(p, bytes, dtype_size(t.dtype));
      check_bools(path_, t, p);
    }
    if (remaining_ != 0) detail::throw_corrupt(path_, std::to_string(remaining_) + " bytes after the last tensor");
  }

  /// The tensors of a checkpoint held in memory (`memory`, `size` bytes, of which the header
  /// was read), checked where they lie: those for which `select(info, index)` is true are
  /// checked against their CRC32C and returned, in header order.
  template <class Select>
  std::vector<tensor_in_place> verify_in_place(const checkpoint_header& header, const unsigned char* memory,
                                               std::size_t size, Select& select) {
    std::vector<tensor_in_place> out(header.tensors.size());
    auto le = [&](std::size_t width, const char* what) {
      take(width, what);
      const unsigned char* p = memory + (size - remaining_ - width);
      std::uint64_t v = 0;
      for (std::size_t b = 0; b < width; ++b) v |= std::uint64_t{p[b]} << (8 * b);
      return v;
    };
    for (std::size_t i = 0; i < header.tensors.size(); ++i) {
      const auto& t = header.tensors[i];
      const auto bytes = le(8, "tensor size");
      if (bytes != t.num_bytes()) size_mismatch(t, bytes);
      take(bytes, "tensor data");
      const unsigned char* data = memory + (size - remaining_ - bytes);
      const auto stored = static_cast<std::uint32_t>(le(4, "tensor checksum"));
      if (!select(static_cast<const tensor_info&>(t), i)) continue;
      const auto crc = crc32c(data, static_cast<std::size_t>(bytes));
      if (stored != crc) checksum_mismatch(t, stored, crc);
      check_bools(path_, t, data);
      out[i] = {data, bytes, stored};
    }
    if (remaining_ != 0) detail::throw_corrupt(path_, std::to_string(remaining_) + " bytes after the last tensor");
    return out;
  }

 private:
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
  [[noreturn]] void size_mismatch(const tensor_info& t, std::uint64_t bytes) const {
    detail::throw_corrupt(path_, "tensor " + t.name + " has " + std::to_string(bytes) + " bytes of data, its shape " +
                                     t.shape_string() + " and dtype " + std::string(dtype_name(t.dtype)) + " need " +
                                     std::to_string(t.num_bytes()));
  }
  [[noreturn]] void checksum_mismatch(const tensor_info& t, std::uint32_t stored, std::uint32_t crc) const {
    throw data_loss_error("Checksum does not match for tensor " + t.name + " in checkpoint " + path_ + ": stored " +
                          std::to_string(stored) + ", computed " + std::to_string(crc));
  }

  std::string path_;
  std::streambuf* sb_;
  std::uint64_t remaining_;
  std::unique_ptr<std::istream> stream_;
  std::unique_ptr<cereal::PortableBinaryInputArchive> binary_;
};

}  // namespace detail

}  // namespace typeflow::io
