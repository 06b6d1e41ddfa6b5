// libFuzzer target: the checkpoint loader on arbitrary bytes (both archives; the binary one
// also verified in place, as a restore over a mapped file does), with ASan and UBSan. Every input must load or fail with a typeflow::error; anything else (a crash, a
// sanitizer report, an allocation beyond -rss_limit_mb/-malloc_limit_mb, another exception)
// is a bug. Built by tests/fuzz/CMakeLists.txt with clang; scripts/test.sh runs it for a
// bounded time on the committed corpus (tests/fuzz/corpus/).
#include <cstddef>
#include <cstdint>
#include <vector>

#include <typeflow/io/checkpoint_format.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    typeflow::io::checkpoint_reader reader(data, size, "fuzz");
    // Read every other tensor into a buffer and skip the rest, as a partial restore does.
    std::vector<std::vector<unsigned char>> buffers(reader.header().tensors.size());
    reader.read_tensors([&](const typeflow::io::tensor_info& t, std::size_t i) -> void* {
      if (i % 2 == 1) return nullptr;
      buffers[i].resize(static_cast<std::size_t>(t.num_bytes()) + 1);
      return buffers[i].data();
    });
  } catch (const typeflow::error&) {
    // a clean rejection
  }
  try {
    // Verified where the bytes lie, as a restore over a mapped file does, every other tensor.
    typeflow::io::checkpoint_reader reader(data, size, "fuzz");
    if (reader.can_verify_in_place()) {
      const auto where = reader.verify_in_place([](const typeflow::io::tensor_info&, std::size_t i) { return i % 2 == 0; });
      volatile unsigned char sink = 0;
      for (const auto& t : where)
        if (t.data != nullptr && t.bytes > 0) sink = static_cast<unsigned char>(sink ^ t.data[0] ^ t.data[t.bytes - 1]);
      (void)sink;
    }
  } catch (const typeflow::error&) {
    // a clean rejection
  }
  return 0;
}
