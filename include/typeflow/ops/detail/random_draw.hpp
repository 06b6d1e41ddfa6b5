// typeflow/ops/detail/random_draw.hpp — the draws of the random ops (ops/random.hpp): the
// splitmix64 stream seeded as dropout's masks are, Box-Muller normals, truncation at two
// stddevs, unbiased integer uniforms; the names of their hidden counters and the
// per-session entropy of ops without a seed.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <type_traits>

#include "typeflow/core/fixed_string.hpp"
#include "typeflow/ops/dropout.hpp"

namespace typeflow::ops::detail {

enum class random_kind : std::uint8_t { normal, truncated_normal, uniform };

/// "random_ops/random_state_<Seed>", or "random_ops/random_state_unseeded".
template <bool Seeded, std::uint64_t Seed>
constexpr auto random_state_name() {
  if constexpr (!Seeded) {
    return fixed_string{"random_ops/random_state_unseeded"};
  } else {
    return numbered_name<"random_ops/random_state_", Seed>();
  }
}

/// The op seed word of an op without a seed when the session has a graph seed.
inline constexpr std::uint64_t unseeded_op_word = 0x2545f4914f6cdd1dULL;

/// A 64-bit word drawn from std::random_device, per session: the op seed of ops without a
/// seed in a session without a graph seed.
struct random_entropy {
  std::uint64_t word = [] {
    std::random_device device;
    return (std::uint64_t(device()) << 32) ^ std::uint64_t(device());
  }();
};

/// The stream of one draw: splitmix64 from the state seeded as dropout's masks are.
struct random_stream {
  std::uint64_t state;
  random_stream(std::uint64_t op_word, std::uint64_t graph_seed, std::uint64_t count)
      : state(seeded_state(op_word, graph_seed, count)) {}
  std::uint64_t next() { return splitmix64(state); }
  /// Uniform in [0, 1), 53 bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  /// Two independent standard normals (Box-Muller; the log's argument is in (0, 1]).
  void normal_pair(double& a, double& b) {
    const double r = std::sqrt(-2.0 * std::log(1.0 - uniform()));
    const double t = 6.283185307179586 * uniform();
    a = r * std::cos(t);
    b = r * std::sin(t);
  }
};

/// Writes n values of kind K, with parameters a and b (mean and stddev, or minval and
/// maxval), drawn from `rng`, into out.
template <random_kind K, class T>
void random_fill(T* out, std::size_t n, T a, T b, random_stream& rng) {
  if (n == 0) return;  // an integer uniform over an empty range draws nothing
  if constexpr (K == random_kind::uniform && std::is_integral_v<T>) {
    const auto lo = static_cast<std::int64_t>(a), hi = static_cast<std::int64_t>(b);
    const auto range = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
    const std::uint64_t reject_below = (0 - range) % range;  // 2^64 mod range
    for (std::size_t i = 0; i < n; ++i) {
      std::uint64_t w = rng.next();
      while (w < reject_below) w = rng.next();
      out[i] = static_cast<T>(static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + w % range));
    }
  } else if constexpr (K == random_kind::uniform) {
    const double lo = static_cast<double>(a), width = static_cast<double>(b) - lo;
    for (std::size_t i = 0; i < n; ++i) {
      T v = static_cast<T>(lo + rng.uniform() * width);
      while (lo < static_cast<double>(b) && !(v < b)) v = static_cast<T>(lo + rng.uniform() * width);
      out[i] = v;
    }
  } else {
    const double mean = static_cast<double>(a), stddev = static_cast<double>(b);
    double z[2];
    std::size_t i = 0;
    while (i < n) {
      rng.normal_pair(z[0], z[1]);
      for (double v : z)
        if (i < n && (K == random_kind::normal || std::abs(v) < 2.0)) out[i++] = static_cast<T>(mean + stddev * v);
    }
  }
}

}  // namespace typeflow::ops::detail
