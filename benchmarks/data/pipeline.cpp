// The input pipeline of issue 13: from_tensor_slices(60000x784 float, 60000 int32) ->
// shuffle(60000) -> batch(32) [-> prefetch(2)], repeated, in batches per second; alone,
// and with a consumer that works ~0.25 ms per batch (a stand-in for a training step), where
// prefetch overlaps the pipeline's copying with the consumer's work on the second core.
// Run: bench_data_pipeline --benchmark_repetitions=5 (Release, -O2).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <tuple>

#include <xtensor/xarray.hpp>

#include <typeflow/data/dataset.hpp>

namespace td = typeflow::data;

namespace {

constexpr std::size_t rows = 60000, width = 784;

auto source() {
  static const auto ds = [] {
    xt::xarray<float> x = xt::xarray<float>::from_shape({rows, width});
    xt::xarray<std::int32_t> y = xt::xarray<std::int32_t>::from_shape({rows});
    for (std::size_t i = 0; i < x.size(); ++i) x.data()[i] = static_cast<float>(i % 255) / 255.0f;
    for (std::size_t i = 0; i < rows; ++i) y(i) = static_cast<std::int32_t>(i % 10);
    return td::from_tensor_slices(std::move(x), std::move(y));
  }();
  return ds;
}

// About 0.25 ms of arithmetic over the batch, as a training step would read it.
float consume(const xt::xarray<float>& x, int rounds) {
  float acc = 0;
  for (int r = 0; r < rounds; ++r)
    for (std::size_t i = 0; i < x.size(); ++i) acc += x.data()[i] * static_cast<float>(r + 1);
  return acc;
}

template <class D>
void run(benchmark::State& state, const D& ds, int work) {
  auto it = ds.make_iterator();
  typename D::element_type out;
  if (!it.next(out)) state.SkipWithError("empty pipeline");  // fills the shuffle buffer, untimed
  for (auto _ : state) {
    if (!it.next(out)) state.SkipWithError("the repeated pipeline ended");
    if (work) benchmark::DoNotOptimize(consume(std::get<0>(out), work));
    benchmark::DoNotOptimize(std::get<1>(out).data());
  }
  state.counters["batches/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_pipeline(benchmark::State& state) {
  run(state, source().shuffle(60000, 1).batch(32).repeat(), static_cast<int>(state.range(0)));
}
void BM_pipeline_prefetch(benchmark::State& state) {
  run(state, source().shuffle(60000, 1).batch(32).prefetch(2).repeat(), static_cast<int>(state.range(0)));
}
void BM_consumer_only(benchmark::State& state) {  // the consumer's work alone: the bound with overlap
  xt::xarray<float> x = xt::xarray<float>::from_shape({32, width});
  for (std::size_t i = 0; i < x.size(); ++i) x.data()[i] = 0.5f;
  for (auto _ : state) benchmark::DoNotOptimize(consume(x, static_cast<int>(state.range(0))));
  state.counters["batches/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

}  // namespace

// Argument: rounds of consumer work per batch (0: the pipeline alone; 12: ~0.25 ms here).
BENCHMARK(BM_pipeline)->Arg(0)->Arg(12)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_pipeline_prefetch)->Arg(0)->Arg(12)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_consumer_only)->Arg(12)->Unit(benchmark::kMicrosecond)->UseRealTime();

BENCHMARK_MAIN();
