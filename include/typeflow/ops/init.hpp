// typeflow/ops/init.hpp — variable initializers (tf.zeros_initializer, ...), seeded.
//
// An initializer is a small value; `fill` writes it into a variable's storage. Random
// initializers draw from std::mt19937_64 seeded by the initializer's seed, or, when it
// has none, by the variable's name and the program-wide seed (set_random_seed), so a
// program initializes the same way on every run, like TensorFlow with a graph seed.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <string_view>
#include <type_traits>

#include "typeflow/core/dtype.hpp"
#include "typeflow/core/shape.hpp"

namespace typeflow {

namespace init {

enum class kind : std::uint8_t { zeros, ones, constant, random_uniform, random_normal, truncated_normal, glorot_uniform };

struct initializer {
  init::kind kind = init::kind::zeros;
  double a = 0;  // value, minval or mean
  double b = 0;  // maxval or stddev
  std::optional<std::uint64_t> seed{};
  friend bool operator==(const initializer&, const initializer&) = default;
};

/// tf.zeros_initializer()
constexpr initializer zeros() { return {kind::zeros, 0, 0, {}}; }
/// tf.ones_initializer()
constexpr initializer ones() { return {kind::ones, 1, 0, {}}; }
/// tf.constant_initializer(value)
constexpr initializer constant(double value) { return {kind::constant, value, 0, {}}; }
/// tf.random_uniform_initializer(minval, maxval, seed): uniform on [minval, maxval).
constexpr initializer random_uniform(double minval = 0, double maxval = 1, std::optional<std::uint64_t> seed = {}) {
  return {kind::random_uniform, minval, maxval, seed};
}
/// tf.random_normal_initializer(mean, stddev, seed)
constexpr initializer random_normal(double mean = 0, double stddev = 1, std::optional<std::uint64_t> seed = {}) {
  return {kind::random_normal, mean, stddev, seed};
}
/// tf.truncated_normal_initializer(mean, stddev, seed): redraws values beyond two stddevs.
constexpr initializer truncated_normal(double mean = 0, double stddev = 1, std::optional<std::uint64_t> seed = {}) {
  return {kind::truncated_normal, mean, stddev, seed};
}
/// tf.glorot_uniform_initializer(seed): uniform on ±sqrt(6 / (fan_in + fan_out)).
constexpr initializer glorot_uniform(std::optional<std::uint64_t> seed = {}) {
  return {kind::glorot_uniform, 0, 0, seed};
}

}  // namespace init

namespace detail {
inline std::uint64_t& global_seed() {
  static std::uint64_t seed = 0x9e3779b97f4a7c15ULL;
  return seed;
}
constexpr std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return h;
}
}  // namespace detail

/// tf.set_random_seed: the seed of every random initializer that has none of its own.
inline void set_random_seed(std::uint64_t seed) { detail::global_seed() = seed; }

namespace init {

/// Writes `init` into `storage` (a scalar or an xtensor container) of the variable `name`.
template <class Storage>
void fill(Storage& storage, const initializer& init, std::string_view name) {
  constexpr bool is_scalar = std::is_arithmetic_v<Storage>;
  using T = typename decltype([] {
    if constexpr (is_scalar) {
      return std::type_identity<Storage>{};
    } else {
      return std::type_identity<typename Storage::value_type>{};
    }
  }())::type;
  std::mt19937_64 rng(init.seed ? *init.seed : (detail::fnv1a(name) ^ detail::global_seed()));

  double lo = init.a, hi = init.b;
  if (init.kind == kind::glorot_uniform) {
    double fan_in = 1, fan_out = 1;
    if constexpr (!is_scalar) {
      const auto& s = storage.shape();
      const std::size_t r = s.size();
      if (r == 1) {
        fan_in = fan_out = static_cast<double>(s[0]);
      } else if (r >= 2) {
        double receptive = 1;
        for (std::size_t i = 0; i + 2 < r; ++i) receptive *= static_cast<double>(s[i]);
        fan_in = static_cast<double>(s[r - 2]) * receptive;
        fan_out = static_cast<double>(s[r - 1]) * receptive;
      }
    }
    hi = std::sqrt(6.0 / (fan_in + fan_out));
    lo = -hi;
  }
  auto draw = [&]() -> T {
    switch (init.kind) {
      case kind::zeros: return T(0);
      case kind::ones: return T(1);
      case kind::constant: return static_cast<T>(init.a);
      case kind::random_uniform:
      case kind::glorot_uniform: return static_cast<T>(std::uniform_real_distribution<double>(lo, hi)(rng));
      case kind::random_normal: return static_cast<T>(std::normal_distribution<double>(init.a, init.b)(rng));
      case kind::truncated_normal: {
        std::normal_distribution<double> dist(init.a, init.b);
        for (;;) {
          const double x = dist(rng);
          if (std::abs(x - init.a) <= 2 * init.b) return static_cast<T>(x);
        }
      }
    }
    return T(0);
  };
  if constexpr (is_scalar) {
    storage = draw();
  } else {
    for (auto& x : storage) x = draw();
  }
}

}  // namespace init
}  // namespace typeflow
