// typeflow/session/detail/fusion.hpp — which nodes of a run's path get a buffer, which
// are fused into their consumer's loop: session_detail::path_info.
//
// Fusion: an elementwise op whose value only one elementwise consumer needs is fusible;
// a tree of fusible ops under a materialized root is evaluated in one loop. With a static
// output shape the session's own flat loop does it, when every operand is the output's
// shape, a trailing part of it (a bias row) or a single element; with a dynamic shape
// xtensor's lazy expressions do. Static trees with other broadcasts are not fused:
// xtensor 0.24.3 miscomputes a broadcasting expression over fixed-size containers
// nested in another expression (tests/ops/elementwise_test.cpp).
//
// As in graph/traverse.hpp, what is known of every node of a path is computed once for
// the whole path, in arrays indexed by the node's position in the order.
#pragma once

#include <cstddef>
#include <type_traits>

#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>

#include "typeflow/core/node.hpp"
#include "typeflow/graph/traverse.hpp"

namespace typeflow {

namespace session_detail {

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

// Per node of a path, in the order's positions: fusible, and the root of its fused tree.
template <std::size_t Size>
struct fusion_entries {
  // Plain arrays: the constant evaluator calls no operator[] (std::array's costs a call
  // per access, and memory per call).
  bool fusible[Size + 1]{};
  std::size_t root[Size + 1]{};
};

// The fusion entries of the path Order (an mp_list), whose edges are E... (the positions
// of each node's inputs, one node after the other: graph::detail::path_table::edges).
// Not a member of a class parameterized by the path's nodes: a class template of its own
// holding one constant (see graph::detail::path_table).
template <class Fetches, class Fed, class Edges, class Order>
struct fusion_entries_of;
template <class Fetches, class Fed, class... E, class... N>
struct fusion_entries_of<Fetches, Fed, mp::mp_list<E...>, mp::mp_list<N...>> {
  static constexpr std::size_t size = sizeof...(N);
  static constexpr fusion_entries<size> value = [] {
    fusion_entries<size> t{};
    constexpr std::size_t edge[] = {E::value..., 0};
    constexpr std::size_t in_count[] = {mp::mp_size<graph::detail::cut_inputs<Fed, N>>::value..., 0};
    constexpr bool ew[] = {(N::kind == node_kind::elementwise)..., false};
    constexpr bool fed[] = {graph::detail::in_short_list<Fed, N>::value..., false};
    constexpr bool fetched[] = {graph::detail::in_short_list<Fetches, N>::value..., false};
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

// The trees of a node's inputs, then the node (one fold of |, see graph::detail::concat).
template <class Trees, class N>
struct tree_cat;
template <class... L, class N>
struct tree_cat<mp::mp_list<L...>, N> {
  using type = mp::mp_rename<decltype((graph::detail::piece<>{} | ... |
                                       typename graph::detail::piece_of<L>::type{}) |
                                      graph::detail::piece<N>{}),
                             mp::mp_list>;
};

/// How a node of a path gets its value in a run (session_detail::path_info::materialized_c).
enum class value_role {
  input,     // fed, or a leaf (variable, constant, placeholder): no step computes it
  computed,  // not fusible: its own step computes it into its own buffer
  fused,     // fusible: part of the loop of its tree's root
};

/// What the session needs to know of a path to plan it: graph::path_structure (order,
/// positions, consumers) and the fusion of its elementwise trees (see the top of this file).
template <class Fetches, class Fed>
struct path_info : graph::path_structure<Fetches, Fed> {
  using base = graph::path_structure<Fetches, Fed>;
  using typename base::order;
  using typename base::table;
  template <class N>
  using inputs = typename base::template inputs<N>;
  template <class N>
  using index_c = typename base::template index_c<N>;

 private:
  static constexpr const auto& entries =
      fusion_entries_of<Fetches, Fed, typename table::edges, order>::value;

  template <class N, std::size_t I = index_c<N>::value>
  struct fusible_impl : std::bool_constant<entries.fusible[I]> {};
  template <class N>
  struct fusible_impl<N, graph::detail::npos> : std::false_type {};

 public:
  /// Elementwise, not fed, not fetched, and one elementwise consumer needs its value (a
  /// bool_constant: no static data member here, whose symbol would spell the graph).
  template <class N>
  using fusible_c = fusible_impl<N>;

 private:
  template <class N, bool = fusible_c<N>::value>
  struct root_impl {
    using type = N;
  };
  template <class N>
  struct root_impl<N, true> {
    using type = graph::detail::node_at<typename table::map, entries.root[index_c<N>::value]>;
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
    // One fold of | (see graph::detail::concat), not mp_append + mp_push_back: 90 MB less at N = 800.
    using type = typename tree_cat<mp::mp_transform<tree_of_input, inputs<N>>, N>::type;
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
  using flat_row_c =
      typename flat_row_of<shape_of<R>, typename tree_shapes_impl<R>::type>::type;
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

 private:
  template <class N, value_role Role = (graph::detail::in_short_list<Fed, N>::value || N::kind == node_kind::leaf)
                                           ? value_role::input
                                       : !fusible_c<N>::value ? value_role::computed
                                                              : value_role::fused>
  struct materialized_impl : std::bool_constant<Role == value_role::computed> {};
  template <class N, class R = root_of<N>>
  using fused_materialized =
      // Rank 0 chains are plain scalar arithmetic; dynamic ones are xtensor expressions.
      std::bool_constant<!(shape_of<R>::rank == 0 || !shape_of<R>::is_static || flat_c<R>::value)>;
  template <class N>
  struct materialized_impl<N, value_role::fused> : fused_materialized<N> {};

 public:
  /// A node is materialized (gets a buffer) unless it is fused into its consumer's loop.
  template <class N>
  using materialized_c = materialized_impl<N>;
};

}  // namespace session_detail

/// How a session plans the path of the fetches Fetches with the nodes Fed fed (mp_lists):
/// `tf::materialized<tf::path_info<...>, N>` tells whether node N gets its own buffer or
/// is fused into its consumer's loop (docs/reference/session.md, "Fusion").
template <class Fetches, class Fed>
using path_info = session_detail::path_info<Fetches, Fed>;

/// Whether a run of Path (a path_info) evaluates node N into a buffer of its own.
template <class Path, class N>
inline constexpr bool materialized = Path::template materialized_c<N>::value;

}  // namespace typeflow
