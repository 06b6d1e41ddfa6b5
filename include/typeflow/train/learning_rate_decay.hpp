// typeflow/train/learning_rate_decay.hpp — tf.train.exponential_decay, natural_exp_decay,
// inverse_time_decay, polynomial_decay and piecewise_constant; with train/cosine_decay.hpp
// (cosine_decay, cosine_decay_restarts, linear_cosine_decay, noisy_linear_cosine_decay),
// which it includes, every learning-rate schedule of TensorFlow 1.x's learning_rate_decay.py.
//
// Each schedule is a scalar node of the global step, with TensorFlow's formula, to pass where
// an optimizer takes its learning rate: `train::adam(train::exponential_decay(0.1, step, 1000,
// 0.96))`. Its parameters are numbers (named constants under the schedule's name,
// "ExponentialDecay/decay_rate", as TensorFlow's name scope names them) or scalar nodes. Two
// schedules with other parameters in one session need two names:
// `exponential_decay<"lr_decay">(...)`. The element type of the result is the learning rate's
// (double for a number).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include <xtensor/xadapt.hpp>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/constant.hpp"
#include "typeflow/ops/elementwise.hpp"
#include "typeflow/train/cosine_decay.hpp"
#include "typeflow/train/detail/schedule.hpp"
#include "typeflow/train/optimizer.hpp"

namespace typeflow::train {

namespace fn {
/// step / steps, floored with staircase: how far a decay has gone.
template <class S, class D, class B>
double decay_progress(S step, D decay_steps, B staircase) {
  const double p = static_cast<double>(step) / static_cast<double>(decay_steps);
  return staircase ? std::floor(p) : p;
}

/// lr * rate ^ (step / steps), the exponent floored with staircase.
struct exponential_decay : detail::schedule_op<"ExponentialDecay"> {
  template <class L, class S, class D, class R, class B>
  L operator()(L lr, S step, D decay_steps, R decay_rate, B staircase) const {
    const double p = decay_progress(step, decay_steps, staircase);
    return static_cast<L>(static_cast<double>(lr) * std::pow(static_cast<double>(decay_rate), p));
  }
};
/// lr * exp(-rate * step / steps), step / steps floored with staircase.
struct natural_exp_decay : detail::schedule_op<"NaturalExpDecay"> {
  template <class L, class S, class D, class R, class B>
  L operator()(L lr, S step, D decay_steps, R decay_rate, B staircase) const {
    const double p = decay_progress(step, decay_steps, staircase);
    return static_cast<L>(static_cast<double>(lr) * std::exp(-static_cast<double>(decay_rate) * p));
  }
};
/// lr / (1 + rate * step / steps), step / steps floored with staircase.
struct inverse_time_decay : detail::schedule_op<"InverseTimeDecay"> {
  template <class L, class S, class D, class R, class B>
  L operator()(L lr, S step, D decay_steps, R decay_rate, B staircase) const {
    const double p = decay_progress(step, decay_steps, staircase);
    return static_cast<L>(static_cast<double>(lr) / (1.0 + static_cast<double>(decay_rate) * p));
  }
};
/// (lr - end) * (1 - step / steps) ^ power + end; with cycle, steps grows to the next
/// multiple of itself past step, else step stops at steps.
struct polynomial_decay : detail::schedule_op<"PolynomialDecay"> {
  template <class L, class S, class D, class E, class P, class B>
  L operator()(L lr, S step, D decay_steps, E end_learning_rate, P power, B cycle) const {
    double s = static_cast<double>(step);
    double steps = static_cast<double>(decay_steps);
    if (cycle) {
      // TensorFlow: a multiplier of 1 at step 0, else ceil(step / steps).
      const double multiplier = s == 0 ? 1.0 : std::ceil(s / steps);
      steps *= multiplier;
    } else {
      s = std::min(s, steps);
    }
    const double end = static_cast<double>(end_learning_rate);
    return static_cast<L>((static_cast<double>(lr) - end) * std::pow(1.0 - s / steps, static_cast<double>(power)) +
                          end);
  }
};
}  // namespace fn

namespace detail {
/// A schedule of decay_steps, decay_rate and staircase (exponential_decay,
/// natural_exp_decay, inverse_time_decay): Fn over them, as constants named under Name
/// where they are numbers.
template <class Fn, fixed_string Name, class LR, class Step, class D, class R>
auto rate_decay(const LR& learning_rate, const Step& global_step, const D& decay_steps, const R& decay_rate,
                bool staircase) {
  return schedule<Fn, Name>(learning_rate, global_step, schedule_parameter<Name, "decay_steps">(decay_steps),
                            schedule_parameter<Name, "decay_rate">(decay_rate),
                            schedule_parameter<Name, "staircase">(staircase));
}
}  // namespace detail

/// tf.train.exponential_decay(learning_rate, global_step, decay_steps, decay_rate,
/// staircase): learning_rate * decay_rate ^ (global_step / decay_steps).
template <fixed_string Name = "ExponentialDecay", class LR, class Step, class D, class R>
auto exponential_decay(const LR& learning_rate, const Step& global_step, const D& decay_steps, const R& decay_rate,
                       bool staircase = false) {
  return detail::rate_decay<fn::exponential_decay, Name>(learning_rate, global_step, decay_steps, decay_rate,
                                                         staircase);
}

/// tf.train.natural_exp_decay(learning_rate, global_step, decay_steps, decay_rate,
/// staircase): learning_rate * exp(-decay_rate * global_step / decay_steps).
template <fixed_string Name = "NaturalExpDecay", class LR, class Step, class D, class R>
auto natural_exp_decay(const LR& learning_rate, const Step& global_step, const D& decay_steps, const R& decay_rate,
                       bool staircase = false) {
  return detail::rate_decay<fn::natural_exp_decay, Name>(learning_rate, global_step, decay_steps, decay_rate,
                                                         staircase);
}

/// tf.train.inverse_time_decay(learning_rate, global_step, decay_steps, decay_rate,
/// staircase): learning_rate / (1 + decay_rate * global_step / decay_steps).
template <fixed_string Name = "InverseTimeDecay", class LR, class Step, class D, class R>
auto inverse_time_decay(const LR& learning_rate, const Step& global_step, const D& decay_steps, const R& decay_rate,
                        bool staircase = false) {
  return detail::rate_decay<fn::inverse_time_decay, Name>(learning_rate, global_step, decay_steps, decay_rate,
                                                          staircase);
}

/// tf.train.polynomial_decay(learning_rate, global_step, decay_steps, end_learning_rate,
/// power, cycle): (learning_rate - end) * (1 - min(step, steps) / steps) ^ power + end.
template <fixed_string Name = "PolynomialDecay", class LR, class Step, class D, class E = double, class P = double>
auto polynomial_decay(const LR& learning_rate, const Step& global_step, const D& decay_steps,
                      const E& end_learning_rate = 0.0001, const P& power = 1.0, bool cycle = false) {
  return detail::schedule<fn::polynomial_decay, Name>(
      learning_rate, global_step, detail::schedule_parameter<Name, "decay_steps">(decay_steps),
      detail::schedule_parameter<Name, "end_learning_rate">(end_learning_rate),
      detail::schedule_parameter<Name, "power">(power), detail::schedule_parameter<Name, "cycle">(cycle));
}

/// The node of piecewise_constant: values[i] for the first boundary[i] >= x, the last
/// value past every boundary.
template <class X, class B, class V>
struct piecewise_constant_node : node_facade<value_type_of<V>, scalar, node_kind::compute, X, B, V>,
                                 op_info<"PiecewiseConstant", false> {
  template <class... N>
  using rebind = piecewise_constant_node<N...>;
  template <class Out, class VX, class VB, class VV>
  static void compute(Out& out, const VX& x, const VB& boundaries, const VV& values) {
    const double at = static_cast<double>(x);
    std::size_t i = 0;
    while (i < boundaries.size() && at > static_cast<double>(boundaries.data()[i])) ++i;
    out = values.data()[i];
  }
};

/// tf.train.piecewise_constant(x, boundaries, values): values[0] while x <= boundaries[0],
/// values[1] while x <= boundaries[1], ..., values[n] past boundaries[n - 1]. There must be
/// one more value than boundaries, and the boundaries must increase; the two lists become
/// the named constants "<Name>/boundaries" and "<Name>/values".
template <fixed_string Name = "PiecewiseConstant", node X>
auto piecewise_constant(const X& x, const std::vector<double>& boundaries, const std::vector<double>& values) {
  static_assert(shape_of<X>::rank == 0, "train::piecewise_constant(x, boundaries, values): x must be a scalar node");
  if (values.size() != boundaries.size() + 1)
    throw invalid_argument_error("The length of boundaries should be 1 less than the length of values (" +
                                 std::string(Name.view()) + ": " + std::to_string(boundaries.size()) +
                                 " boundaries, " + std::to_string(values.size()) + " values)");
  for (std::size_t i = 1; i < boundaries.size(); ++i)
    if (!(boundaries[i - 1] < boundaries[i]))
      throw invalid_argument_error("The boundaries of " + std::string(Name.view()) + " must increase");
  const std::array<std::size_t, 1> nb{boundaries.size()}, nv{values.size()};
  auto b = typeflow::constant<join_names<Name, "boundaries">(), double, shape<dyn>>(xt::adapt(boundaries, nb));
  auto v = typeflow::constant<join_names<Name, "values">(), double, shape<dyn>>(xt::adapt(values, nv));
  return make_node<piecewise_constant_node<X, decltype(b), decltype(v)>>(x, b, v);
}

}  // namespace typeflow::train
