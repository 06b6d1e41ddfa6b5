// benchmarks/rnn/common.hpp — what the recurrent benchmarks' C++ programs share: CPU and
// wall clocks, deterministic data, and the line of JSON that run.sh reads.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <string>
#include <vector>

namespace rnn_bench {

/// CPU time of the whole process (every thread), seconds. The machine is shared: the wall
/// time of a 1-thread run includes the time other processes held the core, the CPU time not.
inline double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}
inline double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// Fills a container with N(0, 1) values (a fixed seed: every run the same data).
template <class C>
void fill_normal(C& c, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> n(0.0f, 1.0f);
  for (auto& v : c) v = n(rng);
}
/// One-hot labels [batch, classes], class of row i = i % classes.
template <class C>
void fill_one_hot(C& c, std::size_t batch, std::size_t classes) {
  for (auto& v : c) v = 0.0f;
  for (std::size_t i = 0; i < batch; ++i) c.data()[i * classes + i % classes] = 1.0f;
}

inline std::string list(const std::vector<double>& v) {
  std::string s;
  char buf[32];
  for (std::size_t i = 0; i < v.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%s%.6f", i ? ", " : "", v[i]);
    s += buf;
  }
  return s;
}

/// Times `reps` repetitions of `steps` calls of step() after `warmup` calls; per repetition,
/// the CPU and wall milliseconds per step. Prints one line of JSON.
template <class Step, class Loss>
void time_steps(const char* impl, const char* model, int warmup, int reps, int steps, Step&& step, Loss&& loss) {
  const double first = loss();
  for (int i = 0; i < warmup; ++i) step();
  std::vector<double> cpu, wall;
  for (int r = 0; r < reps; ++r) {
    const double c0 = cpu_seconds(), w0 = wall_seconds();
    for (int i = 0; i < steps; ++i) step();
    cpu.push_back(1e3 * (cpu_seconds() - c0) / steps);
    wall.push_back(1e3 * (wall_seconds() - w0) / steps);
  }
  const double last = loss();
  std::printf("{\"impl\": \"%s\", \"model\": \"%s\", \"steps\": %d, \"step_cpu_ms\": [%s], \"step_wall_ms\": [%s], "
              "\"first_loss\": %.5f, \"last_loss\": %.5f}\n",
              impl, model, steps, list(cpu).c_str(), list(wall).c_str(), first, last);
}

/// argv[i] as an int, or a default.
inline int arg(int argc, char** argv, int i, int otherwise) { return argc > i ? std::atoi(argv[i]) : otherwise; }

}  // namespace rnn_bench
