// typeflow/control/scan.hpp — loops in the graph: tf.scan, and the loop under dynamic_rnn.
//
// A loop is a node whose body is itself a graph type (DESIGN rule 9). The body is built once,
// from placeholders for the loop-carried states and for one step of the input sequence, by
// calling the user's function on them; its output and new states are ordinary nodes. A run
// that reaches the loop runs the body once per step of the sequence's first (time) dimension,
// through the session that runs the loop, each step a run of the body's own plan (compiled
// once, its buffers kept): the trip count is known only at run time and the compile cost does
// not depend on it.
//
// The gradient is derived from the body's by the same machinery (autodiff/gradients.hpp): the
// body's vector-Jacobian product is the gradient of
//     sum(output * g_output) + sum_k sum(new_state_k * g_state_k)
// with respect to the state and input placeholders and the variables the body reads, with
// the cotangents g_* fed as placeholders. A reverse loop runs it from the last step to the
// first over the states the forward loop stored, carrying the states' cotangent (JAX's
// lax.scan, TensorFlow's while-loop gradient). Only the states are stored per step; the
// values inside a step are computed again in the reverse step (a checkpoint per step).
//
// The loop node's value is a record (the stacked outputs, the final states, the states of
// every step), read by its output nodes: `scan_output` (the outputs, [time, ...]) and
// `scan_state<J>` (final state J). Each output node takes the loop's inputs as its own, so
// that gradients flow from it to them directly: the gradient of the outputs and that of a
// final state are each one reverse loop (when a loss uses both, two, whose sum is the VJP).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
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

namespace typeflow {

/// In a diagnostic: the body of loop Loop has a side effect (assign, print, an update).
template <fixed_string Loop, fixed_string Op>
struct loop_body_has_a_side_effect {
  static constexpr bool value = false;
};
/// In a diagnostic: the body of loop Loop gave Got new states for its States states.
template <fixed_string Loop, std::size_t States, std::size_t Got>
struct loop_body_must_give_one_new_state_per_state {
  static constexpr bool value = false;
};
/// In a diagnostic: new state J of loop Loop has shape NewShape where the state has Shape.
template <fixed_string Loop, std::size_t J, class Shape, class NewShape>
struct loop_new_state_must_have_the_shape_of_the_state {
  static constexpr bool value = false;
};
/// In a diagnostic: a loop's sequence must have a time dimension (rank >= 1) and static
/// dims after the first two, and its states and output static dims after the first.
template <fixed_string Loop, class Shape>
struct loop_value_needs_static_dims_after_the_batch {
  static constexpr bool value = false;
};
/// In a diagnostic: a loop's values must all have one floating element type.
template <fixed_string Loop>
struct loop_values_must_share_one_floating_element_type {
  static constexpr bool value = false;
};

namespace control::detail {

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
auto captured_feed(Ctx& ctx) {
  const auto& v = ctx.template value<N>();
  return step_feed<N, std::remove_cvref_t<decltype(v)>>{v};
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

template <fixed_string Scope, class SPs, class XP, class O, class NSs, bool Reverse = false>
struct body;
template <fixed_string Scope, class... SP, class XP, class O, class... NS, bool Reverse>
struct body<Scope, mp::mp_list<SP...>, XP, O, mp::mp_list<NS...>, Reverse> : scope_name<Scope>, direction<Reverse> {
  using value_type = value_type_of<O>;
  using states = mp::mp_list<SP...>;
  using input = XP;
  using output = O;
  using new_states = mp::mp_list<NS...>;
  using nodes = graph::graph_order<O, NS...>;
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
};

/// What a loop's run leaves for its output nodes and its gradient.
template <class T, std::size_t XRank, std::size_t ORank, class X, class... S>
struct loop_record {
  X x_t{};                                    // one step of the sequence, fed
  std::size_t steps = 0;
  std::array<std::size_t, XRank> x_dims{};    // the sequence's
  std::array<std::size_t, ORank> out_dims{};  // one step's output
  std::size_t out_size = 0;                   // elements of one step's output
  buffer<T> ys;                               // the outputs, [steps, out_dims...]
  std::tuple<S...> state;                     // the carried states; after the run, the final ones
  std::tuple<S...> next;                      // the new states of a step, before they are carried
  std::array<buffer<T>, sizeof...(S)> saved;  // state k before each step: [steps, size_k]
  buffer<std::int64_t> lengths;               // sequence_length, when given
  bool masked = false;
  xt::xtensor_container<std::vector<T>, XRank, xt::layout_type::row_major> xs_scratch;           // the sequence, when a run hands a lazy expression
};

/// Marks a loop without sequence_length.
struct no_lengths {};

/// A node that is a loop; its inputs are the initial states, the sequence, the lengths (if
/// any) and the variables the body reads.
template <class Body, class Xs, class Len, class Inits, class Caps = typename Body::captures>
struct loop_node;

/// The layout of a loop's inputs: K initial states, the sequence, the lengths if any, the
/// captured variables.
template <std::size_t K, bool HasLen>
struct loop_layout {
  static constexpr std::size_t states = K;
  static constexpr std::size_t sequence = K;
  static constexpr std::size_t first_capture = K + 1 + (HasLen ? 1 : 0);
  static constexpr bool is_lengths(std::size_t i) { return HasLen && i == K + 1; }
};

struct pure_effect {
  static constexpr bool changes_state = false;
};

template <class Body, class Xs, class Len, class... Init, class... Cap>
struct loop_node<Body, Xs, Len, mp::mp_list<Init...>, mp::mp_list<Cap...>>
    : node_base, kind_tag<node_kind::effect>, op_info<"While", false>, pure_effect {
  static constexpr bool has_lengths_v = !std::is_same_v<Len, no_lengths>;
  using T = typename Body::value_type;
  using value_type = none_t;  // its value is a record, read by its output nodes; not fetched
  using shape_type = scalar;
  using body_type = Body;
  using sequence = Xs;
  using lengths = Len;
  using layout = loop_layout<sizeof...(Init), !std::is_same_v<Len, no_lengths>>;
  using inputs = mp::mp_if_c<std::is_same_v<Len, no_lengths>, mp::mp_list<Init..., Xs, Cap...>,
                             mp::mp_list<Init..., Xs, Len, Cap...>>;
  using carried = carried_union_t<Init..., Xs, Cap..., typename Body::output, mp::mp_rename<typename Body::new_states, carried_union_t>>;
  [[no_unique_address]] definitions_t<carried> defs;
  using output_type = loop_record<T, shape_of<Xs>::rank, shape_of<typename Body::output>::rank,
                                  buffer_of<typename Body::input>, buffer_of<Init>...>;

  template <class Ctx>
  static void run(Ctx& ctx);
};

// --- the forward loop -------------------------------------------------------------------

template <std::size_t... K, class Rec, class Fn>
void for_each_state(std::index_sequence<K...>, Rec& rec, Fn&& fn) {
  (fn(std::integral_constant<std::size_t, K>{}, std::get<K>(rec.state), std::get<K>(rec.next)), ...);
}

/// Whether example b is past its length at step t.
inline bool past_length(const buffer<std::int64_t>& lengths, bool masked, std::size_t b, std::size_t t) {
  return masked && static_cast<std::int64_t>(t) >= lengths.get()[b];
}

template <class Body, class Xs, class Len, class... Init, class... Cap>
template <class Ctx>
void loop_node<Body, Xs, Len, mp::mp_list<Init...>, mp::mp_list<Cap...>>::run(Ctx& ctx) {
  constexpr std::size_t K = sizeof...(Init);
  constexpr std::size_t XR = shape_of<Xs>::rank;
  using O = typename Body::output;
  auto& rec = ctx.template buffer<loop_node>();
  decltype(auto) xs_value = ctx.template value<Xs>();
  const T* xs = contiguous(xs_value, rec.xs_scratch);
  rec.x_dims = dims_of_value<XR>(xs_value);
  const std::size_t steps = rec.x_dims[0];
  std::size_t x_size = 1;
  for (std::size_t i = 1; i < XR; ++i) x_size *= rec.x_dims[i];

  // The initial states.
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (assign_value(std::get<I>(rec.state), ctx.template value<mp::mp_at_c<mp::mp_list<Init...>, I>>()), ...);
  }(std::index_sequence_for<Init...>{});
  const auto state0_dims = dims_of_value<shape_of<mp::mp_front<mp::mp_list<Init...>>>::rank>(std::get<0>(rec.state));
  const std::size_t batch = state0_dims.size() > 0 ? state0_dims[0] : 1;

  // One step's output: its static dims, the batch of the states for a dynamic first one.
  for (std::size_t i = 0; i < shape_of<O>::rank; ++i)
    rec.out_dims[i] = shape_of<O>::dims[i] == dyn ? batch : std::size_t(shape_of<O>::dims[i]);
  rec.out_size = 1;
  for (std::size_t d : rec.out_dims) rec.out_size *= d;

  rec.masked = !std::is_same_v<Len, no_lengths>;
  if constexpr (!std::is_same_v<Len, no_lengths>) {
    read_lengths(rec.lengths, ctx.template value<Len>(), batch, Body::scope.view());
  }
  rec.steps = steps;
  rec.ys.resize(steps * rec.out_size);
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (rec.saved[I].resize(steps * element_count(std::get<I>(rec.state))), ...);
  }(std::make_index_sequence<K>{});

  using x_storage = buffer_of<typename Body::input>;
  x_storage& x_t = rec.x_t;
  if constexpr (!std::is_arithmetic_v<x_storage>) {
    std::array<std::size_t, XR - 1> step_dims{};
    for (std::size_t i = 1; i < XR; ++i) step_dims[i - 1] = rec.x_dims[i];
    resize_to(x_t, step_dims);
  }
  for (std::size_t i = 0; i < steps; ++i) {
    const std::size_t t = Body::element(i, steps);
    copy_elements<T>(mutable_data(x_t), xs + t * x_size, x_size);
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (copy_elements<T>(rec.saved[I].get() + t * element_count(std::get<I>(rec.state)),
                        mutable_data(std::get<I>(rec.state)), element_count(std::get<I>(rec.state))),
       ...);
    }(std::make_index_sequence<K>{});
    T* y = rec.ys.get() + t * rec.out_size;
    [&]<class... SP, std::size_t... I>(mp::mp_list<SP...>, std::index_sequence<I...>) {
      ctx.template run_subgraph<typename Body::fetches>(
          [&](const auto& o, const auto&... ns) {
            if (element_count(o) != rec.out_size)
              throw invalid_argument_error(std::string(Body::scope.view()) + ": a step's output has " +
                                           std::to_string(element_count(o)) + " elements, expected " +
                                           std::to_string(rec.out_size));
            copy_elements<T>(y, ops::detail::data_ptr(o), rec.out_size);
            const auto news = std::forward_as_tuple(ns...);
            (assign_value(std::get<I>(rec.next), std::get<I>(news)), ...);
          },
          step_feed<SP, std::tuple_element_t<I, decltype(rec.state)>>{std::get<I>(rec.state)}...,
          step_feed<typename Body::input, x_storage>{x_t}, captured_feed<Cap>(ctx)...);
    }(typename Body::states{}, std::make_index_sequence<K>{});
    // Past an example's length its output is zero and its states are carried unchanged
    // (TensorFlow's dynamic_rnn with sequence_length).
    if (rec.masked) {
      const std::size_t orow = rec.out_size / (batch == 0 ? 1 : batch);
      for (std::size_t b = 0; b < batch; ++b)
        if (past_length(rec.lengths, true, b, t)) std::fill_n(y + b * orow, orow, T(0));
    }
    for_each_state(std::make_index_sequence<K>{}, rec, [&](auto, auto& s, auto& n) {
      const std::size_t size = element_count(s);
      const std::size_t row = size / (batch == 0 ? 1 : batch);
      T* sp = mutable_data(s);
      const T* np = mutable_data(n);
      for (std::size_t b = 0; b < batch; ++b)
        if (!past_length(rec.lengths, rec.masked, b, t)) copy_elements<T>(sp + b * row, np + b * row, row);
    });
  }
}

// --- the output nodes -------------------------------------------------------------------

/// The gradient of the loop's input I (an index into L's inputs) from cotangent G of its
/// outputs (Which = -1) or final state Which.
template <class L, std::ptrdiff_t Which, class G>
struct loop_grad;
template <class LG, std::size_t I>
struct loop_grad_part;

template <class L, std::ptrdiff_t Which, class G, std::size_t K>
struct loop_input_gradient {
  using type = mp::mp_if_c<K == 0 || L::layout::is_lengths(K - 1) || is_no_gradient<G>, no_gradient,
                           loop_grad_part<loop_grad<L, Which, G>, K - 1>>;
};

template <class L>
using sequence_time = std::integral_constant<std::ptrdiff_t, shape_of<typename L::sequence>::dims[0]>;
template <class L, class S = shape_of<typename L::body_type::output>>
struct stacked_shape;
template <class L, std::ptrdiff_t... D>
struct stacked_shape<L, shape<D...>> {
  using type = shape<sequence_time<L>::value, D...>;
};

/// The outputs of loop L, stacked along a first (time) dimension.
template <class L, class In = inputs_of<L>>
struct loop_outputs;
template <class L, class... In>
struct loop_outputs<L, mp::mp_list<In...>>
    : node_facade<typename L::T, typename stacked_shape<L>::type, node_kind::compute, L, In...>,
      op_info<"TensorArrayGatherV3"> {
  template <std::size_t K, class G>
  using gradient = typename loop_input_gradient<L, -1, G, K>::type;

  template <class Out, class Rec, class... Ignored>
  static void compute(Out& out, const Rec& rec, const Ignored&...) {
    std::array<std::size_t, shape_of<typename L::body_type::output>::rank + 1> dims{};
    dims[0] = rec.steps;
    for (std::size_t i = 0; i + 1 < dims.size(); ++i) dims[i + 1] = rec.out_dims[i];
    resize_to(out, dims);
    copy_elements(mutable_data(out), rec.ys.get(), rec.steps * rec.out_size);
  }
};

/// Final state J of loop L.
template <class L, std::size_t J, class In = inputs_of<L>>
struct loop_state;
template <class L, std::size_t J, class... In>
struct loop_state<L, J, mp::mp_list<In...>>
    : node_facade<typename L::T, shape_of<mp::mp_at_c<inputs_of<L>, J>>, node_kind::compute, L, In...>,
      op_info<"Exit"> {
  template <std::size_t K, class G>
  using gradient = typename loop_input_gradient<L, std::ptrdiff_t(J), G, K>::type;

  template <class Out, class Rec, class... Ignored>
  static void compute(Out& out, const Rec& rec, const Ignored&...) {
    assign_value(out, std::get<J>(rec.state));
  }
};

// --- the reverse loop -------------------------------------------------------------------

/// What the reverse loop leaves for the gradient nodes of L's inputs.
template <class T, std::size_t XRank, std::size_t GRank, class OStorage, class CapList, class StateList>
struct loop_grad_record;
template <class T, std::size_t XRank, std::size_t GRank, class OStorage, class... C, class X, class... S>
struct loop_grad_record<T, XRank, GRank, OStorage, mp::mp_list<C...>, mp::mp_list<X, S...>> {
  X x_t{};                  // one step of the sequence, fed
  std::tuple<S...> carry;   // the states' cotangent; after the run, that of the initial states
  std::tuple<S...> cot;     // what is fed as the new states' cotangent in a step
  std::tuple<S...> state;   // the state before the step, fed
  OStorage gy{};            // the step output's cotangent, fed
  buffer<T> gx;             // the sequence's gradient, [steps, ...]
  std::array<std::size_t, XRank> x_dims{};
  std::tuple<C...> gcap{};  // the captured variables' gradients
  xt::xtensor_container<std::vector<T>, GRank, xt::layout_type::row_major> g_scratch;
};

template <class L, std::ptrdiff_t Which, class G>
struct loop_grad : node_base, kind_tag<node_kind::effect>, op_info<"WhileGrad", false>, pure_effect {
  using body_type = typename L::body_type;
  using grad = grad_body<body_type, Which < 0>;
  using T = typename L::T;
  using value_type = none_t;  // its value is a record, read by loop_grad_part
  using shape_type = scalar;
  using loop = L;
  using inputs = mp::mp_if_c<L::has_lengths_v, mp::mp_list<L, typename L::sequence, typename L::lengths, G>,
                             mp::mp_list<L, typename L::sequence, G>>;
  using carried = carried_union_t<L>;
  [[no_unique_address]] definitions_t<carried> defs;
  using output_type =
      loop_grad_record<T, shape_of<typename L::sequence>::rank, shape_of<G>::rank,
                       buffer_of<typename body_type::output>, mp::mp_transform<buffer_of, typename body_type::captures>,
                       mp::mp_push_front<mp::mp_transform<buffer_of, typename body_type::states>, buffer_of<typename body_type::input>>>;

  template <class Ctx>
  static void run(Ctx& ctx);
};

template <class L, std::ptrdiff_t Which, class G>
template <class Ctx>
void loop_grad<L, Which, G>::run(Ctx& ctx) {
  using Body = body_type;
  constexpr std::size_t K = mp::mp_size<typename Body::states>::value;
  constexpr std::size_t NC = mp::mp_size<typename Body::captures>::value;
  const auto& rec = ctx.template value<L>();
  auto& g = ctx.template buffer<loop_grad>();
  decltype(auto) xs_value = ctx.template value<typename L::sequence>();
  // The sequence's elements: its own, or the copy the forward loop made of an expression.
  const T* xs = [&] {
    if constexpr (requires { xs_value.data(); }) {
      return xs_value.data();
    } else {
      return rec.xs_scratch.data();
    }
  }();
  decltype(auto) g_value = ctx.template value<G>();
  const T* gp = contiguous(g_value, g.g_scratch);
  const std::size_t steps = rec.steps;
  std::size_t x_size = 1;
  for (std::size_t i = 1; i < rec.x_dims.size(); ++i) x_size *= rec.x_dims[i];
  g.x_dims = rec.x_dims;
  const std::size_t batch = [&] {
    const auto& s0 = std::get<0>(rec.state);
    if constexpr (std::is_arithmetic_v<std::remove_cvref_t<decltype(s0)>>) {
      return std::size_t(1);
    } else {
      return s0.dimension() > 0 ? std::size_t(s0.shape()[0]) : std::size_t(1);
    }
  }();

  // The carried cotangent starts as the final states' (zero, or G for state Which).
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((assign_value(std::get<I>(g.carry), std::get<I>(rec.state)), assign_value(std::get<I>(g.cot), std::get<I>(rec.state)),
      assign_value(std::get<I>(g.state), std::get<I>(rec.state)),
      std::fill_n(mutable_data(std::get<I>(g.carry)), element_count(std::get<I>(g.carry)), T(0))),
     ...);
  }(std::make_index_sequence<K>{});
  if constexpr (Which >= 0) {
    auto& c = std::get<std::size_t(Which)>(g.carry);
    if (element_count(g_value) != element_count(c))
      throw internal_error(std::string(Body::scope.view()) + ": the final state's gradient has the wrong size");
    copy_elements<T>(mutable_data(c), gp, element_count(c));
  } else {
    if (element_count(g_value) != steps * rec.out_size)
      throw internal_error(std::string(Body::scope.view()) + ": the outputs' gradient has the wrong size");
    resize_to(g.gy, rec.out_dims);
  }
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (std::fill_n(mutable_data(std::get<I>(g.gcap)), element_count(std::get<I>(g.gcap)), T(0)), ...);
  }(std::make_index_sequence<NC>{});
  g.gx.resize(steps * x_size);

  using x_storage = buffer_of<typename Body::input>;
  x_storage& x_t = g.x_t;
  if constexpr (!std::is_arithmetic_v<x_storage>) {
    std::array<std::size_t, shape_of<typename L::sequence>::rank - 1> step_dims{};
    for (std::size_t i = 1; i < rec.x_dims.size(); ++i) step_dims[i - 1] = rec.x_dims[i];
    resize_to(x_t, step_dims);
  }

  for (std::size_t i = steps; i-- > 0;) {
    const std::size_t t = Body::element(i, steps);
    copy_elements<T>(mutable_data(x_t), xs + t * x_size, x_size);
    // The state before step t, and the cotangents of the step's results; an example past
    // its length took no part in the step: its cotangents are zero.
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((copy_elements<T>(mutable_data(std::get<I>(g.state)), rec.saved[I].get() + t * element_count(std::get<I>(g.state)),
                         element_count(std::get<I>(g.state))),
        copy_elements<T>(mutable_data(std::get<I>(g.cot)), mutable_data(std::get<I>(g.carry)), element_count(std::get<I>(g.cot)))),
       ...);
    }(std::make_index_sequence<K>{});
    if constexpr (Which < 0) copy_elements<T>(mutable_data(g.gy), gp + t * rec.out_size, rec.out_size);
    if (rec.masked) {
      for (std::size_t b = 0; b < batch; ++b) {
        if (!past_length(rec.lengths, true, b, t)) continue;
        [&]<std::size_t... I>(std::index_sequence<I...>) {
          ((std::fill_n(mutable_data(std::get<I>(g.cot)) + b * (element_count(std::get<I>(g.cot)) / batch),
                        element_count(std::get<I>(g.cot)) / batch, T(0))),
           ...);
        }(std::make_index_sequence<K>{});
        if constexpr (Which < 0) {
          const std::size_t orow = rec.out_size / batch;
          std::fill_n(mutable_data(g.gy) + b * orow, orow, T(0));
        }
      }
    }
    T* gx_t = g.gx.get() + t * x_size;
    auto on_values = [&](const auto&... v) {
      const auto vals = std::forward_as_tuple(v...);
      [&]<std::size_t... I>(std::index_sequence<I...>) {
        (
            [&] {
              auto& c = std::get<I>(g.carry);
              const std::size_t size = element_count(c);
              const std::size_t row = size / (batch == 0 ? 1 : batch);
              const T* d = ops::detail::data_ptr(std::get<I>(vals));
              T* cp = mutable_data(c);
              for (std::size_t b = 0; b < batch; ++b)
                if (!past_length(rec.lengths, rec.masked, b, t)) copy_elements<T>(cp + b * row, d + b * row, row);
            }(),
            ...);
      }(std::make_index_sequence<K>{});
      copy_elements<T>(gx_t, ops::detail::data_ptr(std::get<K>(vals)), x_size);
      [&]<std::size_t... C>(std::index_sequence<C...>) {
        (
            [&] {
              auto& acc = std::get<C>(g.gcap);
              const T* d = ops::detail::data_ptr(std::get<K + 1 + C>(vals));
              T* a = mutable_data(acc);
              const std::size_t n = element_count(acc);
              for (std::size_t i = 0; i < n; ++i) a[i] += d[i];
            }(),
            ...);
      }(std::make_index_sequence<NC>{});
    };
    [&]<class... SP, class... GS, std::size_t... I, class... Cap>(mp::mp_list<SP...>, mp::mp_list<GS...>,
                                                                  std::index_sequence<I...>, mp::mp_list<Cap...>) {
      if constexpr (Which < 0) {
        ctx.template run_subgraph<typename grad::fetches>(
            on_values, step_feed<SP, std::tuple_element_t<I, decltype(g.state)>>{std::get<I>(g.state)}...,
            step_feed<typename Body::input, x_storage>{x_t},
            step_feed<GS, std::tuple_element_t<I, decltype(g.cot)>>{std::get<I>(g.cot)}...,
            step_feed<typename grad::output_cotangent_type, decltype(g.gy)>{g.gy}, captured_feed<Cap>(ctx)...);
      } else {
        ctx.template run_subgraph<typename grad::fetches>(
            on_values, step_feed<SP, std::tuple_element_t<I, decltype(g.state)>>{std::get<I>(g.state)}...,
            step_feed<typename Body::input, x_storage>{x_t},
            step_feed<GS, std::tuple_element_t<I, decltype(g.cot)>>{std::get<I>(g.cot)}..., captured_feed<Cap>(ctx)...);
      }
    }(typename Body::states{}, typename grad::state_cotangents{}, std::make_index_sequence<K>{},
      typename Body::captures{});
  }
}

/// The gradient of input I of the loop, read from the reverse loop's record.
template <class LG, std::size_t I>
struct loop_grad_part
    : node_facade<typename LG::T, shape_of<mp::mp_at_c<inputs_of<typename LG::loop>, I>>, node_kind::compute, LG>,
      op_info<"WhileGradOutput", false> {
  using L = typename LG::loop;
  template <class... N>
  using rebind = loop_grad_part;

  template <class Out, class Rec>
  static void compute(Out& out, const Rec& g) {
    if constexpr (I < L::layout::states) {
      assign_value(out, std::get<I>(g.carry));
    } else if constexpr (I == L::layout::sequence) {
      resize_to(out, g.x_dims);
      std::size_t n = 1;
      for (std::size_t d : g.x_dims) n *= d;
      copy_elements(mutable_data(out), g.gx.get(), n);
    } else {
      assign_value(out, std::get<I - L::layout::first_capture>(g.gcap));
    }
  }
};

// --- building a loop ----------------------------------------------------------------------

template <fixed_string Scope, class Body>
constexpr bool check_body() {
  if constexpr (!mp::mp_empty<typename Body::effects>::value) {
    static_assert(loop_body_has_a_side_effect<Scope, label_of<mp::mp_front<typename Body::effects>>()>::value,
                  "a loop's body must be free of side effects (assign, print, optimizer updates)");
    return false;
  } else {
    return true;
  }
}

template <fixed_string Scope, std::size_t K, class NS>
constexpr bool check_state_count() {
  constexpr std::size_t got = std::tuple_size_v<NS>;
  if constexpr (got != K) {
    static_assert(loop_body_must_give_one_new_state_per_state<Scope, K, got>::value,
                  "a loop's body must return std::pair{output, std::tuple{new_states...}}, one new state per state");
    return false;
  } else {
    return true;
  }
}

template <fixed_string Scope, std::size_t J, class SP, class NS>
constexpr bool check_new_state() {
  if constexpr (!std::is_same_v<shape_of<SP>, shape_of<NS>>) {
    static_assert(loop_new_state_must_have_the_shape_of_the_state<Scope, J, shape_of<SP>, shape_of<NS>>::value,
                  "a loop's body must give each new state the shape of its state");
    return false;
  } else if constexpr (!std::is_same_v<value_type_of<SP>, value_type_of<NS>>) {
    static_assert(loop_values_must_share_one_floating_element_type<Scope>::value,
                  "a loop's states, sequence and output must have one floating element type");
    return false;
  } else {
    return true;
  }
}

template <fixed_string Scope, class Xs, class... Init>
constexpr bool check_loop_inputs() {
  using T = value_type_of<Xs>;
  if constexpr (!(floating_element<T> && ... && std::is_same_v<value_type_of<Init>, T>)) {
    static_assert(loop_values_must_share_one_floating_element_type<Scope>::value,
                  "a loop's states, sequence and output must have one floating element type");
    return false;
  } else if constexpr (shape_of<Xs>::rank < 1) {
    static_assert(loop_value_needs_static_dims_after_the_batch<Scope, shape_of<Xs>>::value,
                  "a loop's sequence has its steps along its first dimension: it must have rank >= 1");
    return false;
  } else if constexpr (!static_after_first<typename step_shape<shape_of<Xs>>::type>()) {
    static_assert(loop_value_needs_static_dims_after_the_batch<Scope, shape_of<Xs>>::value,
                  "a loop's sequence may have dynamic dims only in its first two (time, batch)");
    return false;
  } else if constexpr (!(static_after_first<shape_of<Init>>() && ...)) {
    static_assert(loop_value_needs_static_dims_after_the_batch<Scope, shape_of<Xs>>::value,
                  "a loop's states may have a dynamic dim only in their first (the batch)");
    return false;
  } else {
    return true;
  }
}

}  // namespace control::detail

namespace control {

/// What a loop gives back: the outputs of its steps stacked along a first (time) dimension,
/// and its final states.
template <class Outputs, class FinalStates>
struct loop_result {
  Outputs outputs;
  FinalStates final_state;
};

/// The loop under dynamic_rnn, and tf.scan: runs `fn` once per step of `xs`'s first (time)
/// dimension, carrying states that start at `init` (a std::tuple of nodes).
///
/// `fn(states, x)` is called once, when the loop is built, with placeholders: `states` a
/// std::tuple of nodes of the initial states' shapes, `x` one step of the sequence (xs
/// without its first dimension); it returns `std::pair{output, std::tuple{new_states...}}`,
/// graph nodes, each new state of its state's shape. The body may read variables (they
/// become the loop's inputs, so gradients reach them), constants, and its placeholders; any
/// other placeholder is a compile error naming it.
///
/// With `lengths` (an integer vector, one per example along dimension 0 of the states and
/// dimension 1 of xs), an example's output is zero at steps past its length and its states
/// are carried through unchanged (TensorFlow's dynamic_rnn with sequence_length).
///
/// The placeholders are named "<Scope>/while/state_k" and "<Scope>/while/input".
template <fixed_string Scope, bool Reverse = false, class Fn, node Xs, node... Init, class Len = detail::no_lengths>
auto dynamic_loop(Fn&& fn, const Xs& xs, const std::tuple<Init...>& init, const Len& lengths = {}) {
  static_assert(sizeof...(Init) > 0, "a loop carries at least one state");
  static_assert(!Reverse || std::is_same_v<Len, detail::no_lengths>,
                "a loop in reverse takes no lengths: reverse each sequence within its length (tf::reverse_sequence)");
  constexpr bool inputs_ok = detail::check_loop_inputs<Scope, Xs, Init...>();
  if constexpr (!inputs_ok) {
    return loop_result<Xs, std::tuple<Init...>>{xs, init};  // inert: the error above is the one to read
  } else {
    using T = value_type_of<Xs>;
    using XP = detail::input_placeholder<Scope, T, typename detail::step_shape<shape_of<Xs>>::type>;
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
      using states = std::tuple<detail::state_placeholder<Scope, K, T, shape_of<Init>>...>;
      auto [output, new_states] = fn(states{}, XP{});
      using O = decltype(output);
      using NS = std::remove_cvref_t<decltype(new_states)>;
      if constexpr (!detail::check_state_count<Scope, sizeof...(Init), NS>()) {
        return loop_result<Xs, std::tuple<Init...>>{xs, init};  // inert: the error above is the one to read
      } else {
        constexpr bool states_ok =
            (detail::check_new_state<Scope, K, std::tuple_element_t<K, states>, std::tuple_element_t<K, NS>>() && ...);
        using Body = detail::body<Scope, mp::mp_list<std::tuple_element_t<K, states>...>, XP, O,
                                  mp::mp_list<std::tuple_element_t<K, NS>...>, Reverse>;
        if constexpr (!states_ok || !detail::check_body<Scope, Body>()) {
          return loop_result<Xs, std::tuple<Init...>>{xs, init};  // inert, as above
        } else {
          using L = detail::loop_node<Body, Xs, Len, mp::mp_list<Init...>>;
          const L loop = [&] {
            if constexpr (std::is_same_v<Len, detail::no_lengths>) {
              return make_node<L>(std::get<K>(init)..., xs, output, std::get<K>(new_states)...);
            } else {
              return make_node<L>(std::get<K>(init)..., xs, lengths, output, std::get<K>(new_states)...);
            }
          }();
          auto outputs = make_node<detail::loop_outputs<L>>(loop);
          auto finals = std::tuple{make_node<detail::loop_state<L, K>>(loop)...};
          return loop_result<decltype(outputs), decltype(finals)>{outputs, finals};
        }
      }
    }(std::index_sequence_for<Init...>{});
  }
}

}  // namespace control

/// `scan<"scan">(fn, elems, initializer)` is tf.scan(fn, elems, initializer): the
/// accumulator a = fn(a, x) over the first dimension of elems, starting at initializer, each
/// step's accumulator stacked ([time, ...initializer's shape]). fn is called once, with
/// placeholders, to build the body (see control::dynamic_loop); gradients flow to elems,
/// initializer and the variables fn reads. `scan<"scan", true>` is reverse=True: from the
/// last element to the first, each accumulator stacked at its element's position.
template <fixed_string Scope = "scan", bool Reverse = false, class Fn, node Xs, node Init>
auto scan(Fn&& fn, const Xs& elems, const Init& initializer) {
  return control::dynamic_loop<Scope, Reverse>(
             [&](const auto& states, const auto& x) {
               auto acc = fn(std::get<0>(states), x);
               return std::pair{acc, std::tuple{acc}};
             },
             elems, std::tuple{initializer})
      .outputs;
}

/// `foldl<"foldl">(fn, elems, initializer)` is tf.foldl: the last accumulator of scan, the
/// initializer itself for an empty elems.
template <fixed_string Scope = "foldl", class Fn, node Xs, node Init>
auto foldl(Fn&& fn, const Xs& elems, const Init& initializer) {
  return std::get<0>(control::dynamic_loop<Scope>(
                         [&](const auto& states, const auto& x) {
                           auto acc = fn(std::get<0>(states), x);
                           return std::pair{acc, std::tuple{acc}};
                         },
                         elems, std::tuple{initializer})
                         .final_state);
}

/// `foldr<"foldr">(fn, elems, initializer)` is tf.foldr: foldl from the last element to the
/// first.
template <fixed_string Scope = "foldr", class Fn, node Xs, node Init>
auto foldr(Fn&& fn, const Xs& elems, const Init& initializer) {
  return std::get<0>(control::dynamic_loop<Scope, true>(
                         [&](const auto& states, const auto& x) {
                           auto acc = fn(std::get<0>(states), x);
                           return std::pair{acc, std::tuple{acc}};
                         },
                         elems, std::tuple{initializer})
                         .final_state);
}

}  // namespace typeflow
