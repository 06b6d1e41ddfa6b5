// typeflow/train/cosine_decay.hpp — tf.train.cosine_decay, cosine_decay_restarts,
// linear_cosine_decay and noisy_linear_cosine_decay: the cosine learning-rate schedules of
// TensorFlow 1.x (SGDR, Loshchilov & Hutter; linear cosine, Bello et al.), as scalar nodes of
// the global step. train/learning_rate_decay.hpp includes this header and describes what the
// schedules share: parameters as numbers (named constants "<Schedule>/<param>") or scalar
// nodes, a name to give when two schedules of one kind meet in a session, and the learning
// rate's element type for the result.
//
// The noise of noisy_linear_cosine_decay is not TensorFlow's: TensorFlow draws it from
// random_normal on each run; here it is a function of the schedule's seed and the global step
// (a counter-based generator), so the schedule is a pure function of the step, as the others.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <type_traits>

#include "typeflow/core/fixed_string.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/constant.hpp"
#include "typeflow/ops/dropout.hpp"
#include "typeflow/train/detail/schedule.hpp"
#include "typeflow/train/optimizer.hpp"

namespace typeflow::train {

namespace detail {
/// linear_cosine_decay's parts at a global step: the step stopped at decay_steps (s), the
/// linear part (decay_steps - s) / decay_steps and the cosine part
/// 0.5 (1 + cos(pi 2 num_periods s / decay_steps)).
struct linear_cosine_parts {
  double step, linear, cosine;
};
inline linear_cosine_parts linear_cosine_at(double step, double decay_steps, double num_periods) {
  const double s = std::min(step, decay_steps);
  const double fraction = 2.0 * num_periods * (s / decay_steps);
  return {s, (decay_steps - s) / decay_steps, 0.5 * (1.0 + std::cos(std::numbers::pi * fraction))};
}

/// A global step or a seed as a key of the noise: its value when an integer, else its bits.
template <class S>
std::uint64_t noise_key(S value) {
  if constexpr (std::is_integral_v<S>) {
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(value));
  } else {
    return std::bit_cast<std::uint64_t>(static_cast<double>(value));
  }
}

/// A standard normal draw that is a function of (seed, key) alone: splitmix64 (as dropout's,
/// ops/dropout.hpp) hashes the pair into two 53-bit uniforms u1 in (0, 1] and u2 in [0, 1),
/// and Box-Muller makes them sqrt(-2 ln u1) cos(2 pi u2). As u1 >= 2^-53, every draw has
/// |z| <= sqrt(106 ln 2) < 8.58.
inline double standard_normal_at(std::uint64_t seed, std::uint64_t key) {
  std::uint64_t state = seed;
  state = ops::detail::splitmix64(state) ^ key;
  const std::uint64_t a = ops::detail::splitmix64(state);
  const std::uint64_t b = ops::detail::splitmix64(state);
  const double u1 = static_cast<double>((a >> 11) + 1) * 0x1.0p-53;
  const double u2 = static_cast<double>(b >> 11) * 0x1.0p-53;
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}
}  // namespace detail

namespace fn {
/// lr * ((1 - alpha) * 0.5 (1 + cos(pi s / steps)) + alpha), s the step stopped at steps.
struct cosine_decay : detail::schedule_op<"CosineDecay"> {
  template <class L, class S, class D, class A>
  L operator()(L lr, S step, D decay_steps, A alpha) const {
    const double steps = static_cast<double>(decay_steps);
    const double completed_fraction = std::min(static_cast<double>(step), steps) / steps;
    const double cosine = 0.5 * (1.0 + std::cos(std::numbers::pi * completed_fraction));
    const double a = static_cast<double>(alpha);
    return static_cast<L>(static_cast<double>(lr) * ((1.0 - a) * cosine + a));
  }
};

/// SGDR: the cosine decay restarted after first_decay_steps, each period t_mul times longer
/// than the one before and its cosine m_mul times lower. TensorFlow's closed form: with
/// f = step / first_decay_steps, the period i = floor(f) (t_mul 1) or
/// floor(log(1 - f (1 - t_mul)) / log(t_mul)), f within it (f - sum_{j<i} t_mul^j) / t_mul^i.
struct cosine_decay_restarts : detail::schedule_op<"SGDRDecay"> {
  template <class L, class S, class D, class T, class M, class A>
  L operator()(L lr, S step, D first_decay_steps, T t_mul, M m_mul, A alpha) const {
    const double t = static_cast<double>(t_mul);
    double fraction = static_cast<double>(step) / static_cast<double>(first_decay_steps);
    double restart;
    if (t == 1.0) {
      restart = std::floor(fraction);
      fraction -= restart;
    } else {
      const auto periods_before = [t](double i) { return (1.0 - std::pow(t, i)) / (1.0 - t); };
      restart = std::floor(std::log(1.0 - fraction * (1.0 - t)) / std::log(t));
      // On the first step of a period, log's rounding can put the floor one period off
      // (log(1000) / log(10) < 3); the sums of the periods decide, as TensorFlow's formula means.
      if (fraction < periods_before(restart)) {
        restart -= 1;
      } else if (fraction >= periods_before(restart + 1)) {
        restart += 1;
      }
      fraction = (fraction - periods_before(restart)) / std::pow(t, restart);
    }
    const double cosine =
        0.5 * std::pow(static_cast<double>(m_mul), restart) * (1.0 + std::cos(std::numbers::pi * fraction));
    const double a = static_cast<double>(alpha);
    return static_cast<L>(static_cast<double>(lr) * ((1.0 - a) * cosine + a));
  }
};

/// lr * ((alpha + linear) * cosine + beta), the parts of detail::linear_cosine_at.
struct linear_cosine_decay : detail::schedule_op<"LinearCosineDecay"> {
  template <class L, class S, class D, class N, class A, class B>
  L operator()(L lr, S step, D decay_steps, N num_periods, A alpha, B beta) const {
    const auto p = detail::linear_cosine_at(static_cast<double>(step), static_cast<double>(decay_steps),
                                            static_cast<double>(num_periods));
    return static_cast<L>(static_cast<double>(lr) *
                          ((static_cast<double>(alpha) + p.linear) * p.cosine + static_cast<double>(beta)));
  }
};

/// lr * ((alpha + linear + eps) * cosine + beta), eps = sqrt(initial_variance /
/// (1 + s) ^ variance_decay) * z, s the step stopped at decay_steps and z the standard normal
/// draw of (seed, step) (detail::standard_normal_at).
struct noisy_linear_cosine_decay : detail::schedule_op<"NoisyLinearCosineDecay"> {
  template <class L, class S, class D, class V, class VD, class N, class A, class B, class Seed>
  L operator()(L lr, S step, D decay_steps, V initial_variance, VD variance_decay, N num_periods, A alpha, B beta,
               Seed seed) const {
    const auto p = detail::linear_cosine_at(static_cast<double>(step), static_cast<double>(decay_steps),
                                            static_cast<double>(num_periods));
    const double variance =
        static_cast<double>(initial_variance) / std::pow(1.0 + p.step, static_cast<double>(variance_decay));
    const double z = detail::standard_normal_at(detail::noise_key(seed), detail::noise_key(step));
    const double noise = std::sqrt(variance) * z;
    return static_cast<L>(static_cast<double>(lr) *
                          ((static_cast<double>(alpha) + (p.linear + noise)) * p.cosine + static_cast<double>(beta)));
  }
};
}  // namespace fn

namespace detail {
/// In a diagnostic: the seed of a noisy schedule must be an integer or an integer scalar node.
template <fixed_string Schedule>
struct the_seed_of_a_schedule_must_be_an_integer_or_an_integer_scalar_node {
  static constexpr bool value = false;
};

/// A schedule's seed: an integer scalar node as it is, an integer as the int64 named constant
/// "<Schedule>/seed".
template <fixed_string Schedule, class S>
auto schedule_seed(const S& seed) {
  constexpr auto name = join_names<Schedule, "seed">();
  if constexpr (node<S>) {
    if constexpr (shape_of<S>::rank != 0 || !std::is_integral_v<value_type_of<S>> ||
                  std::is_same_v<value_type_of<S>, bool>) {
      static_assert(the_seed_of_a_schedule_must_be_an_integer_or_an_integer_scalar_node<Schedule>::value,
                    "a noisy schedule's seed must be an integer or an int32/int64 scalar node");
      return typeflow::constant<name, std::int64_t, scalar>(std::int64_t{0});  // inert
    } else {
      return seed;
    }
  } else if constexpr (!std::is_integral_v<S> || std::is_same_v<S, bool>) {
    static_assert(the_seed_of_a_schedule_must_be_an_integer_or_an_integer_scalar_node<Schedule>::value,
                  "a noisy schedule's seed must be an integer or an int32/int64 scalar node");
    return typeflow::constant<name, std::int64_t, scalar>(std::int64_t{0});  // inert
  } else {
    return typeflow::constant<name, std::int64_t, scalar>(static_cast<std::int64_t>(seed));
  }
}
}  // namespace detail

/// tf.train.cosine_decay(learning_rate, global_step, decay_steps, alpha): learning_rate *
/// ((1 - alpha) * 0.5 * (1 + cos(pi * min(global_step, decay_steps) / decay_steps)) + alpha).
template <fixed_string Name = "CosineDecay", class LR, class Step, class D, class A = double>
auto cosine_decay(const LR& learning_rate, const Step& global_step, const D& decay_steps, const A& alpha = 0.0) {
  return detail::schedule<fn::cosine_decay, Name>(learning_rate, global_step,
                                                  detail::schedule_parameter<Name, "decay_steps">(decay_steps),
                                                  detail::schedule_parameter<Name, "alpha">(alpha));
}

/// tf.train.cosine_decay_restarts(learning_rate, global_step, first_decay_steps, t_mul,
/// m_mul, alpha): the cosine decay from 1 to alpha over first_decay_steps, then restarted,
/// period i lasting first_decay_steps * t_mul^i steps from m_mul^i; learning_rate *
/// ((1 - alpha) * m_mul^i * 0.5 * (1 + cos(pi * fraction of period i done)) + alpha).
template <fixed_string Name = "SGDRDecay", class LR, class Step, class D, class T = double, class M = double,
          class A = double>
auto cosine_decay_restarts(const LR& learning_rate, const Step& global_step, const D& first_decay_steps,
                           const T& t_mul = 2.0, const M& m_mul = 1.0, const A& alpha = 0.0) {
  return detail::schedule<fn::cosine_decay_restarts, Name>(
      learning_rate, global_step, detail::schedule_parameter<Name, "first_decay_steps">(first_decay_steps),
      detail::schedule_parameter<Name, "t_mul">(t_mul), detail::schedule_parameter<Name, "m_mul">(m_mul),
      detail::schedule_parameter<Name, "alpha">(alpha));
}

/// tf.train.linear_cosine_decay(learning_rate, global_step, decay_steps, num_periods, alpha,
/// beta): with s = min(global_step, decay_steps), learning_rate * ((alpha + (decay_steps - s)
/// / decay_steps) * 0.5 * (1 + cos(pi * 2 * num_periods * s / decay_steps)) + beta).
template <fixed_string Name = "LinearCosineDecay", class LR, class Step, class D, class N = double, class A = double,
          class B = double>
auto linear_cosine_decay(const LR& learning_rate, const Step& global_step, const D& decay_steps,
                         const N& num_periods = 0.5, const A& alpha = 0.0, const B& beta = 0.001) {
  return detail::schedule<fn::linear_cosine_decay, Name>(
      learning_rate, global_step, detail::schedule_parameter<Name, "decay_steps">(decay_steps),
      detail::schedule_parameter<Name, "num_periods">(num_periods), detail::schedule_parameter<Name, "alpha">(alpha),
      detail::schedule_parameter<Name, "beta">(beta));
}

/// tf.train.noisy_linear_cosine_decay(learning_rate, global_step, decay_steps,
/// initial_variance, variance_decay, num_periods, alpha, beta), and a seed: linear_cosine_decay
/// with eps added to its linear part, eps normal with mean 0 and variance initial_variance /
/// (1 + s) ^ variance_decay, s = min(global_step, decay_steps). Unlike TensorFlow, which draws
/// eps anew on each run, eps is a function of (seed, global_step): a run at the same step
/// gives the same value, another seed another noise. The seed is an integer (the int64 named
/// constant "<Name>/seed", 0 unless given) or an integer scalar node.
template <fixed_string Name = "NoisyLinearCosineDecay", class LR, class Step, class D, class V = double,
          class VD = double, class N = double, class A = double, class B = double, class Seed = std::int64_t>
auto noisy_linear_cosine_decay(const LR& learning_rate, const Step& global_step, const D& decay_steps,
                               const V& initial_variance = 1.0, const VD& variance_decay = 0.55,
                               const N& num_periods = 0.5, const A& alpha = 0.0, const B& beta = 0.001,
                               const Seed& seed = 0) {
  return detail::schedule<fn::noisy_linear_cosine_decay, Name>(
      learning_rate, global_step, detail::schedule_parameter<Name, "decay_steps">(decay_steps),
      detail::schedule_parameter<Name, "initial_variance">(initial_variance),
      detail::schedule_parameter<Name, "variance_decay">(variance_decay),
      detail::schedule_parameter<Name, "num_periods">(num_periods), detail::schedule_parameter<Name, "alpha">(alpha),
      detail::schedule_parameter<Name, "beta">(beta), detail::schedule_seed<Name>(seed));
}

}  // namespace typeflow::train
