// typeflow/ops/state.hpp — side-effect nodes on variables and ordering:
// assign, assign_add, assign_sub, group, control_dependencies, initializers.
//
// Side effects happen when, and only when, a run's computation path flows through the
// node (DESIGN rule 7). An assign has no edge back from its variable: reading the
// variable elsewhere does not run the assign.
#pragma once

#include <string>
#include <type_traits>
#include <vector>

#include <xtensor/xnoalias.hpp>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/core/none.hpp"
#include "typeflow/ops/elementwise.hpp"
#include "typeflow/ops/variable.hpp"

namespace typeflow {

/// In a diagnostic: the argument (a node's op name) that should have been a variable.
template <class N>
struct argument_must_be_a_variable {
  static constexpr bool value = variable_node_type<N>;
};

/// In a diagnostic: the variable and value shapes an assign cannot match.
template <class VariableShape, class ValueShape>
struct assigned_value_must_have_the_variable_shape {
  static constexpr bool value = false;
};

namespace ops::detail {

template <class S, class T>
constexpr bool same_dims() {
  if constexpr (S::rank != T::rank) {
    return false;
  } else {
    for (std::size_t i = 0; i < S::rank; ++i)
      if (S::dims[i] != T::dims[i] && T::dims[i] != dyn) return false;
    return true;
  }
}

template <class V, class Value>
void check_assign_shape(const Value& value) {
  if constexpr (!std::is_arithmetic_v<Value>) {
    if (!shape_matches<shape_of<V>>(value.shape()))
      throw invalid_argument_error("Assign requires shapes of both tensors to match. lhs shape= " +
                                   shape_string<shape_of<V>>() + " rhs shape= " +
                                   shape_string(value.shape()) + " (variable " +
                                   std::string(V::name.view()) + ")");
  }
}

struct assign_kind : op_info<"Assign", false> {};
struct assign_add_kind : op_info<"AssignAdd", false> {};
struct assign_sub_kind : op_info<"AssignSub", false> {};

}  // namespace ops::detail

template <class Kind, class V, class Value>
struct assign_node : writer_facade<value_type_of<V>, shape_of<V>, node_kind::effect, mp::mp_list<V>, Value>,
                     op_info_of<Kind> {
  using reads = mp::mp_if_c<std::is_same_v<Kind, ops::detail::assign_kind>, mp::mp_list<>, mp::mp_list<V>>;
  using forwards_variable = V;
  template <class... N>
  using rebind = assign_node<Kind, V, N...>;

  template <class Ctx>
  static void run(Ctx& ctx) {
    auto& slot = ctx.template slot_of<V>();
    const auto& value = ctx.template value<Value>();
    ops::detail::check_assign_shape<V>(value);
    if constexpr (std::is_arithmetic_v<std::remove_cvref_t<decltype(slot.value)>>) {
      if constexpr (std::is_same_v<Kind, ops::detail::assign_kind>) slot.value = value;
      if constexpr (std::is_same_v<Kind, ops::detail::assign_add_kind>) slot.value += value;
      if constexpr (std::is_same_v<Kind, ops::detail::assign_sub_kind>) slot.value -= value;
    } else {
      // Not `noalias(v) += value`: xtensor 0.24.3's computed assignment does not compile
      // for fixed-shape containers. Elementwise reads of v at the index written are safe.
      if constexpr (std::is_same_v<Kind, ops::detail::assign_kind>) xt::noalias(slot.value) = value;
      if constexpr (std::is_same_v<Kind, ops::detail::assign_add_kind>) xt::noalias(slot.value) = slot.value + value;
      if constexpr (std::is_same_v<Kind, ops::detail::assign_sub_kind>) xt::noalias(slot.value) = slot.value - value;
    }
    slot.initialized = true;
  }
};

namespace ops::detail {
template <class Kind, class V, class Value>
constexpr auto make_assign(const V& v, const Value& value) {
  static_assert(argument_must_be_a_variable<V>::value,
                "typeflow::assign(v, value): v must be a typeflow::variable");
  using L = typename detail::adapt_literal<Value, V>::type;
  static_assert(std::is_same_v<value_type_of<L>, value_type_of<V>>,
                "typeflow::assign(v, value): value must have the variable's element type");
  if constexpr (!same_dims<shape_of<V>, shape_of<L>>()) {
    static_assert(assigned_value_must_have_the_variable_shape<shape_of<V>, shape_of<L>>::value,
                  "typeflow::assign(v, value): value must have the variable's shape");
  }
  return make_node<assign_node<Kind, V, L>>(v, value);
}
}  // namespace ops::detail

/// tf.assign(v, value): when run, writes value into v (and initializes it); its value
/// is v's new value.
template <node V, node Value>
constexpr auto assign(V v, Value value) {
  return ops::detail::make_assign<ops::detail::assign_kind>(v, value);
}
/// tf.assign_add(v, delta): v += delta when run; v must be initialized.
template <node V, node Value>
constexpr auto assign_add(V v, Value delta) {
  return ops::detail::make_assign<ops::detail::assign_add_kind>(v, delta);
}
/// tf.assign_sub(v, delta): v -= delta when run; v must be initialized.
template <node V, node Value>
constexpr auto assign_sub(V v, Value delta) {
  return ops::detail::make_assign<ops::detail::assign_sub_kind>(v, delta);
}

// --- group and control dependencies -----------------------------------------------------

template <class... In>
struct group_node : node_facade<none_t, scalar, node_kind::effect, In...>, op_info<"group_deps", false> {
  using output_type = none_t;
  static constexpr bool changes_state = false;  // its inputs may; each says so itself
  template <class... N>
  using rebind = group_node<N...>;
  template <class Ctx>
  static void run(Ctx&) {}
};

/// tf.group(a, b, ...): runs its inputs (in order), has no value.
template <node... In>
constexpr group_node<In...> group(const In&... in) {
  return make_node<group_node<In...>>(in...);
}

/// Evaluates Deps, in order, before forwarding X's value (tf.control_dependencies +
/// tf.identity, or with_dependencies).
template <class X, class... Deps>
struct with_dependencies_node : node_facade<value_type_of<X>, shape_of<X>, node_kind::effect, Deps..., X>,
                                op_info<"Identity"> {
  using forwards = X;
  static constexpr bool changes_state = false;  // its dependencies may; each says so itself
  // The gradient passes to x only.
  template <std::size_t K, class G>
  using gradient = mp::mp_if_c<K == sizeof...(Deps), G, no_gradient>;
  template <class... N>
  using rebind = mp::mp_rename<  // inputs are (deps..., x): x moves back to the front
      mp::mp_push_front<mp::mp_pop_back<mp::mp_list<N...>>, mp::mp_back<mp::mp_list<N...>>>,
      with_dependencies_node>;
  template <class Ctx>
  static void run(Ctx&) {}
};

template <class... Deps>
struct control_dependencies_t {
  group_node<Deps...> deps;  // carries what the dependencies carry
  /// The node x, evaluated after the dependencies.
  template <node X>
  constexpr with_dependencies_node<X, Deps...> operator()(const X& x) const {
    return make_node<with_dependencies_node<X, Deps...>>(deps, x);
  }
};

/// `control_dependencies(a, b)(x)`: x's value, computed after a and b have run, as
/// `with tf.control_dependencies([a, b]): y = tf.identity(x)`.
template <node... Deps>
constexpr control_dependencies_t<Deps...> control_dependencies(const Deps&... deps) {
  return {make_node<group_node<Deps...>>(deps...)};
}

/// tf.identity(x)
namespace fn {
struct identity : ops::detail::forward_op<"Identity", true> {};
}  // namespace fn
template <node A>
constexpr auto identity(A a) {
  return make_unary<fn::identity>(a);
}

// --- initialization -----------------------------------------------------------------------

struct global_variables_initializer_node : node_facade<none_t, scalar, node_kind::effect>,
                                           op_info<"init", false> {
  using output_type = none_t;
  template <class Ctx>
  static void run(Ctx& ctx) {
    ctx.session.initialize_all();
  }
};

/// tf.global_variables_initializer(): when run, initializes every variable of the
/// session's graph with its initializer.
constexpr global_variables_initializer_node global_variables_initializer() { return {}; }

template <class... V>
struct variables_initializer_node : writer_facade<none_t, scalar, node_kind::effect, mp::mp_list<V...>>,
                                    op_info<"init", false> {
  using output_type = none_t;
  template <class Ctx>
  static void run(Ctx& ctx) {
    (ctx.session.template initialize<V>(), ...);
  }
};

/// tf.variables_initializer([v...]): when run, initializes these variables.
template <node... V>
constexpr variables_initializer_node<V...> variables_initializer(const V&... v) {
  static_assert((argument_must_be_a_variable<V>::value && ...),
                "typeflow::variables_initializer(v...): every argument must be a variable");
  return make_node<variables_initializer_node<V...>>(v...);
}

template <class V>
struct is_variable_initialized_node : writer_facade<bool, scalar, node_kind::effect, mp::mp_list<V>>,
                                      op_info<"IsVariableInitialized", false> {
  using output_type = bool;
  static constexpr bool changes_state = false;
  template <class Ctx>
  static void run(Ctx& ctx) {
    ctx.template buffer<is_variable_initialized_node>() = ctx.template slot_of<V>().initialized;
  }
};

/// tf.is_variable_initialized(v): a bool.
template <node V>
constexpr is_variable_initialized_node<V> is_variable_initialized(const V& v) {
  static_assert(argument_must_be_a_variable<V>::value,
                "typeflow::is_variable_initialized(v): v must be a variable");
  return make_node<is_variable_initialized_node<V>>(v);
}

struct report_uninitialized_variables_node : node_facade<none_t, scalar, node_kind::effect>,
                                             op_info<"report_uninitialized_variables", false> {
  using output_type = std::vector<std::string>;
  static constexpr bool changes_state = false;
  template <class Ctx>
  static void run(Ctx& ctx) {
    ctx.template buffer<report_uninitialized_variables_node>() = ctx.session.uninitialized_names();
  }
};

/// tf.report_uninitialized_variables(): the names of the session's variables that are
/// not initialized, in graph order.
constexpr report_uninitialized_variables_node report_uninitialized_variables() { return {}; }

}  // namespace typeflow
