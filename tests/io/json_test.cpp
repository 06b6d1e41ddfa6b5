// The JSON checkpoint format on io/json.hpp: numbers written as rapidjson wrote them and read
// back bit-exactly, the reader's real-number syntax, and files written by cereal's JSON
// archive (the format's earlier writer, the committed fuzz corpus) loading and re-written
// byte for byte.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <typeflow/io/checkpoint_format.hpp>
#include <typeflow/io/json.hpp>

#include "../support/checkpoint_testing.hpp"
#include "format_testing.hpp"

namespace io = typeflow::io;
using ckpt_testing::load;
using ckpt_testing::small_checkpoint;

namespace {

std::string number_text(double v) {
  std::string s;
  typeflow::io::write_json_number(s, v);
  return s;
}

const typeflow::io::json_syntax real_syntax{.max_depth = 16, .numbers = typeflow::io::json_numbers::real};

}  // namespace

TEST_CASE("json: numbers are written in rapidjson's layout, the shortest digits that read back") {
  CHECK(number_text(1.0) == "1.0");
  CHECK(number_text(-7.0) == "-7.0");
  CHECK(number_text(0.0) == "0.0");
  CHECK(number_text(-0.0) == "-0.0");
  CHECK(number_text(1.5) == "1.5");
  CHECK(number_text(0.125) == "0.125");
  CHECK(number_text(0.001234) == "0.001234");
  CHECK(number_text(1e-7) == "1e-7");
  CHECK(number_text(1.234e-7) == "1.234e-7");
  CHECK(number_text(12340000000.0) == "12340000000.0");
  CHECK(number_text(1e20) == "100000000000000000000.0");
  CHECK(number_text(1e21) == "1e21");
  CHECK(number_text(1.5e300) == "1.5e300");
  CHECK(number_text(static_cast<double>(0.1f)) == "0.10000000149011612");
  CHECK(number_text(static_cast<double>(1e-30f)) == "1.0000000031710769e-30");
  CHECK(number_text(std::numeric_limits<double>::denorm_min()) == "5e-324");
  CHECK(number_text(std::numeric_limits<double>::max()) == "1.7976931348623157e308");
  CHECK(number_text(std::numeric_limits<double>::quiet_NaN()) == "NaN");
  CHECK(number_text(std::numeric_limits<double>::infinity()) == "Infinity");
  CHECK(number_text(-std::numeric_limits<double>::infinity()) == "-Infinity");
}

TEST_CASE("json: every double read back from its text is the same bits") {
  std::mt19937_64 rng(20261130);
  for (int i = 0; i < 20000; ++i) {
    const double v = std::bit_cast<double>(rng());
    if (v != v) continue;
    const auto text = number_text(v);
    CAPTURE(text);
    const auto back = typeflow::io::parse_json(text, "t", real_syntax);
    REQUIRE(back.is_real());
    CHECK(std::bit_cast<std::uint64_t>(back.as_double()) == std::bit_cast<std::uint64_t>(v));
  }
}

TEST_CASE("json: the real-number syntax reads integers to 2^64 - 1, fractions, NaN and Infinity") {
  const auto a = io::parse_json("[18446744073709551615, -9223372036854775808, 9223372036854775807, -0, 1.5e3, "
                                "NaN, Infinity, -Infinity, Inf, -Inf, 18446744073709551616, -9223372036854775809]",
                                "t", real_syntax)
                     .as_array();
  REQUIRE(a.size() == 12);
  CHECK((a[0].is_uint() && a[0].as_uint() == std::numeric_limits<std::uint64_t>::max()));
  CHECK_FALSE(a[0].is_int());
  CHECK((a[1].is_int() && a[1].as_int() == std::numeric_limits<std::int64_t>::min()));
  CHECK((a[2].is_int() && a[2].as_int() == std::numeric_limits<std::int64_t>::max()));
  CHECK((a[3].is_int() && a[3].as_int() == 0));
  CHECK((a[4].is_real() && a[4].as_double() == 1500.0));
  CHECK(std::isnan(a[5].as_double()));
  CHECK(a[6].as_double() == std::numeric_limits<double>::infinity());
  CHECK(a[7].as_double() == -std::numeric_limits<double>::infinity());
  CHECK(a[8].as_double() == std::numeric_limits<double>::infinity());
  CHECK(a[9].as_double() == -std::numeric_limits<double>::infinity());
  CHECK((a[10].is_real() && a[10].as_double() == 18446744073709551616.0));  // beyond uint64: a double
  CHECK((a[11].is_real() && a[11].as_double() == -9223372036854775809.0));

  auto refused = [](const std::string& text, const std::string& why) {
    CAPTURE(text);
    CHECK_THROWS_WITH_AS(io::parse_json(text, "f.json", real_syntax), doctest::Contains(why.c_str()),
                         typeflow::data_loss_error);
  };
  refused("1e400", "a number out of the range of double");
  refused("-1e400", "a number out of the range of double");
  refused("1e-400", "a number out of the range of double");
  refused("1.", "expected digits after '.'");
  refused("1e", "expected digits in an exponent");
  refused("-", "expected digits");
  refused("01", "a number with a leading zero");
  refused("NaNa", "unexpected text after");
  refused("Infinit", "unexpected text after");
  refused("[1, 2", "expected ']'");
  refused(std::string(18, '[') + std::string(18, ']'), "nested deeper than 16 levels");
  // The default syntax is unchanged: integers only.
  CHECK_THROWS_WITH_AS(io::parse_json("1.5", "f.json"), doctest::Contains("not an integer"), typeflow::data_loss_error);
  CHECK_THROWS_AS(io::parse_json("NaN", "f.json"), typeflow::data_loss_error);
}

TEST_CASE("json: checkpoints written by cereal's JSON archive load, and are written again byte for byte") {
  for (const char* name : {"valid_json", "valid_json_nans"}) {
    CAPTURE(name);
    const auto text = ckpt_testing::read_file(std::string(TYPEFLOW_FUZZ_CORPUS) + "/" + name);
    const auto c = load(text);
    CHECK(c.header.format == io::archive_format::json);
    CHECK(c.header.global_step == 42);
    REQUIRE(c.header.tensors.size() == (std::string(name) == "valid_json" ? 5u : 6u));
    CHECK(c.header.tensors[0].name == "layer1/w");
    const float w[6] = {1.5f, -2.25f, 0.0f, std::numeric_limits<float>::infinity(), 3.0f, 1e-30f};
    REQUIRE(c.data[0].size() == sizeof w);
    CHECK(std::memcmp(c.data[0].data(), w, sizeof w) == 0);
    const std::int64_t big[3] = {-1, 0, 1};
    REQUIRE(c.data[3].size() == sizeof big);
    CHECK(std::memcmp(c.data[3].data(), big, sizeof big) == 0);
    std::vector<io::tensor_data_view> views;
    for (std::size_t i = 0; i < c.header.tensors.size(); ++i) {
      const auto& t = c.header.tensors[i];
      views.push_back({t.name, t.dtype, t.shape, c.data[i].data()});
    }
    std::ostringstream out;
    io::write_checkpoint(out, io::archive_format::json, c.header.global_step, views);
    CHECK(out.str() == text);
  }
}

TEST_CASE("json: a checkpoint's fields of the wrong kind are DataLoss naming the field") {
  const auto text = small_checkpoint(io::archive_format::json);
  auto refused = [&](const std::string& from, const std::string& to, const std::string& why) {
    auto edited = text;
    const auto at = edited.find(from);
    REQUIRE(at != std::string::npos);
    edited.replace(at, from.size(), to);
    CAPTURE(to);
    CHECK_THROWS_WITH_AS(load(edited), doctest::Contains(why.c_str()), typeflow::data_loss_error);
  };
  refused("\"has_global_step\": true", "\"has_global_step\": 1", "has_global_step is not true or false");
  refused("\"global_step\": 42", "\"global_step\": 4.2", "global_step is not an integer");
  refused("\"name\": \"layer1/w\"", "\"name\": 7", "tensors[0].name is not a string");
  refused("\"shape\": [", "\"shape\": [-1, ", "tensors[0].shape is not an unsigned integer");
  refused("\"minor\": 0", "\"minor\": 4294967296", "format_version.minor is not an unsigned integer");
  refused("\"values\": [\n                1.5", "\"values\": [\n                \"1.5\"",
          "a value of tensor layer1/w is not a number");
  refused("\"nan_bits\": []", "\"nan_bits\": [[0]]", "tensor layer1/w: bad nan_bits");
  refused("\"crc32c\"", "\"crc\"", "tensors[0] has no member \"crc32c\"");
  refused("\"magic\": \"typeflow checkpoint\"", "\"magic\": \"typeflow\"", "bad magic");
  refused("\"tensors\": [", "\"tensors\": [,", "is corrupt: bad header (Malformed JSON in the file at byte");
}
