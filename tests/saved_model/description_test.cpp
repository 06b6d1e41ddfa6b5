// saved_model.json is read from a file nobody vouches for: the JSON reader and the
// description reader refuse anything malformed with a DataLoss error naming the file and
// the place, and never crash (the whole file truncated at every byte, bytes flipped).
#include <doctest/doctest.h>

#include "serving_testing.hpp"

using namespace serving_testing;
namespace io = typeflow::io;

TEST_CASE("JSON text round-trips through the writer and the reader") {
  const io::json value = io::json::object{
      {"s", "tab\there \"quoted\" \\ \x01"}, {"n", std::int64_t{-9007199254740993}}, {"b", true},
      {"z", nullptr}, {"a", io::json::array{1, 2, io::json::array{}, io::json::object{}}}};
  const auto text = value.dump();
  const auto back = io::parse_json(text, "t.json");
  CHECK(back.dump() == text);
  CHECK(back.find("s")->as_string() == "tab\there \"quoted\" \\ \x01");
  CHECK(back.find("n")->as_int() == -9007199254740993);
  CHECK(io::parse_json(R"("\u00e9\u4e2d")", "t").as_string() == "\xc3\xa9\xe4\xb8\xad");
}

TEST_CASE("malformed JSON is refused with the file and the byte offset") {
  auto refused = [](const std::string& text, const std::string& why) {
    CAPTURE(text);
    CHECK_THROWS_WITH_AS(io::parse_json(text, "f.json"), doctest::Contains(why.c_str()), tf::data_loss_error);
  };
  refused("", "at byte 0: unexpected end");
  refused("{\"a\": 1,}", "expected a member name");
  refused("{\"a\": 1, \"a\": 2}", "a member name appears twice");
  refused("[1 2]", "expected ']'");
  refused("[1] x", "unexpected text after");
  refused("12345678901234567890", "more than 19 digits");
  refused("9223372036854775808", "out of range");
  refused("1.5", "not an integer");
  refused("01", "leading zero");
  refused("\"a\nb\"", "a control character");
  refused("\"\\x\"", "a bad escape");
  refused("\"\\ud800\"", "a surrogate");
  refused("\"abc", "unterminated string");
  refused(std::string(40, '[') + std::string(40, ']'), "nested deeper than 32 levels");
  refused(std::string(100000, '['), "nested deeper than 32 levels");  // no stack overflow
}

TEST_CASE("a description's fields are checked by kind, and names are never paths") {
  temp_dir tmp;
  tf::session sess(probs, classes);
  sess.initialize_all();
  const auto dir = sm::simple_save(sess, tmp.path / "export", sm::inputs<"features">(x), sm::outputs<"probs">(probs));
  const auto text = read_file(dir / "saved_model.json");
  auto refused = [&](const std::string& from, const std::string& to, const std::string& why) {
    auto edited = text;
    const auto at = edited.find(from);
    REQUIRE(at != std::string::npos);
    edited.replace(at, from.size(), to);
    CAPTURE(to);
    CHECK_THROWS_WITH_AS(sm::parse_description(edited, "m.json"), doctest::Contains(why.c_str()), tf::data_loss_error);
  };
  refused("\"format\": \"typeflow saved model\"", "\"format\": \"other\"", "m.json: format is not");
  refused("\"assets\": []", "\"assets\": [\"../../etc/passwd\"]", "meta_graphs[0].assets holds '../../etc/passwd', which is not a plain file name");
  refused("\"tags\": [\"serve\"]", "\"tags\": [\"se\\u0001rve\"]", "meta_graphs[0].tags[0]");
  refused("\"tags\": [\"serve\"]", "\"tags\": \"serve\"", "meta_graphs[0].tags is not an array");
  refused("\"dtype\": \"float32\"", "\"dtype\": \"float128\"", "names no dtype ('float128')");
  refused("\"shape\": [3, 2]", "\"shape\": [3, -2]", "variables.tensors[0].shape holds a dimension that is not a size");
  refused("\"file\": \"variables/variables\"", "\"file\": \"/etc/passwd\"", "variables.file is not");
  refused("\"graph_dot\"", "\"graph_dots\"", "meta_graphs[0].graph_dot is missing");
  // A newer major version is refused as a checkpoint's is (io/format_version.hpp), by name.
  CHECK_THROWS_WITH_AS(sm::parse_description(R"({"format": "typeflow saved model", "version": [7, 0]})", "m.json"),
                       "FailedPrecondition: SavedModel m.json has format version 7.0, newer than this typeflow reads "
                       "(1.x): upgrade typeflow to read it",
                       tf::failed_precondition_error);
}

TEST_CASE("saved_model.json truncated at every byte, or with a byte flipped, fails cleanly") {
  temp_dir tmp;
  tf::session sess(probs, classes);
  sess.initialize_all();
  const auto dir = sm::simple_save(sess, tmp.path / "export", sm::inputs<"features">(x), sm::outputs<"probs">(probs));
  const auto text = read_file(dir / "saved_model.json");
  REQUIRE(text.size() > 500);
  std::size_t refused = 0;
  for (std::size_t n = 0; n + 1 < text.size(); ++n) {  // the last byte is a newline
    try {
      (void)sm::parse_description(std::string_view(text).substr(0, n), "m.json");
    } catch (const tf::data_loss_error&) {
      ++refused;
    }
  }
  CHECK(refused == text.size() - 1);
  std::size_t accepted = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    auto flipped = text;
    flipped[i] = static_cast<char>(flipped[i] ^ 0x20);
    try {
      (void)sm::parse_description(flipped, "m.json");
      ++accepted;  // a letter's case in a name or fingerprint: still well formed
    } catch (const tf::error&) {
    }
  }
  CHECK(accepted < text.size());
  // And a load through a truncated description changes nothing.
  tf::session serve(probs, classes);
  serve.initialize_all();
  const auto before = serve.run(w);
  write_file(dir / "saved_model.json", text.substr(0, text.size() / 2));
  CHECK_THROWS_AS(sm::load(serve, {"serve"}, dir), tf::data_loss_error);
  CHECK(serve.run(w) == before);
}
