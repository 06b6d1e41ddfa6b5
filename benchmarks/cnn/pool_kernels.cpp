// Issue 15: typeflow's MaxPool and MaxPoolGrad kernels against the hand-written ones of
// cnn_handwritten.cpp (max_pool, max_pool_relu_grad: compile-time channel count, the four
// window positions compared with selects, every input gradient written once), at the two
// poolings of the Fashion-MNIST CNN (batch 64, 2x2 windows, strides 2, VALID):
// [64, 28, 28, 16] -> [64, 14, 14, 16] and [64, 14, 14, 32] -> [64, 7, 7, 32]; and, for
// typeflow's path of overlapping windows, a 3x3 / 2 SAME pooling of [64, 28, 28, 16].
//
// typeflow is called through the ops' own entry points (pool_node::compute and
// pool_grad_node::compute, as a session calls them), on static shapes as in the example.
// The hand-written forward also saves the argmax (uint8) that its backward reads, and its
// backward applies the ReLU mask too; typeflow's MaxPoolGrad finds the argmax again from the
// pooled input (TensorFlow's MaxPoolGrad takes the input, not the argmax).
//
// The figures were measured at the shapes of the example's first version (batch 64, 16 and
// 32 channels), before it grew to 32 and 64 filters in batches of 32.
//   bench_cnn_pool_kernels --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

namespace {

// --- cnn_handwritten.cpp's kernels -----------------------------------------------------------

template <int C>
void max_pool(const float* __restrict in, int n, int s, float* __restrict out, std::uint8_t* __restrict arg) {
  const int h = s / 2;
  for (int b = 0; b < n; ++b)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < h; ++x) {
        const float* r0 = in + ((std::size_t(b) * s + 2 * y) * s + 2 * x) * C;
        const float* r1 = r0 + std::size_t(s) * C;
        const std::size_t o = ((std::size_t(b) * h + y) * h + x) * C;
        for (int k = 0; k < C; ++k) {
          const float v[4] = {r0[k], r0[C + k], r1[k], r1[C + k]};
          int best = 0;
          for (int i = 1; i < 4; ++i) best = v[i] > v[best] ? i : best;
          out[o + k] = v[best];
          arg[o + k] = std::uint8_t(best);
        }
      }
}

template <int C>
void max_pool_relu_grad(const float* __restrict g, const std::uint8_t* __restrict arg, const float* __restrict pooled,
                        int n, int s, float* __restrict d) {
  const int h = s / 2;
  for (int b = 0; b < n; ++b)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < h; ++x) {
        const std::size_t o = ((std::size_t(b) * h + y) * h + x) * C;
        float* d0 = d + ((std::size_t(b) * s + 2 * y) * s + 2 * x) * C;
        float* d1 = d0 + std::size_t(s) * C;
        for (int k = 0; k < C; ++k) {
          const float v = pooled[o + k] > 0.f ? g[o + k] : 0.f;
          const int a = arg[o + k];
          d0[k] = a == 0 ? v : 0.f;
          d0[C + k] = a == 1 ? v : 0.f;
          d1[k] = a == 2 ? v : 0.f;
          d1[C + k] = a == 3 ? v : 0.f;
        }
      }
}

// --- data --------------------------------------------------------------------------------------

constexpr int batch = 64;

/// Inputs as after a ReLU: about half zeros (ties inside windows), the rest distinct.
template <class V>
void fill_relu_like(V& v) {
  std::uint64_t s = 0x9E3779B97F4A7C15ull;
  for (auto& e : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const float u = float(s >> 40) * 0x1.0p-24f - 0.5f;
    e = u > 0 ? u : 0.f;
  }
}

/// The example's 2x2 / 2 VALID pooling, or (K = 3) a 3x3 / 2 SAME one, whose windows overlap.
template <int Side, int C, int K = 2>
struct pool_case {
  using in_shape = tf::shape<batch, Side, Side, C>;
  using out_shape = tf::shape<batch, Side / 2, Side / 2, C>;
  using x_node = decltype(tf::placeholder<"x", float, in_shape>());
  using dy_node = decltype(tf::placeholder<"dy", float, out_shape>());
  using padding = std::conditional_t<K == 2, tf::padding::valid, tf::padding::same>;
  using forward = decltype(tf::max_pool<tf::ksize<K, K>, tf::strides<2, 2>, padding>(x_node{}));
  using backward = forward::template gradient<0, dy_node>;
  static_assert(std::is_same_v<tf::shape_of<forward>, out_shape>);

  std::unique_ptr<tf::storage_t<float, in_shape>> x = std::make_unique<tf::storage_t<float, in_shape>>();
  std::unique_ptr<tf::storage_t<float, in_shape>> dx = std::make_unique<tf::storage_t<float, in_shape>>();
  std::unique_ptr<tf::storage_t<float, out_shape>> y = std::make_unique<tf::storage_t<float, out_shape>>();
  std::unique_ptr<tf::storage_t<float, out_shape>> dy = std::make_unique<tf::storage_t<float, out_shape>>();
  std::vector<std::uint8_t> arg = std::vector<std::uint8_t>(y->size());

  pool_case() {
    fill_relu_like(*x);
    fill_relu_like(*dy);
  }
};

template <int Side, int C, int K = 2>
void typeflow_forward(benchmark::State& state) {
  pool_case<Side, C, K> c;
  for (auto _ : state) {
    pool_case<Side, C, K>::forward::compute(*c.y, *c.x);
    benchmark::DoNotOptimize(c.y->data());
    benchmark::ClobberMemory();
  }
}
template <int Side, int C>
void handwritten_forward(benchmark::State& state) {
  pool_case<Side, C> c;
  for (auto _ : state) {
    max_pool<C>(c.x->data(), batch, Side, c.y->data(), c.arg.data());
    benchmark::DoNotOptimize(c.y->data());
    benchmark::ClobberMemory();
  }
}
template <int Side, int C, int K = 2>
void typeflow_backward(benchmark::State& state) {
  pool_case<Side, C, K> c;
  for (auto _ : state) {
    pool_case<Side, C, K>::backward::compute(*c.dx, *c.dy, *c.x);
    benchmark::DoNotOptimize(c.dx->data());
    benchmark::ClobberMemory();
  }
}
template <int Side, int C>
void handwritten_backward(benchmark::State& state) {
  pool_case<Side, C> c;
  max_pool<C>(c.x->data(), batch, Side, c.y->data(), c.arg.data());
  for (auto _ : state) {
    max_pool_relu_grad<C>(c.dy->data(), c.arg.data(), c.y->data(), batch, Side, c.dx->data());
    benchmark::DoNotOptimize(c.dx->data());
    benchmark::ClobberMemory();
  }
}

}  // namespace

BENCHMARK(typeflow_forward<28, 16>)->Name("MaxPool/28x28x16/typeflow");
BENCHMARK(handwritten_forward<28, 16>)->Name("MaxPool/28x28x16/handwritten");
BENCHMARK(typeflow_forward<14, 32>)->Name("MaxPool/14x14x32/typeflow");
BENCHMARK(handwritten_forward<14, 32>)->Name("MaxPool/14x14x32/handwritten");
BENCHMARK(typeflow_backward<28, 16>)->Name("MaxPoolGrad/28x28x16/typeflow");
BENCHMARK(handwritten_backward<28, 16>)->Name("MaxPoolGrad/28x28x16/handwritten");
BENCHMARK(typeflow_backward<14, 32>)->Name("MaxPoolGrad/14x14x32/typeflow");
BENCHMARK(handwritten_backward<14, 32>)->Name("MaxPoolGrad/14x14x32/handwritten");

// Overlapping windows (no hand-written counterpart): typeflow's general path.
BENCHMARK(typeflow_forward<28, 16, 3>)->Name("MaxPool/28x28x16/3x3-SAME/typeflow");
BENCHMARK(typeflow_backward<28, 16, 3>)->Name("MaxPoolGrad/28x28x16/3x3-SAME/typeflow");

BENCHMARK_MAIN();
