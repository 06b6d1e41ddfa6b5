// typeflow/graph/traverse.hpp — the type-level graph algorithms.
//
// One depth-first traversal threads a visited set through mp_fold; the order of the
// visits *is* the topological order (post-order: inputs before the node, left to right).
// The set is kept in chunks of 32 nodes (see detail::visited), so that the types the
// traversal makes grow with N^2 / 32, not N^2. This is the algorithm DESIGN.md measured
// as linear in practice; do not replace it by per-node set unions.
//
// Everything path_info knows of a path is computed once for the whole path, in arrays
// indexed by a node's position in the order (one constexpr evaluation), not by a query
// per node over lists of the path's length: at N = 800 nodes such queries cost more
// than everything else the compiler does.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>

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
using is_variable_node = std::bool_constant<requires { N::is_variable; }>;
template <class N>
using is_placeholder_node = std::bool_constant<requires { N::is_placeholder; }>;
template <class N>
using is_named = std::bool_constant<named_node<N>>;

// --- consumer counts on a path ---------------------------------------------------------

namespace detail {
template <class Fed, class N>
using cut_inputs = mp::mp_if_c<in_short_list<Fed, N>::value, mp::mp_list<>, inputs_of<N>>;
}  // namespace detail

namespace detail {
// How an operand of shape S is indexed inside a fused elementwise tree whose output has
// Total elements and whose broadcast operands have Row elements: by the output's flat
// index (its own shape), by the index within a row (a suffix of the output's shape), or
// not at all (one element).
template <class S>
constexpr std::size_t static_size() {
  if constexpr (S::is_static) {
    return S::size;
  } else {
    return 0;
  }
}
// The dims of S without leading 1s.
template <class S>
constexpr std::size_t first_non_one() {
  std::size_t i = 0;
  while (i < S::rank && S::dims[i] == 1) ++i;
  return i;
}
// S (leading 1s aside) is the trailing part of Out's shape.
template <class S, class Out>
constexpr bool is_suffix_of() {
  constexpr std::size_t f = first_non_one<S>();
  constexpr std::size_t n = S::rank - f;
  if constexpr (n > Out::rank) {
    return false;
  } else {
    for (std::size_t i = 0; i < n; ++i)
      if (S::dims[f + i] != Out::dims[Out::rank - n + i]) return false;
    return true;
  }
}
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

// Per node of a path, in the order's positions: fusible, and the root of its fused tree.
template <std::size_t Size>
struct path_entries {
  // Plain arrays: the constant evaluator calls no operator[] (std::array's costs a call
  // per access, and memory per call).
  bool fusible[Size + 1]{};
  std::size_t root[Size + 1]{};
};

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

  template <class E, class L = Order>
  struct entries_of;
  template <class... E, class... N>
  struct entries_of<mp::mp_list<E...>, mp::mp_list<N...>> {
    static constexpr path_entries<size> value = [] {
      path_entries<size> t{};
      constexpr std::size_t edge[] = {E::value..., 0};
      constexpr std::size_t in_count[] = {mp::mp_size<cut_inputs<Fed, N>>::value..., 0};
      constexpr bool ew[] = {(N::kind == node_kind::elementwise)..., false};
      constexpr bool fed[] = {in_short_list<Fed, N>::value..., false};
      constexpr bool fetched[] = {in_short_list<Fetches, N>::value..., false};
      std::size_t uses[size + 1]{}, uses_by_other[size + 1]{}, consumer[size + 1]{};
      for (std::size_t i = 0, e0 = 0; i < size; e0 += in_count[i], ++i) {
        for (std::size_t e = e0; e < e0 + in_count[i]; ++e) {
          const std::size_t j = edge[e];
          if (++uses[j] == 1) consumer[j] = i;
          if (!ew[i]) ++uses_by_other[j];
        }
      }
      // Elementwise, not fed, not fetched, and one elementwise consumer needs its value.
      for (std::size_t i = 0; i < size; ++i)
        t.fusible[i] = !fed[i] && ew[i] && uses[i] == 1 && uses_by_other[i] == 0 && !fetched[i];
      // A consumer comes after its inputs in the order: roots from the end.
      for (std::size_t i = size; i-- > 0;) t.root[i] = t.fusible[i] ? t.root[consumer[i]] : i;
      return t;
    }();
  };
  static constexpr const path_entries<size>& entries = entries_of<edges>::value;

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

// The row size of a flat loop over operands of shapes S... with output shape Out, or 0
// when some operand is neither Out's shape, a trailing part of it, nor one element.
template <class Out, class L>
struct flat_row_of;
template <class Out, class... S>
struct flat_row_of<Out, mp::mp_list<S...>> {
  template <class Sh>
  static constexpr void one(std::size_t& row, bool& ok) {
    constexpr std::size_t total = static_size<Out>();
    constexpr std::size_t n = static_size<Sh>();
    if constexpr (!Sh::is_static) {
      ok = false;
    } else if constexpr (n != 1 && n != total) {
      if (!is_suffix_of<Sh, Out>()) ok = false;
      if (row != total && row != n) ok = false;
      row = n;
    } else if constexpr (n == total && Sh::rank > 0) {
      if (!is_suffix_of<Sh, Out>()) ok = false;
    }
  }
  static constexpr std::size_t compute() {
    std::size_t row = static_size<Out>();
    bool ok = true;
    (one<S>(row, ok), ...);
    return ok ? row : 0;
  }
  using type = std::integral_constant<std::size_t, compute()>;
};
}  // namespace detail

namespace detail {
// The trees of a node's inputs, then the node.
template <class Trees, class N>
struct tree_cat;
template <class... L, class N>
struct tree_cat<mp::mp_list<L...>, N> {
  using type =
      mp::mp_rename<decltype((piece<>{} | ... | typename piece_of<L>::type{}) | piece<N>{}), mp::mp_list>;
};
}  // namespace detail

/// What the session needs to know of a path to plan it.
///
/// Fusion: an elementwise op whose value only one elementwise consumer needs is fusible;
/// a tree of fusible ops under a materialized root is evaluated in one loop. With a static
/// output shape the session's own flat loop does it, when every operand is the output's
/// shape, a trailing part of it (a bias row) or a single element; with a dynamic shape
/// xtensor's lazy expressions do. Static trees with other broadcasts are not fused:
/// xtensor 0.24.3 miscomputes a broadcasting expression over fixed-size containers
/// nested in another expression (tests/ops/elementwise_test.cpp).
template <class Fetches, class Fed>
struct path_info {
  using order = path_order<Fetches, Fed>;
  using table = detail::path_table<Fetches, Fed, order>;
  template <class N>
  using inputs = detail::cut_inputs<Fed, N>;
  // mp_append of zero lists must still give a list
  template <class... L>
  using append = mp::mp_append<mp::mp_list<>, L...>;

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

 private:
  template <class N, std::size_t I = index_c<N>::value>
  struct fusible_impl : std::bool_constant<table::entries.fusible[I]> {};
  template <class N>
  struct fusible_impl<N, detail::npos> : std::false_type {};

 public:
  /// Elementwise, not fed, not fetched, and one elementwise consumer needs its value.
  template <class N>
  using fusible_c = fusible_impl<N>;
  template <class N>
  static constexpr bool fusible = fusible_c<N>::value;

 private:
  template <class N, bool = fusible_c<N>::value>
  struct root_impl {
    using type = N;
  };
  template <class N>
  struct root_impl<N, true> {
    using type = detail::node_at<typename table::map, table::entries.root[index_c<N>::value]>;
  };

  // Every node of the tree under root R: fusible inputs recursively, and the operands.
  // Lazily: tree_impl of an input that is not fusible is not asked for (mp_if_c would
  // evaluate both branches, each input's tree recursively: 180 MB at N = 800).
  template <class N>
  struct tree_impl;
  template <class N, bool = fusible_c<N>::value>
  struct tree_of_input_impl {
    using type = mp::mp_list<N>;
  };
  template <class N>
  struct tree_of_input_impl<N, true> {
    using type = typename tree_impl<N>::type;
  };
  template <class N>
  using tree_of_input = typename tree_of_input_impl<N>::type;
  template <class N>
  struct tree_impl {
    // One fold of | (see detail::concat), not mp_append + mp_push_back: 90 MB less at N = 800.
    using type = typename detail::tree_cat<mp::mp_transform<tree_of_input, inputs<N>>, N>::type;
  };

 public:
  /// The root (materialized) node of N's fused tree; N itself if N is not fusible.
  template <class N>
  using root_of = typename root_impl<N>::type;
  /// The nodes of the tree evaluated in R's loop: operands and fused ops, R last.
  template <class R>
  using tree = typename tree_impl<R>::type;

 private:
  // The shapes of the operands of R's loop. Most roots have no fused input: their
  // operands are their inputs, and the list of shapes is one type shared by all roots of
  // the same shapes (building each root's tree cost 110 MB and 3 s at N = 800).
  template <class R>
  struct fused_tree_shapes {
    using type = mp::mp_transform<shape_of, tree<R>>;
  };
  template <class R, class In = inputs<R>>
  struct tree_shapes_impl;
  template <class R, class... In>
  struct tree_shapes_impl<R, mp::mp_list<In...>> {
    using type = typename mp::mp_if_c<(fusible_c<In>::value || ... || false), fused_tree_shapes<R>,
                                      mp::mp_identity<mp::mp_list<shape_of<In>..., shape_of<R>>>>::type;
  };

 public:
  /// The number of elements of the row operands of R's flat loop (0: no flat loop).
  template <class R>
  using flat_row_c = typename detail::flat_row_of<shape_of<R>, typename tree_shapes_impl<R>::type>::type;
  template <class R>
  static constexpr std::size_t flat_row = flat_row_c<R>::value;

 private:
  template <class R, bool = R::kind == node_kind::elementwise && shape_of<R>::is_static &&
                            (shape_of<R>::rank > 0)>
  struct flat_impl : std::false_type {};
  template <class R>
  struct flat_impl<R, true> : std::bool_constant<flat_row_c<R>::value != 0> {};

 public:
  /// R's tree is evaluated by the session's flat loop: output static, of rank > 0, and
  /// every operand indexed by the flat index, the row index, or not at all.
  template <class R>
  using flat_c = flat_impl<R>;
  template <class R>
  static constexpr bool flat = flat_c<R>::value;

 private:
  template <class N, int Case = (detail::in_short_list<Fed, N>::value || N::kind == node_kind::leaf) ? 0
                                : !fusible_c<N>::value                                               ? 1
                                                                                                     : 2>
  struct materialized_impl : std::bool_constant<Case == 1> {};
  template <class N, class R = root_of<N>>
  using fused_materialized =
      // Rank 0 chains are plain scalar arithmetic; dynamic ones are xtensor expressions.
      std::bool_constant<!(shape_of<R>::rank == 0 || !shape_of<R>::is_static || flat_c<R>::value)>;
  template <class N>
  struct materialized_impl<N, 2> : fused_materialized<N> {};

 public:
  /// A node is materialized (gets a buffer) unless it is fused into its consumer's loop.
  template <class N>
  using materialized_c = materialized_impl<N>;
  template <class N>
  static constexpr bool materialized = materialized_c<N>::value;
};

// --- unique names ------------------------------------------------------------------------

namespace detail {
template <class L>
struct first_duplicate;
template <class... N>
struct first_duplicate<mp::mp_list<N...>> {
  static constexpr std::array<std::string_view, sizeof...(N)> names{N::name.view()...};
  static constexpr std::size_t value = [] {
    for (std::size_t i = 0; i < names.size(); ++i)
      for (std::size_t j = i + 1; j < names.size(); ++j)
        if (names[i] == names[j]) return j;
    return names.size();
  }();
};
}  // namespace detail

/// Index in Named (an mp_list of named nodes) of the first node whose name an earlier
/// node already has, or the list's size.
template <class Named>
inline constexpr std::size_t first_duplicate_name = detail::first_duplicate<Named>::value;

}  // namespace typeflow::graph
