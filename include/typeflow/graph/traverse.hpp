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

/// What the session needs to know of a path to plan it.
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

  /// A node is materialized (gets a buffer) unless it is an elementwise op whose value
  /// only one elementwise consumer needs: then it is fused into that consumer.
  template <class N>
  static constexpr bool materialized =
      !contains_v<Fed, N> && N::kind != node_kind::leaf &&
      (N::kind != node_kind::elementwise || count_v<all_inputs, N> != 1 ||
       count_v<nonelementwise_inputs, N> != 0 || contains_v<Fetches, N>);
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
