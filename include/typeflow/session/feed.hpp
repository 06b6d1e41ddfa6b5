// typeflow/session/feed.hpp — feed(x, value): the values run() takes for nodes.
//
// A fed value is a scalar (for a node of rank 0), an xtensor container or an xtensor
// expression. Its rank and shape are checked against the node's: at compile time as far
// as the value's type tells them (xtensor's rank, xtensor_fixed's dims), otherwise when
// the feed is made (values copied or read at once: scalars, expressions) or when the run
// starts (containers, referenced or moved in), always before anything in the session changes.
// Feeds also come as a hana::map from nodes to values (TensorFlow's feed_dict).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include <boost/hana/core/tag_of.hpp>
#include <boost/hana/core/when.hpp>
#include <boost/hana/equal.hpp>
#include <boost/hana/first.hpp>
#include <boost/hana/hash.hpp>
#include <boost/hana/map.hpp>
#include <boost/hana/second.hpp>
#include <boost/hana/type.hpp>
#include <boost/hana/unpack.hpp>
#include <xtensor/xexpression.hpp>
#include <xtensor/xtensor.hpp>
#include <xtensor/xutils.hpp>

#include "typeflow/core/dtype.hpp"
#include "typeflow/core/errors.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/core/shape.hpp"
#include "typeflow/graph/traverse.hpp"
#include "typeflow/session/fetch.hpp"

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

/// In a diagnostic: a value of this type was fed to the node named Node; a feed takes a
/// scalar, an xtensor container or an xtensor expression.
template <fixed_string Node, class Value>
struct feed_takes_a_scalar_or_an_xtensor_expression_not {
  static constexpr bool value = false;
};

/// In a diagnostic: the static shape of a fed value (any_shape_of_rank<R> when only its
/// rank is static) does not fit the node's shape.
template <fixed_string Node, class ValueShape, class NodeShape>
struct cannot_feed_a_value_of_static_shape_to {
  static constexpr bool value = false;
};

/// Stands for the shape of a value whose rank alone is static (xt::xtensor<T, Rank>).
template <std::size_t Rank>
struct any_shape_of_rank {};

/// A value for one node in one run; made by typeflow::feed. Holds a reference to a
/// container given as an lvalue (which must outlive the runs the feed is given to), or the
/// value itself: a scalar, a container given as an rvalue (moved in), or a row-major copy
/// of an expression.
template <class Node, class Stored>
struct feed_t {
  using node_type = Node;
  Stored value;
};

namespace session_detail {

/// The static shape of a value of type V: shape<I...> for xt::fixed_shape, any_shape_of_rank
/// for a static rank, void when nothing is static.
template <class S>
struct fixed_dims {
  using type = void;
};
template <std::size_t... I>
struct fixed_dims<xt::fixed_shape<I...>> {
  using type = shape<static_cast<std::ptrdiff_t>(I)...>;
};
template <class V>
constexpr auto static_shape_impl() {
  if constexpr (requires { typename V::shape_type; } &&
                !std::is_void_v<typename fixed_dims<std::decay_t<typename V::shape_type>>::type>) {
    return typename fixed_dims<std::decay_t<typename V::shape_type>>::type{};
  } else if constexpr (xt::get_rank<V>::value != SIZE_MAX) {
    return any_shape_of_rank<xt::get_rank<V>::value>{};
  } else {
    return;
  }
}
template <class V>
struct static_shape_of {
  using type = decltype(static_shape_impl<V>());
};

template <class S, class NodeShape>
constexpr bool static_shape_fits() {
  if constexpr (std::is_void_v<S>) {
    return true;
  } else if constexpr (requires { S::rank; }) {
    if constexpr (S::rank != NodeShape::rank) {
      return false;
    } else {
      for (std::size_t i = 0; i < S::rank; ++i)
        if (NodeShape::dims[i] != dyn && NodeShape::dims[i] != S::dims[i]) return false;
      return true;
    }
  } else {
    return []<std::size_t R>(any_shape_of_rank<R>) { return R == NodeShape::rank; }(S{});
  }
}

/// "placeholder 'x'" or "node 'name'": the fed node, in feed errors.
/// (Appended piece by piece: g++ 12 -O2 reports a false -Warray-bounds on `"literal" +
/// std::string` here when the header is precompiled, inlining differently.)
template <class N>
std::string fed_node_label() {
  std::string label(graph::is_placeholder_node<N>::value ? "placeholder '" : "node '");
  label += named_node<N> ? name_of<N>() : op_name_of<N>();
  label += '\'';
  return label;
}

/// TensorFlow's error for a fed value whose shape does not fit node N's.
template <class N, class Dims>
[[noreturn, gnu::cold, gnu::noinline]] void throw_feed_shape(const Dims& got) {
  throw invalid_argument_error("Cannot feed value of shape " + shape_string(got) + " for " + fed_node_label<N>() +
                               ", which has shape " + shape_string<shape_of<N>>());
}

/// Whether the integer v converts to T and back unchanged (TensorFlow's check of an int fed
/// to a tensor: no truncation, no wrap-around, no rounding).
template <class T, class V>
bool integer_converts_exactly(V v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v == 0 || v == 1;
  } else if constexpr (std::is_integral_v<T>) {
    // std::in_range takes no character types: widen first (a feed of 'a' is an integer too).
    return std::in_range<T>(static_cast<std::conditional_t<std::is_signed_v<V>, long long, unsigned long long>>(v));
  } else {
    const T t = static_cast<T>(v);  // rounded; back to V only if within V's range
    const T bound = std::ldexp(T(1), std::numeric_limits<V>::digits);
    const T low = std::is_signed_v<V> ? -bound : T(0);
    return t >= low && t < bound && static_cast<V>(t) == v;
  }
}

/// TensorFlow's TypeError for an int feed that the node's element type cannot hold.
template <class N, class V>
[[noreturn, gnu::cold, gnu::noinline]] void throw_feed_integer(V v) {
  throw invalid_argument_error("Type of feed value " + std::to_string(v) + " with type " +
                               (std::is_signed_v<V> ? "int" : "uint") + std::to_string(sizeof(V) * 8) +
                               " is not compatible with Tensor type " + std::string(dtype_name_of<value_type_of<N>>) +
                               " of " + fed_node_label<N>() +
                               ". Try explicitly setting the type of the feed tensor to a larger type (e.g. int64).");
}

template <class N, class Dims>
void check_shape(const Dims& got) {
  if (!shape_matches<shape_of<N>>(got)) throw_feed_shape<N>(got);
}

/// The run-time check of a feed's shape, when the run starts (before anything changes).
template <class F>
void check_feed_shape(const F& f) {
  using N = typename F::node_type;
  if constexpr (shape_of<N>::rank > 0) check_shape<N>(f.value.shape());
}

}  // namespace session_detail

/// `feed(x, value)` is TensorFlow's `feed_dict={x: value}`. Any node may be fed; its
/// inputs are then not evaluated. Scalars convert to the node's element type (an integer
/// that the type cannot hold exactly throws invalid_argument_error, as TensorFlow's
/// TypeError), tensors must have it; a shape that does not fit is a compile error where
/// the value's type fixes it, an invalid_argument_error otherwise. A container given as an
/// lvalue is read by reference when each run starts (no copy per run); one given as an
/// rvalue is moved into the feed, so that a feed may outlive the expression that made it,
/// as a `feed_dict` does.
template <node N, class Arg>
auto feed(N, Arg&& arg) {
  using V = std::remove_cvref_t<Arg>;
  const V& value = arg;
  using T = value_type_of<N>;
  using S = shape_of<N>;
  using inert = feed_t<N, storage_t<T, S>>;  // after a failed check: no second error
  if constexpr (std::is_arithmetic_v<V>) {
    static_assert(scalar_feeds_a_node_of_rank_0<S>::value,
                  "feed(x, value): a scalar value can only feed a node of rank 0 (shape<>)");
    if constexpr (S::rank == 0) {
      if constexpr (std::is_integral_v<V> && !std::is_same_v<V, bool>)
        if (!session_detail::integer_converts_exactly<T>(value)) session_detail::throw_feed_integer<N>(value);
      return feed_t<N, T>{static_cast<T>(value)};
    } else {
      return inert{};
    }
  } else if constexpr (!xt::is_xexpression<V>::value) {
    // An error here means that the value is neither a scalar nor an xtensor container or
    // expression (a std::vector, a std::array): adapt it with xt::adapt(data, shape).
    static_assert(feed_takes_a_scalar_or_an_xtensor_expression_not<label_of<N>(), V>::value,
                  "feed(x, value): a fed value is a scalar, an xtensor container or an xtensor "
                  "expression; give other containers a shape with xt::adapt(vec, shape)");
    return inert{};
  } else if constexpr (!fed_value_must_have_the_node_element_type<N, typename V::value_type>::value) {
    static_assert(fed_value_must_have_the_node_element_type<N, typename V::value_type>::value,
                  "feed(x, value): the value's element type must be the node's element type");
    return inert{};
  } else if constexpr (!session_detail::static_shape_fits<typename session_detail::static_shape_of<V>::type, S>()) {
    // An error here means that the value's type fixes a rank or shape that the node's
    // shape does not have.
    static_assert(cannot_feed_a_value_of_static_shape_to<label_of<N>(), typename session_detail::static_shape_of<V>::type,
                                                         S>::value,
                  "feed(x, value): the value's type fixes a rank or shape that x does not have; feed a "
                  "value of x's shape");
    return inert{};
  } else if constexpr (S::rank == 0) {
    session_detail::check_shape<N>(value.shape());  // a tensor of one element is not a scalar either
    return feed_t<N, T>{static_cast<T>(value())};
  } else if constexpr (requires { V::static_layout; } && V::static_layout == xt::layout_type::row_major &&
                       requires { value.data(); }) {
    // Its shape is checked when the run starts.
    if constexpr (std::is_lvalue_reference_v<Arg>)
      return feed_t<N, const V&>{value};
    else
      return feed_t<N, V>{std::move(arg)};  // a temporary: the feed keeps it
  } else {
    // Ops read tensors in row-major order: another layout (or a lazy expression) is
    // copied once into a row-major container for the run.
    session_detail::check_shape<N>(value.shape());
    return feed_t<N, xt::xtensor<T, S::rank>>{xt::xtensor<T, S::rank>(value)};
  }
}

namespace session_detail {

template <class F>
struct is_feed : std::false_type {};
template <class N, class S>
struct is_feed<feed_t<N, S>> : std::true_type {};

/// One argument of run() after the fetch as a tuple of feed_t: a feed itself (by
/// reference), or the entries of a hana::map from nodes to values.
template <class A>
auto feeds_of(const A& a) {
  if constexpr (std::is_same_v<boost::hana::tag_of_t<A>, boost::hana::map_tag>) {
    return boost::hana::unpack(a, [](const auto&... pairs) {
      return std::tuple{feed(boost::hana::first(pairs), boost::hana::second(pairs))...};
    });
  } else {
    return std::tuple<const A&>(a);
  }
}

template <class... A>
inline constexpr bool has_feed_map = (std::is_same_v<boost::hana::tag_of_t<A>, boost::hana::map_tag> || ...);

}  // namespace session_detail

}  // namespace typeflow

// Nodes as keys of a hana::map (feeds): a node's type is its identity (DESIGN.md rule 1).
namespace boost::hana {
template <class N>
struct hash_impl<N, when<typeflow::node<N>>> {
  template <class X>
  static constexpr auto apply(const X&) {
    return type_c<N>;
  }
};
template <class A, class B>
struct equal_impl<A, B, when<typeflow::node<A> && typeflow::node<B>>> {
  template <class X, class Y>
  static constexpr auto apply(const X&, const Y&) {
    return bool_c<std::is_same_v<A, B>>;
  }
};
}  // namespace boost::hana
