// CRC32C: the RFC 3720 (iSCSI) test vectors, both implementations, and extension.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <typeflow/io/crc32c.hpp>

namespace io = typeflow::io;

namespace {
template <class F>
void check_vectors(F crc) {
  std::array<unsigned char, 32> bytes{};
  CHECK(crc(bytes.data(), 0) == 0u);
  CHECK(crc("123456789", 9) == 0xE3069283u);
  CHECK(crc("a", 1) == 0xC1D04330u);
  bytes.fill(0);
  CHECK(crc(bytes.data(), 32) == 0x8A9136AAu);  // RFC 3720 B.4: 32 bytes of zeros
  bytes.fill(0xFF);
  CHECK(crc(bytes.data(), 32) == 0x62A8AB43u);  // 32 bytes of ones
  for (int i = 0; i < 32; ++i) bytes[static_cast<std::size_t>(i)] = static_cast<unsigned char>(i);
  CHECK(crc(bytes.data(), 32) == 0x46DD794Eu);  // incrementing
  for (int i = 0; i < 32; ++i) bytes[static_cast<std::size_t>(i)] = static_cast<unsigned char>(31 - i);
  CHECK(crc(bytes.data(), 32) == 0x113FDB5Cu);  // decrementing
  const std::array<unsigned char, 48> iscsi_read{
      0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18,
      0x28, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
  CHECK(crc(iscsi_read.data(), iscsi_read.size()) == 0xD9963A56u);  // an iSCSI read command PDU
}
}  // namespace

TEST_CASE("crc32c: the table-driven implementation gives the RFC 3720 values") {
  check_vectors([](const void* p, std::size_t n) { return io::crc32c_table_driven(p, n); });
}

TEST_CASE("crc32c: the default implementation (hardware when available) gives the RFC 3720 values") {
  MESSAGE("crc32c uses the CPU's crc32 instruction: " << io::crc32c_uses_hardware());
  check_vectors([](const void* p, std::size_t n) { return io::crc32c(p, n); });
}

TEST_CASE("crc32c: both implementations agree on random data of every length and alignment") {
  std::mt19937 rng(42);
  std::vector<unsigned char> data(3 * 3 * 8192 + 4096 + 16);
  for (auto& b : data) b = static_cast<unsigned char>(rng());
  for (std::size_t offset = 0; offset < 8; ++offset)
    for (std::size_t n : {0u, 1u, 7u, 8u, 9u, 15u, 16u, 63u, 64u, 1000u, 4096u, 24575u, 24576u, 24577u, 49152u,
                          3u * 3u * 8192u + 4095u})
      CHECK(io::crc32c(data.data() + offset, n) == io::crc32c_table_driven(data.data() + offset, n));
}

TEST_CASE("crc32c: extending by pieces equals the CRC of the whole") {
  const std::string s = "The quick brown fox jumps over the lazy dog";
  for (std::size_t cut = 0; cut <= s.size(); ++cut) {
    const auto first = io::crc32c(s.data(), cut);
    CHECK(io::crc32c_extend(first, s.data() + cut, s.size() - cut) == io::crc32c(s));
    CHECK(io::crc32c_table_driven(s.data() + cut, s.size() - cut, io::crc32c_table_driven(s.data(), cut)) ==
          io::crc32c(s));
  }
  CHECK(io::crc32c(s) == 0x22620404u);
}
