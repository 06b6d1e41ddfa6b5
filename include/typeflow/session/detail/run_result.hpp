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
#include "typeflow/session/run_context.hpp"

namespace typeflow::detail {

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
    using ctx_t = run_context<Self, typename fetches_of<Fetch>::type, fed, std::tuple<const Feeds&...>>;
    using order = typename ctx_t::order;
    using unfed = mp::mp_copy_if_q<graph::detail::select<graph::is_placeholder_node, order>, graph::not_in<fed>>;
    using read_vars = mp::mp_copy_if_q<graph::detail::select<graph::is_variable_node, order>, graph::not_in<fed>>;
    using used_vars = mp::mp_append<read_vars, graph::detail::concat<mp::mp_transform<reads_of, order>>,
                                    graph::detail::concat<mp::mp_transform<targets_of, order>>>;
    using missing_vars =
        mp::mp_copy_if_q<used_vars, graph::not_in<typename std::remove_const_t<Self>::variables>>;
    using changing = mp::mp_copy_if_q<mp::mp_copy_if_q<order, graph::not_in<fed>>, changes_state_q>;
    if constexpr (!mp::mp_empty<unfed>::value) {
      return std::type_identity<you_must_feed_a_value_for_placeholder<mp::mp_front<unfed>::name>>{};
    } else if constexpr (!mp::mp_empty<missing_vars>::value) {
      return std::type_identity<variable_is_not_in_the_sessions_graph<mp::mp_front<missing_vars>::name>>{};
    } else if constexpr (std::is_const_v<Self> && !mp::mp_empty<changing>::value) {
      using culprit = mp::mp_front<changing>;
      return std::type_identity<
          a_const_session_runs_no_node_that_changes_state<label_of<culprit>(), first_write_label<culprit>()>>{};
    } else {
      return std::type_identity<void>{};
    }
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

}  // namespace typeflow::detail
