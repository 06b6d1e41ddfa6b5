// Writes the fuzz corpus (tests/fuzz/corpus/): valid checkpoints of both archives and
// malformed ones (truncated, bit-flipped, lying sizes, newer version, deep JSON).
// Run by hand when the format changes: build target checkpoint_make_corpus, then
//   build/tests/io/checkpoint_make_corpus tests/fuzz/corpus
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <typeflow/io/checkpoint_format.hpp>

namespace io = typeflow::io;

namespace {

std::string checkpoint(io::archive_format format, bool with_nans) {
  static const float w[6] = {1.5f, -2.25f, 0.0f, std::numeric_limits<float>::infinity(), 3.0f, 1e-30f};
  static const std::uint32_t nan_bits[3] = {0x7fc00000u, 0xffc00001u, 0x7f800001u};
  static const double b[2] = {0.125, -7.0};
  static const std::int32_t step = 42;
  static const std::int64_t big[3] = {-1, 0, 1};
  static const bool flags[2] = {true, false};
  static const std::uint64_t w_shape[2] = {2, 3}, b_shape[1] = {2}, three[1] = {3}, two[1] = {2};
  std::vector<io::tensor_data_view> t = {
      {"layer1/w", typeflow::dtype::float32, w_shape, w},
      {"layer1/b", typeflow::dtype::float64, b_shape, b},
      {"global_step", typeflow::dtype::int32, {}, &step},
      {"big", typeflow::dtype::int64, three, big},
      {"flags", typeflow::dtype::boolean, two, flags},
  };
  if (with_nans) t.push_back({"nans", typeflow::dtype::float32, three, nan_bits});
  std::ostringstream out;
  io::write_checkpoint(out, format, 42, t);
  return out.str();
}

void put_u64(std::string& s, std::size_t at, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) s[at + static_cast<std::size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xFF);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: checkpoint_make_corpus <dir>\n";
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  auto write = [&](const std::string& name, const std::string& bytes) {
    std::ofstream(dir / name, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  };
  const auto bin = checkpoint(io::archive_format::portable_binary, false);
  const auto json = checkpoint(io::archive_format::json, false);
  write("valid_binary", bin);
  write("valid_json", json);
  write("valid_binary_nans", checkpoint(io::archive_format::portable_binary, true));
  write("valid_json_nans", checkpoint(io::archive_format::json, true));
  {
    std::ostringstream empty;
    io::write_checkpoint(empty, io::archive_format::portable_binary, {}, {});
    write("valid_binary_empty", empty.str());
  }
  write("truncated_header", bin.substr(0, 40));
  write("truncated_data", bin.substr(0, bin.size() - 7));
  write("truncated_json", json.substr(0, json.size() / 2));
  std::string flipped = bin;
  flipped[bin.size() - 20] ^= 0x04;
  write("bitflip_data", flipped);
  flipped = bin;
  flipped[50] ^= 0x01;
  write("bitflip_header", flipped);
  std::string huge = bin;
  put_u64(huge, 30, ~std::uint64_t{0});
  write("huge_tensor_count", huge);
  huge = bin;
  put_u64(huge, 38, std::uint64_t{1} << 40);
  write("huge_name_length", huge);
  huge = bin;
  put_u64(huge, 56, std::uint64_t{1} << 62);
  write("huge_dim", huge);
  std::string version = bin;
  version[9] = 2;
  write("newer_version_bad_crc", version);
  std::string zero_exp = json;
  zero_exp.replace(zero_exp.find("0.125"), 5, "0.0e-30");  // rapidjson 1.1.0's strtod: clz(0)
  write("json_zero_exponent", zero_exp);
  std::string tiny = json;
  tiny.replace(tiny.find("0.125"), 5, "1.0000000031710770e-340");  // rapidjson 1.1.0: signed overflow
  write("json_exponent_underflow", tiny);
  write("deep_json", "{\"magic\": " + std::string(64, '[') + "1" + std::string(64, ']') + "}");
  write("not_a_checkpoint", "hello, world");
  std::cout << "wrote the corpus to " << dir << "\n";
}
