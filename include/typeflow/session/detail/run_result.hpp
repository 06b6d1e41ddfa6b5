// typeflow/session/detail/run_result.hpp — the type session::run() returns: the fetch's
// value, or a rejected_run (session/detail/checks.hpp) naming what is wrong with the run.
#pragma once

#include <tuple>
#include <type_traits>
#include <utility>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/node.hpp"
#include "typeflow/core/none.hpp"
#include "typeflow/graph/traverse.hpp"
#include "typeflow/session/detail/checks.hpp"
#include "typeflow/session/diagnostics.hpp"
#include "typeflow/session/feed.hpp"
#include "typeflow/session/fetch.hpp"

namespace typeflow::session_detail {

/// The first of N... (a path, in order) for which the flag is set, as an index, or the count.
template <std::size_t Count>
consteval std::size_t first_set(const bool (&flags)[Count]) {
  std::size_t i = 0;
  while (i + 1 < Count && !flags[i]) ++i;
  return i;
}

/// changes_state<N>() as a class, asked of effect nodes only (only they can change state).
template <class N, bool = effect_node<N>>
struct changes_state_c : std::false_type {};
template <class N>
struct changes_state_c<N, true> : std::bool_constant<changes_state<N>()> {};

/// What is wrong with a run of Self over the path N... with the nodes Fed fed: flags over
/// the pack, not lists of node types (each an instantiation named by a deep type). Both
/// run()s' return types are computed for every call, the const one's too: on the 800-node
/// chain, asking every node whether it changes state for the const overload took 2 s.
template <class Self, class Fed, class... N>
consteval auto diagnose_path(mp::mp_list<N...>) {
  using path = mp::mp_list<N...>;
  using vars = typename std::remove_const_t<Self>::variables;
  constexpr bool unfed[] = {(placeholder_node_type<N> && !graph::detail::in_short_list<Fed, N>::value)...,
                            true};
  constexpr bool unheld[] = {(variable_node_type<N> && !graph::detail::in_short_list<Fed, N>::value &&
                              !core::detail::contains_impl<vars, N>::value)...,
                             true};
  // Variables that effect nodes read or write without an edge: mostly none.
  // Two lists, not one of 2N: clang bounds a fold expression at 256 operands by default.
  using effect_vars = mp::mp_append<graph::detail::concat<mp::mp_list<reads_of<N>...>>,
                                    graph::detail::concat<mp::mp_list<targets_of<N>...>>>;
  using unheld_effect_vars = mp::mp_copy_if_q<
      effect_vars, graph::not_in<mp::mp_append<vars, typename std::remove_const_t<Self>::resources>>>;
  if constexpr (constexpr std::size_t i = first_set(unfed); i < sizeof...(N)) {
    return std::type_identity<you_must_feed_a_value_for_placeholder<mp::mp_at_c<path, i>::name>>{};
  } else if constexpr (constexpr std::size_t j = first_set(unheld); j < sizeof...(N)) {
    return std::type_identity<variable_is_not_in_the_sessions_graph<mp::mp_at_c<path, j>::name>>{};
  } else if constexpr (!mp::mp_empty<unheld_effect_vars>::value) {
    return std::type_identity<variable_is_not_in_the_sessions_graph<mp::mp_front<unheld_effect_vars>::name>>{};
  } else if constexpr (std::is_const_v<Self>) {
    // Reading N::kind instantiates nothing; most paths that a const session runs (inference)
    // hold no effect node, and then no node is asked more.
    constexpr bool effects[] = {(N::kind == node_kind::effect)..., true};
    if constexpr (first_set(effects) == sizeof...(N)) {
      return std::type_identity<void>{};
    } else {
      constexpr bool changing[] = {(changes_state_c<N>::value && !graph::detail::in_short_list<Fed, N>::value)...,
                                   true};
      if constexpr (constexpr std::size_t k = first_set(changing); k < sizeof...(N)) {
        using culprit = mp::mp_at_c<path, k>;
        return std::type_identity<
            a_const_session_runs_no_node_that_changes_state<label_of<culprit>(), first_write_label<culprit>()>>{};
      } else {
        return std::type_identity<void>{};
      }
    }
  } else {
    return std::type_identity<void>{};
  }
}

/// What is wrong with a run of Self (a session, const or not) fetching Fetch with Feeds
/// (run()'s arguments after the fetch, hana::maps already spread), as a diagnostic type, or
/// void. Computes only types: nothing here fails to compile.
template <class Self, class Fetch, class... Feeds>
consteval auto diagnose_run() {
  using structure = fetch_structure<Fetch>;
  if constexpr (std::remove_const_t<Self>::rejected) {
    return std::type_identity<void>{};  // the session's error is the one to read
  } else if constexpr (!structure::valid) {
    return std::type_identity<fetch_is_not_a_typeflow_node<mp::mp_front<typename structure::not_nodes>>>{};
  } else if constexpr (!(is_feed<Feeds>::value && ...)) {
    return std::type_identity<
        run_argument_is_not_a_feed<mp::mp_front<mp::mp_remove_if<mp::mp_list<Feeds...>, is_feed>>>>{};
  } else if constexpr (!mp::mp_is_set<mp::mp_list<typename Feeds::node_type...>>::value) {
    return std::type_identity<every_node_is_fed_once<false>>{};
  } else if constexpr (mp::mp_empty<typename fetches_of<Fetch>::type>::value) {
    return std::type_identity<void>{};
  } else {
    using fed = mp::mp_list<typename Feeds::node_type...>;
    // The path's order, which planning the run computes anyway. Not through run_context,
    // whose type depends on the session's constness: overload resolution substitutes the
    // return types of both run()s, const and not, and a second context is a second plan.
    using order = typename graph::path_structure<typename fetches_of<Fetch>::type, fed>::order;
    return diagnose_path<Self, fed>(order{});
  }
}

/// The value of a run fetching Fetch (none_t for what is not a fetch: run() rejects it).
template <class Fetch>
consteval auto run_value() {
  if constexpr (!fetch_structure<Fetch>::valid) {
    return std::type_identity<none_t>{};
  } else if constexpr (node<Fetch>) {
    return std::type_identity<fetch_result_t<Fetch>>{};
  } else {
    using values = mp::mp_rename<mp::mp_transform<fetch_result_t, typename fetches_of<Fetch>::type>, std::tuple>;
    return std::type_identity<decltype(build_fetch_result<Fetch>(std::declval<values>()))>{};
  }
}

/// run()'s arguments after the fetch as the feeds the run sees: a hana::map spread.
template <class A>
struct spread_feeds {
  using type = mp::mp_list<A>;
};
template <class A>
  requires has_feed_map<A>
struct spread_feeds<A> {
  using type = mp::mp_transform<std::remove_cvref_t,
                                mp::mp_rename<decltype(feeds_of(std::declval<const A&>())), mp::mp_list>>;
};

template <class Self, class Fetch, class Feeds>
struct diagnosis;
template <class Self, class Fetch, class... Feeds>
struct diagnosis<Self, Fetch, mp::mp_list<Feeds...>> {
  using type = typename decltype(diagnose_run<Self, Fetch, Feeds...>())::type;
};

/// The type run() returns for a session Self (const or not), a fetch and run()'s arguments
/// after the fetch: the fetch's value, or a rejected_run naming what is wrong.
template <class Self, class Fetch, class... Args>
struct run_result {
  using feeds = mp::mp_append<mp::mp_list<>, typename spread_feeds<Args>::type...>;
  using diagnostic = typename diagnosis<Self, Fetch, feeds>::type;
  using value = typename decltype(run_value<Fetch>())::type;
  using type = mp::mp_if<std::is_void<diagnostic>, value, rejected_run<diagnostic, value>>;
};
template <class Self, class Fetch, class... Args>
using run_result_t = typename run_result<Self, Fetch, Args...>::type;

}  // namespace typeflow::session_detail
