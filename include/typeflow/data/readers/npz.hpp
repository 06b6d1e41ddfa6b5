// typeflow/data/readers/npz.hpp — NumPy .npz archives (numpy.savez, numpy.savez_compressed):
// a zip of .npy members, stored or deflated.
//
// The zip's central directory is read here (zip64 sizes and offsets included, as numpy
// writes them), every member's CRC-32 is verified, and deflated members are inflated with
// zlib. Needs zlib: link typeflow::data (docs/reference/readers.md).
//
//   std::map<std::string, typeflow::tensor> arrays = typeflow::data::load_npz("data.npz");
//   arrays.at("x")   // the member x.npy, as numpy's NpzFile names it
#pragma once

#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "typeflow/core/tensor.hpp"
#include "typeflow/data/readers/detail/bytes.hpp"
#include "typeflow/data/readers/detail/inflate.hpp"
#include "typeflow/data/readers/npy.hpp"

namespace typeflow::data {

namespace detail {

struct zip_member {
  std::string name;
  std::uint16_t method = 0;
  std::uint32_t crc = 0;
  std::uint64_t compressed = 0;
  std::uint64_t size = 0;
  std::uint64_t local_offset = 0;
};

// Reads the zip64 extra field (id 1) of a central directory entry: the values whose 32-bit
// fields hold 0xFFFFFFFF, in the order size, compressed size, offset.
inline void zip64_extra(cursor extra, zip_member& m, bool size64, bool comp64, bool off64) {
  while (extra.remaining() >= 4) {
    const auto id = extra.le(2, "a zip extra field id");
    const auto len = extra.le(2, "a zip extra field length");
    cursor field{extra.data + extra.pos, static_cast<std::size_t>(std::min<std::uint64_t>(len, extra.remaining())), 0,
                 extra.source, extra.offset()};
    extra.take(len, "a zip extra field");
    if (id != 1) continue;
    if (size64) m.size = field.le(8, "the zip64 size");
    if (comp64) m.compressed = field.le(8, "the zip64 compressed size");
    if (off64) m.local_offset = field.le(8, "the zip64 local header offset");
    return;
  }
  if (size64 || comp64 || off64) data_loss(extra.source, extra.offset(), "a zip entry lacks its zip64 extra field");
}

// The central directory's entries, every size and offset checked against the archive's size.
inline std::vector<zip_member> zip_directory(std::span<const unsigned char> z, std::string_view source) {
  if (z.size() < 22) data_loss(source, 0, "truncated: too short for a zip archive (" + std::to_string(z.size()) + " bytes)");
  // The end-of-central-directory record: the last "PK\5\6" within 22 + 65535 bytes of the end.
  std::size_t eocd = z.size() - 22;
  const std::size_t lowest = z.size() > 22 + 65535 ? z.size() - 22 - 65535 : 0;
  for (;; --eocd) {
    if (load_le32(z.data() + eocd) == 0x06054b50u) break;
    if (eocd == lowest) invalid(source, 0, "not a zip archive: no end of central directory record");
  }
  cursor e{z.data(), z.size(), eocd + 4, source};
  e.le(2, "disk number");
  e.le(2, "disk number");
  e.le(2, "entry count");
  std::uint64_t count = e.le(2, "entry count");
  std::uint64_t dir_size = e.le(4, "directory size");
  std::uint64_t dir_offset = e.le(4, "directory offset");
  if (count == 0xFFFF || dir_size == 0xFFFFFFFF || dir_offset == 0xFFFFFFFF) {
    // zip64: the locator lies 20 bytes before the record and points at the zip64 record.
    if (eocd < 20 || load_le32(z.data() + eocd - 20) != 0x07064b50u)
      data_loss(source, eocd, "a zip64 archive without its zip64 end of central directory locator");
    cursor loc{z.data(), z.size(), eocd - 20 + 8, source};
    const std::uint64_t at = loc.le(8, "the zip64 record offset");
    if (z.size() < 56 || at > z.size() - 56 || load_le32(z.data() + at) != 0x06064b50u)
      data_loss(source, eocd - 20, "the zip64 end of central directory record is not where its locator says");
    cursor r{z.data(), z.size(), static_cast<std::size_t>(at) + 24, source};
    r.le(8, "entry count");
    count = r.le(8, "entry count");
    dir_size = r.le(8, "directory size");
    dir_offset = r.le(8, "directory offset");
  }
  if (dir_offset > z.size() || dir_size > z.size() - dir_offset)
    data_loss(source, eocd, "the central directory (" + std::to_string(dir_size) + " bytes at " +
                                std::to_string(dir_offset) + ") lies outside the archive");
  if (count > dir_size / 46) data_loss(source, eocd, std::to_string(count) + " entries do not fit the central directory");
  std::vector<zip_member> members;
  members.reserve(static_cast<std::size_t>(count));
  cursor d{z.data(), static_cast<std::size_t>(dir_offset + dir_size), static_cast<std::size_t>(dir_offset), source};
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t at = d.offset();
    if (d.le(4, "a central directory entry") != 0x02014b50u) data_loss(source, at, "bad central directory entry signature");
    d.take(4, "a central directory entry");  // versions made by and needed
    zip_member m;
    const auto flags = d.le(2, "flags");
    m.method = static_cast<std::uint16_t>(d.le(2, "compression method"));
    d.take(4, "time and date");
    m.crc = static_cast<std::uint32_t>(d.le(4, "crc"));
    m.compressed = d.le(4, "compressed size");
    m.size = d.le(4, "size");
    const auto name_len = d.le(2, "name length");
    const auto extra_len = d.le(2, "extra length");
    const auto comment_len = d.le(2, "comment length");
    d.take(8, "a central directory entry");
    m.local_offset = d.le(4, "local header offset");
    const unsigned char* name = d.take(name_len, "a member name");
    m.name.assign(reinterpret_cast<const char*>(name), static_cast<std::size_t>(name_len));
    cursor extra{d.data + d.pos, static_cast<std::size_t>(std::min<std::uint64_t>(extra_len, d.remaining())), 0, source, d.offset()};
    d.take(extra_len + comment_len, "extra field and comment");
    zip64_extra(extra, m, m.size == 0xFFFFFFFF, m.compressed == 0xFFFFFFFF, m.local_offset == 0xFFFFFFFF);
    if (flags & 1u) invalid(source, at, "member " + m.name + " is encrypted");
    members.push_back(std::move(m));
  }
  return members;
}

// A member's bytes, inflated if deflated, its CRC-32 verified.
inline std::vector<unsigned char> zip_extract(std::span<const unsigned char> z, const zip_member& m,
                                              std::string_view source) {
  const std::string where = std::string(source) + " member " + m.name;
  if (m.local_offset > z.size()) data_loss(where, m.local_offset, "the local header lies outside the archive");
  cursor h{z.data(), z.size(), static_cast<std::size_t>(m.local_offset), where};
  if (h.le(4, "a local header") != 0x04034b50u) data_loss(where, m.local_offset, "bad local header signature");
  h.take(22, "a local header");
  const auto name_len = h.le(2, "name length");
  const auto extra_len = h.le(2, "extra length");
  h.take(name_len + extra_len, "name and extra field");
  const std::uint64_t data_at = h.offset();
  const unsigned char* data = h.take(m.compressed, "the member's data");
  std::vector<unsigned char> out;
  if (m.method == 0) {
    if (m.compressed != m.size) data_loss(where, data_at, "a stored member whose sizes differ");
    out.assign(data, data + m.compressed);
  } else if (m.method == 8) {
    // The size from the directory bounds the output; it is checked against the deflate limit.
    if (m.size > deflate_bound_for(static_cast<std::size_t>(m.compressed)))
      data_loss(where, data_at, "a size of " + std::to_string(m.size) + " bytes cannot come from " +
                                    std::to_string(m.compressed) + " deflated bytes");
    out = inflate_all(data, static_cast<std::size_t>(m.compressed), deflate_framing::raw, where,
                      static_cast<std::size_t>(m.size));
    if (out.size() != m.size)
      data_loss(where, data_at, "inflated to " + std::to_string(out.size()) + " bytes, the directory says " +
                                    std::to_string(m.size));
  } else {
    throw unimplemented_error(where + ": compression method " + std::to_string(m.method) +
                              " (read are 0, stored, and 8, deflated)");
  }
  uLong crc = ::crc32(0L, Z_NULL, 0);
  for (std::size_t at = 0; at < out.size();) {
    const std::size_t n = std::min<std::size_t>(out.size() - at, std::size_t{1} << 30);
    crc = ::crc32(crc, out.data() + at, static_cast<uInt>(n));
    at += n;
  }
  if (crc != m.crc) data_loss(where, data_at, "CRC-32 mismatch: the data is corrupt");
  return out;
}

inline std::map<std::string, tensor> load_npz_bytes(std::span<const unsigned char> z, std::string_view source) {
  std::map<std::string, tensor> out;
  for (const zip_member& m : zip_directory(z, source)) {
    const std::vector<unsigned char> npy = zip_extract(z, m, source);
    std::string key = m.name;
    if (key.size() > 4 && key.ends_with(".npy")) key.resize(key.size() - 4);
    const std::string where = std::string(source) + " member " + m.name;
    out.insert_or_assign(std::move(key), npy_tensor(npy_parse(npy, where), where));
  }
  return out;
}

}  // namespace detail

/// Every array of the .npz archive at `path`, by name (the member name without ".npy").
inline std::map<std::string, tensor> load_npz(const std::filesystem::path& path) {
  const auto raw = detail::read_file(path, ".npz file");
  return detail::load_npz_bytes(raw, path.string());
}
inline std::map<std::string, tensor> load_npz(std::span<const std::byte> bytes, std::string_view source = "<memory>") {
  return detail::load_npz_bytes(detail::as_uchars(bytes), source);
}

}  // namespace typeflow::data
