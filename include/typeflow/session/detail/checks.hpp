// typeflow/session/detail/checks.hpp — the compile-time checks of a session's graph and
// of a run's path, each raising one diagnostic of session/diagnostics.hpp.
#pragma once

#include <cstddef>
#include <string_view>
#include <type_traits>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/fixed_string.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/core/none.hpp"
#include "typeflow/core/shape.hpp"
#include "typeflow/graph/traverse.hpp"
#include "typeflow/session/diagnostics.hpp"

namespace typeflow::session_detail {

// --- a rejected graph ------------------------------------------------------------------------
//
// Two nodes of one name are found where the session's type is deduced, not in the class's
// body: there, the "required from" line would spell session<Roots...>, the whole graph's type
// (exponential in the depth of a graph of shared nodes). session's deduction guide gives
// session<rejected_graph<D>...> instead, D naming the name; its body's check prints that short
// type, and the session accepts the roots given and runs nothing, so that no second error
// follows. A session type written out by hand is checked in its body (check_names_impl).

/// A stand-in root for a graph that cannot be a session's: D says why, Culprits are the
/// nodes to blame (short types: named nodes are leaves).
template <class D, class... Culprits>
struct rejected_graph : node_facade<none_t, shape<>, node_kind::leaf> {};

template <class N>
struct is_rejected_graph : std::false_type {};
template <class D, class... Culprits>
struct is_rejected_graph<rejected_graph<D, Culprits...>> : std::true_type {};

template <class D, class... Culprits>
struct graph_rejection;
/// First had the name first; Second is another node that takes it again.
template <fixed_string Name, class First, class Second>
struct graph_rejection<two_nodes_of_the_graph_have_the_name<Name>, First, Second> {
  static_assert(two_nodes_of_the_graph_have_the_name<Name>::value,
                "names are unique per graph: two different nodes (another dtype, shape or kind) "
                "have the same full name; rename one of them");
  static constexpr bool value = true;  // the error above is the one to read
};

/// Whether a session of Roots is rejected: then the error above, once.
template <class... Roots>
struct check_rejected {
  static constexpr bool value = true;
};
template <class D, class... Culprits, class... More>
struct check_rejected<rejected_graph<D, Culprits...>, More...> {
  static constexpr bool value = graph_rejection<D, Culprits...>::value;
};

/// Quoted metafunction: does a node have N's name?
template <class N>
struct has_the_name_of {
  template <class M>
  using fn = std::bool_constant<M::name == N::name>;
};

/// The first two nodes of Named (the named nodes of a graph, in graph order) that share a
/// name, as a rejected_graph; void if the names are unique.
template <class Named, std::size_t I = graph::first_duplicate_name<Named>>
struct name_clash {
  using type = void;
};
template <class Named, std::size_t I>
  requires(I < mp::mp_size<Named>::value)
struct name_clash<Named, I> {
  using second = mp::mp_at_c<Named, I>;
  using first = mp::mp_at<Named, mp::mp_find_if_q<Named, has_the_name_of<second>>>;
  using type = rejected_graph<two_nodes_of_the_graph_have_the_name<second::name>, first, second>;
};

/// The root a deduced session<Roots...> takes for R: R, or the rejected_graph of the graph
/// of Roots if two of its nodes share a name.
template <class R, class Clash>
using root_or_clash = mp::mp_if<std::is_void<Clash>, R, Clash>;
template <class R, class... Roots>
using guided_root =
    root_or_clash<R, typename name_clash<graph::detail::select<graph::is_named, graph::graph_order<Roots...>>>::type>;

/// A session type written out by hand, session<Roots...>, is checked in its body.
template <class Named>
struct check_names_impl {
  static constexpr bool value = check_rejected<typename name_clash<Named>::type>::value;
};

// --- a rejected run --------------------------------------------------------------------------
//
// run() does not check inside its own body: there, the compiler's "required from" lines would
// spell the fetch's type, which for a graph of shared nodes grows exponentially with its depth
// (an 800-node chain misused once printed for minutes). It first names what is wrong as a
// short diagnostic type D (session_detail::diagnose_run, session/detail/run_result.hpp) and, if
// anything is, returns rejected_run<D, R>. A function's return type is completed where it is
// called, so D's static_assert fires in the caller's context: one error naming the user's
// names, no graph type. The value then behaves as the run's result R would, so that no second
// error follows.

template <class D>
struct run_rejection;

template <fixed_string Placeholder>
struct run_rejection<you_must_feed_a_value_for_placeholder<Placeholder>> {
  static_assert(you_must_feed_a_value_for_placeholder<Placeholder>::value,
                "run(fetch) needs a value for a placeholder on the fetch's computation path: "
                "pass typeflow::feed(placeholder, value)");
};
template <fixed_string Variable>
struct run_rejection<variable_is_not_in_the_sessions_graph<Variable>> {
  static_assert(variable_is_not_in_the_sessions_graph<Variable>::value,
                "the run's path uses a variable that the session does not hold: pass a node "
                "that reaches it to the session's constructor");
};
template <fixed_string Node, fixed_string Writes>
struct run_rejection<a_const_session_runs_no_node_that_changes_state<Node, Writes>> {
  static_assert(a_const_session_runs_no_node_that_changes_state<Node, Writes>::value,
                "a const session runs only paths that change nothing: run this fetch through a "
                "non-const session");
};
template <class T>
struct run_rejection<fetch_is_not_a_typeflow_node<T>> {
  static_assert(fetch_is_not_a_typeflow_node<T>::value,
                "run(fetch, feeds...): the fetch must be a typeflow node, typeflow::fetch(nodes...) or "
                "a structure of nodes (std::tuple, std::array, hana::tuple, hana::map, Hana struct)");
};
template <class T>
struct run_rejection<run_argument_is_not_a_feed<T>> {
  static_assert(run_argument_is_not_a_feed<T>::value,
                "run(fetch, feeds...): pass feeds as typeflow::feed(node, value) or a hana::map from "
                "nodes to values");
};
template <bool Once>
struct run_rejection<every_node_is_fed_once<Once>> {
  static_assert(every_node_is_fed_once<Once>::value, "run(fetch, feeds...): a node is fed twice");
};

/// What a rejected run returns: R's interface (R itself as a base, or a scalar R's value).
template <class D, class R>
struct rejected_run : run_rejection<D>, R {
  rejected_run() = default;
};
template <class D, class R>
  requires std::is_scalar_v<R>
struct rejected_run<D, R> : run_rejection<D> {
  R value{};
  constexpr operator R() const noexcept { return value; }
};

template <class T>
struct is_rejected_run : std::false_type {};
template <class D, class R>
struct is_rejected_run<rejected_run<D, R>> : std::true_type {};

template <class N>
constexpr auto first_write_label() {
  if constexpr (mp::mp_empty<targets_of<N>>::value) {
    return fixed_string<1>{};
  } else {
    return label_of<mp::mp_front<targets_of<N>>>();
  }
}

struct changes_state_q {
  template <class N>
  using fn = std::bool_constant<changes_state<N>()>;
};

}  // namespace typeflow::session_detail
