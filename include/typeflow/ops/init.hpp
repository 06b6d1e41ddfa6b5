// typeflow/ops/init.hpp — variable initializers (tf.zeros_initializer, ...), seeded.
//
// An initializer is a small literal value, usable as a template argument: a variable's
// initializer is part of its type (`variable<"w", float, shape<2>, init::zeros()>()`), or
// travels with the variable object when it is known only at run time
// (`variable<"w", float, shape<2>>(init::truncated_normal(0, stddev))`). `fill` writes it
// into a variable's storage. Random initializers draw from std::mt19937_64 seeded by the
// initializer's seed, or, when it has none, by the variable's name and the session's graph
// seed (session::set_random_seed), so a program initializes the same way on every run, like
// TensorFlow with a graph seed.
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

/// A structural type: an initializer can be a template argument.
struct initializer {
  init::kind kind = init::kind::zeros;
  double a = 0;  // value, minval or mean
  double b = 0;  // maxval or stddev
  bool has_seed = false;
  std::uint64_t seed = 0;
  friend constexpr bool operator==(const initializer&, const initializer&) = default;
};

}  // namespace init

namespace ops::detail {
constexpr init::initializer make(init::kind k, double a, double b, std::optional<std::uint64_t> seed) {
  return {k, a, b, seed.has_value(), seed.value_or(0)};
}
}  // namespace ops::detail

namespace init {

/// tf.zeros_initializer()
constexpr initializer zeros() { return {kind::zeros, 0, 0, false, 0}; }
/// tf.ones_initializer()
constexpr initializer ones() { return {kind::ones, 1, 0, false, 0}; }
/// tf.constant_initializer(value)
constexpr initializer constant(double value) { return {kind::constant, value, 0, false, 0}; }
/// tf.random_uniform_initializer(minval, maxval, seed): uniform on [minval, maxval).
constexpr initializer random_uniform(double minval = 0, double maxval = 1, std::optional<std::uint64_t> seed = {}) {
  return ops::detail::make(kind::random_uniform, minval, maxval, seed);
}
/// tf.random_normal_initializer(mean, stddev, seed)
constexpr initializer random_normal(double mean = 0, double stddev = 1, std::optional<std::uint64_t> seed = {}) {
  return ops::detail::make(kind::random_normal, mean, stddev, seed);
}
/// tf.truncated_normal_initializer(mean, stddev, seed): redraws values beyond two stddevs.
constexpr initializer truncated_normal(double mean = 0, double stddev = 1, std::optional<std::uint64_t> seed = {}) {
  return ops::detail::make(kind::truncated_normal, mean, stddev, seed);
}
/// tf.glorot_uniform_initializer(seed): uniform on ±sqrt(6 / (fan_in + fan_out)).
constexpr initializer glorot_uniform(std::optional<std::uint64_t> seed = {}) {
  return ops::detail::make(kind::glorot_uniform, 0, 0, seed);
}

// --- where a variable's initializer comes from (a parameter of its type) -----------------

/// The initializer I, in the type.
template <initializer I>
struct fixed {
  static constexpr initializer value = I;
};
/// A run-time initializer, carried by the variable object (its definition).
struct run_time {};
/// A constant initializer whose value is scalar node C's (a literal or a named constant),
/// as TensorFlow initializes Adam's beta1_power with beta1.
template <class C>
struct value_of {};
/// Variable V's initializer, drawing from V's seed: a copy starts as V does (moving averages).
template <class V>
struct like {};

/// The default source: tf.get_variable's glorot_uniform for floating types, zeros otherwise.
template <class T>
using default_for = fixed<std::is_floating_point_v<T> ? glorot_uniform() : zeros()>;

/// The seed a random initializer of variable `name` draws from, in a graph seeded `graph_seed`.
constexpr std::uint64_t seed_for(const initializer& i, std::string_view name, std::uint64_t graph_seed) {
  std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a of the name
  for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return i.has_seed ? i.seed : (h ^ graph_seed);
}

/// The graph seed of a session that was given none.
inline constexpr std::uint64_t default_graph_seed = 0x9e3779b97f4a7c15ULL;

/// Whether `i` can initialize a variable of element type T. As in TensorFlow, whose
/// constructors raise ValueError otherwise: random_normal, truncated_normal and
/// glorot_uniform draw floating values only, random_uniform no bool.
template <class T>
constexpr bool valid_for(const initializer& i) {
  switch (i.kind) {
    case kind::random_normal:
    case kind::truncated_normal:
    case kind::glorot_uniform: return std::is_floating_point_v<T>;
    case kind::random_uniform: return !std::is_same_v<T, bool>;
    default: return true;
  }
}

/// TensorFlow's names of the initializers, for messages.
constexpr std::string_view name_of(kind k) {
  switch (k) {
    case kind::zeros: return "zeros_initializer";
    case kind::ones: return "ones_initializer";
    case kind::constant: return "constant_initializer";
    case kind::random_uniform: return "random_uniform_initializer";
    case kind::random_normal: return "random_normal_initializer";
    case kind::truncated_normal: return "truncated_normal_initializer";
    case kind::glorot_uniform: return "glorot_uniform_initializer";
  }
  return "initializer";
}

}  // namespace init

namespace init {

/// Writes `init` into `storage` (a scalar or an xtensor container) of the variable `name`,
/// in a graph seeded `graph_seed`.
template <class Storage>
void fill(Storage& storage, const initializer& init, std::string_view name, std::uint64_t graph_seed) {
  constexpr bool is_scalar = std::is_arithmetic_v<Storage>;
  using T = typename decltype([] {
    if constexpr (is_scalar) {
      return std::type_identity<Storage>{};
    } else {
      return std::type_identity<typename Storage::value_type>{};
    }
  }())::type;
  std::mt19937_64 rng(seed_for(init, name, graph_seed));

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
      case kind::glorot_uniform: {
        // [lo, hi), also after the conversion to T: a float can round up to hi, and an
        // integer is the floor (uniform on lo, ..., hi - 1, as TensorFlow's integer draws).
        std::uniform_real_distribution<double> dist(lo, hi);
        for (;;) {
          const double u = dist(rng);
          const T v = static_cast<T>(std::is_integral_v<T> ? std::floor(u) : u);
          if (!(lo < hi) || static_cast<double>(v) < hi) return v;
        }
      }
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
