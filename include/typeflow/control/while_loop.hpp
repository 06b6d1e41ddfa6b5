// typeflow/control/while_loop.hpp — tf.while_loop: loop variables carried while a condition
// of them holds.
//
// A while loop is a loop of the graph (control::dynamic_loop, scan.hpp) whose body has a
// condition: cond and body are each called once, with placeholders for the loop variables,
// and the nodes they make are the loop's graph, compiled once. Before each step the loop runs
// the condition on the variables and stops when it is false, or when the steps reach
// maximum_iterations (the loop's sequence, a scalar; the step's input is the step's index).
// The variables are the loop's states. As for map_fn and cond, the loop runs in float when
// every variable is float and in double otherwise: integers and bools travel as double and
// are cast back for cond and body, which see the variables' own element types. The gradient
// of a final value is the loop's reverse loop over the steps taken (TensorFlow's while-loop
// gradient); integer and bool variables have none.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <tuple>
#include <type_traits>
#include <utility>

#include "typeflow/control/detail/while_steps.hpp"
#include "typeflow/control/map_fn.hpp"
#include "typeflow/ops/constant.hpp"

namespace typeflow {

/// In a diagnostic: the cond of while loop Loop returned a node of element type T and shape
/// Shape, not a scalar bool.
template <fixed_string Loop, class T, class Shape>
struct while_cond_must_return_a_scalar_bool {
  static constexpr bool value = false;
};
/// In a diagnostic: loop_vars of while loop Loop is not a node, nor a std::tuple of nodes;
/// or its cond or body returned something else than a node (a std::tuple of nodes).
template <fixed_string Loop>
struct while_loop_vars_and_body_results_must_be_nodes {
  static constexpr bool value = false;
};
/// In a diagnostic: the body of while loop Loop returned Got values for its Vars variables.
template <fixed_string Loop, std::size_t Vars, std::size_t Got>
struct while_body_must_return_one_value_per_loop_variable {
  static constexpr bool value = false;
};
/// In a diagnostic: the body's value J of while loop Loop has element type Got and shape
/// GotShape where loop variable J has T and Shape (TensorFlow: the body must keep each
/// variable's dtype and shape).
template <fixed_string Loop, std::size_t J, class T, class Shape, class Got, class GotShape>
struct while_body_must_keep_each_variable_type_and_shape {
  static constexpr bool value = false;
};
/// In a diagnostic: loop variable J of while loop Loop has shape Shape, with a dynamic dim
/// after its first.
template <fixed_string Loop, std::size_t J, class Shape>
struct while_loop_variable_may_have_a_dynamic_dim_only_in_its_first {
  static constexpr bool value = false;
};
/// In a diagnostic: maximum_iterations of while loop Loop has element type T and shape
/// Shape, not a scalar integer.
template <fixed_string Loop, class T, class Shape>
struct while_maximum_iterations_must_be_a_scalar_integer {
  static constexpr bool value = false;
};

namespace control::detail {

/// No maximum_iterations: the loop runs while its condition holds.
struct no_maximum_iterations {};

// The checks of while_loop's arguments, each a static_assert in a function named by the loop
// and its culprit alone, so that the diagnostic spells no graph type.
template <fixed_string Scope>
constexpr bool while_structure_error() {
  static_assert(while_loop_vars_and_body_results_must_be_nodes<Scope>::value,
                "typeflow::while_loop(cond, body, loop_vars): loop_vars and body's result must be a node or a "
                "std::tuple of nodes, and cond's a node");
  return false;
}
template <fixed_string Scope, class T, class S>
constexpr bool while_cond_error() {
  static_assert(while_cond_must_return_a_scalar_bool<Scope, T, S>::value,
                "typeflow::while_loop(cond, body, loop_vars): cond must return a scalar bool node");
  return false;
}
template <fixed_string Scope, std::size_t Vars, std::size_t Got>
constexpr bool while_count_error() {
  static_assert(while_body_must_return_one_value_per_loop_variable<Scope, Vars, Got>::value,
                "typeflow::while_loop(cond, body, loop_vars): body must return one value per loop variable (a "
                "std::tuple of them when there are several)");
  return false;
}
template <fixed_string Scope, std::size_t J, class T, class S, class Got, class GotShape>
constexpr bool while_value_error() {
  static_assert(while_body_must_keep_each_variable_type_and_shape<Scope, J, T, S, Got, GotShape>::value,
                "typeflow::while_loop(cond, body, loop_vars): body must return each loop variable with its "
                "element type and shape");
  return false;
}
template <fixed_string Scope, std::size_t J, class S>
constexpr bool while_dynamic_error() {
  static_assert(while_loop_variable_may_have_a_dynamic_dim_only_in_its_first<Scope, J, S>::value,
                "typeflow::while_loop(cond, body, loop_vars): a loop variable may have a dynamic dim only in its "
                "first (the batch)");
  return false;
}
template <fixed_string Scope, class T, class S>
constexpr bool while_maximum_error() {
  static_assert(while_maximum_iterations_must_be_a_scalar_integer<Scope, T, S>::value,
                "typeflow::while_loop(cond, body, loop_vars, maximum_iterations): maximum_iterations must be a "
                "scalar integer node");
  return false;
}

/// The first J in 0..N for which the body's value J (of Outs) differs from variable J (of
/// Vars) in element type or shape; N if none.
template <class Vars, class Outs, std::size_t... J>
constexpr std::size_t first_changed(std::index_sequence<J...>) {
  constexpr bool same[] = {(std::is_same_v<value_type_of<std::tuple_element_t<J, Vars>>, value_type_of<std::tuple_element_t<J, Outs>>> &&
                            std::is_same_v<shape_of<std::tuple_element_t<J, Vars>>, shape_of<std::tuple_element_t<J, Outs>>>)...,
                           false};
  std::size_t i = 0;
  while (i < sizeof...(J) && same[i]) ++i;
  return i;
}

/// The loop variables of the body's placeholders, each cast back to its own element type.
template <class Vars, class W, fixed_string Scope, std::size_t... K>
auto while_arguments(std::index_sequence<K...>) {
  return std::tuple{cast_if_needed<value_type_of<std::tuple_element_t<K, Vars>>>(
      state_placeholder<Scope, K, W, shape_of<std::tuple_element_t<K, Vars>>>{})...};
}

template <fixed_string Scope, class Vars, class CondFn, class BodyFn, node Max, std::size_t... K>
auto build_while(CondFn& cond, BodyFn& body_fn, const Vars& vars, const Max& maximum, std::index_sequence<K...> ks) {
  using W = map_loop_t<value_type_of<std::tuple_element_t<K, Vars>>...>;
  using SPs = mp::mp_list<state_placeholder<Scope, K, W, shape_of<std::tuple_element_t<K, Vars>>>...>;
  using XP = input_placeholder<Scope, W, shape<>>;
  const auto args = while_arguments<Vars, W, Scope>(ks);
  using C = std::remove_cvref_t<decltype(std::apply(cond, args))>;
  using R = std::remove_cvref_t<decltype(std::apply(body_fn, args))>;
  using Outs = map_parts_t<R>;
  constexpr std::size_t n = sizeof...(K);
  // Each error stops here, and while_loop returns its loop variables so that no other follows.
  if constexpr (!node<C> || !all_nodes<Outs>::value) {
    while_structure_error<Scope>();
    return vars;
  } else if constexpr (!std::is_same_v<value_type_of<C>, bool> || shape_of<C>::rank != 0) {
    while_cond_error<Scope, value_type_of<C>, shape_of<C>>();
    return vars;
  } else if constexpr (std::tuple_size_v<Outs> != n) {
    while_count_error<Scope, n, std::tuple_size_v<Outs>>();
    return vars;
  } else if constexpr (first_changed<Vars, Outs>(ks) < n) {
    constexpr std::size_t j = first_changed<Vars, Outs>(ks);
    using V = std::tuple_element_t<j, Vars>;
    using O = std::tuple_element_t<j, Outs>;
    while_value_error<Scope, j, value_type_of<V>, shape_of<V>, value_type_of<O>, shape_of<O>>();
    return vars;
  } else {
    const auto c = std::apply(cond, args);
    const Outs outs = map_parts(std::apply(body_fn, args));
    using NSs = mp::mp_list<decltype(cast_if_needed<W>(std::get<K>(outs)))...>;
    using Body = body<Scope, SPs, XP, XP, NSs, false, C>;
    if constexpr (!check_body<Scope, Body>()) {
      return vars;  // inert: the error above is the one to read
    } else {
      using L = loop_node<Body, Max, no_lengths, mp::mp_list<decltype(cast_if_needed<W>(std::get<K>(vars)))...>>;
      const L loop = make_node<L>(cast_if_needed<W>(std::get<K>(vars))..., maximum, XP{},
                                  cast_if_needed<W>(std::get<K>(outs))..., c);
      return std::tuple{
          cast_if_needed<value_type_of<std::tuple_element_t<K, Vars>>>(make_node<loop_state<L, K>>(loop))...};
    }
  }
}

}  // namespace control::detail

/// `while_loop<"while">(cond, body, loop_vars[, maximum_iterations])` is TensorFlow's
/// tf.while_loop: while `cond(vars...)` is true, `vars = body(vars...)`, starting at
/// loop_vars (a node, or a std::tuple of nodes), for at most maximum_iterations steps (a
/// scalar integer node; none: no limit). cond returns a scalar bool node; body returns one node
/// per variable (a std::tuple of them when there are several), each of its variable's element
/// type and shape. Each function is called once, when the loop is built, with placeholders
/// for the variables (named "<Scope>/while/state_k"), and the nodes they make are the loop's
/// graph: they may read what a loop's body may (docs/reference/loops.md). Returns the final
/// values: a node, or a std::tuple of nodes, as loop_vars. Variables may have any element
/// types and static shapes or a dynamic first dim; gradients flow through the steps taken to
/// the floating initial values and to what the body reads. Two while loops in one graph need
/// two names.
template <fixed_string Scope = "while", class CondFn, class BodyFn, class Vars,
          class Max = control::detail::no_maximum_iterations>
auto while_loop(CondFn&& cond, BodyFn&& body, const Vars& loop_vars, const Max& maximum_iterations = {}) {
  namespace cd = control::detail;
  using Parts = cd::map_parts_t<Vars>;
  constexpr bool several = cd::is_std_tuple<Vars>::value;
  auto maximum = [&] {
    if constexpr (std::is_same_v<Max, cd::no_maximum_iterations>) {
      return constant<std::numeric_limits<std::int64_t>::max()>();
    } else {
      return maximum_iterations;
    }
  }();
  using M = decltype(maximum);
  const auto result = [&] {
    if constexpr (!cd::all_nodes<Parts>::value || std::tuple_size_v<Parts> == 0) {
      cd::while_structure_error<Scope>();
      return cd::map_parts(loop_vars);
    } else if constexpr (cd::first_bad_result<Parts>::value < std::tuple_size_v<Parts>) {
      constexpr std::size_t j = cd::first_bad_result<Parts>::value;
      cd::while_dynamic_error<Scope, j, shape_of<std::tuple_element_t<j, Parts>>>();
      return cd::map_parts(loop_vars);
    } else if constexpr (!node<M>) {
      cd::while_maximum_error<Scope, M, scalar>();
      return cd::map_parts(loop_vars);
    } else if constexpr (!std::is_integral_v<value_type_of<M>> || std::is_same_v<value_type_of<M>, bool> ||
                         shape_of<M>::rank != 0) {
      cd::while_maximum_error<Scope, value_type_of<M>, shape_of<M>>();
      return cd::map_parts(loop_vars);
    } else {
      return cd::build_while<Scope, Parts>(cond, body, cd::map_parts(loop_vars), maximum,
                                           std::make_index_sequence<std::tuple_size_v<Parts>>{});
    }
  }();
  if constexpr (several) {
    return result;
  } else {
    return std::get<0>(result);
  }
}

}  // namespace typeflow
