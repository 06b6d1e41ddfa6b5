// The binary readers (IDX, .npy, .npz, TFRecord) on reference files written by NumPy,
// Python's gzip and zipfile and a CRC32C written out in Python (files/make_files.py), on
// Fashion-MNIST, and on damaged copies: every kind of damage is a typed error naming the
// source and the byte offset, never a crash or an allocation the file's size does not bound.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <span>
#include <string>
#include <vector>

#include <xtensor/xarray.hpp>

#include <typeflow/data/readers/idx.hpp>
#include <typeflow/data/readers/npy.hpp>
#include <typeflow/data/readers/npz.hpp>
#include <typeflow/data/readers/tfrecord.hpp>
#include <typeflow/data/readers/tfrecord_gzip.hpp>

#include "../support/allocation_counter.hpp"

namespace tf = typeflow;
namespace data = typeflow::data;

namespace {

const std::string dir = TYPEFLOW_DATA_FILES;

std::vector<std::byte> bytes_of(const std::string& name) {
  std::ifstream f(dir + "/" + name, std::ios::binary);
  REQUIRE(f);
  std::vector<char> c((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::vector<std::byte> b(c.size());
  std::memcpy(b.data(), c.data(), c.size());
  return b;
}

// The message of the error `f` throws as E; fails the test when it throws nothing or another.
template <class E, class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  } catch (const std::exception& e) {
    FAIL("another exception: " << e.what());
  }
  FAIL("no exception");
  return {};
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("IDX: every element type, raw and gzip, converted to the requested type") {
  const xt::xarray<float> u = data::read_idx<float>(dir + "/ubyte.idx");
  CHECK(u == xt::xarray<float>{{0, 1, 2}, {253, 254, 255}});  // unscaled
  CHECK(data::read_idx<std::int32_t>(dir + "/ubyte.idx.gz") == xt::xarray<std::int32_t>{{0, 1, 2}, {253, 254, 255}});
  CHECK(data::read_idx<std::int16_t>(dir + "/short.idx") == xt::xarray<std::int16_t>{-32768, -1, 0, 32767});
  CHECK(data::read_idx<std::int64_t>(dir + "/int.idx") == xt::xarray<std::int64_t>{-2147483648LL, 2147483647});
  CHECK(data::read_idx<float>(dir + "/float.idx.gz") == xt::xarray<float>{{{0.5f, -1.5f}, {2.0f, 1e30f}}});
  CHECK(data::read_idx<double>(dir + "/double.idx") == xt::xarray<double>{0.1, -0.2, 1e-300});
  CHECK(data::read_idx<std::int8_t>(dir + "/byte.idx") == xt::xarray<std::int8_t>{-128, 0, 127});

  const tf::tensor t = data::read_idx(dir + "/ubyte.idx.gz");
  CHECK(t.description() == "int32 [2, 3]");
  CHECK(data::read_idx(dir + "/float.idx.gz").description() == "float32 [1, 2, 2]");
  CHECK(data::read_idx(dir + "/double.idx").as<double>()(2) == 1e-300);

  // From memory, as the fuzz target reads.
  const auto b = bytes_of("ubyte.idx.gz");
  CHECK(data::read_idx<double>(std::span<const std::byte>(b))(1, 2) == 255.0);
}

TEST_CASE("IDX: values that do not fit the requested type are refused") {
  CHECK(contains(error_of<tf::invalid_argument_error>([] { data::read_idx<std::int8_t>(dir + "/ubyte.idx"); }),
                 "element 3 (253) does not fit"));
  CHECK(contains(error_of<tf::invalid_argument_error>([] { data::read_idx<std::int32_t>(dir + "/double.idx"); }),
                 "float64 values, which are not read as an integer"));
}

TEST_CASE("IDX: Fashion-MNIST's files, gzip, as Debian installs them") {
  const std::string fm = "/usr/share/datasets/fashion-mnist";
  if (!std::filesystem::exists(fm + "/t10k-labels-idx1-ubyte.gz")) {
    MESSAGE("Fashion-MNIST is not installed (dataset-fashion-mnist): skipped");
    return;
  }
  const xt::xarray<std::int32_t> labels = data::read_idx<std::int32_t>(fm + "/t10k-labels-idx1-ubyte.gz");
  CHECK(labels.shape() == std::vector<std::size_t>{10000});
  CHECK(labels(0) == 9);  // the first test image is an ankle boot
  CHECK(xt::amin(labels)() == 0);
  CHECK(xt::amax(labels)() == 9);
  const tf::tensor images = data::read_idx(fm + "/t10k-images-idx3-ubyte.gz");
  CHECK(images.description() == "int32 [10000, 28, 28]");
  CHECK(xt::amax(images.as<std::int32_t>())() == 255);
}

TEST_CASE("IDX: damaged files are DataLoss or InvalidArgument naming the file and the offset") {
  const auto good = bytes_of("ubyte.idx");
  auto read = [](std::vector<std::byte> b) { return data::read_idx<float>(std::span<const std::byte>(b), "damaged.idx"); };

  auto cut = good;
  cut.resize(good.size() - 1);
  CHECK(contains(error_of<tf::data_loss_error>([&] { read(cut); }),
                 "damaged.idx: truncated: the dimensions give 6 elements of 1 bytes, 5 bytes remain (at byte offset 12)"));
  for (std::size_t n = 0; n < good.size(); ++n) {  // every prefix
    auto prefix = good;
    prefix.resize(n);
    CHECK_THROWS_AS(read(prefix), tf::error);
  }
  auto extra = good;
  extra.push_back(std::byte{0});
  CHECK(contains(error_of<tf::data_loss_error>([&] { read(extra); }), "1 bytes after the last element (at byte offset 18)"));
  auto magic = good;
  magic[0] = std::byte{1};
  CHECK(contains(error_of<tf::invalid_argument_error>([&] { read(magic); }), "not an IDX file"));
  auto type = good;
  type[2] = std::byte{0x0A};
  CHECK(contains(error_of<tf::invalid_argument_error>([&] { read(type); }), "unknown element type code 10 (IDX has 0x08, 0x09, 0x0B, 0x0C, 0x0D, 0x0E) (at byte offset 2)"));
  // Dimensions whose product is huge, in a file of 18 bytes: refused before any allocation.
  auto huge = good;
  for (int i = 4; i < 12; ++i) huge[static_cast<std::size_t>(i)] = std::byte{0xFF};
  CHECK(contains(error_of<tf::error>([&] { read(huge); }), "damaged.idx"));
  // A zero dimension beside huge ones: no element, but no array of that shape can exist (its
  // strides overflow); found by readers_fuzz.
  const unsigned char zero_dim[] = {0, 0, 0x08, 3, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  CHECK(contains(error_of<tf::invalid_argument_error>([&] {
                   data::read_idx(std::as_bytes(std::span(zero_dim)), "zero.idx");
                 }),
                 "zero.idx: the dimensions' product is too large for an array (at byte offset 4)"));
  const unsigned char empty[] = {0, 0, 0x08, 2, 0, 0, 0, 0, 0, 0, 0, 7};
  CHECK(data::read_idx(std::as_bytes(std::span(empty)), "empty.idx").description() == "int32 [0, 7]");

  // gzip: a truncated stream, and a corrupt one.
  const auto gz = bytes_of("ubyte.idx.gz");
  auto gz_cut = gz;
  gz_cut.resize(gz.size() - 12);
  CHECK(contains(error_of<tf::data_loss_error>([&] { read(gz_cut); }), "truncated compressed data"));
  auto gz_bad = gz;
  gz_bad[gz.size() - 3] ^= std::byte{0x55};  // the length in the gzip trailer
  CHECK(contains(error_of<tf::data_loss_error>([&] { read(gz_bad); }), "corrupt compressed data"));

  // A path that is not there, a directory.
  CHECK_THROWS_AS(data::read_idx<float>(dir + "/missing.idx"), tf::not_found_error);
  CHECK_THROWS_AS(data::read_idx<float>(dir), tf::failed_precondition_error);
}

TEST_CASE(".npy: NumPy's files of every dtype, byte order, order and version") {
  CHECK(data::load_npy<float>(dir + "/f4.npy") == xt::xarray<float>{{1.5f, -2.0f, 3.25f}, {4.0f, 5.5f, -6.75f}});
  CHECK(data::load_npy<double>(dir + "/f8_be.npy") == xt::xarray<double>{0.1, -1e300, 2.5});
  CHECK(data::load_npy<std::int32_t>(dir + "/i4.npy") == xt::xarray<std::int32_t>{{-3, -2, -1}, {0, 1, 2}});
  CHECK(data::load_npy<std::int64_t>(dir + "/i8_be.npy") == xt::xarray<std::int64_t>{1099511627776LL, -5, 7});
  CHECK(data::load_npy<bool>(dir + "/b1.npy") == xt::xarray<bool>{true, false, true, true});
  CHECK(data::load_npy<std::uint8_t>(dir + "/u1.npy") == xt::xarray<std::uint8_t>{0, 1, 254, 255});
  CHECK(data::load_npy<double>(dir + "/fortran.npy") == xt::xarray<double>{{0, 1, 2}, {3, 4, 5}});
  CHECK(data::load_npy<std::int64_t>(dir + "/v2.npy") == xt::xarray<std::int64_t>{0, 1, 2, 3});
  CHECK(data::load_npy<std::int64_t>(dir + "/v3.npy") == xt::xarray<std::int64_t>{0, 1, 2, 3});
  CHECK(data::load_npy(dir + "/scalar.npy").description() == "float64 []");
  CHECK(data::load_npy(dir + "/scalar.npy").as<double>()() == 42.0);
  CHECK(data::load_npy(dir + "/empty.npy").description() == "float32 [0, 3]");
  CHECK(data::load_npy(dir + "/u1.npy").description() == "int32 [4]");
  CHECK(data::load_npy(dir + "/i8_be.npy").description() == "int64 [3]");
  CHECK(data::load_npy(dir + "/b1.npy").description() == "bool [4]");
  CHECK(data::load_npy(dir + "/fortran.npy").as<double>() == xt::xarray<double>{{0, 1, 2}, {3, 4, 5}});
}

TEST_CASE("save_npy writes the bytes numpy.save writes") {
  for (const char* name : {"f4.npy", "i4.npy", "b1.npy", "u1.npy", "scalar.npy", "empty.npy"}) {
    CAPTURE(name);
    const auto want = bytes_of(name);
    const tf::tensor t = data::load_npy(std::span<const std::byte>(want));
    std::vector<unsigned char> got;
    if (std::string(name) == "u1.npy") got = data::encode_npy(data::load_npy<std::uint8_t>(dir + "/u1.npy"));
    else std::visit([&](const auto& a) { got = data::encode_npy(a); }, t.variant());
    REQUIRE(got.size() == want.size());
    CHECK(std::memcmp(got.data(), want.data(), got.size()) == 0);
  }
  const auto path = std::filesystem::temp_directory_path() / "typeflow_data_save.npy";
  const xt::xarray<double> a = {{1.0, 2.0}, {3.0, 4.0}};
  data::save_npy(path, a);
  CHECK(data::load_npy<double>(path) == a);
  std::filesystem::remove(path);
}

TEST_CASE(".npy: damaged files are typed errors naming the offset") {
  const auto good = bytes_of("f4.npy");
  auto read = [](std::vector<std::byte> b) { return data::load_npy(std::span<const std::byte>(b), "damaged.npy"); };
  for (std::size_t n = 0; n < good.size(); ++n) {
    auto prefix = good;
    prefix.resize(n);
    CHECK_THROWS_AS(read(prefix), tf::error);
  }
  auto cut = good;
  cut.resize(good.size() - 4);
  CHECK(contains(error_of<tf::data_loss_error>([&] { read(cut); }),
                 "damaged.npy: truncated: the shape gives 6 elements of 4 bytes, 20 bytes remain (at byte offset 128)"));
  auto magic = good;
  magic[1] = std::byte{'X'};
  CHECK(contains(error_of<tf::invalid_argument_error>([&] { read(magic); }), "not a .npy file"));
  auto version = good;
  version[6] = std::byte{9};
  CHECK(contains(error_of<tf::invalid_argument_error>([&] { read(version); }), "unsupported .npy version 9.0"));
  auto dtype = good;
  dtype[22] = std::byte{'c'};  // '<f4' -> '<c4'
  CHECK(contains(error_of<tf::invalid_argument_error>([&] { read(dtype); }), "unsupported dtype '<c4'"));
  auto header = good;
  header[8] = std::byte{0xFF};  // a header length beyond the file
  CHECK(contains(error_of<tf::data_loss_error>([&] { read(header); }), "the .npy header needs 255 bytes"));
  // A shape of 2^62 x 2^62 elements: its count overflows, refused before any allocation.
  std::string big = "{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 4611686018427387904), }";
  std::vector<std::byte> huge(10 + big.size());
  const unsigned char pre[8] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  std::memcpy(huge.data(), pre, 8);
  huge[8] = std::byte(big.size() & 0xFF);
  huge[9] = std::byte(big.size() >> 8);
  std::memcpy(huge.data() + 10, big.data(), big.size());
  const long before = typeflow_test::allocation_count();
  CHECK(contains(error_of<tf::invalid_argument_error>([&] { read(huge); }), "the shape's product is too large"));
  CHECK(typeflow_test::allocation_count() - before < 20);  // the message, the shape: no data buffer
}

TEST_CASE(".npz: stored and deflated archives, by member name") {
  const auto s = data::load_npz(dir + "/stored.npz");
  REQUIRE(s.size() == 2);
  CHECK(s.at("x").as<float>() == xt::xarray<float>{0, 1, 2, 3, 4});
  CHECK(s.at("y").as<std::int64_t>() == xt::xarray<std::int64_t>{{1, 2}, {3, 4}});
  const auto d = data::load_npz(dir + "/deflated.npz");
  REQUIRE(d.size() == 2);
  CHECK(d.at("x").as<double>() == xt::arange<double>(100));
  CHECK(d.at("flags").as<bool>() == xt::xarray<bool>{true, false});
}

TEST_CASE(".npz: damaged archives fail their checks") {
  auto read = [](std::vector<std::byte> b) { return data::load_npz(std::span<const std::byte>(b), "damaged.npz"); };
  for (const char* name : {"stored.npz", "deflated.npz"}) {
    CAPTURE(name);
    const auto good = bytes_of(name);
    for (std::size_t n = 0; n < good.size(); n += 7) {  // prefixes
      auto prefix = good;
      prefix.resize(n);
      CHECK_THROWS_AS(read(prefix), tf::error);
    }
    for (std::size_t at = 0; at < good.size(); ++at) {  // every single flipped byte: an error or the same data
      auto flipped = good;
      flipped[at] ^= std::byte{0x20};
      try {
        read(flipped);
      } catch (const tf::error&) {
      }
    }
  }
  // A flipped byte inside a stored member's data: the CRC-32 catches it.
  auto stored = bytes_of("stored.npz");
  const std::string npy_magic = "NUMPY";
  auto it = std::search(stored.begin(), stored.end(), npy_magic.begin(), npy_magic.end(),
                        [](std::byte a, char b) { return a == std::byte(b); });
  REQUIRE(it != stored.end());
  it[130] ^= std::byte{1};  // a value of x
  CHECK(contains(error_of<tf::data_loss_error>([&] { read(stored); }), "damaged.npz member x.npy: CRC-32 mismatch"));
  CHECK(contains(error_of<tf::invalid_argument_error>([&] { read(bytes_of("f4.npy")); }), "no end of central directory"));
}

TEST_CASE("TFRecord: records written by TensorFlow's framing, read and written") {
  const std::vector<std::string> want = {"hello", "", [] {
                                           std::string s;
                                           for (int i = 0; i < 40; ++i) s += "typeflow";
                                           return s;
                                         }(),
                                         [] {
                                           std::string s;
                                           for (int i = 0; i < 256; ++i) s += static_cast<char>(i);
                                           return s;
                                         }()};
  data::tfrecord_reader r(dir + "/records.tfrecord");
  std::vector<std::string> got;
  while (auto rec = r.next()) got.emplace_back(reinterpret_cast<const char*>(rec->data()), rec->size());
  CHECK(got == want);
  CHECK(r.offset() == 645);

  const auto path = std::filesystem::temp_directory_path() / "typeflow_data_records.tfrecord";
  {
    data::tfrecord_writer w(path);
    for (const auto& s : want) w.write(s);
    w.close();
  }
  std::ifstream f(path, std::ios::binary);
  const std::string written((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  const auto ref = bytes_of("records.tfrecord");
  CHECK(written == std::string(reinterpret_cast<const char*>(ref.data()), ref.size()));
  std::filesystem::remove(path);
}

TEST_CASE("TFRecord: a file's records reuse one buffer: no allocation per record once grown") {
  const auto path = std::filesystem::temp_directory_path() / "typeflow_data_many.tfrecord";
  {
    data::tfrecord_writer w(path);
    const std::string rec(1000, 'x');
    for (int i = 0; i < 2000; ++i) w.write(rec);  // 2 MB: the buffer is refilled many times
    w.close();
  }
  data::tfrecord_reader r(path);
  REQUIRE(r.next());
  const long before = typeflow_test::allocation_count();
  std::size_t n = 1, bytes = 0;
  while (auto rec = r.next()) {
    ++n;
    bytes += rec->size();
  }
  CHECK(typeflow_test::allocation_count() == before);
  CHECK(n == 2000);
  CHECK(bytes == 1999 * 1000);
  std::filesystem::remove(path);
}

TEST_CASE("TFRecord: truncation and corruption are DataLoss naming the record's offset") {
  const auto good = bytes_of("records.tfrecord");
  auto read_all = [](const std::vector<std::byte>& b) {
    data::tfrecord_reader r(std::span<const std::byte>(b), "damaged.tfrecord");
    std::size_t n = 0;
    while (r.next()) ++n;
    return n;
  };
  const std::size_t ends[] = {0, 21, 37, 373, 645};  // record boundaries
  for (std::size_t n = 0; n <= good.size(); ++n) {  // every prefix: whole records, or DataLoss
    auto prefix = std::vector<std::byte>(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n));
    const bool boundary = std::find(std::begin(ends), std::end(ends), n) != std::end(ends);
    CAPTURE(n);
    if (boundary) CHECK_NOTHROW(read_all(prefix));
    else CHECK(contains(error_of<tf::data_loss_error>([&] { read_all(prefix); }), "truncated record"));
  }
  auto length = good;
  length[21] ^= std::byte{1};  // the second record's length
  CHECK(contains(error_of<tf::data_loss_error>([&] { read_all(length); }),
                 "damaged.tfrecord: corrupted record: the length's checksum does not match (at byte offset 21)"));
  auto payload = good;
  payload[12] ^= std::byte{1};  // in "hello"
  CHECK(contains(error_of<tf::data_loss_error>([&] { read_all(payload); }),
                 "corrupted record: the data's checksum does not match (at byte offset 0)"));
  auto crc = good;
  crc[644] ^= std::byte{1};  // the last record's data checksum
  CHECK(contains(error_of<tf::data_loss_error>([&] { read_all(crc); }), "(at byte offset 373)"));
  // A length of 2^60 with a valid checksum: refused against the file's size, nothing allocated.
  std::vector<std::byte> huge(16);
  unsigned char h[12] = {0, 0, 0, 0, 0, 0, 0, 0x10};
  typeflow::data::detail::store_le(h + 8, tf::io::crc32c_mask(tf::io::crc32c(h, 8)), 4);
  std::memcpy(huge.data(), h, 12);
  CHECK(contains(error_of<tf::data_loss_error>([&] { read_all(huge); }), "a length of 1152921504606846976 bytes"));
  CHECK(tf::io::crc32c_unmask(tf::io::crc32c_mask(0x12345678u)) == 0x12345678u);
}

TEST_CASE("TFRecord GZIP: Python's gzip file read, and written and read back") {
  std::vector<std::string> want;
  {
    data::tfrecord_reader plain(dir + "/records.tfrecord");
    while (auto rec = plain.next()) want.emplace_back(reinterpret_cast<const char*>(rec->data()), rec->size());
  }
  auto read_all = [](data::gzip_tfrecord_reader& r) {
    std::vector<std::string> got;
    while (auto rec = r.next()) got.emplace_back(reinterpret_cast<const char*>(rec->data()), rec->size());
    return got;
  };
  data::gzip_tfrecord_reader r(dir + "/records.tfrecord.gz");
  CHECK(read_all(r) == want);
  const auto path = std::filesystem::temp_directory_path() / "typeflow_data_records.tfrecord.gz";
  {
    data::gzip_tfrecord_writer w(path);
    for (const auto& s : want) w.write(s);
    w.close();
  }
  data::gzip_tfrecord_reader back(path);
  CHECK(read_all(back) == want);
  std::filesystem::remove(path);

  auto gz = bytes_of("records.tfrecord.gz");
  gz.resize(gz.size() - 10);
  CHECK(contains(error_of<tf::data_loss_error>([&] { data::gzip_tfrecord_reader t(std::span<const std::byte>(gz), "cut.gz"); }),
                 "cut.gz: truncated compressed data"));
  const auto plain = bytes_of("records.tfrecord");
  CHECK(contains(error_of<tf::invalid_argument_error>([&] { data::gzip_tfrecord_reader t(std::span<const std::byte>(plain), "p"); }),
                 "not a GZIP file"));
}

TEST_CASE("IDX: a gzip file of two members; .npz: zip64 directory fields, another compression method") {
  CHECK(data::read_idx<std::int32_t>(dir + "/two_members.idx.gz") == xt::xarray<std::int32_t>{{0, 1, 2}, {253, 254, 255}});
  const auto z = data::load_npz(dir + "/zip64.npz");
  REQUIRE(z.size() == 1);
  CHECK(z.at("a").as<std::int32_t>() == xt::xarray<std::int32_t>{{-3, -2, -1}, {0, 1, 2}});

  auto stored = bytes_of("stored.npz");
  const std::string cd = "PK\x01\x02";
  auto it = std::search(stored.begin(), stored.end(), cd.begin(), cd.end(), [](std::byte a, char b) { return a == std::byte(b); });
  REQUIRE(it != stored.end());
  it[10] = std::byte{12};  // the first member's method: bzip2
  CHECK(contains(error_of<tf::unimplemented_error>([&] { data::load_npz(std::span<const std::byte>(stored), "m.npz"); }),
                 "m.npz member x.npy: compression method 12"));
}

TEST_CASE(".npy: a bool byte other than 0 or 1 is refused") {
  auto b = bytes_of("b1.npy");
  b[b.size() - 1] = std::byte{2};
  CHECK(contains(error_of<tf::invalid_argument_error>([&] { data::load_npy(std::span<const std::byte>(b), "b.npy"); }),
                 "b.npy: element 3 is a bool byte of value 2, not 0 or 1"));
}
