// libFuzzer target: a saved model's description (saved_model.json) on arbitrary bytes, with
// ASan and UBSan. Every input must parse or fail with a typeflow::error; anything else (a
// crash, a sanitizer report, a stack overflow from deep nesting, another exception) is a
// bug. Built by tests/fuzz/CMakeLists.txt with clang; scripts/test.sh runs it for a bounded
// time on the committed corpus (tests/fuzz/corpus_saved_model/).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <typeflow/saved_model/description.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto d = typeflow::saved_model::parse_description(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz");
    // What a load reads of a parsed description.
    for (const auto& m : d.meta_graphs) {
      (void)m.tags_string();
      for (const auto& s : m.signatures)
        for (const auto& t : s.inputs) (void)t.description();
    }
  } catch (const typeflow::error&) {
    // a clean rejection
  }
  return 0;
}
