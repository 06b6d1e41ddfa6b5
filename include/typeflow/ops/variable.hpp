// typeflow/ops/variable.hpp — tf.get_variable: named state that lives in a session.
#pragma once

#include <optional>
#include <string>
#include <type_traits>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/init.hpp"

namespace typeflow {

/// In a diagnostic: variable Name of element type T, whose initializer in its type draws
/// values T cannot hold (init::valid_for).
template <fixed_string Name, class T>
struct initializer_must_fit_the_variables_element_type {
  static constexpr bool value = false;
};

/// TensorFlow's `trainable=False`, as a tag: `variable<"step", std::int64_t>(not_trainable)`,
/// `variable<"b", float, shape<3>>(init::zeros(), not_trainable)`. Optimizers' minimize(loss)
/// and compute_gradients(loss) leave such a variable out (their var_list defaults to the
/// trainable variables, tf.trainable_variables()); a var_list naming it trains it.
struct not_trainable_t {
  explicit constexpr not_trainable_t() = default;
};
inline constexpr not_trainable_t not_trainable{};

namespace init {
/// The initializer source of a variable made with `not_trainable`: Source (fixed<I>,
/// run_time, ...) marked so. The mark is in the initializer source, not in a parameter of
/// its own, so an ordinary variable's type, and its printed and mangled name, stay as they
/// were; variable_node's `initializer_source` is Source.
template <class Source>
struct not_trainable {};
}  // namespace init

namespace ops::detail {
/// What a variable's object holds: nothing when its initializer is in its type; the
/// initializer, a definition (core/definition.hpp), when it is known only at run time.
template <class Init>
struct variable_definition {};
template <>
struct variable_definition<init::run_time> {
  using definition_type = std::optional<init::initializer>;
  definition_type definition{};
};
template <class Source>
struct variable_definition<init::not_trainable<Source>> : variable_definition<Source> {};

template <class Init>
struct initializer_source_of {
  using type = Init;
};
template <class Source>
struct initializer_source_of<init::not_trainable<Source>> {
  using type = Source;
};
}  // namespace ops::detail

/// The variable `Name`, initialized from `Init` (init::fixed<I>, init::run_time,
/// init::value_of<C>, init::like<V>, or one of these in init::not_trainable<...>): the
/// initializer is part of the variable's type, or, for init::run_time, its object's
/// definition. Its value lives in each session whose graph reaches it.
///
/// Its name is the path Name (name_path_t<"w">, core/fixed_string.hpp); written
/// variable_node<"w", T, S, Init>.
template <class Name, element_type T, shape_type S, class Init = init::default_for<T>>
struct named_variable : node_facade<T, S, node_kind::leaf>,
                        op_info<"VariableV2", false>,
                        ops::detail::variable_definition<Init> {
  static_assert(S::is_static,
                "typeflow::variable needs a fully defined shape (no typeflow::dyn), as "
                "tf.get_variable does");
  static constexpr auto name = Name::value;
  static constexpr bool is_variable = true;
  using initializer_source = typename ops::detail::initializer_source_of<Init>::type;
};
template <fixed_string Name, element_type T, shape_type S, class Init = init::default_for<T>>
using variable_node = named_variable<name_path_t<Name>, T, S, Init>;

/// Whether V is a trainable variable (TensorFlow's `trainable`): what optimizers'
/// minimize(loss) and compute_gradients(loss) update when given no var_list. A variable is,
/// unless made `not_trainable`; an op's hidden state (a dropout's counter) and a moving
/// average's shadow variables (train/moving_average.hpp) are not, as in TensorFlow; what is
/// not a variable is not. Gradients do not ask: tf::gradients(loss, v) is v's either way.
template <class V>
struct is_trainable : std::bool_constant<variable_node_type<V> && !hidden_state_node<V>> {};
template <class Name, element_type T, shape_type S, class Source>
struct is_trainable<named_variable<Name, T, S, init::not_trainable<Source>>> : std::false_type {};
template <class V>
inline constexpr bool is_trainable_v = is_trainable<V>::value;

/// `variable<"w", float, shape<784, 128>>()` is `tf.get_variable("w", [784, 128])`
/// (glorot_uniform for floating types, zeros otherwise); `variable<"w", float, shape<784,
/// 128>, init::zeros()>()` chooses the initializer in the type.
template <fixed_string Name, element_type T, shape_type S = scalar, init::initializer I = init::default_for<T>::value>
constexpr variable_node<Name, T, S, init::fixed<I>> variable() {
  if constexpr (!init::valid_for<T>(I)) {
    static_assert(initializer_must_fit_the_variables_element_type<Name, T>::value,
                  "typeflow::variable<name, T, S, initializer>(): random_normal, truncated_normal and "
                  "glorot_uniform initialize floating variables only, random_uniform no bool; give "
                  "the variable a floating type or another initializer");
  }
  return {};
}

/// `variable<"w", float, shape<784, 128>>(init::truncated_normal(0, stddev))`: an initializer
/// known at run time (read from a configuration, say), carried by the variable object to
/// the sessions that hold it. The same model function built with two initializers gives
/// two graphs of the same types, each session with its own initializer.
template <fixed_string Name, element_type T, shape_type S = scalar>
variable_node<Name, T, S, init::run_time> variable(const init::initializer& initializer) {
  if (!init::valid_for<T>(initializer))  // TensorFlow: ValueError, when the variable is made
    throw invalid_argument_error((initializer.kind == init::kind::random_uniform
                                      ? "Invalid dtype " + std::string(dtype_name_of<T>)
                                      : "Expected floating point type, got " + std::string(dtype_name_of<T>)) +
                                 ": " + std::string(init::name_of(initializer.kind)) +
                                 " cannot initialize variable " + std::string(Name.view()));
  variable_node<Name, T, S, init::run_time> v;
  v.definition = initializer;
  return v;
}

/// `variable<"global_step", std::int64_t>(not_trainable)`, `variable<"b", float, shape<3>,
/// init::zeros()>(not_trainable)`: tf.get_variable(..., trainable=False), the initializer in
/// the type. The variable is initialized, saved and restored, assigned and differentiated as
/// any other; only optimizers given no var_list leave it out (is_trainable_v).
template <fixed_string Name, element_type T, shape_type S = scalar, init::initializer I = init::default_for<T>::value>
constexpr variable_node<Name, T, S, init::not_trainable<init::fixed<I>>> variable(not_trainable_t) {
  (void)variable<Name, T, S, I>();  // the checks of the initializer
  return {};
}

/// `variable<"b", float, shape<3>>(init::zeros(), not_trainable)`: the same with an
/// initializer known at run time.
template <fixed_string Name, element_type T, shape_type S = scalar>
variable_node<Name, T, S, init::not_trainable<init::run_time>> variable(const init::initializer& initializer,
                                                                       not_trainable_t) {
  variable_node<Name, T, S, init::not_trainable<init::run_time>> v;
  v.definition = variable<Name, T, S>(initializer).definition;  // the checks of the initializer
  return v;
}

}  // namespace typeflow
