// Every file of the fuzz corpus (tests/fuzz/corpus/) loads or fails with a typeflow error;
// the valid ones load, the malformed ones fail with DataLoss.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include <typeflow/io/checkpoint_format.hpp>

#include "../support/checkpoint_testing.hpp"

TEST_CASE("fuzz corpus: valid files load, every other file fails cleanly") {
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(TYPEFLOW_FUZZ_CORPUS)) {
    const auto name = entry.path().filename().string();
    CAPTURE(name);
    const auto bytes = ckpt_testing::read_file(entry.path().string());
    ++files;
    bool loaded = false;
    try {
      typeflow::io::checkpoint_reader r(bytes.data(), bytes.size(), name);
      typeflow::io::load_all(r);
      loaded = true;
    } catch (const typeflow::error& e) {
      CHECK_MESSAGE(name.rfind("valid_", 0) != 0, e.what());
    }
    try {
      // verified in place, as a mapped restore does: the same verdict as loading
      typeflow::io::checkpoint_reader r(bytes.data(), bytes.size(), name);
      if (r.can_verify_in_place()) {
        r.verify_in_place([](const typeflow::io::tensor_info&, std::size_t) { return true; });
        CHECK(loaded);
      }
    } catch (const typeflow::error&) {
      CHECK_FALSE(loaded);
    }
    if (name.rfind("valid_", 0) == 0) CHECK(loaded);
    if (name.rfind("truncated_", 0) == 0 || name.rfind("bitflip_", 0) == 0 || name.rfind("huge_", 0) == 0)
      CHECK_FALSE(loaded);
  }
  MESSAGE(files << " corpus files");
  CHECK(files >= 10);
}
