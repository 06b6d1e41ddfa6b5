// Issue 3, part 1: one SGD step of scalar linear regression, typeflow against the
// hand-written loop doing the same arithmetic, on the same precomputed data.
//
//   loss = (m x + b - y)^2;  m -= lr * 2 (m x + b - y) x;  b -= lr * 2 (m x + b - y)
//
// One benchmark iteration is one pass over the 100,000 points (so the per-iteration
// overhead of Google Benchmark is amortized); ns/step = time per iteration / 100,000.
// Run with --benchmark_repetitions=N --benchmark_enable_random_interleaving=true so that
// the implementations are measured interleaved (run.sh does).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

namespace {

constexpr std::size_t n_points = 100000;

struct dataset {
  std::vector<double> x, y;
  dataset() : x(n_points), y(n_points) {
    std::mt19937_64 g(42);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (std::size_t i = 0; i < n_points; ++i) {
      x[i] = u(g);
      y[i] = 2.5 * x[i] - 1.25;
    }
  }
};
const dataset& data() {
  static const dataset d;
  return d;
}

// Read through a volatile, so the loops cannot fold it. (Not benchmark::DoNotOptimize(lr):
// libbenchmark 1.7.1's "+m,r" constraint lets GCC 12 hand a double to the asm in a
// general register and read garbage back: lr became 7e-310 and the loop ran on denormals.)
volatile double learning_rate_source = 1e-3;
const double runtime_learning_rate = learning_rate_source;
volatile double sink;

void set_counters(benchmark::State& state) {
  state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(n_points));
  state.counters["steps"] = double(n_points);
}

// The hand-written loop, as a careful person writes it: a function over the data, m and b
// in registers during the pass. (The hand-written passes are noinline functions: written
// inline in the benchmark's `for (auto _ : state)` loop, whose calls into libbenchmark
// clobber the xmm registers, GCC 12 kept m and b in stack slots through the inner loop,
// paid a store-to-load round trip per step and measured ~1.3x slower than typeflow.)
[[gnu::noinline]] void hand_written_pass(const double* x, const double* y, double lr, double& m_io, double& b_io) {
  double m = m_io, b = b_io;
  for (std::size_t i = 0; i < n_points; ++i) {
    const double err = m * x[i] + b - y[i];
    m -= lr * 2 * err * x[i];
    b -= lr * 2 * err;
  }
  m_io = m;
  b_io = b;
}

void BM_hand_written(benchmark::State& state) {
  const auto& d = data();
  const double lr = runtime_learning_rate;  // a run-time value, as typeflow's
  double m = 0, b = 0;
  for (auto _ : state) {
    hand_written_pass(d.x.data(), d.y.data(), lr, m, b);
    sink = m;  // the results escape (see above for why not DoNotOptimize)
    sink = b;
  }
  set_counters(state);
  state.counters["m"] = m;
  state.counters["b"] = b;
}

// The hand-written loop with the association of typeflow's derived update:
// square's gradient rule is g * (2 e), the mul's is that times x, the optimizer's
// lr * gradient, so m -= lr * (x * (2 e)): four dependent operations after e where the
// loop above, whose lr * 2 is loop-invariant, has three. Isolates what that order costs.
[[gnu::noinline]] void typeflow_order_pass(const double* x, const double* y, double lr, double& m_io, double& b_io) {
  double m = m_io, b = b_io;
  for (std::size_t i = 0; i < n_points; ++i) {
    const double err = m * x[i] + b - y[i];
    const double g = err * 2;
    m -= lr * (g * x[i]);
    b -= lr * g;
  }
  m_io = m;
  b_io = b;
}

void BM_hand_written_typeflow_order(benchmark::State& state) {
  const auto& d = data();
  const double lr = runtime_learning_rate;
  double m = 0, b = 0;
  for (auto _ : state) {
    typeflow_order_pass(d.x.data(), d.y.data(), lr, m, b);
    sink = m;
    sink = b;
  }
  set_counters(state);
  state.counters["m"] = m;
  state.counters["b"] = b;
}

// The hand-written loop on a model object passed by reference, updated in place
// (s.m -= ...): the compiler cannot prove that s.m and s.b do not alias x[i] and y[i],
// so they make a store-to-load round trip through memory every step. The hand-written
// counterpart of typeflow_loop_in_callee below.
struct model_state {
  double m = 0, b = 0;
};
[[gnu::noinline]] void state_by_reference_pass(const double* x, const double* y, double lr, model_state& s) {
  for (std::size_t i = 0; i < n_points; ++i) {
    const double err = s.m * x[i] + s.b - y[i];
    s.m -= lr * 2 * err * x[i];
    s.b -= lr * 2 * err;
  }
}

void BM_hand_written_state_by_reference(benchmark::State& state) {
  const auto& d = data();
  const double lr = runtime_learning_rate;
  model_state s;
  for (auto _ : state) state_by_reference_pass(d.x.data(), d.y.data(), lr, s);
  set_counters(state);
  state.counters["m"] = s.m;
  state.counters["b"] = s.b;
}

// typeflow: the program, verbatim, the training loop in the function that made
// the session (so the compiler sees that the session's variable storage is fresh memory,
// distinct from the data, and keeps m and b in registers across steps).
void BM_typeflow(benchmark::State& state) {
  const auto& d = data();
  const double* xs = d.x.data();
  const double* ys = d.y.data();
  auto m = tf::variable<"m", double>(tf::init::constant(0.));
  auto b = tf::variable<"b", double>(tf::init::constant(0.));
  auto x = tf::placeholder<"x", double>();
  auto y = tf::placeholder<"y", double>();
  auto loss = tf::square(m * x + b - y);
  auto train_op = tf::train::gradient_descent(1e-3).minimize(loss);
  tf::session sess(train_op);
  sess.run(tf::global_variables_initializer());
  for (auto _ : state) {
    for (std::size_t i = 0; i < n_points; ++i) sess.run(train_op, tf::feed(x, xs[i]), tf::feed(y, ys[i]));
  }
  set_counters(state);
  state.counters["m"] = sess.run(m);
  state.counters["b"] = sess.run(b);
}

// The same program with the training loop in a function that receives the session by
// reference: now the compiler cannot prove that the variables' storage does not alias
// the data, and each step reloads m and b from the session (see state_by_reference).
template <class Session, class TrainOp, class X, class Y>
[[gnu::noinline]] void typeflow_pass(Session& sess, TrainOp train_op, X x, Y y, const double* xs, const double* ys) {
  for (std::size_t i = 0; i < n_points; ++i) sess.run(train_op, tf::feed(x, xs[i]), tf::feed(y, ys[i]));
}

void BM_typeflow_loop_in_callee(benchmark::State& state) {
  const auto& d = data();
  // Other variable names, hence another session type and run() instantiation: each of
  // the two typeflow benchmarks has its own single call site of run(), as the issue's
  // program has (GCC 12 at -O2 inlines session::run, defined out of class without
  // `inline`, into a caller only when it is the instantiation's only call site).
  auto m = tf::variable<"m2", double>(tf::init::constant(0.));
  auto b = tf::variable<"b2", double>(tf::init::constant(0.));
  auto x = tf::placeholder<"x", double>();
  auto y = tf::placeholder<"y", double>();
  auto loss = tf::square(m * x + b - y);
  auto train_op = tf::train::gradient_descent(1e-3).minimize(loss);
  tf::session sess(train_op);
  sess.run(tf::global_variables_initializer());
  for (auto _ : state) typeflow_pass(sess, train_op, x, y, d.x.data(), d.y.data());
  set_counters(state);
  state.counters["m"] = sess.run(m);
  state.counters["b"] = sess.run(b);
}

double min_of(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }

}  // namespace

BENCHMARK(BM_hand_written)->ComputeStatistics("min", min_of)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_typeflow)->ComputeStatistics("min", min_of)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_hand_written_typeflow_order)->ComputeStatistics("min", min_of)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_typeflow_loop_in_callee)->ComputeStatistics("min", min_of)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_hand_written_state_by_reference)->ComputeStatistics("min", min_of)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
