// typeflow/graph/traverse.hpp — the type-level graph algorithms.
//
// One depth-first traversal threads a visited set through mp_fold; the order of the
// visits *is* the topological order (post-order: inputs before the node, left to right).
// The set is kept in chunks of 32 nodes (see detail::visited), so that the types the
// traversal makes grow with N^2 / 32, not N^2. This is the algorithm DESIGN.md measured
// as linear in practice; do not replace it by per-node set unions.
//
// Everything path_structure knows of a path is computed once for the whole path, in arrays
// indexed by a node's position in the order (one constexpr evaluation), not by a query
// per node over lists of the path's length: at N = 800 nodes such queries cost more
// than everything else the compiler does.
//
// How a session plans a run of a path (fusion, buffers) is the session's business:
// session/detail/fusion.hpp (session_detail::path_info) and session/detail/plan.hpp.
#pragma once

#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>

#include "typeflow/core/detail/first_duplicate.hpp"
#include "typeflow/core/node.hpp"

namespace typeflow::graph {

namespace detail {

// Membership in a short list (fetches, feeds): a class per query, no lambda.
//
// Compile-time values about one node are carried by types (std::integral_constant), not
// by static data members or variable templates: each of those is a symbol the compiler
// names (mangles) after the node's type, which spells the node's whole graph; at N = 800
// nodes the names cost more than everything else.
template <class L, class V>
struct in_short_list;
template <class... T, class V>
struct in_short_list<mp::mp_list<T...>, V> : std::bool_constant<(__is_same(T, V) || ... || false)> {};

// Edges followed by the traversal of the session's graph (names, variables).
template <class Cut, class N>
using all_edges = graph_edges_of<N>;

// Edges followed by a run: inputs only, stopping at fed nodes.
template <class Cut, class N>
using path_edges = mp::mp_if_c<in_short_list<Cut, N>::value, mp::mp_list<>, inputs_of<N>>;

// The visited set, in chunks: Done is an mp_list of full chunks, each a class deriving from
// one tag per node it holds (asked with the builtin __is_base_of), Recent an mp_list of
// the nodes visited since. Each step of the traversal makes a new set type, so the cost
// of the sets is the sum of their lengths: with whole lists that is N^2 / 2 entries
// (330 MB for N = 800 in g++ 12), with chunks of 32 about N^2 / 32 + 16 N.
template <class N>
struct visited_tag {};
template <class... N>
struct chunk : visited_tag<N>... {
  using list = mp::mp_list<N...>;
};
inline constexpr std::size_t chunk_size = 32;
template <class Done, class Recent>
struct visited {};

template <class V, class N>
struct seen;
template <class... C, class... R, class N>
struct seen<visited<mp::mp_list<C...>, mp::mp_list<R...>>, N>
    : std::bool_constant<(__is_base_of(visited_tag<N>, C) || ...) || (__is_same(R, N) || ...)> {};

// V with N added.
template <class V, class N>
struct add_visited;
template <class Done, class... R, class N>
  requires(sizeof...(R) + 1 < chunk_size)
struct add_visited<visited<Done, mp::mp_list<R...>>, N> {
  using type = visited<Done, mp::mp_list<R..., N>>;
};
template <class... C, class... R, class N>
  requires(sizeof...(R) + 1 == chunk_size)
struct add_visited<visited<mp::mp_list<C...>, mp::mp_list<R...>>, N> {
  using type = visited<mp::mp_list<C..., chunk<R..., N>>, mp::mp_list<>>;
};

// The visited nodes in the order of their visit.
template <class V>
struct visited_list;
template <class... C, class Recent>
struct visited_list<visited<mp::mp_list<C...>, Recent>> {
  using type = mp::mp_append<typename C::list..., Recent>;
};

template <template <class, class> class Edges, class Cut, class Visited, class N,
          bool Seen = seen<Visited, N>::value>
struct visit_impl {
  using type = Visited;
};

template <template <class, class> class Edges, class Cut>
struct visitor {
  template <class Visited, class N>
  using fn = typename visit_impl<Edges, Cut, Visited, N>::type;
};

template <template <class, class> class Edges, class Cut, class Visited, class N>
struct visit_impl<Edges, Cut, Visited, N, false> {
  // An error here means that N, an input of some node, is not a typeflow node.
  static_assert(node<N>, "a graph edge leads to a type that is not a typeflow node");
  using inputs_visited = mp::mp_fold<Edges<Cut, N>, Visited, visitor<Edges, Cut>::template fn>;
  using type = typename add_visited<inputs_visited, N>::type;
};

template <template <class, class> class Edges, class Cut, class Roots>
using traverse = typename visited_list<
    mp::mp_fold<Roots, visited<mp::mp_list<>, mp::mp_list<>>, visitor<Edges, Cut>::template fn>>::type;

}  // namespace detail

/// Every node reachable from Roots through inputs and written variables, inputs first.
template <class... Roots>
using graph_order = detail::traverse<detail::all_edges, mp::mp_list<>, mp::mp_list<Roots...>>;

/// The computation path of a run: ancestors of Fetches (an mp_list), stopping at the
/// nodes of Fed (an mp_list), in the order the session evaluates them.
template <class Fetches, class Fed>
using path_order = detail::traverse<detail::path_edges, Fed, Fetches>;

template <class N>
using is_node = std::bool_constant<node<N>>;

// --- selections from long lists ----------------------------------------------------------
//
// mp_filter and mp_append of many lists recurse over the list, each step carrying the
// rest: about 55 MB of g++ memory for one filter over the 800 nodes of a graph. Most
// selections from a graph are short (its variables, placeholders, named nodes): a fold
// expression of `|` over pieces, evaluated in decltype, builds them in one pass whose
// cost grows with the input's length plus the square of the result's (8 MB for a
// two-node selection out of 800). For a selection that keeps most of a long list,
// mp_filter remains the cheaper.
namespace detail {
template <class... T>
struct piece {};
template <class... A, class... B>
piece<A..., B...> operator|(piece<A...>, piece<B...>);  // declared only: used in decltype
template <class L>
struct piece_of;
template <class... T>
struct piece_of<mp::mp_list<T...>> {
  using type = piece<T...>;
};
template <template <class> class P, class L>
struct select_impl;
template <template <class> class P, class... T>
struct select_impl<P, mp::mp_list<T...>> {
  using type = mp::mp_rename<decltype((piece<>{} | ... | mp::mp_if<P<T>, piece<T>, piece<>>{})), mp::mp_list>;
};
template <class Lists>
struct concat_impl;
template <class... L>
struct concat_impl<mp::mp_list<L...>> {
  using type = mp::mp_rename<decltype((piece<>{} | ... | typename piece_of<L>::type{})), mp::mp_list>;
};

/// The nodes N of L (an mp_list) for which P<N>::value is true, in order: for short results.
template <template <class> class P, class L>
using select = typename select_impl<P, L>::type;
/// The lists of Lists (an mp_list of mp_lists) one after the other: for mostly empty lists.
template <class Lists>
using concat = typename concat_impl<Lists>::type;
}  // namespace detail
/// Quoted predicate: N is not in the list L.
template <class L>
struct not_in {
  template <class N>
  using fn = std::bool_constant<!contains_v<L, N>>;
};
template <class N>
using is_variable_node = std::bool_constant<variable_node_type<N>>;
template <class N>
using is_placeholder_node = std::bool_constant<placeholder_node_type<N>>;
template <class N>
using is_resource_node = std::bool_constant<resource_node_type<N>>;
template <class N>
using is_named = std::bool_constant<named_node<N>>;

// --- consumer counts on a path ---------------------------------------------------------

namespace detail {
template <class Fed, class N>
using cut_inputs = mp::mp_if_c<in_short_list<Fed, N>::value, mp::mp_list<>, inputs_of<N>>;
}  // namespace detail

namespace detail {
// A node's position in a list, by overload resolution: the list becomes one class
// deriving from at_index<N, I> for each of its nodes, each declaring a function of a
// key<N>* parameter, and a lookup is one call in unevaluated context (no function is
// generated). Not by deducing I from a base at_index<N, I>: g++ 12 then unifies N with
// every node of the list structurally, exponential in the depth of a shared DAG.
//
// The keys are empty classes (key<N>, position<I>): to rank the candidates g++ completes
// the class of every candidate's parameter, so a lookup by std::integral_constant<I>*
// instantiated std::integral_constant for every position of the list (180 MB at N = 800).
template <class N>
struct key {};
template <std::size_t I>
struct position {};
inline constexpr std::size_t npos = static_cast<std::size_t>(-1);
template <class N, std::size_t I>
struct at_index {
  static std::integral_constant<std::size_t, I> index_in(key<N>*);
  static mp::mp_identity<N> node_in(position<I>*);
};
struct not_indexed {
  static std::integral_constant<std::size_t, npos> index_in(const void*);  // not in the list
};
template <class L, class S = std::make_index_sequence<mp::mp_size<L>::value>>
struct index_map;
template <class... N, std::size_t... I>
struct index_map<mp::mp_list<N...>, std::index_sequence<I...>> : at_index<N, I>..., not_indexed {
  using at_index<N, I>::index_in...;
  using not_indexed::index_in;
  using at_index<N, I>::node_in...;
};

template <class Map, class N>
inline constexpr std::size_t index_of_v = decltype(Map::index_in(static_cast<key<N>*>(nullptr)))::value;
template <class Map, std::size_t I>
using node_at = typename decltype(Map::node_in(static_cast<position<I>*>(nullptr)))::type;

// Per node of a path, in the order's positions: its consumers (the nodes having it among
// their inputs on the path). Those of the node at j are consumer[first[j]] ..
// consumer[first[j + 1] - 1], in the order, each once.
template <std::size_t Size, std::size_t Edges>
struct consumer_entries {
  std::size_t first[Size + 1]{};
  std::size_t consumer[Edges + 1]{};
};

// Not a partial specialization on the order's nodes (mp_list<N...>): member templates
// instantiated per node cost g++ in proportion to the enclosing class's arguments, so
// the class takes the order as one type and expands it in nested classes.
template <class Fetches, class Fed, class Order>
struct path_table {
  using map = index_map<Order>;
  static constexpr std::size_t size = mp::mp_size<Order>::value;
  // A class, so that the compiler memoizes the lookup (an alias would redo the overload
  // resolution over every node at each use).
  template <class M>
  struct index_c : decltype(map::index_in(static_cast<key<M>*>(nullptr))) {};

  // The positions of the inputs of each node, all in one list of integral constants.
  template <class M>
  using input_positions = mp::mp_transform<index_c, cut_inputs<Fed, M>>;
  template <class L>
  struct edges_of;
  template <class... N>
  struct edges_of<mp::mp_list<N...>> {
    using type = mp::mp_append<mp::mp_list<>, input_positions<N>...>;
  };
  using edges = typename edges_of<Order>::type;

  // Every node's consumers at once (a counting sort of the edges by input), only when
  // asked for (gradients).
  template <class E, class L = Order>
  struct consumers_of;
  template <class... E, class... N>
  struct consumers_of<mp::mp_list<E...>, mp::mp_list<N...>> {
    static constexpr consumer_entries<size, sizeof...(E)> value = [] {
      consumer_entries<size, sizeof...(E)> t{};
      constexpr std::size_t edge[] = {E::value..., 0};
      constexpr std::size_t in_count[] = {mp::mp_size<cut_inputs<Fed, N>>::value..., 0};
      // A consumer holding a node in several input slots counts once: its edges are
      // consecutive, so last[j] (the latest consumer of j, plus one) tells.
      std::size_t count[size + 1]{}, last[size + 1]{};
      for (std::size_t i = 0, e0 = 0; i < size; e0 += in_count[i], ++i)
        for (std::size_t e = e0; e < e0 + in_count[i]; ++e)
          if (last[edge[e]] != i + 1) last[edge[e]] = i + 1, ++count[edge[e]];
      for (std::size_t j = 0; j < size; ++j) t.first[j + 1] = t.first[j] + count[j], last[j] = 0;
      std::size_t next[size + 1]{};
      for (std::size_t i = 0, e0 = 0; i < size; e0 += in_count[i], ++i)
        for (std::size_t e = e0; e < e0 + in_count[i]; ++e) {
          const std::size_t j = edge[e];
          if (last[j] != i + 1) last[j] = i + 1, t.consumer[t.first[j] + next[j]++] = i;
        }
      return t;
    }();
  };
  static constexpr const consumer_entries<size, mp::mp_size<edges>::value>& consumer_table =
      consumers_of<edges>::value;

  // The consumers of the node at position J, as an mp_list of nodes.
  template <std::size_t J,
            class K = std::make_index_sequence<consumer_table.first[J + 1] - consumer_table.first[J]>>
  struct consumers_at;
  template <std::size_t J, std::size_t... K>
  struct consumers_at<J, std::index_sequence<K...>> {
    using type = mp::mp_list<node_at<map, consumer_table.consumer[consumer_table.first[J] + K]>...>;
  };
  template <class M, std::size_t J = index_c<M>::value>
  struct consumers_impl : consumers_at<J> {};
  template <class M>
  struct consumers_impl<M, npos> {
    using type = mp::mp_list<>;
  };
};

}  // namespace detail

/// What is known of a path's structure: its order, each node's position and consumers.
/// The session's planning (session/detail/fusion.hpp: session_detail::path_info) builds on it.
template <class Fetches, class Fed>
struct path_structure {
  using order = path_order<Fetches, Fed>;
  using table = detail::path_table<Fetches, Fed, order>;
  template <class N>
  using inputs = detail::cut_inputs<Fed, N>;

  // Each query has a type form (name_c<N>, a std::integral_constant; what the session
  // uses, see detail::in_short_list) and a value form (name<N>).

  /// N's position in the order (detail::npos if N is not on the path).
  template <class N>
  using index_c = typename table::template index_c<N>;
  template <class N>
  static constexpr std::size_t index = index_c<N>::value;

  /// The nodes of the path that have N among their inputs, in the order, each once (an
  /// empty list if N is not on the path). The first use computes every node's consumers
  /// in one pass over the path's edges; each use then costs N's consumers, not the path.
  template <class N>
  using consumers = typename table::template consumers_impl<N>::type;
};

// --- unique names ------------------------------------------------------------------------

/// Index in Named (an mp_list of named nodes) of the first node whose name an earlier
/// node already has, or the list's size.
template <class Named>
inline constexpr std::size_t first_duplicate_name = 0;
template <class... N>
inline constexpr std::size_t first_duplicate_name<mp::mp_list<N...>> = core::detail::first_duplicate_of<N::name...>;

}  // namespace typeflow::graph
