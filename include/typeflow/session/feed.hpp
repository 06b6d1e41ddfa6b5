// typeflow/session/feed.hpp — feed(x, value) and fetch(a, b, ...): what run() takes.
#pragma once

#include <tuple>
#include <type_traits>

#include <xtensor/xtensor.hpp>

#include "typeflow/core/node.hpp"

namespace typeflow {

/// In a diagnostic: the fed value's element type differs from the node's.
template <class Node, class Value>
struct fed_value_must_have_the_node_element_type {
  static constexpr bool value = std::is_same_v<typename Node::value_type, Value>;
};

/// In a diagnostic: the shape of the node a scalar was fed to.
template <class Shape>
struct scalar_feeds_a_node_of_rank_0 {
  static constexpr bool value = Shape::rank == 0;
};

/// A value for one node in one run; made by typeflow::feed. Holds a reference to a
/// container (which must outlive the run) or, for a scalar, the value itself.
template <class Node, class Stored>
struct feed_t {
  using node_type = Node;
  Stored value;
};

/// `feed(x, value)` is TensorFlow's `feed_dict={x: value}`. Any node may be fed; its
/// inputs are then not evaluated. Scalars convert to the node's element type, tensors
/// must have it; dynamic dims are checked when the run starts.
template <node N, class V>
auto feed(N, const V& value) {
  using T = value_type_of<N>;
  if constexpr (std::is_arithmetic_v<V>) {
    static_assert(scalar_feeds_a_node_of_rank_0<shape_of<N>>::value,
                  "feed(x, value): a scalar value can only feed a node of rank 0 (shape<>)");
    if constexpr (shape_of<N>::rank == 0) {
      return feed_t<N, T>{static_cast<T>(value)};
    } else {
      return feed_t<N, storage_t<T, shape_of<N>>>{};  // inert: the error above is the one to read
    }
  } else {
    static_assert(fed_value_must_have_the_node_element_type<N, typename V::value_type>::value,
                  "feed(x, value): the value's element type must be the node's element type");
    if constexpr (shape_of<N>::rank == 0) {
      return feed_t<N, T>{static_cast<T>(value())};  // a 0-d container
    } else if constexpr (requires { V::static_layout; } && V::static_layout == xt::layout_type::row_major &&
                         requires { value.data(); }) {
      return feed_t<N, const V&>{value};
    } else {
      // Ops read tensors in row-major order: another layout (or a lazy expression) is
      // copied once into a row-major container for the run.
      return feed_t<N, xt::xtensor<T, shape_of<N>::rank>>{xt::xtensor<T, shape_of<N>::rank>(value)};
    }
  }
}

/// Several fetches in one run; run() then returns a std::tuple of their values.
template <class... N>
struct fetch_list {
  std::tuple<N...> nodes;  // for the definitions they carry (core/definition.hpp)
};

/// `sess.run(fetch(a, b))` is TensorFlow's `sess.run([a, b])`: each node evaluated once.
template <class... N>
constexpr fetch_list<N...> fetch(const N&... n) {
  return {{n...}};
}

namespace detail {
/// The fetched nodes of a run's first argument, as an mp_list.
template <class F>
struct fetches_of {
  using type = mp::mp_list<F>;
};
template <class... N>
struct fetches_of<fetch_list<N...>> {
  using type = mp::mp_list<N...>;
};
}  // namespace detail

}  // namespace typeflow
