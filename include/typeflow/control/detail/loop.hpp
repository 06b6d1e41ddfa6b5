// typeflow/control/detail/loop.hpp — the loop node, its forward run and its output nodes.
//
// A run that reaches the loop runs the body once per step of the sequence's first (time)
// dimension, through the session that runs the loop, each step a run of the body's own plan
// (compiled once, its buffers kept). The loop node's value is a record (the stacked outputs,
// the final states, the states of every step; the values a reverse loop of the same run
// reads are kept in that reverse loop's record), read by its output nodes: `loop_outputs` (the
// outputs, [time, ...]) and `loop_state<J>` (final state J). Each output node takes the loop's
// inputs as its own, so that gradients flow from it to them directly: the gradient of the
// outputs and that of a final state are each one reverse loop (loop_gradient.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/mp11/algorithm.hpp>
#include <xtensor/xtensor.hpp>

#include "typeflow/control/detail/loop_body.hpp"
#include "typeflow/control/detail/values.hpp"
#include "typeflow/core/errors.hpp"
#include "typeflow/core/shape.hpp"

namespace typeflow::control::detail {

/// What a loop's run leaves for its output nodes and its gradient.
template <class T, std::size_t XRank, std::size_t ORank, class CapStores, class X, class... S>
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
  CapStores captured{};                       // the values of the outer nodes bound to loop constants
  xt::xtensor_container<std::vector<T>, XRank, xt::layout_type::row_major> xs_scratch;           // the sequence, when a run hands a lazy expression
};

/// Marks a loop without sequence_length.
struct no_lengths {};

/// A node that is a loop; its inputs are the initial states, the sequence, the lengths (if
/// any) and what the body reads from outside: the variables, the placeholders of the
/// enclosing graph, and the outer nodes its constants' placeholders are bound to (Bound, a
/// map of mp_list<placeholder, node>; see capture_source).
template <class Body, class Xs, class Len, class Inits, class Bound = mp::mp_list<>, class Caps = typename Body::captures>
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

/// The steps of a while loop, L: until its condition is false (while_steps.hpp).
template <class L, class Ctx>
void run_while(Ctx& ctx);

template <class Body, class Xs, class Len, class... Init, class Bound, class... Cap>
struct loop_node<Body, Xs, Len, mp::mp_list<Init...>, Bound, mp::mp_list<Cap...>>
    : node_base, kind_tag<node_kind::effect>, op_info<"While", false>, pure_effect {
  static constexpr bool has_lengths_v = !std::is_same_v<Len, no_lengths>;
  using T = typename Body::value_type;
  using value_type = none_t;  // its value is a record, read by its output nodes; not fetched
  using shape_type = scalar;
  using body_type = Body;
  using sequence = Xs;
  using lengths = Len;
  using layout = loop_layout<sizeof...(Init), !std::is_same_v<Len, no_lengths>>;
  using bound = Bound;
  using inputs = mp::mp_if_c<std::is_same_v<Len, no_lengths>, mp::mp_list<Init..., Xs, capture_source_t<Bound, Cap>...>,
                             mp::mp_list<Init..., Xs, Len, capture_source_t<Bound, Cap>...>>;
  // What the inputs, the output, the new states and a while loop's condition carry (a body
  // whose new states read a constant of run-time values that its output does not).
  using carried = mp::mp_unique<mp::mp_append<carried_union_t<Init..., Xs, capture_source_t<Bound, Cap>..., typename Body::output>,
                                              mp::mp_rename<typename Body::new_states, carried_union_t>,
                                              mp::mp_eval_if_c<!Body::is_while, mp::mp_list<>, carried_union_t,
                                                               typename Body::cond>>>;
  [[no_unique_address]] definitions_t<carried> defs;
  using output_type = loop_record<T, shape_of<Xs>::rank, shape_of<typename Body::output>::rank,
                                  std::tuple<capture_store<Bound, Cap>...>, buffer_of<typename Body::input>, buffer_of<Init>...>;

  template <class Ctx>
  static void run(Ctx& ctx) {
    if constexpr (Body::is_while) {
      run_while<loop_node>(ctx);  // while_steps.hpp
    } else {
      run_sequence(ctx);
    }
  }
  template <class Ctx>
  static void run_sequence(Ctx& ctx);
};

// --- the forward loop -------------------------------------------------------------------

/// The reverse loop of loop L from cotangent G of its outputs (Which = -1) or of its final
/// state Which (loop_gradient.hpp).
template <class L, std::ptrdiff_t Which, class G>
struct loop_grad;

template <class N>
struct is_loop_grad : std::false_type {};
template <class L, std::ptrdiff_t Which, class G>
struct is_loop_grad<loop_grad<L, Which, G>> : std::true_type {};
template <class N, class L>
struct is_loop_grad_of : std::false_type {};
template <class L, std::ptrdiff_t Which, class G>
struct is_loop_grad_of<loop_grad<L, Which, G>, L> : std::true_type {};

/// The reverse loop of L that holds the forward values its reverse loops read
/// (saved_forward_t): the first on the path Order of the run, or void when the run has
/// none, and the forward loop keeps nothing. The reverse loops of a loop run in the run
/// that runs it, after it, and find it the same way.
template <class Order, class L>
struct keeper {
  template <class N>
  using of_l = is_loop_grad_of<N, L>;
  using found = graph::detail::select<of_l, graph::detail::select<is_loop_grad, Order>>;
  using type = mp::mp_eval_if_c<mp::mp_empty<found>::value, void, mp::mp_front, found>;
};
template <class Order, class L>
using keeper_t = typename keeper<Order, L>::type;

template <std::size_t... K, class Rec, class Fn>
void for_each_state(std::index_sequence<K...>, Rec& rec, Fn&& fn) {
  (fn(std::integral_constant<std::size_t, K>{}, std::get<K>(rec.state), std::get<K>(rec.next)), ...);
}

/// A step's new state k must have its state's size: a loop variable keeps its shape, a
/// dynamic first dim included (TensorFlow's shape_invariants are not offered).
template <std::size_t R, class S, class N>
void check_new_state_size(std::string_view loop, std::size_t k, const S& state, const N& next) {
  if (element_count(next) != element_count(state))
    throw invalid_argument_error(std::string(loop) + ": loop variable " + std::to_string(k) + " has shape " +
                                 shape_string(dims_of_value<R>(state)) + " before a step and " +
                                 shape_string(dims_of_value<R>(next)) +
                                 " after it; a loop variable keeps its shape in every step");
}

/// Loads what a run hands loop L into its record: the values of the outer nodes bound to
/// loop constants, for every step, and the initial states.
template <class L, class Ctx, class Rec>
void load_loop_inputs(Ctx& ctx, Rec& rec) {
  using Caps = typename L::body_type::captures;
  using Init = mp::mp_take_c<inputs_of<L>, L::layout::states>;
  [&]<std::size_t... C>(std::index_sequence<C...>) {
    (
        [&] {
          using Cp = mp::mp_at_c<Caps, C>;
          if constexpr (!std::is_same_v<capture_source_t<typename L::bound, Cp>, Cp>)
            assign_value(std::get<C>(rec.captured), ctx.template value<capture_source_t<typename L::bound, Cp>>());
        }(),
        ...);
  }(std::make_index_sequence<mp::mp_size<Caps>::value>{});
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (assign_value(std::get<I>(rec.state), ctx.template value<mp::mp_at_c<Init, I>>()), ...);
  }(std::make_index_sequence<L::layout::states>{});
}

/// Runs one step of loop L's body (its plan compiled once) on the record's states, the step
/// input x_t and the captures: hands the step's output to on_output, keeps the new states in
/// rec.next, and, when the run runs a reverse loop of L, the step's values that the reverse
/// loop reads at position t.
template <class L, class Ctx, class Rec, class X, class OnOutput>
void run_body_step(Ctx& ctx, Rec& rec, X& x_t, std::size_t t, OnOutput&& on_output) {
  using Body = typename L::body_type;
  using Caps = typename Body::captures;
  constexpr std::size_t K = L::layout::states;
  using LG = keeper_t<typename Ctx::order, L>;
  using kept = mp::mp_eval_if_c<std::is_void_v<LG>, mp::mp_list<>, saved_forward_t, Body>;
  [&]<class... SP, std::size_t... I, class... Cp, std::size_t... C>(mp::mp_list<SP...>, std::index_sequence<I...>,
                                                                   mp::mp_list<Cp...>, std::index_sequence<C...>) {
    ctx.template run_subgraph<mp::mp_append<typename Body::fetches, kept>>(
        [&](const auto& o, const auto&... rest) {
          on_output(o);
          const auto values = std::forward_as_tuple(rest...);
          (assign_value(std::get<I>(rec.next), std::get<I>(values)), ...);
          if constexpr (!std::is_void_v<LG>) {
            [&]<std::size_t... J>(std::index_sequence<J...>) {
              (assign_value(std::get<J>(ctx.template buffer<LG>().saved)[t], std::get<K + J>(values)), ...);
            }(std::make_index_sequence<mp::mp_size<kept>::value>{});
          }
        },
        step_feed<SP, std::tuple_element_t<I, decltype(rec.state)>>{std::get<I>(rec.state)}...,
        step_feed<typename Body::input, X>{x_t}, capture_feed<Cp>(ctx, std::get<C>(rec.captured))...);
  }(typename Body::states{}, std::make_index_sequence<K>{}, Caps{}, std::make_index_sequence<mp::mp_size<Caps>::value>{});
}

/// Whether example b is past its length at step t.
inline bool past_length(const buffer<std::int64_t>& lengths, bool masked, std::size_t b, std::size_t t) {
  return masked && static_cast<std::int64_t>(t) >= lengths.get()[b];
}

template <class Body, class Xs, class Len, class... Init, class Bound, class... Cap>
template <class Ctx>
void loop_node<Body, Xs, Len, mp::mp_list<Init...>, Bound, mp::mp_list<Cap...>>::run_sequence(Ctx& ctx) {
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

  load_loop_inputs<loop_node>(ctx, rec);
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

  // The forward values the reverse loops of this run read, kept per step (run_body_step).
  using LG = keeper_t<typename Ctx::order, loop_node>;
  if constexpr (!std::is_void_v<LG>) {
    std::apply([&](auto&... series) { ((series.size() < steps ? series.resize(steps) : void()), ...); },
               ctx.template buffer<LG>().saved);
  }

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
    run_body_step<loop_node>(ctx, rec, x_t, t, [&](const auto& o) {
      if (element_count(o) != rec.out_size) {
        // Without lengths, an output's dynamic first dim is what the first step gives
        // (a cond's result: its batch is not the states'); each later step must agree.
        if constexpr (shape_of<O>::rank >= 1 && shape_of<O>::dims[0] == dyn) {
          if (i == 0 && !rec.masked) {
            rec.out_dims = dims_of_value<shape_of<O>::rank>(o);
            rec.out_size = element_count(o);
            rec.ys.resize(steps * rec.out_size);
          }
        }
        if (element_count(o) != rec.out_size)
          throw invalid_argument_error(std::string(Body::scope.view()) + ": a step's output has " +
                                       std::to_string(element_count(o)) + " elements, expected " +
                                       std::to_string(rec.out_size));
      }
      copy_elements<T>(rec.ys.get() + t * rec.out_size, ops::detail::data_ptr(o), rec.out_size);
    });
    // Past an example's length its output is zero and its states are carried unchanged
    // (TensorFlow's dynamic_rnn with sequence_length).
    if (rec.masked) {
      T* y = rec.ys.get() + t * rec.out_size;
      const std::size_t orow = rec.out_size / (batch == 0 ? 1 : batch);
      for (std::size_t b = 0; b < batch; ++b)
        if (past_length(rec.lengths, true, b, t)) std::fill_n(y + b * orow, orow, T(0));
    }
    // Without lengths each state is replaced whole (states need not share a batch dim: a
    // cond's results are states of any shapes); with them, row by row along the batch.
    for_each_state(std::make_index_sequence<K>{}, rec, [&](auto k, auto& s, auto& n) {
      check_new_state_size<shape_of<mp::mp_at_c<mp::mp_list<Init...>, k>>::rank>(Body::scope.view(), k, s, n);
      const std::size_t size = element_count(s);
      T* sp = mutable_data(s);
      const T* np = mutable_data(n);
      if (!rec.masked) {
        copy_elements<T>(sp, np, size);
        return;
      }
      const std::size_t row = size / (batch == 0 ? 1 : batch);
      for (std::size_t b = 0; b < batch; ++b)
        if (!past_length(rec.lengths, rec.masked, b, t)) copy_elements<T>(sp + b * row, np + b * row, row);
    });
  }
}

// --- the output nodes -------------------------------------------------------------------

/// The gradient of the loop's input I (an index into L's inputs), read from the record of
/// reverse loop LG.
template <class LG, std::size_t I>
struct loop_grad_part;

template <class L, std::ptrdiff_t Which, class G, std::size_t K>
struct loop_input_gradient {
  // A while loop's sequence is its maximum number of steps: no gradient.
  using type = mp::mp_if_c<K == 0 || L::layout::is_lengths(K - 1) || is_no_gradient<G> ||
                               (L::body_type::is_while && K - 1 == L::layout::sequence),
                           no_gradient,
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

template <class T, class S>
struct loop_outputs_kernel;
template <class T, class S, std::size_t J>
struct loop_state_kernel;

/// The outputs of loop L, stacked along a first (time) dimension.
template <class L, class In = inputs_of<L>>
struct loop_outputs;
template <class L, class... In>
struct loop_outputs<L, mp::mp_list<In...>>
    : node_facade<typename L::T, typename stacked_shape<L>::type, node_kind::compute, L, In...>,
      op_info<"TensorArrayGatherV3"> {
  template <std::size_t K, class G>
  using gradient = typename loop_input_gradient<L, -1, G, K>::type;

  using compute_kernel = loop_outputs_kernel<typename L::T, typename stacked_shape<L>::type>;
};

/// The compute kernels of loop_outputs and loop_state (session_detail::compute_kernel):
/// named by the value's type, shape and place in the record, not by the loop.
template <class T, class S>
struct loop_outputs_kernel : node_facade<T, S, node_kind::compute> {
  template <class Out, class Rec, class... Ignored>
  static void compute(Out& out, const Rec& rec, const Ignored&...) {
    std::array<std::size_t, S::rank> dims{};
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

  using compute_kernel = loop_state_kernel<typename L::T, shape_of<mp::mp_at_c<inputs_of<L>, J>>, J>;
};
template <class T, class S, std::size_t J>
struct loop_state_kernel : node_facade<T, S, node_kind::compute> {
  template <class Out, class Rec, class... Ignored>
  static void compute(Out& out, const Rec& rec, const Ignored&...) {
    assign_value(out, std::get<J>(rec.state));
  }
};

}  // namespace typeflow::control::detail
