// typeflow/train/detail/schedule.hpp — what the learning-rate schedules share
// (train/learning_rate_decay.hpp, train/cosine_decay.hpp): a schedule is an elementwise
// node of a `fn::` function over the learning rate, the global step and its parameters,
// each parameter a scalar node or a number made the named constant "<Schedule>/<param>".
#pragma once

#include <type_traits>
#include <utility>

#include "typeflow/core/fixed_string.hpp"
#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/constant.hpp"
#include "typeflow/ops/elementwise.hpp"
#include "typeflow/train/hyperparameter.hpp"

namespace typeflow::train::detail {

/// What a schedule's scalar function says of itself: its op name, and that no gradient
/// flows into it (its parameters are constants and a step count).
template <fixed_string OpName>
struct schedule_op : op_info<OpName> {
  template <std::size_t K, class G, class Self, class... In>
  using gradient = no_gradient;
};

/// A schedule's parameter Param: a scalar node as it is, a number or a bool as the named
/// constant "<Schedule>/<Param>".
template <fixed_string Schedule, fixed_string Param, class P>
auto schedule_parameter(const P& p) {
  if constexpr (std::is_same_v<P, bool>) {
    return typeflow::constant<join_names<Schedule, Param>(), bool, scalar>(p);
  } else {
    return hyperparameter<Schedule, Param>(p);
  }
}
template <fixed_string Schedule, fixed_string Param, class P>
using schedule_parameter_t = decltype(schedule_parameter<Schedule, Param>(std::declval<const P&>()));

/// In a diagnostic: a schedule's global step must be a scalar node.
template <fixed_string Schedule>
struct the_global_step_of_a_schedule_must_be_a_scalar_node {
  static constexpr bool value = false;
};
template <fixed_string Schedule, class Step>
constexpr bool check_step() {
  if constexpr (!node<Step>) {
    static_assert(the_global_step_of_a_schedule_must_be_a_scalar_node<Schedule>::value,
                  "a learning-rate schedule's global_step must be a scalar node (train::global_step())");
    return false;
  } else if constexpr (shape_of<Step>::rank != 0) {
    static_assert(the_global_step_of_a_schedule_must_be_a_scalar_node<Schedule>::value,
                  "a learning-rate schedule's global_step must be a scalar node (train::global_step())");
    return false;
  } else {
    return true;
  }
}

/// The schedule Fn of (learning rate, global step, params...), the params already nodes.
template <class Fn, fixed_string Schedule, class LR, class Step, class... P>
auto schedule(const LR& lr, const Step& step, const P&... params) {
  if constexpr (!check_step<Schedule, Step>()) {
    return hyperparameter<Schedule, "learning_rate">(lr);  // inert: the error above is the one to read
  } else {
    auto l = hyperparameter<Schedule, "learning_rate">(lr);
    return make_node<elementwise_node<Fn, decltype(l), Step, P...>>(l, step, params...);
  }
}

}  // namespace typeflow::train::detail
