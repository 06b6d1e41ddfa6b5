// benchmarks/training/common.hpp — what the training benchmarks share: the shuffling
// order (reproduced bit for bit by mlp_pytorch.py), Glorot initialization, timing.
#pragma once

#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <vector>

namespace training_bench {

/// splitmix64: a tiny generator that Python reproduces exactly with 64-bit masking.
struct splitmix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

/// The epoch's order of the n training examples: Fisher–Yates driven by splitmix64(seed).
/// mlp_pytorch.py's permutation() computes the same sequence.
inline std::vector<std::uint32_t> permutation(std::size_t n, std::uint64_t seed = 7) {
  std::vector<std::uint32_t> p(n);
  std::iota(p.begin(), p.end(), 0u);
  splitmix64 g{seed};
  for (std::size_t i = n - 1; i > 0; --i) {
    const std::size_t j = g.next() % (i + 1);
    std::swap(p[i], p[j]);
  }
  return p;
}

/// Glorot (Xavier) uniform in [-l, l], l = sqrt(6 / (fan_in + fan_out)), as TensorFlow's
/// default kernel initializer; row-major [fan_in, fan_out].
inline std::vector<float> glorot_uniform(std::size_t fan_in, std::size_t fan_out, std::uint64_t seed) {
  splitmix64 g{seed};
  const double limit = std::sqrt(6.0 / double(fan_in + fan_out));
  std::vector<float> w(fan_in * fan_out);
  for (auto& v : w) v = float((double(g.next() >> 11) * 0x1.0p-53 * 2 - 1) * limit);
  return w;
}

/// CPU time of the whole process (every thread), in seconds. On this shared machine the
/// wall time of a 1-thread run includes the time other processes had the core; the CPU
/// time does not, so run.sh reports both.
inline double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

/// Times epochs: wall (steady_clock) and process CPU seconds.
struct epoch_timer {
  std::string wall, cpu;
  std::chrono::steady_clock::time_point t0;
  double c0 = 0;
  void start() {
    c0 = cpu_seconds();
    t0 = std::chrono::steady_clock::now();
  }
  void stop() {
    const double w = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double c = cpu_seconds() - c0;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s%.4f", wall.empty() ? "" : ", ", w);
    wall += buf;
    std::snprintf(buf, sizeof buf, "%s%.4f", cpu.empty() ? "" : ", ", c);
    cpu += buf;
  }
  /// One line of JSON, as run.sh reads it.
  void report(const char* impl, double last_loss, double test_accuracy) const {
    std::printf("{\"impl\": \"%s\", \"epoch_seconds\": [%s], \"epoch_cpu_seconds\": [%s], "
                "\"last_loss\": %.4f, \"test_accuracy\": %.4f}\n",
                impl, wall.c_str(), cpu.c_str(), last_loss, test_accuracy);
  }
};

}  // namespace training_bench
