// typeflow/control/map_fn.hpp — tf.map_fn: fn applied to each element of elems along its first
// dimension, the results stacked.
//
// A thin layer over the loop of scan.hpp (control::dynamic_loop): a loop that carries one
// scalar state through unchanged and whose step output is fn(x). The loop's values have one
// floating element type; map_fn casts elems to it and fn's outputs from it, so elems and fn's
// outputs may have any element type (integers too; the loop runs in double unless every one
// is float). Several sequences (a std::tuple of elems of one shape) are stacked into one
// along a second dimension and unstacked in the body; several outputs (a std::tuple of nodes
// of one shape) likewise. Gradients are the loop's: they flow to elems and to the variables
// and outer placeholders fn reads.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "typeflow/control/scan.hpp"
#include "typeflow/ops/concat.hpp"
#include "typeflow/ops/constant.hpp"
#include "typeflow/ops/math.hpp"
#include "typeflow/ops/split.hpp"

namespace typeflow {

/// In a diagnostic: map_fn Loop was given an elems of shape Shape without a first dimension
/// (TensorFlow: "elems must be a 1+ dimensional Tensor, not a scalar").
template <fixed_string Loop, class Shape>
struct map_fn_elems_must_be_a_1_plus_dimensional_tensor {
  static constexpr bool value = false;
};
/// In a diagnostic: map_fn Loop was given several elems (a std::tuple) that are not all
/// nodes of one shape.
template <fixed_string Loop>
struct map_fn_elems_must_be_nodes_of_one_shape {
  static constexpr bool value = false;
};
/// In a diagnostic: the fn of map_fn Loop returned something that is not a node, nor a
/// std::tuple of nodes of one shape.
template <fixed_string Loop>
struct map_fn_fn_must_return_a_node_or_a_tuple_of_nodes_of_one_shape {
  static constexpr bool value = false;
};
/// In a diagnostic: the fn of map_fn Loop returned a node of shape Shape with a dynamic dim.
template <fixed_string Loop, class Shape>
struct map_fn_fn_output_must_have_static_dims {
  static constexpr bool value = false;
};

namespace control::detail {

template <class T>
struct is_std_tuple : std::false_type {};
template <class... A>
struct is_std_tuple<std::tuple<A...>> : std::true_type {};

/// elems (or fn's result) as a std::tuple of its parts.
template <class E>
auto map_parts(const E& e) {
  if constexpr (is_std_tuple<E>::value) {
    return e;
  } else {
    return std::tuple<E>{e};
  }
}
template <class E>
using map_parts_t = decltype(map_parts(std::declval<const E&>()));

/// Whether a tuple's parts are nodes of one shape.
template <class Tuple>
struct nodes_of_one_shape : std::false_type {};
template <class A, class... B>
struct nodes_of_one_shape<std::tuple<A, B...>> {
  static constexpr bool value = [] {
    if constexpr ((node<A> && ... && node<B>)) {
      return (std::is_same_v<shape_of<A>, shape_of<B>> && ...);
    } else {
      return false;  // shape_of is not asked of a non-node (a nested std::tuple, a number)
    }
  }();
};

/// Whether a std::tuple's parts are all nodes.
template <class Tuple>
struct all_nodes : std::false_type {};
template <class... A>
struct all_nodes<std::tuple<A...>> : std::bool_constant<(node<A> && ...)> {};

/// The shapes of a std::tuple of nodes, and whether a shape's dims after its first are static.
template <class Outs>
using result_shapes = mp::mp_transform<shape_of, mp::mp_rename<Outs, mp::mp_list>>;
template <class S>
using static_after_first_c = std::bool_constant<static_after_first<S>()>;
/// The index of the first part of Outs with a dynamic dim after its first; the size if none.
template <class Outs>
using first_bad_result = mp::mp_find_if_q<result_shapes<Outs>, mp::mp_not_fn<static_after_first_c>>;

/// The element type a map_fn loop runs in: float if every value is float, else double.
template <class... T>
using map_loop_t = std::conditional_t<(std::is_same_v<T, float> && ...), float, double>;

template <class To, node N>
auto cast_if_needed(const N& n) {
  if constexpr (std::is_same_v<value_type_of<N>, To>) {
    return n;
  } else {
    return cast<To>(n);
  }
}

/// The argument fn is called with: one node, or a std::tuple of the parts of the step x
/// (stacked along its first dimension), each cast back to its elems' element type.
template <bool Several, class Parts, node X>
auto map_argument(const X& x) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    if constexpr (!Several) {
      return cast_if_needed<value_type_of<std::tuple_element_t<0, Parts>>>(x);
    } else {
      auto pieces = unstack<0>(x);
      return std::tuple{cast_if_needed<value_type_of<std::tuple_element_t<I, Parts>>>(std::get<I>(pieces))...};
    }
  }(std::make_index_sequence<std::tuple_size_v<Parts>>{});
}

/// A placeholder fn is probed with, to learn the type of its result before the loop is built.
template <class E>
using map_probe = placeholder_node<"map_fn/probe", value_type_of<E>, typename step_shape<shape_of<E>>::type>;
template <bool Several, class Parts, class Fn, class Idx = std::make_index_sequence<std::tuple_size_v<Parts>>>
struct map_result;
template <bool Several, class Parts, class Fn, std::size_t... I>
struct map_result<Several, Parts, Fn, std::index_sequence<I...>> {
  using type = std::remove_cvref_t<decltype(std::declval<Fn&>()(
      std::conditional_t<Several, std::tuple<map_probe<std::tuple_element_t<I, Parts>>...>,
                         map_probe<std::tuple_element_t<0, Parts>>>{}))>;
};

template <fixed_string Scope, class Parts>
constexpr bool check_map_elems() {
  if constexpr (!nodes_of_one_shape<Parts>::value) {
    static_assert(map_fn_elems_must_be_nodes_of_one_shape<Scope>::value,
                  "typeflow::map_fn(fn, elems): elems must be a node, or a std::tuple of nodes of one shape");
    return false;
  } else if constexpr (shape_of<std::tuple_element_t<0, Parts>>::rank < 1) {
    static_assert(map_fn_elems_must_be_a_1_plus_dimensional_tensor<Scope, shape_of<std::tuple_element_t<0, Parts>>>::value,
                  "typeflow::map_fn(fn, elems): elems must be a 1+ dimensional tensor, not a scalar: "
                  "fn is applied to its elements along the first dimension");
    return false;
  } else {
    return true;
  }
}

/// What map_fn returns after its error: a node where it can (so that no cascade follows).
template <class E>
auto map_inert(const E& e) {
  if constexpr (is_std_tuple<E>::value) {
    if constexpr (node<std::tuple_element_t<0, E>>) {
      return std::get<0>(e);
    } else {
      return e;
    }
  } else {
    return e;
  }
}

template <class S>
constexpr bool all_dims_static() {
  for (std::size_t i = 0; i < S::rank; ++i)
    if (S::dims[i] == dyn) return false;
  return true;
}

template <fixed_string Scope, class Outs>
constexpr bool check_map_outputs() {
  if constexpr (!nodes_of_one_shape<Outs>::value) {
    static_assert(map_fn_fn_must_return_a_node_or_a_tuple_of_nodes_of_one_shape<Scope>::value,
                  "typeflow::map_fn(fn, elems): fn must return a node, or a std::tuple of nodes of one shape");
    return false;
  } else if constexpr (!all_dims_static<shape_of<std::tuple_element_t<0, Outs>>>()) {
    static_assert(map_fn_fn_output_must_have_static_dims<Scope, shape_of<std::tuple_element_t<0, Outs>>>::value,
                  "typeflow::map_fn(fn, elems): fn's output must have static dims");
    return false;
  } else {
    return true;
  }
}

}  // namespace control::detail

/// `map_fn<"map">(fn, elems)` is tf.map_fn(fn, elems): fn applied to each element of elems
/// along its first dimension, the results stacked: [n, ...fn's output shape], of fn's output
/// element type (TensorFlow's `dtype`, known here from fn). elems's first dim may be dyn (0
/// gives an empty result); fn is called once, with a placeholder of one element's shape
/// ("<Scope>/while/input", cast to elems's element type), to build the loop's body, and
/// may read variables and outer placeholders (gradients reach them, and elems).
///
/// Several sequences: `map_fn(fn, std::tuple{a, b})` calls fn with a std::tuple of one
/// element of each (nodes of one shape, any element types). Several outputs: fn returns a
/// std::tuple of nodes of one shape, and map_fn a std::tuple of their stacks.
template <fixed_string Scope = "map", class Fn, class Elems>
auto map_fn(Fn&& fn, const Elems& elems) {
  namespace cd = control::detail;
  using Parts = cd::map_parts_t<Elems>;
  constexpr bool several_in = cd::is_std_tuple<Elems>::value;
  if constexpr (!cd::check_map_elems<Scope, Parts>()) {
    return cd::map_inert(elems);  // inert: the error above is the one to read
  } else {
    using R = typename cd::map_result<several_in, Parts, Fn>::type;
    using Outs = cd::map_parts_t<R>;
    constexpr bool several_out = cd::is_std_tuple<R>::value;
    if constexpr (!cd::check_map_outputs<Scope, Outs>()) {
      return cd::map_inert(elems);  // inert, as above
    } else {
      return [&]<std::size_t... I, std::size_t... J>(std::index_sequence<I...>, std::index_sequence<J...>) {
        using W = cd::map_loop_t<value_type_of<std::tuple_element_t<I, Parts>>...,
                                 value_type_of<std::tuple_element_t<J, Outs>>...>;
        const Parts parts = cd::map_parts(elems);
        const auto seq = [&] {
          if constexpr (several_in) {
            return stack<1>(cd::cast_if_needed<W>(std::get<I>(parts))...);
          } else {
            return cd::cast_if_needed<W>(std::get<0>(parts));
          }
        }();
        auto loop = control::dynamic_loop<Scope>(
            [&](const auto& states, const auto& x) {
              const auto out = cd::map_parts(fn(cd::map_argument<several_in, Parts>(x)));
              auto y = [&] {
                if constexpr (several_out) {
                  return stack<0>(cd::cast_if_needed<W>(std::get<J>(out))...);
                } else {
                  return cd::cast_if_needed<W>(std::get<0>(out));
                }
              }();
              return std::pair{y, std::tuple{std::get<0>(states)}};  // no state: carried unchanged
            },
            seq, std::tuple{constant<0, W>()});
        if constexpr (several_out) {
          auto pieces = unstack<1>(loop.outputs);
          return std::tuple{cd::cast_if_needed<value_type_of<std::tuple_element_t<J, Outs>>>(std::get<J>(pieces))...};
        } else {
          return cd::cast_if_needed<value_type_of<std::tuple_element_t<0, Outs>>>(loop.outputs);
        }
      }(std::make_index_sequence<std::tuple_size_v<Parts>>{}, std::make_index_sequence<std::tuple_size_v<Outs>>{});
    }
  }
}

}  // namespace typeflow
