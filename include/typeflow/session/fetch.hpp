// typeflow/session/fetch.hpp — what run() fetches: one node, fetch(a, b, ...), or any
// nesting of std::tuple, std::array, hana::tuple, hana::map (compile-time keys) and
// Hana-adapted structs around nodes (TensorFlow's nested fetches, DESIGN.md rule 10).
//
// A fetch structure is read by its type alone (nodes are types): its leaves, in order,
// form one fetch list (each node evaluated once per run, however often it appears), and
// the result has the same structure with each node replaced by its value:
//   node N                      -> N's value (fetch_result_t<N>)
//   fetch(a, b, ...)            -> std::tuple of values
//   std::tuple<E...>            -> std::tuple of results
//   std::array<E, M>            -> std::array of results
//   hana::tuple<E...>           -> hana::tuple of results
//   hana::map<pair<K, E>...>    -> hana::map<pair<K, result>...> (the same keys)
//   a BOOST_HANA_DEFINE_STRUCT  -> hana::map from its member names ("loss"_s) to results
#pragma once

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include <boost/hana/accessors.hpp>
#include <boost/hana/concept/struct.hpp>
#include <boost/hana/core/tag_of.hpp>
#include <boost/hana/core/to.hpp>
#include <boost/hana/first.hpp>
#include <boost/hana/for_each.hpp>
#include <boost/hana/map.hpp>
#include <boost/hana/members.hpp>
#include <boost/hana/pair.hpp>
#include <boost/hana/second.hpp>
#include <boost/hana/tuple.hpp>
#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/node.hpp"
#include "typeflow/core/none.hpp"

namespace typeflow {

/// Several fetches in one run; run() then returns a std::tuple of their values.
template <class... N>
struct fetch_list {
  std::tuple<N...> nodes;  // for the definitions they carry (core/definition.hpp)
};

/// `sess.run(fetch(a, b))` is TensorFlow's `sess.run([a, b])`: each node evaluated once.
template <class... N>
constexpr fetch_list<N...> fetch(const N&... n) {
  // Built empty, then assigned: std::tuple's constructor templates cost g++ 12 time
  // exponential in the depth of gradient node types (autodiff/gradients.hpp).
  fetch_list<N...> f{};
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((std::get<I>(f.nodes) = n), ...);
  }(std::index_sequence_for<N...>{});
  return f;
}



namespace session_detail {
template <class N>
struct effect_output {
  using type = none_t;
};
template <class N>
  requires(core::detail::declares<core::detail::output_type_member, N>::value)
struct effect_output<N> {
  using type = typename N::output_type;
};
}  // namespace session_detail

/// What fetching N returns: its value as a container (the scalar itself for rank 0), or
/// the output of an effect node (none_t for group, a train op, an initializer).
template <class N>
using fetch_result_t = mp::mp_if_c<N::kind == node_kind::effect &&
                                       !core::detail::declares<core::detail::forwards_member, N>::value &&
                                       !core::detail::declares<core::detail::forwards_variable_member, N>::value,
                                   typename session_detail::effect_output<N>::type, result_t<N>>;

namespace session_detail {

namespace hana = boost::hana;

/// Stands for the values of Leaves where only their types matter (an empty std::array's
/// element type).
template <class Leaves>
struct result_type_reader {
  template <std::size_t I>
  fetch_result_t<mp::mp_at_c<Leaves, I>> leaf();
};

/// The structure of a fetch F: `valid`, its `leaves` (nodes, in order, repeats kept),
/// `not_nodes` (the leaves that are not nodes) and build<I>(get), which makes the result
/// from get.template leaf<I + i>(), the value of leaf i.
template <class F>
struct fetch_structure {
  static constexpr bool valid = false;
  using leaves = mp::mp_list<>;
  using not_nodes = mp::mp_list<F>;
  template <std::size_t I, class Get>
  static int build(Get&) {
    return 0;  // unreachable: run() rejects the fetch first
  }
};

template <node N>
struct fetch_structure<N> {
  static constexpr bool valid = true;
  using leaves = mp::mp_list<N>;
  using not_nodes = mp::mp_list<>;
  template <std::size_t I, class Get>
  static auto build(Get& get) {
    return get.template leaf<I>();
  }
};

/// A product of structures E..., built as Out<results...> (in order: braced lists
/// evaluate left to right, which the moves of repeated leaves rely on).
template <template <class...> class Out, class... E>
struct fetch_sequence {
  static constexpr bool valid = (fetch_structure<E>::valid && ...);
  using leaves = mp::mp_append<mp::mp_list<>, typename fetch_structure<E>::leaves...>;
  using not_nodes = mp::mp_append<mp::mp_list<>, typename fetch_structure<E>::not_nodes...>;
  static constexpr std::array<std::size_t, sizeof...(E) + 1> offsets = [] {
    std::array<std::size_t, sizeof...(E) + 1> o{};
    std::size_t i = 0;
    ((o[i + 1] = o[i] + mp::mp_size<typename fetch_structure<E>::leaves>::value, ++i), ...);
    return o;
  }();
  template <std::size_t I, class Get>
  static auto build(Get& get) {
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
      return Out<decltype(fetch_structure<E>::template build<I + offsets[K]>(get))...>{
          fetch_structure<E>::template build<I + offsets[K]>(get)...};
    }(std::index_sequence_for<E...>{});
  }
};

template <class... E>
struct fetch_structure<fetch_list<E...>> : fetch_sequence<std::tuple, E...> {};
template <class... E>
struct fetch_structure<std::tuple<E...>> : fetch_sequence<std::tuple, E...> {};
template <class... E>
struct fetch_structure<hana::tuple<E...>> : fetch_sequence<hana::tuple, E...> {};

template <class E, std::size_t M>
struct fetch_structure<std::array<E, M>> {
  using inner = fetch_structure<E>;
  static constexpr std::size_t size = mp::mp_size<typename inner::leaves>::value;
  static constexpr bool valid = inner::valid;
  using leaves = mp::mp_repeat_c<typename inner::leaves, M>;
  using not_nodes = typename inner::not_nodes;
  template <std::size_t I, class Get>
  static auto build(Get& get) {
    using R = decltype(inner::template build<0>(std::declval<result_type_reader<typename inner::leaves>&>()));
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
      return std::array<R, M>{inner::template build<I + K * size>(get)...};
    }(std::make_index_sequence<M>{});
  }
};

/// A map entry: its key kept, its value a structure.
template <class K, class E>
struct fetch_structure<hana::pair<K, E>> {
  using inner = fetch_structure<E>;
  static constexpr bool valid = inner::valid;
  using leaves = typename inner::leaves;
  using not_nodes = typename inner::not_nodes;
  template <std::size_t I, class Get>
  static auto build(Get& get) {
    using R = decltype(inner::template build<I>(get));
    return hana::pair<K, R>(K{}, inner::template build<I>(get));
  }
};

/// A map of entries P..., built as a hana::map with the same keys.
template <class... P>
struct fetch_entries : fetch_sequence<hana::tuple, P...> {
  template <std::size_t I, class Get>
  static auto build(Get& get) {
    return hana::to_map(fetch_sequence<hana::tuple, P...>::template build<I>(get));
  }
};
template <class L>
struct fetch_entries_of;
template <class... P>
struct fetch_entries_of<hana::tuple<P...>> {
  using type = fetch_entries<std::decay_t<P>...>;
};

template <class F>
  requires std::is_same_v<hana::tag_of_t<F>, hana::map_tag>
struct fetch_structure<F>
    : fetch_entries_of<decltype(hana::to_tuple(std::declval<const F&>()))>::type {};

/// A Hana struct's member, as a map entry keyed by the member's name.
template <class S>
struct member_entry {
  template <class A>
  using fn = hana::pair<std::decay_t<decltype(hana::first(std::declval<A>()))>,
                        std::decay_t<decltype(hana::second(std::declval<A>())(std::declval<const S&>()))>>;
};
template <class S, class Accessors>
struct struct_entries;
template <class S, class... A>
struct struct_entries<S, hana::tuple<A...>> {
  using type = fetch_entries<typename member_entry<S>::template fn<A>...>;
};

template <class F>
  requires(!node<F> && hana::Struct<F>::value)
struct fetch_structure<F> : struct_entries<F, decltype(hana::accessors<F>())>::type {};

/// The nodes a fetch F evaluates, each once (also the fetches of graph export).
template <class F>
struct fetches_of {
  using type = mp::mp_unique<typename fetch_structure<F>::leaves>;
};

/// A fetch whose result is the std::tuple of its distinct nodes' values, as collected.
template <class F>
struct is_flat_fetch : std::false_type {};
template <node... N>
struct is_flat_fetch<fetch_list<N...>> : mp::mp_is_set<mp::mp_list<N...>> {};
template <node... N>
struct is_flat_fetch<std::tuple<N...>> : mp::mp_is_set<mp::mp_list<N...>> {};

/// Leaf I of Leaves is its node's last appearance (its value may then be moved).
template <class Leaves, std::size_t I>
inline constexpr bool last_appearance =
    mp::mp_find<mp::mp_drop_c<Leaves, I + 1>, mp::mp_at_c<Leaves, I>>::value == mp::mp_size<Leaves>::value - I - 1;

/// Reads the leaves of a structure from the values of its distinct nodes (a std::tuple
/// in the order of fetches_of): a node's last appearance moves its value, others copy it.
template <class Leaves, class Fetches, class Values>
struct leaf_reader {
  Values& values;
  template <std::size_t I>
  auto leaf() {
    using N = mp::mp_at_c<Leaves, I>;
    auto& v = std::get<mp::mp_find<Fetches, N>::value>(values);
    if constexpr (last_appearance<Leaves, I>) {
      return std::move(v);
    } else {
      return v;
    }
  }
};

/// Calls fn with each node object of the fetch structure f (for the run-time definitions
/// the nodes carry: a named constant that only the fetch reaches).
template <class F, class Fn>
void for_each_fetched_node(const F& f, Fn&& fn) {
  if constexpr (node<F>) {
    fn(f);
  } else if constexpr (requires { f.nodes; }) {  // fetch_list
    std::apply([&](const auto&... e) { (for_each_fetched_node(e, fn), ...); }, f.nodes);
  } else if constexpr (requires { std::tuple_size<F>::value; }) {  // std::tuple, std::array
    std::apply([&](const auto&... e) { (for_each_fetched_node(e, fn), ...); }, f);
  } else if constexpr (std::is_same_v<hana::tag_of_t<F>, hana::pair_tag>) {
    for_each_fetched_node(hana::second(f), fn);
  } else if constexpr (std::is_same_v<hana::tag_of_t<F>, hana::map_tag> ||
                       std::is_same_v<hana::tag_of_t<F>, hana::tuple_tag>) {
    hana::for_each(f, [&](const auto& e) { for_each_fetched_node(e, fn); });
  } else if constexpr (hana::Struct<F>::value) {
    hana::for_each(hana::members(f), [&](const auto& e) { for_each_fetched_node(e, fn); });
  }
}

/// Makes the result of fetch F from the values of fetches_of<F> (a std::tuple).
template <class F, class Values>
auto build_fetch_result(Values&& values) {
  using S = fetch_structure<F>;
  leaf_reader<typename S::leaves, typename fetches_of<F>::type, std::remove_reference_t<Values>> reader{values};
  return S::template build<0>(reader);
}

}  // namespace session_detail

}  // namespace typeflow
