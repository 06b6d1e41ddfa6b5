// Files that cannot hurt: a small checkpoint cut at every byte offset, and with every
// bit of every byte flipped, fails cleanly with DataLoss naming the header or the tensor
// (under ASan and UBSan in the sanitizer build).
#include <doctest/doctest.h>

#include <string>

#include "format_testing.hpp"

namespace io = typeflow::io;
using ckpt_testing::load;
using ckpt_testing::small_checkpoint;

namespace {

/// Loads `bytes`, expecting a typeflow error; returns its message.
std::string load_error(const std::string& bytes) {
  try {
    load(bytes);
  } catch (const typeflow::error& e) {
    return e.what();
  }
  return {};
}

/// Verifies `bytes` in place (a mapped restore), expecting a typeflow error; returns its message.
std::string in_place_error(const std::string& bytes) {
  try {
    ckpt_testing::load_in_place(bytes);
  } catch (const typeflow::error& e) {
    return e.what();
  }
  return {};
}

}  // namespace

TEST_CASE("corruption: a binary checkpoint truncated at every byte offset fails with DataLoss") {
  const auto bytes = small_checkpoint();
  MESSAGE("checkpoint of " << bytes.size() << " bytes");
  for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
    CAPTURE(cut);
    const std::string truncated = bytes.substr(0, cut);
    CHECK_THROWS_AS(load(truncated), typeflow::data_loss_error);
    CHECK_THROWS_AS(ckpt_testing::load_in_place(truncated), typeflow::data_loss_error);
    // The header alone (list_variables) fails too: the data section is checked against it.
    CHECK_THROWS_AS(io::checkpoint_reader(truncated.data(), truncated.size()), typeflow::data_loss_error);
  }
}

TEST_CASE("corruption: a JSON checkpoint truncated at every byte offset fails with DataLoss") {
  const auto text = small_checkpoint(io::archive_format::json);
  for (std::size_t cut = 0; cut < text.size(); ++cut) {
    CAPTURE(cut);
    CHECK_THROWS_AS(load(text.substr(0, cut)), typeflow::data_loss_error);
  }
}

TEST_CASE("corruption: every flipped bit of a binary checkpoint is DataLoss naming the header or the tensor") {
  const auto bytes = small_checkpoint();
  const auto header_end = bytes.size() - (6 * 4 + 2 * 8 + 4 + 3 * 8 + 2 + 5 * 12);  // data section size
  std::size_t header_errors = 0, tensor_errors = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      CAPTURE(i);
      CAPTURE(bit);
      std::string b = bytes;
      b[i] = static_cast<char>(b[i] ^ (1 << bit));
      std::string what;
      try {
        load(b);
      } catch (const typeflow::data_loss_error& e) {
        what = e.what();
      } catch (const typeflow::invalid_argument_error& e) {
        // a flip that makes a newer *valid* version is caught by the version's own CRC
        FAIL("a flipped bit passed the preamble checksum: " << e.what());
      }
      REQUIRE_MESSAGE(!what.empty(), "a flipped bit was not detected");
      // Verifying in place (a mapped restore) detects it too, with the same message.
      CHECK(in_place_error(b) == what);
      if (i < header_end) {
        CHECK((what.find("header") != std::string::npos || what.find("bad magic") != std::string::npos ||
               what.find("endianness") != std::string::npos || what.find("data section") != std::string::npos));
        ++header_errors;
      } else {
        const bool names_tensor = what.find("tensor layer1/w") != std::string::npos ||
                                  what.find("tensor layer1/b") != std::string::npos ||
                                  what.find("tensor global_step") != std::string::npos ||
                                  what.find("tensor big") != std::string::npos ||
                                  what.find("tensor flags") != std::string::npos;
        CHECK_MESSAGE(names_tensor, what);
        ++tensor_errors;
      }
    }
  }
  MESSAGE(header_errors << " header flips and " << tensor_errors << " data flips detected");
}

TEST_CASE("corruption: a changed value in a JSON checkpoint is DataLoss naming the tensor") {
  auto text = small_checkpoint(io::archive_format::json);
  const auto at = text.find("-2.25");
  REQUIRE(at != std::string::npos);
  text[at + 1] = '3';
  CHECK(load_error(text).find("Checksum does not match for tensor layer1/w") != std::string::npos);
  auto renamed = small_checkpoint(io::archive_format::json);
  renamed.replace(renamed.find("layer1/b"), 8, "layer1/c");
  CHECK(load_error(renamed).find("header checksum does not match") != std::string::npos);
}
