// libFuzzer target: the data readers (data/readers/) on arbitrary bytes, with ASan and UBSan.
// The first byte selects the reader (its value modulo 5: IDX, .npy, .npz, TFRecord, CSV), the
// rest is the file (a TFRecord file that starts with the gzip magic is read as GZIP). Every
// input must be read or fail with a typeflow::error; anything else (a crash, a sanitizer
// report, an allocation beyond -rss_limit_mb/-malloc_limit_mb, another exception) is a bug.
// Built by tests/fuzz/CMakeLists.txt with clang; scripts/test.sh runs it for a bounded time
// on tests/fuzz/corpus_readers/, and data.fuzz_corpus replays that corpus in the unit tests.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include <typeflow/data/readers/csv.hpp>
#include <typeflow/data/readers/idx.hpp>
#include <typeflow/data/readers/npy.hpp>
#include <typeflow/data/readers/npz.hpp>
#include <typeflow/data/readers/tfrecord.hpp>
#include <typeflow/data/readers/tfrecord_gzip.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  namespace d = typeflow::data;
  const auto bytes = std::as_bytes(std::span(data + 1, size - 1));
  volatile std::size_t sink = 0;
  try {
    switch (data[0] % 5) {
      case 0: {
        sink = d::read_idx(bytes, "fuzz").size();
        sink = d::read_idx<std::int16_t>(bytes, "fuzz").size();
        break;
      }
      case 1: {
        sink = d::load_npy(bytes, "fuzz").size();
        sink = d::load_npy<float>(bytes, "fuzz").size();
        break;
      }
      case 2: {
        for (const auto& [name, t] : d::load_npz(bytes, "fuzz")) sink = sink + name.size() + t.size();
        break;
      }
      case 3: {
        if (size > 2 && data[1] == 0x1f && data[2] == 0x8b) {  // compression_type="GZIP"
          d::gzip_tfrecord_reader r(bytes, "fuzz");
          while (auto rec = r.next()) sink = sink + rec->size();
        } else {
          d::tfrecord_reader r(bytes, "fuzz");
          while (auto rec = r.next()) sink = sink + rec->size();
        }
        break;
      }
      case 4: {
        const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
        const auto t = d::read_csv<std::int64_t, double, std::string>(
            text, "fuzz", {.na_value = "NA"}, {std::int64_t{0}, std::nullopt, std::string()});
        sink = t.rows;
        const auto h = d::read_csv<float>(text, "fuzz", {.header = true, .select_cols = {1}});
        sink = h.rows;
        break;
      }
    }
  } catch (const typeflow::error&) {
    // a clean rejection
  }
  (void)sink;
  return 0;
}
