// benchmarks/readers/readers_bench.cpp — the time typeflow's readers take on Fashion-MNIST's
// training images (IDX, gzip) and on a CSV file of five typed columns. Run by compare.py,
// which times numpy and pandas on the same files in the same run:
//   bench_readers <fashion-mnist dir> <csv file> <repetitions>
// prints one line per reader: "<name> <best seconds> <bytes read>".
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <typeflow/data/readers/csv.hpp>
#include <typeflow/data/readers/idx.hpp>

namespace {

template <class F>
double best_of(int reps, F&& f) {
  double best = 1e300;
  for (int i = 0; i < reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s <fashion-mnist dir> <csv file> <repetitions>\n", argv[0]);
    return 2;
  }
  const std::string images = std::string(argv[1]) + "/train-images-idx3-ubyte.gz";
  const std::string csv = argv[2];
  const int reps = std::atoi(argv[3]);
  std::size_t sink = 0;
  const double idx = best_of(reps, [&] { sink += typeflow::data::read_idx<float>(images).size(); });
  std::printf("idx_float %.6f %llu\n", idx, static_cast<unsigned long long>(std::filesystem::file_size(images)));
  const double table = best_of(reps, [&] {
    const auto t = typeflow::data::read_csv<float, float, float, float, std::int64_t>(csv, {.header = true});
    sink += t.rows;
  });
  std::printf("csv %.6f %llu\n", table, static_cast<unsigned long long>(std::filesystem::file_size(csv)));
  return sink == 0;
}
