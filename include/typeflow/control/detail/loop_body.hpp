// typeflow/control/detail/loop_body.hpp — a loop's body as a graph type, and the body of its gradient.
//
// The body is built once from placeholders for the loop-carried states and for one step of
// the sequence (named "<scope>/while/state_k" and "<scope>/while/input"); `body` holds the
// types of those placeholders, of the output and new states the user's function made of them,
// and of the variables and outer placeholders they read (the captures). `grad_body` is its
// vector-Jacobian product: the gradient of
//     sum(output * g_output) + sum_k sum(new_state_k * g_state_k)
// with respect to the state and input placeholders and the captures, the cotangents g_* fed
// as placeholders; the reverse loop (loop_gradient.hpp) runs it once per step.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/mp11/algorithm.hpp>
#include <xtensor/xtensor.hpp>

#include "typeflow/autodiff/gradients.hpp"
#include "typeflow/control/detail/values.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/core/none.hpp"
#include "typeflow/graph/traverse.hpp"
#include "typeflow/ops/arithmetic.hpp"
#include "typeflow/ops/placeholder.hpp"
#include "typeflow/ops/reduce.hpp"

namespace typeflow::control::detail {


/// "base_k".
template <fixed_string Base, std::size_t I>
constexpr auto indexed_name() {
  constexpr std::size_t digits = [] {
    std::size_t d = 1;
    for (std::size_t v = I; v >= 10; v /= 10) ++d;
    return d;
  }();
  fixed_string<Base.size() + digits + 2> out{};
  for (std::size_t i = 0; i < Base.size(); ++i) out.data[i] = Base.data[i];
  out.data[Base.size()] = '_';
  std::size_t v = I;
  for (std::size_t i = 0; i < digits; ++i, v /= 10) out.data[Base.size() + digits - i] = char('0' + v % 10);
  return out;
}

/// The sequence's shape without its first (time) dimension.
template <class S>
struct step_shape;
template <std::ptrdiff_t T, std::ptrdiff_t... D>
struct step_shape<shape<T, D...>> {
  using type = shape<D...>;
};

/// Whether every dim of S after the first is static (the first may be the batch).
template <class S>
constexpr bool static_after_first() {
  for (std::size_t i = 1; i < S::rank; ++i)
    if (S::dims[i] == dyn) return false;
  return true;
}

/// The elements of one example (one row along the batch, dimension 0) of a value of shape
/// dims.
template <class Dims>
std::size_t row_size(const Dims& dims) {
  std::size_t n = 1;
  for (std::size_t i = 1; i < dims.size(); ++i) n *= dims[i];
  return n;
}

/// The container a loop keeps node N's values in (capacity kept across shorter runs).
template <class N>
using buffer_of = buffer_storage_t<value_type_of<N>, shape_of<N>>;

template <class N>
using changes_state_c = std::bool_constant<changes_state<N>()>;

/// The placeholder names of a loop's body: "<scope>/while/state_k", "<scope>/while/input";
/// the cotangents of its gradient: "<scope>/while_grad/output", "<scope>/while_grad/state_k".
template <fixed_string Scope, std::size_t K, class T, class S>
using state_placeholder = placeholder_node<indexed_name<join_names<Scope, "while/state">(), K>(), T, S>;
template <fixed_string Scope, class T, class S>
using input_placeholder = placeholder_node<join_names<Scope, "while/input">(), T, S>;
/// A loop constant's placeholder in the body: "<scope>/while/capture_k", bound to an outer
/// node (TensorFlow's loop-invariant Enter of a captured tensor).
template <fixed_string Scope, std::size_t K, class T, class S>
using capture_placeholder = placeholder_node<indexed_name<join_names<Scope, "while/capture">(), K>(), T, S>;
template <fixed_string Scope, class T, class S>
using output_cotangent = placeholder_node<join_names<Scope, "while_grad/output">(), T, S>;
template <fixed_string Scope, std::size_t K, class T, class S>
using state_cotangent = placeholder_node<indexed_name<join_names<Scope, "while_grad/state">(), K>(), T, S>;

/// A loop's scope, in a base named by it alone (docs/ARCHITECTURE.md: no static data member
/// in a class whose arguments spell nodes).
template <fixed_string Scope>
struct scope_name {
  static constexpr auto scope = Scope;
};

/// A value fed to a placeholder of a loop's body in one step (what run_subgraph takes).
template <class N, class V>
struct step_feed {
  using node_type = N;
  const V& value;
};

/// Captured node N's value in the run ctx, fed to a step.
template <class N, class Ctx>
[[gnu::always_inline]] inline auto captured_feed(Ctx& ctx) {
  const auto& v = ctx.template value<N>();
  return step_feed<N, std::remove_cvref_t<decltype(v)>>{v};
}

/// The outer node that capture Cap of a loop reads: the node a loop constant's placeholder is
/// bound to (Bound: a map of mp_list<placeholder, node>), or Cap itself (a variable, or a
/// placeholder of the enclosing graph, which the run feeds).
template <class Bound, class Cap, class Found = mp::mp_map_find<Bound, Cap>>
struct capture_source {
  using type = mp::mp_second<Found>;
};
template <class Bound, class Cap>
struct capture_source<Bound, Cap, void> {
  using type = Cap;
};
template <class Bound, class Cap>
using capture_source_t = typename capture_source<Bound, Cap>::type;

/// Where a loop keeps the value of a bound capture for its steps (the outer node's value,
/// materialized once per run); nothing for the others.
struct no_capture_store {};
template <class Bound, class Cap>
using capture_store = mp::mp_if_c<std::is_same_v<capture_source_t<Bound, Cap>, Cap>, no_capture_store, buffer_of<Cap>>;

/// The feed of capture Cap to a step: its own value in the run, or the stored value of the
/// node it is bound to.
template <class Cap, class Ctx, class Store>
[[gnu::always_inline]] inline auto capture_feed(Ctx& ctx, const Store& store) {
  if constexpr (std::is_same_v<Store, no_capture_store>) {
    return captured_feed<Cap>(ctx);
  } else {
    return step_feed<Cap, Store>{store};
  }
}

/// The value of capture Cap in a step (what capture_feed feeds).
template <class Cap, class Ctx, class Store>
[[gnu::always_inline]] inline decltype(auto) capture_value(Ctx& ctx, const Store& store) {
  if constexpr (std::is_same_v<Store, no_capture_store>) {
    return ctx.template value<Cap>();
  } else {
    return (store);
  }
}

/// A loop's body: the placeholders of its states (SP...) and step input (XP), its output O
/// and new states NS..., and the variables it reads (captures).
/// The order of a loop's steps: from the first element of the sequence, or from the last
/// (tf.scan's reverse=True, tf.foldr).
template <bool Reverse>
struct direction {
  static constexpr bool reverse = Reverse;
  /// The element of the sequence that iteration i of steps processes.
  static constexpr std::size_t element(std::size_t i, std::size_t steps) { return Reverse ? steps - 1 - i : i; }
};

/// A while loop's body (while_loop.hpp) has a condition, Cond, a scalar bool node of the
/// states that the loop computes before each step: the loop stops when it is false. Its
/// sequence is then the maximum number of steps, and its step input the step's index.
template <fixed_string Scope, class SPs, class XP, class O, class NSs, bool Reverse = false, class Cond = void>
struct body;
template <fixed_string Scope, class... SP, class XP, class O, class... NS, bool Reverse, class Cond>
struct body<Scope, mp::mp_list<SP...>, XP, O, mp::mp_list<NS...>, Reverse, Cond> : scope_name<Scope>, direction<Reverse> {
  using value_type = value_type_of<O>;
  using states = mp::mp_list<SP...>;
  using input = XP;
  using output = O;
  using new_states = mp::mp_list<NS...>;
  using cond = Cond;
  static constexpr bool is_while = !std::is_void_v<Cond>;
  using nodes = mp::mp_eval_if_c<!is_while, graph::graph_order<O, NS...>, graph::graph_order, O, NS..., Cond>;
  /// The values the body takes from outside the loop, fed to each step as they are in the
  /// run (TensorFlow's loop-invariant Enter): the variables it reads and the placeholders
  /// that are not the loop's own, which the run must then feed.
  template <class N>
  using is_capture = std::bool_constant<variable_node_type<N> ||
                                        (placeholder_node_type<N> && !contains_v<mp::mp_list<SP..., XP>, N>)>;
  using captures = graph::detail::select<is_capture, nodes>;
  using effects = graph::detail::select<changes_state_c, nodes>;  // a loop in the body changes nothing
  using fetches = mp::mp_list<O, NS...>;
};

/// The objective whose gradient is the body's vector-Jacobian product (see the top).
template <class NS, class GS>
using dot_t = decltype(reduce_sum(NS{} * GS{}));
template <class... D>
struct sum_all;
template <class D>
struct sum_all<D> {
  using type = D;
};
template <class A, class B, class... R>
struct sum_all<A, B, R...> : sum_all<decltype(A{} + B{}), R...> {};

template <class Body, bool WithOutput, class SPs = typename Body::states, class NSs = typename Body::new_states,
          class Idx = std::make_index_sequence<mp::mp_size<SPs>::value>>
struct grad_body;
template <class Body, bool WithOutput, class... SP, class... NS, std::size_t... K>
struct grad_body<Body, WithOutput, mp::mp_list<SP...>, mp::mp_list<NS...>, std::index_sequence<K...>> {
  using T = typename Body::value_type;
  using output_cotangent_type = output_cotangent<Body::scope, T, shape_of<typename Body::output>>;
  using state_cotangents = mp::mp_list<state_cotangent<Body::scope, K, T, shape_of<SP>>...>;
  using objective = typename mp::mp_if_c<
      WithOutput, sum_all<dot_t<typename Body::output, output_cotangent_type>, dot_t<NS, state_cotangent<Body::scope, K, T, shape_of<SP>>>...>,
      sum_all<dot_t<NS, state_cotangent<Body::scope, K, T, shape_of<SP>>>...>>::type;
  template <class X>
  using d = autodiff::gradient_t<objective, X>;
  /// d/d state_k..., d/d input, d/d capture_c...
  using fetches = mp::mp_append<mp::mp_list<d<SP>..., d<typename Body::input>>,
                                mp::mp_transform<d, typename Body::captures>>;
  /// What a reverse step is fed: the states before the step, the step's input, the
  /// cotangents, the captures.
  using fed = mp::mp_append<mp::mp_list<SP..., typename Body::input>, state_cotangents,
                            mp::mp_list<output_cotangent_type>, typename Body::captures>;
};

/// The values of a forward step that its gradient reads: the body's nodes, other than
/// leaves and effects, that are inputs of the gradient's own nodes (the frontier of the
/// forward graph on the gradient's path). A forward loop whose run also runs a reverse
/// loop of it keeps them per step, and the reverse loop feeds them to each reverse step,
/// which then computes none of the forward values they cut off (TensorFlow's while-loop
/// gradient keeps them in stacks the same way). What no kept value cuts off, such as an
/// inner loop's record, a reverse step computes again from the states and the input.
/// Taken of the objective with the output's cotangent, whose gradient reads every value
/// the states' alone reads.
template <class Body>
struct saved_forward {
  using grad = grad_body<Body, true>;
  using forward = typename Body::nodes;
  template <class N>
  using gradient_only = std::bool_constant<!graph::detail::in_short_list<forward, N>::value>;
  using readers = graph::detail::select<gradient_only, graph::path_order<typename grad::fetches, typename grad::fed>>;
  using read = graph::detail::concat<mp::mp_transform<inputs_of, readers>>;
  template <class N>
  using kept = std::bool_constant<N::kind != node_kind::leaf && N::kind != node_kind::effect &&
                                  graph::detail::in_short_list<read, N>::value>;
  using type = graph::detail::select<kept, forward>;
};
template <class Body>
using saved_forward_t = typename saved_forward<Body>::type;

/// Where the values of saved_forward_t<Body> are kept: one series per node, an element per step
/// (a scalar bool's in a std::deque, whose elements are bools: std::vector<bool>'s are proxies
/// that a step's value cannot be assigned through).
template <class N>
using step_series = std::conditional_t<std::is_same_v<buffer_of<N>, bool>, std::deque<bool>, std::vector<buffer_of<N>>>;
template <class Body>
using saved_series_t = mp::mp_rename<mp::mp_transform<step_series, saved_forward_t<Body>>, std::tuple>;

}  // namespace typeflow::control::detail
