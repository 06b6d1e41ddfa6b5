// typeflow/control/scan.hpp — loops in the graph: tf.scan, tf.foldl, tf.foldr, and the loop
// under dynamic_rnn.
//
// A loop is a node whose body is itself a graph type (DESIGN rule 9). The body is built once,
// from placeholders for the loop-carried states and for one step of the input sequence, by
// calling the user's function on them; its output and new states are ordinary nodes. The trip
// count is the sequence's first dimension, known only at run time, and the compile cost does
// not depend on it. Gradients are derived from the body's by the same machinery.
//
// This header checks what the user gave and builds the loop; the parts live in detail/:
//   loop_body.hpp      the body and its vector-Jacobian product, as graph types;
//   loop.hpp           the loop node, its forward run, its output nodes;
//   loop_gradient.hpp  the reverse loop.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/control/detail/loop_gradient.hpp"

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

/// In a diagnostic: constant J of loop Loop has element type Got where the loop's values
/// have T (the body reads it as a value of the loop's type; its gradient is summed in it).
template <fixed_string Loop, std::size_t J, class Got, class T>
struct loop_constant_must_have_the_loop_element_type {
  static constexpr bool value = false;
};

namespace control {

/// What a loop gives back: the outputs of its steps stacked along a first (time) dimension,
/// and its final states.
template <class Outputs, class FinalStates>
struct loop_result {
  Outputs outputs;
  FinalStates final_state;
};

/// The outer nodes a loop's body reads (TensorFlow's while_loop capturing outer tensors):
/// `control::constants{attention_states, hidden}`. See dynamic_loop.
template <class... C>
struct constants {
  std::tuple<C...> nodes;
  constexpr explicit constants(const C&... c) : nodes(c...) {}
};
template <class... C>
constants(const C&...) -> constants<C...>;

}  // namespace control

namespace control::detail {

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

template <fixed_string Scope, class T, class C, std::size_t... J>
constexpr bool check_constants(std::index_sequence<J...>) {
  constexpr std::size_t bad = [] {
    constexpr bool same[] = {std::is_same_v<value_type_of<std::tuple_element_t<J, C>>, T>..., false};
    std::size_t i = 0;
    while (i < sizeof...(J) && same[i]) ++i;
    return i;
  }();
  if constexpr (bad < sizeof...(J)) {
    using Got = value_type_of<std::tuple_element_t<bad, C>>;
    static_assert(loop_constant_must_have_the_loop_element_type<Scope, bad, Got, T>::value,
                  "a loop's constants must have the element type of its states and sequence");
    return false;
  } else {
    return true;
  }
}

/// The loop of dynamic_loop: fn(states, x) without constants, fn(states, x, constants) with.
template <fixed_string Scope, bool Reverse, bool WithConstants, class Fn, node Xs, node... Init, class... C, class Len>
auto build_loop(Fn&& fn, const Xs& xs, const std::tuple<Init...>& init, const std::tuple<C...>& consts, const Len& lengths) {
  static_assert(sizeof...(Init) > 0, "a loop carries at least one state");
  static_assert(!Reverse || std::is_same_v<Len, no_lengths>,
                "a loop in reverse takes no lengths: reverse each sequence within its length (tf::reverse_sequence)");
  constexpr bool inputs_ok = check_loop_inputs<Scope, Xs, Init...>() &&
                             check_constants<Scope, value_type_of<Xs>, std::tuple<C...>>(std::index_sequence_for<C...>{});
  if constexpr (!inputs_ok) {
    return loop_result<Xs, std::tuple<Init...>>{xs, init};  // inert: the error above is the one to read
  } else {
    using T = value_type_of<Xs>;
    using XP = input_placeholder<Scope, T, typename step_shape<shape_of<Xs>>::type>;
    return [&]<std::size_t... K, std::size_t... J>(std::index_sequence<K...>, std::index_sequence<J...>) {
      using states = std::tuple<state_placeholder<Scope, K, T, shape_of<Init>>...>;
      using captured = std::tuple<capture_placeholder<Scope, J, T, shape_of<C>>...>;
      using Bound = mp::mp_list<mp::mp_list<capture_placeholder<Scope, J, T, shape_of<C>>, C>...>;
      auto [output, new_states] = [&] {
        if constexpr (WithConstants) {
          return fn(states{}, XP{}, captured{});
        } else {
          return fn(states{}, XP{});
        }
      }();
      using O = decltype(output);
      using NS = std::remove_cvref_t<decltype(new_states)>;
      if constexpr (!check_state_count<Scope, sizeof...(Init), NS>()) {
        return loop_result<Xs, std::tuple<Init...>>{xs, init};  // inert: the error above is the one to read
      } else {
        constexpr bool states_ok =
            (check_new_state<Scope, K, std::tuple_element_t<K, states>, std::tuple_element_t<K, NS>>() && ...);
        using Body = body<Scope, mp::mp_list<std::tuple_element_t<K, states>...>, XP, O,
                          mp::mp_list<std::tuple_element_t<K, NS>...>, Reverse>;
        if constexpr (!states_ok || !check_body<Scope, Body>()) {
          return loop_result<Xs, std::tuple<Init...>>{xs, init};  // inert, as above
        } else {
          using L = loop_node<Body, Xs, Len, mp::mp_list<Init...>, Bound>;
          const L loop = [&] {
            if constexpr (std::is_same_v<Len, no_lengths>) {
              return make_node<L>(std::get<K>(init)..., xs, std::get<J>(consts)..., output, std::get<K>(new_states)...);
            } else {
              return make_node<L>(std::get<K>(init)..., xs, lengths, std::get<J>(consts)..., output,
                                  std::get<K>(new_states)...);
            }
          }();
          auto outputs = make_node<loop_outputs<L>>(loop);
          auto finals = std::tuple{make_node<loop_state<L, K>>(loop)...};
          return loop_result<decltype(outputs), decltype(finals)>{outputs, finals};
        }
      }
    }(std::index_sequence_for<Init...>{}, std::index_sequence_for<C...>{});
  }
}

}  // namespace control::detail

namespace control {

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
  return detail::build_loop<Scope, Reverse, false>(fn, xs, init, std::tuple<>{}, lengths);
}

/// dynamic_loop whose body also reads outer nodes, the loop's constants (TensorFlow's
/// while_loop capturing outer tensors through Enter): `fn(states, x, consts)` gets `consts`,
/// a std::tuple of placeholders of the constants' shapes, named "<Scope>/while/capture_k",
/// each fed with its node's value at every step (computed once per run). The gradient of a
/// constant is the sum of its gradients over the steps, added to those of its other uses.
/// Constants have the loop's floating element type; any shape (a dynamic batch too).
template <fixed_string Scope, bool Reverse = false, class Fn, node Xs, node... Init, class... C,
          class Len = detail::no_lengths>
auto dynamic_loop(Fn&& fn, const Xs& xs, const std::tuple<Init...>& init, const constants<C...>& consts,
                  const Len& lengths = {}) {
  return detail::build_loop<Scope, Reverse, true>(fn, xs, init, consts.nodes, lengths);
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
