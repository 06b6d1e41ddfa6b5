// typeflow/io/crc32c.hpp — CRC32C (Castagnoli), as TensorFlow's checkpoints use it.
//
// The reflected polynomial 0x82F63B78, initial value and final xor 0xFFFFFFFF, so
// crc32c("123456789") == 0xE3069283 (RFC 3720, iSCSI). Two implementations that give
// the same values (tests/io/crc32c_test.cpp checks both on the RFC vectors and
// on random data):
//   - table-driven, slicing-by-8 over tables computed at compile time: portable;
//   - the SSE4.2 `crc32` instruction, chosen at run time on x86-64 CPUs that have it,
//     so that checksumming does not slow down saving and restoring large checkpoints.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace typeflow::io {

namespace detail {

inline constexpr std::uint32_t crc32c_polynomial = 0x82F63B78u;  // reflected 0x1EDC6F41

// tables[k][b]: the CRC of byte b followed by k zero bytes (slicing-by-8).
constexpr std::array<std::array<std::uint32_t, 256>, 8> make_crc32c_tables() {
  std::array<std::array<std::uint32_t, 256>, 8> t{};
  for (std::uint32_t b = 0; b < 256; ++b) {
    std::uint32_t c = b;
    for (int i = 0; i < 8; ++i) c = (c >> 1) ^ ((c & 1u) ? crc32c_polynomial : 0u);
    t[0][b] = c;
  }
  for (std::size_t k = 1; k < 8; ++k)
    for (std::uint32_t b = 0; b < 256; ++b) t[k][b] = (t[k - 1][b] >> 8) ^ t[0][t[k - 1][b] & 0xFFu];
  return t;
}

inline constexpr auto crc32c_tables = make_crc32c_tables();

inline std::uint64_t load_le64(const unsigned char* p) noexcept {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

/// Table-driven update of a raw (not inverted) CRC register.
inline std::uint32_t crc32c_update_table(std::uint32_t crc, const unsigned char* p, std::size_t n) noexcept {
  const auto& t = crc32c_tables;
  while (n >= 8) {
    const std::uint64_t w = load_le64(p) ^ crc;
    crc = t[7][w & 0xFF] ^ t[6][(w >> 8) & 0xFF] ^ t[5][(w >> 16) & 0xFF] ^ t[4][(w >> 24) & 0xFF] ^
          t[3][(w >> 32) & 0xFF] ^ t[2][(w >> 40) & 0xFF] ^ t[1][(w >> 48) & 0xFF] ^ t[0][w >> 56];
    p += 8;
    n -= 8;
  }
  while (n--) crc = (crc >> 8) ^ t[0][(crc ^ *p++) & 0xFFu];
  return crc;
}

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define TYPEFLOW_CRC32C_HARDWARE 1

// The hardware path runs three independent streams over consecutive blocks (the crc32
// instruction's latency is three times its throughput) and combines them: a raw CRC register
// x carried over k zero bytes is linear in x, so with 4 tables of 256 entries (one per byte
// of x) shift(x) costs four lookups.
inline constexpr std::size_t crc32c_block = 8192;

struct crc32c_shift_tables {
  std::array<std::array<std::uint32_t, 256>, 4> t{};
  std::uint32_t operator()(std::uint32_t x) const noexcept {
    return t[0][x & 0xFF] ^ t[1][(x >> 8) & 0xFF] ^ t[2][(x >> 16) & 0xFF] ^ t[3][x >> 24];
  }
};

inline const crc32c_shift_tables& crc32c_block_shift() {
  static const crc32c_shift_tables tables = [] {
    crc32c_shift_tables s;
    static const unsigned char zeros[crc32c_block] = {};
    std::array<std::uint32_t, 32> basis{};
    for (int bit = 0; bit < 32; ++bit) basis[static_cast<std::size_t>(bit)] = crc32c_update_table(std::uint32_t{1} << bit, zeros, crc32c_block);
    for (std::size_t k = 0; k < 4; ++k)
      for (std::uint32_t b = 0; b < 256; ++b) {
        std::uint32_t v = 0;
        for (int i = 0; i < 8; ++i)
          if (b & (1u << i)) v ^= basis[8 * k + static_cast<std::size_t>(i)];
        s.t[k][b] = v;
      }
    return s;
  }();
  return tables;
}

__attribute__((target("sse4.2"))) inline std::uint32_t crc32c_update_sse42(std::uint32_t crc,
                                                                             const unsigned char* p,
                                                                             std::size_t n) noexcept {
  std::uint64_t c = crc;
  if (n >= 3 * crc32c_block) {
    const auto& shift = crc32c_block_shift();
    while (n >= 3 * crc32c_block) {
      std::uint64_t a = c, b = 0, d = 0;
      for (std::size_t i = 0; i < crc32c_block; i += 8) {
        std::uint64_t x, y, z;
        std::memcpy(&x, p + i, 8);
        std::memcpy(&y, p + crc32c_block + i, 8);
        std::memcpy(&z, p + 2 * crc32c_block + i, 8);
        a = __builtin_ia32_crc32di(a, x);
        b = __builtin_ia32_crc32di(b, y);
        d = __builtin_ia32_crc32di(d, z);
      }
      c = shift(shift(static_cast<std::uint32_t>(a)) ^ static_cast<std::uint32_t>(b)) ^ static_cast<std::uint32_t>(d);
      p += 3 * crc32c_block;
      n -= 3 * crc32c_block;
    }
  }
  while (n >= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    c = __builtin_ia32_crc32di(c, w);
    p += 8;
    n -= 8;
  }
  auto c32 = static_cast<std::uint32_t>(c);
  while (n--) c32 = __builtin_ia32_crc32qi(c32, *p++);
  return c32;
}
inline bool crc32c_has_sse42() noexcept {
  static const bool has = __builtin_cpu_supports("sse4.2");
  return has;
}
#else
#define TYPEFLOW_CRC32C_HARDWARE 0
#endif

}  // namespace detail

/// Continues a CRC32C: `crc32c_extend(crc32c(a), b)` is the CRC32C of a followed by b.
inline std::uint32_t crc32c_extend(std::uint32_t crc, const void* data, std::size_t n) noexcept {
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint32_t c = ~crc;
#if TYPEFLOW_CRC32C_HARDWARE
  if (detail::crc32c_has_sse42()) return ~detail::crc32c_update_sse42(c, p, n);
#endif
  return ~detail::crc32c_update_table(c, p, n);
}

/// The CRC32C of n bytes.
inline std::uint32_t crc32c(const void* data, std::size_t n) noexcept { return crc32c_extend(0, data, n); }
inline std::uint32_t crc32c(std::string_view s) noexcept { return crc32c(s.data(), s.size()); }

/// TensorFlow's masked CRC32C, as TFRecord files and LevelDB-style logs store checksums
/// (a CRC of bytes that contain CRCs is weak, so the stored value is rotated and offset):
/// ((crc >> 15) | (crc << 17)) + 0xa282ead8, tensorflow/core/lib/hash/crc32c.h.
constexpr std::uint32_t crc32c_mask(std::uint32_t crc) noexcept {
  return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}
/// The inverse of crc32c_mask.
constexpr std::uint32_t crc32c_unmask(std::uint32_t masked) noexcept {
  const std::uint32_t rot = masked - 0xa282ead8u;
  return (rot >> 17) | (rot << 15);
}

/// Whether crc32c() uses the CPU's crc32 instruction on this machine.
inline bool crc32c_uses_hardware() noexcept {
#if TYPEFLOW_CRC32C_HARDWARE
  return detail::crc32c_has_sse42();
#else
  return false;
#endif
}

/// The portable implementation alone (for tests and for comparison).
inline std::uint32_t crc32c_table_driven(const void* data, std::size_t n, std::uint32_t crc = 0) noexcept {
  return ~detail::crc32c_update_table(~crc, static_cast<const unsigned char*>(data), n);
}

#undef TYPEFLOW_CRC32C_HARDWARE

}  // namespace typeflow::io
