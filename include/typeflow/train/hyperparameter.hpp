// typeflow/train/hyperparameter.hpp — hyperparameters as graph values: how an optimizer's
// learning rate, betas, epsilon, momentum and decay, and a moving average's decay, become
// scalar nodes, and how a run reads them.
//
// A hyperparameter is a scalar node, as in TensorFlow: a literal, a placeholder fed per run,
// a variable or an expression (a decayed learning rate); a number becomes a named constant
// ("Adam/learning_rate", "ExponentialMovingAverage/decay") whose value the nodes built from
// it carry to the sessions that run them, so nothing is kept program-wide.
#pragma once

#include <type_traits>
#include <utility>

#include "typeflow/core/fixed_string.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/constant.hpp"
#include "typeflow/ops/init.hpp"

namespace typeflow::train {

namespace detail {

/// In a diagnostic: a hyperparameter (an optimizer's, or a moving average's decay) must be a
/// scalar (rank 0) node or a number.
template <fixed_string Hyperparameter>
struct hyperparameter_must_be_a_scalar_node_or_a_number {
  static constexpr bool value = false;
};

/// The node of hyperparameter Param of Opt (an optimizer or a moving average) given as `h`:
/// `h` itself when it is a scalar node; a number becomes the named constant "<Opt>/<Param>"
/// (TensorFlow's "Adam/learning_rate"), carried by the nodes built from it.
template <fixed_string Opt, fixed_string Param, class H>
auto hyperparameter(const H& h) {
  if constexpr (node<H>) {
    if constexpr (shape_of<H>::rank != 0) {
      static_assert(hyperparameter_must_be_a_scalar_node_or_a_number<Param>::value,
                    "a hyperparameter (an optimizer's learning rate, betas, epsilon, momentum or decay; a "
                    "moving average's decay) must be a number or a scalar node (a literal, a "
                    "placeholder, a variable or an expression of rank 0)");
      return constant<0.0>();  // inert: the error above is the one to read
    } else {
      return h;
    }
  } else {
    static_assert(std::is_arithmetic_v<H>, "a hyperparameter must be a number or a scalar node");
    return typeflow::constant<join_names<Opt, Param>(), double, scalar>(static_cast<double>(h));
  }
}
template <fixed_string Opt, fixed_string Param, class H>
using hyperparameter_t = decltype(hyperparameter<Opt, Param>(std::declval<const H&>()));

/// The value of a hyperparameter node in a run, as a double.
template <class H, class Ctx>
double hyper_value(Ctx& ctx) {
  return static_cast<double>(ctx.template value<H>());
}

/// In a diagnostic: this hyperparameter gives a variable its initial value (Adam's beta1 is
/// beta1_power's), so it must be known when variables are initialized.
template <fixed_string Hyperparameter>
struct hyperparameter_initializes_a_variable_give_a_number_or_a_literal {
  static constexpr bool value = false;
};
/// The initializer of a variable whose initial value is hyperparameter H's.
template <fixed_string Param, class H>
constexpr auto initial_value_source() {
  if constexpr (literal_node_type<H> || named_constant_node_type<H>) {
    return std::type_identity<init::value_of<H>>{};
  } else {
    static_assert(hyperparameter_initializes_a_variable_give_a_number_or_a_literal<Param>::value,
                  "this hyperparameter is a variable's initial value (as Adam's beta1 is beta1_power's): "
                  "give it as a number or a literal (typeflow::constant<0.9>())");
    return std::type_identity<init::fixed<init::zeros()>>{};
  }
}
template <fixed_string Param, class H>
using initial_value_t = typename decltype(initial_value_source<Param, H>())::type;

}  // namespace detail

}  // namespace typeflow::train
