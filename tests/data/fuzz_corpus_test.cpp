// Every file of the readers' fuzz corpus (tests/fuzz/corpus_readers/, valid and damaged
// inputs of each reader) through the fuzz target's entry point: a regression test of the
// fuzz target that needs no clang, under ASan and UBSan in the sanitizer build.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

TEST_CASE("every input of the readers' fuzz corpus is read or rejected with a typeflow::error") {
  std::size_t files = 0;
  std::size_t readers[5] = {};
  for (const auto& entry : std::filesystem::directory_iterator(TYPEFLOW_READERS_CORPUS)) {
    std::ifstream f(entry.path(), std::ios::binary);
    const std::vector<char> c((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    CAPTURE(entry.path().string());
    CHECK(LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(c.data()), c.size()) == 0);
    ++files;
    if (!c.empty()) ++readers[static_cast<unsigned char>(c[0]) % 5];
  }
  CHECK(files >= 20);
  for (const std::size_t n : readers) CHECK(n >= 3);  // each reader has valid and damaged inputs
}
