// The checkpoint file format: round trips in both archives, the manifest, versions,
// and files crafted to lie about their sizes.
#include <doctest/doctest.h>

#include <bit>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "format_testing.hpp"

namespace io = typeflow::io;
using ckpt_testing::load;
using ckpt_testing::small_checkpoint;

namespace {

template <class T>
std::vector<T> values_of(const io::loaded_checkpoint& c, std::size_t i) {
  std::vector<T> out(c.data[i].size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), c.data[i].data(), c.data[i].size());
  return out;
}

void put_u64(std::string& s, std::size_t at, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) s[at + static_cast<std::size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xFF);
}

void check_small(const io::loaded_checkpoint& c) {
  REQUIRE(c.header.tensors.size() == 5);
  CHECK(c.header.global_step == 42);
  CHECK(c.header.tensors[0] == io::tensor_info{"layer1/w", typeflow::dtype::float32, {2, 3}});
  CHECK(c.header.tensors[1] == io::tensor_info{"layer1/b", typeflow::dtype::float64, {2}});
  CHECK(c.header.tensors[2] == io::tensor_info{"global_step", typeflow::dtype::int32, {}});
  CHECK(c.header.tensors[3] == io::tensor_info{"big", typeflow::dtype::int64, {3}});
  CHECK(c.header.tensors[4] == io::tensor_info{"flags", typeflow::dtype::boolean, {2}});
  const auto w = values_of<float>(c, 0);
  CHECK(w == std::vector<float>{1.5f, -2.25f, 0.0f, std::numeric_limits<float>::infinity(), 3.0f, 1e-30f});
  CHECK(values_of<double>(c, 1) == std::vector<double>{0.125, -7.0});
  CHECK(values_of<std::int32_t>(c, 2) == std::vector<std::int32_t>{42});
  CHECK(values_of<std::int64_t>(c, 3) == std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::min(), 0,
                                                                    std::numeric_limits<std::int64_t>::max()});
  CHECK(c.data[4] == std::vector<unsigned char>{1, 0});
}

}  // namespace

TEST_CASE("format: a portable binary checkpoint round-trips every dtype and the manifest") {
  const auto bytes = small_checkpoint();
  CHECK(bytes[0] == 1);  // cereal's little-endian flag
  CHECK(bytes.substr(1, 8) == "TFLWCKPT");
  const auto c = load(bytes);
  CHECK(c.header.format == io::archive_format::portable_binary);
  CHECK(c.header.format_major == io::checkpoint_format_major);
  check_small(c);
}

TEST_CASE("format: a JSON checkpoint is readable text and round-trips the same") {
  const auto text = small_checkpoint(io::archive_format::json);
  CHECK(text.find("\"name\": \"layer1/w\"") != std::string::npos);
  CHECK(text.find("\"dtype\": \"float32\"") != std::string::npos);
  CHECK(text.find("1.5") != std::string::npos);
  const auto c = load(text);
  CHECK(c.header.format == io::archive_format::json);
  check_small(c);
}

TEST_CASE("format: NaN and Inf round-trip bit-exactly, NaN payloads and signs included") {
  const std::uint32_t fbits[] = {0x7fc00000u, 0xffc00000u, 0x7fc00001u, 0x7f800001u /* signalling */, 0x7f800000u,
                                 0xff800000u, 0x80000000u /* -0 */, 0x00000001u /* denormal */};
  const std::uint64_t dbits[] = {0x7ff8000000000000ull, 0xfff8000000000123ull, 0x7ff0000000000001ull,
                                 0xfff0000000000000ull, 0x8000000000000000ull};
  const std::uint64_t fshape[] = {8}, dshape[] = {5};
  const io::tensor_data_view tensors[] = {{"f", typeflow::dtype::float32, fshape, fbits},
                                          {"d", typeflow::dtype::float64, dshape, dbits}};
  for (auto format : {io::archive_format::portable_binary, io::archive_format::json}) {
    std::ostringstream out;
    io::write_checkpoint(out, format, {}, tensors);
    const auto c = load(out.str());
    CHECK_FALSE(c.header.global_step.has_value());
    REQUIRE(c.data[0].size() == sizeof fbits);
    REQUIRE(c.data[1].size() == sizeof dbits);
    CHECK(std::memcmp(c.data[0].data(), fbits, sizeof fbits) == 0);
    CHECK(std::memcmp(c.data[1].data(), dbits, sizeof dbits) == 0);
    if (format == io::archive_format::portable_binary) {
      // verified where they lie (a mapped restore): the same bits
      const auto in_place = ckpt_testing::load_in_place(out.str());
      CHECK(in_place == c.data);
    }
  }
}

TEST_CASE("format: a JSON checkpoint round-trips the extremes of double; numbers beyond them are DataLoss") {
  const double extremes[] = {std::numeric_limits<double>::denorm_min(), -std::numeric_limits<double>::denorm_min(),
                             std::numeric_limits<double>::min(), std::numeric_limits<double>::max(),
                             -std::numeric_limits<double>::max(), 4.9406564584124654e-320, 1.7976931348623155e308};
  const std::uint64_t shape[] = {7};
  const io::tensor_data_view tensors[] = {{"d", typeflow::dtype::float64, shape, extremes}};
  std::ostringstream out;
  io::write_checkpoint(out, io::archive_format::json, {}, tensors);
  const auto c = load(out.str());
  REQUIRE(c.data[0].size() == sizeof extremes);
  CHECK(std::memcmp(c.data[0].data(), extremes, sizeof extremes) == 0);

  // rapidjson 1.1.0 overflows a signed int on 1.0000000031710770e-340 (found by the fuzz
  // target) and asserts on some values past 1e308: the text is refused before it parses.
  const auto text = small_checkpoint(io::archive_format::json);
  for (const char* number : {"1.0000000031710770e-340", "1e-400", "1.5e311", "123e309"}) {
    auto edited = text;
    const auto at = edited.find("0.125");
    REQUIRE(at != std::string::npos);
    edited.replace(at, 5, number);
    CAPTURE(number);
    CHECK_THROWS_WITH_AS(load(edited), doctest::Contains("a JSON number out of the range of double"),
                         typeflow::data_loss_error);
  }
}

TEST_CASE("format: empty checkpoints, scalars, zero-sized and rank-32 tensors") {
  for (auto format : {io::archive_format::portable_binary, io::archive_format::json}) {
    std::ostringstream empty;
    io::write_checkpoint(empty, format, 0, {});
    CHECK(load(empty.str()).header.tensors.empty());

    std::vector<std::uint64_t> rank32(32, 1);
    const std::uint64_t zero_shape[] = {3, 0};
    const float one = 1.0f;
    const io::tensor_data_view tensors[] = {{"r32", typeflow::dtype::float32, rank32, &one},
                                            {"zero", typeflow::dtype::float32, zero_shape, nullptr}};
    std::ostringstream out;
    io::write_checkpoint(out, format, 7, tensors);
    const auto c = load(out.str());
    CHECK(c.header.tensors[0].shape.size() == 32);
    CHECK(values_of<float>(c, 0) == std::vector<float>{1.0f});
    CHECK(c.header.tensors[1].num_elements() == 0);
  }
}

TEST_CASE("format: writing refuses bad names, duplicates and too high ranks") {
  const float x = 0;
  std::ostringstream out;
  const io::tensor_data_view dup[] = {{"a", typeflow::dtype::float32, {}, &x}, {"a", typeflow::dtype::float32, {}, &x}};
  CHECK_THROWS_WITH_AS(io::write_checkpoint(out, io::archive_format::portable_binary, {}, dup),
                       "InvalidArgument: Cannot save two tensors named a in one checkpoint",
                       typeflow::invalid_argument_error);
  const io::tensor_data_view empty_name[] = {{"", typeflow::dtype::float32, {}, &x}};
  CHECK_THROWS_AS(io::write_checkpoint(out, io::archive_format::portable_binary, {}, empty_name),
                  typeflow::invalid_argument_error);
  const std::string long_name(io::max_name_length + 1, 'n');
  const io::tensor_data_view too_long[] = {{long_name, typeflow::dtype::float32, {}, &x}};
  CHECK_THROWS_AS(io::write_checkpoint(out, io::archive_format::portable_binary, {}, too_long),
                  typeflow::invalid_argument_error);
  const io::tensor_data_view control[] = {{"a\nb", typeflow::dtype::float32, {}, &x}};
  CHECK_THROWS_AS(io::write_checkpoint(out, io::archive_format::portable_binary, {}, control),
                  typeflow::invalid_argument_error);
  std::vector<std::uint64_t> rank33(33, 1);
  const io::tensor_data_view deep[] = {{"deep", typeflow::dtype::float32, rank33, &x}};
  CHECK_THROWS_AS(io::write_checkpoint(out, io::archive_format::portable_binary, {}, deep),
                  typeflow::invalid_argument_error);
}

TEST_CASE("format: a newer major format version is refused with a clear error; a newer minor is read") {
  auto bytes = small_checkpoint();
  // Rewrite the version (offset 9: major, 13: minor) and its preamble CRC (offset 17).
  auto with_version = [&](std::uint32_t major, std::uint32_t minor) {
    std::string b = bytes;
    for (int i = 0; i < 4; ++i) {
      b[9 + static_cast<std::size_t>(i)] = static_cast<char>((major >> (8 * i)) & 0xFF);
      b[13 + static_cast<std::size_t>(i)] = static_cast<char>((minor >> (8 * i)) & 0xFF);
    }
    const auto crc = io::detail::preamble_crc(major, minor);
    for (int i = 0; i < 4; ++i) b[17 + static_cast<std::size_t>(i)] = static_cast<char>((crc >> (8 * i)) & 0xFF);
    return b;
  };
  CHECK_THROWS_WITH_AS(load(with_version(2, 0)),
                       "InvalidArgument: Checkpoint mem has format version 2.0, newer than this typeflow reads (1.x): "
                       "upgrade typeflow to read it",
                       typeflow::invalid_argument_error);
  check_small(load(with_version(1, 7)));

  auto text = small_checkpoint(io::archive_format::json);
  const auto at = text.find("\"major\": 1");
  REQUIRE(at != std::string::npos);
  text[at + 9] = '3';
  CHECK_THROWS_WITH_AS(load(text), doctest::Contains("has format version 3.0, newer than this typeflow reads"),
                       typeflow::invalid_argument_error);
}

TEST_CASE("format: files that are not checkpoints are refused as DataLoss") {
  CHECK_THROWS_WITH_AS(load(""), "DataLoss: Checkpoint mem is corrupt: the file is empty", typeflow::data_loss_error);
  CHECK_THROWS_WITH_AS(load("hello, world"), doctest::Contains("not a typeflow checkpoint"), typeflow::data_loss_error);
  std::string bad_magic = small_checkpoint();
  bad_magic[3] = 'X';
  CHECK_THROWS_WITH_AS(load(bad_magic), doctest::Contains("bad magic"), typeflow::data_loss_error);
  CHECK_THROWS_AS(load("{\"magic\": \"something else\"}"), typeflow::data_loss_error);
  CHECK_THROWS_AS(load("{}"), typeflow::data_loss_error);
  CHECK_THROWS_AS(load("[1, 2]"), typeflow::data_loss_error);
  CHECK_THROWS_AS(load(" 17"), typeflow::data_loss_error);
  CHECK_THROWS_WITH_AS(load("{\"a\": " + std::string(100000, '[')), doctest::Contains("nested deeper"), typeflow::data_loss_error);
  std::string trailing = small_checkpoint() + "x";
  CHECK_THROWS_WITH_AS(load(trailing), doctest::Contains("the data section has"), typeflow::data_loss_error);
}

TEST_CASE("format: sizes that claim more than the file holds are refused before any allocation") {
  // Build a one-tensor checkpoint and rewrite its counts; the header CRC would catch these
  // too, so the checks run before it: each error names the size that does not fit.
  const float x[4] = {1, 2, 3, 4};
  const std::uint64_t shape[] = {4};
  const io::tensor_data_view t[] = {{"x", typeflow::dtype::float32, shape, x}};
  std::ostringstream out;
  io::write_checkpoint(out, io::archive_format::portable_binary, 1, t);
  const std::string good = out.str();
  // Layout: 1 flag, 8 magic, 4+4 version, 4 crc = 21; u8 has_step, i64 step = 30; u64 count at 30;
  // u64 name length at 38; name at 46; dtype at 47; rank at 48; dim at 56.
  for (std::uint64_t huge : {std::uint64_t{1} << 40, ~std::uint64_t{0}, std::uint64_t{1} << 62}) {
    std::string b = good;
    put_u64(b, 30, huge);  // tensor count
    CHECK_THROWS_WITH_AS(load(b), doctest::Contains("tensors cannot fit"), typeflow::data_loss_error);
    b = good;
    put_u64(b, 38, huge);  // name length
    CHECK_THROWS_WITH_AS(load(b), doctest::Contains("tensor name length"), typeflow::data_loss_error);
    b = good;
    put_u64(b, 48, huge);  // rank
    CHECK_THROWS_WITH_AS(load(b), doctest::Contains("has rank"), typeflow::data_loss_error);
    b = good;
    put_u64(b, 56, huge);  // dim: the product overflows or exceeds the file
    CHECK_THROWS_AS(load(b), typeflow::data_loss_error);
  }
  std::string b = good;
  put_u64(b, 56, (std::uint64_t{1} << 62) + 1);  // 4 * dim overflows 2^64
  CHECK_THROWS_WITH_AS(load(b), doctest::Contains("overflows"), typeflow::data_loss_error);
  b = good;
  b[47] = 99;  // dtype code
  CHECK_THROWS_WITH_AS(load(b), doctest::Contains("unknown dtype code 99"), typeflow::data_loss_error);
  b = good;
  put_u64(b, 38, io::max_name_length + 1);
  CHECK_THROWS_WITH_AS(load(b), doctest::Contains("tensor name length 1025"), typeflow::data_loss_error);
}

TEST_CASE("format: a bool tensor holding a byte other than 0 or 1 is DataLoss") {
  const unsigned char raw[2] = {1, 7};
  const std::uint64_t shape[] = {2};
  const io::tensor_data_view t[] = {{"flags", typeflow::dtype::boolean, shape, raw}};
  std::ostringstream out;
  io::write_checkpoint(out, io::archive_format::portable_binary, {}, t);
  CHECK_THROWS_WITH_AS(load(out.str()), doctest::Contains("holds a bool that is neither 0 nor 1"),
                       typeflow::data_loss_error);
}

TEST_CASE("format: list_tensors reads the manifest; a missing file is NotFound") {
  CHECK_THROWS_WITH_AS(io::list_tensors("/nonexistent/dir/model.ckpt-1"),
                       "NotFound: Checkpoint /nonexistent/dir/model.ckpt-1 not found", typeflow::not_found_error);
}
