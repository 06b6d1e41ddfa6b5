// typeflow/graph/traverse.hpp — the type-level graph algorithms.
//
// One depth-first traversal threads a visited list through mp_fold; the visited list
// *is* the topological order (post-order: inputs before the node, left to right).
// Membership is a builtin fold over the list, so no class is instantiated per query.
// This is the algorithm DESIGN.md measured as linear in practice; do not replace it
// by per-node set unions.
#pragma once

#include <array>
#include <string_view>

#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>

#include "typeflow/core/node.hpp"

namespace typeflow::graph {

namespace detail {

// Edges followed by the traversal of the session's graph (names, variables).
template <class Cut, class N>
using all_edges = graph_edges_of<N>;

// Edges followed by a run: inputs only, stopping at fed nodes.
template <class Cut, class N>
using path_edges = mp::mp_if_c<contains_v<Cut, N>, mp::mp_list<>, inputs_of<N>>;

template <template <class, class> class Edges, class Cut, class Visited, class N,
          bool Seen = contains_v<Visited, N>>
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
  using type = mp::mp_push_back<
      mp::mp_fold<Edges<Cut, N>, Visited, visitor<Edges, Cut>::template fn>, N>;
};

}  // namespace detail

/// Every node reachable from Roots through inputs and written variables, inputs first.
template <class... Roots>
using graph_order = mp::mp_fold<mp::mp_list<Roots...>, mp::mp_list<>,
                                detail::visitor<detail::all_edges, mp::mp_list<>>::template fn>;

/// The computation path of a run: ancestors of Fetches (an mp_list), stopping at the
/// nodes of Fed (an mp_list), in the order the session evaluates them.
template <class Fetches, class Fed>
using path_order =
    mp::mp_fold<Fetches, mp::mp_list<>, detail::visitor<detail::path_edges, Fed>::template fn>;

template <class N>
using is_node = std::bool_constant<node<N>>;
/// mp_append that accepts zero lists.
template <class... L>
using append_lists = mp::mp_append<mp::mp_list<>, L...>;
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
using cut_inputs = mp::mp_if_c<contains_v<Fed, N>, mp::mp_list<>, inputs_of<N>>;
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
 private:
  template <class N>
  using is_elementwise_q = std::bool_constant<is_elementwise<N>>;

 public:
  using order = path_order<Fetches, Fed>;
  template <class N>
  using inputs = detail::cut_inputs<Fed, N>;
  // mp_append of zero lists must still give a list
  template <class... L>
  using append = mp::mp_append<mp::mp_list<>, L...>;
  using all_inputs = mp::mp_apply<append, mp::mp_transform<inputs, order>>;
  using nonelementwise_inputs = mp::mp_apply<
      append, mp::mp_transform<inputs, mp::mp_remove_if<order, is_elementwise_q>>>;

  /// Elementwise, not fed, not fetched, and one elementwise consumer needs its value.
  template <class N>
  static constexpr bool fusible =
      !contains_v<Fed, N> && N::kind == node_kind::elementwise && count_v<all_inputs, N> == 1 &&
      count_v<nonelementwise_inputs, N> == 0 && !contains_v<Fetches, N>;

 private:
  template <class N>
  struct consumes {
    template <class C>
    using fn = std::bool_constant<contains_v<inputs<C>, N>>;
  };
  // The materialized node whose loop evaluates the fusible node N.
  template <class N, bool = fusible<N>>
  struct root_impl {
    using type = N;
  };
  template <class N>
  struct root_impl<N, true> {
    using consumer = mp::mp_at<order, mp::mp_find_if_q<order, consumes<N>>>;
    using type = typename root_impl<consumer>::type;
  };

  // Every node of the tree under root R: fusible inputs recursively, and the operands.
  template <class N>
  struct tree_impl;
  template <class N>
  using tree_of_input = mp::mp_if_c<fusible<N>, typename tree_impl<N>::type, mp::mp_list<N>>;
  template <class N>
  struct tree_impl {
    using type = mp::mp_push_back<mp::mp_apply<append, mp::mp_transform<tree_of_input, inputs<N>>>, N>;
  };

  template <class R>
  static constexpr std::size_t row_size() {
    using nodes = typename tree_impl<R>::type;
    constexpr std::size_t total = detail::static_size<shape_of<R>>();
    std::size_t row = total;
    bool ok = true;
    mp::mp_for_each<mp::mp_transform<mp::mp_identity, nodes>>([&](auto id) {
      using S = shape_of<typename decltype(id)::type>;
      constexpr std::size_t n = detail::static_size<S>();
      if constexpr (!S::is_static) {
        ok = false;
      } else if constexpr (n != 1 && n != total) {
        if (!detail::is_suffix_of<S, shape_of<R>>()) ok = false;
        if (row != total && row != n) ok = false;
        row = n;
      } else if constexpr (n == total && S::rank > 0) {
        if (!detail::is_suffix_of<S, shape_of<R>>()) ok = false;
      }
    });
    return ok ? row : 0;
  }

 public:
  /// The root (materialized) node of N's fused tree; N itself if N is not fusible.
  template <class N>
  using root_of = typename root_impl<N>::type;
  /// The nodes of the tree evaluated in R's loop: operands and fused ops, R last.
  template <class R>
  using tree = typename tree_impl<R>::type;

  /// R's tree is evaluated by the session's flat loop: output static, of rank > 0, and
  /// every operand indexed by the flat index, the row index, or not at all.
  template <class R>
  static constexpr bool flat = [] {
    if constexpr (R::kind != node_kind::elementwise || !shape_of<R>::is_static || shape_of<R>::rank == 0) {
      return false;
    } else {
      return row_size<R>() != 0;
    }
  }();
  /// The number of elements of the row operands of R's flat loop.
  template <class R>
  static constexpr std::size_t flat_row = row_size<R>();

  /// A node is materialized (gets a buffer) unless it is fused into its consumer's loop.
  template <class N>
  static constexpr bool materialized = [] {
    if constexpr (contains_v<Fed, N> || N::kind == node_kind::leaf) {
      return false;
    } else if constexpr (!fusible<N>) {
      return true;
    } else {
      using R = root_of<N>;
      // Rank 0 chains are plain scalar arithmetic; dynamic ones are xtensor expressions.
      return !(shape_of<R>::rank == 0 || !shape_of<R>::is_static || flat<R>);
    }
  }();
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
