// typeflow/session/detail/checks.hpp — the compile-time checks of a session's graph and
// of a run's path, each raising one diagnostic of session/diagnostics.hpp.
#pragma once

#include <cstddef>
#include <type_traits>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/fixed_string.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/graph/traverse.hpp"
#include "typeflow/session/diagnostics.hpp"

namespace typeflow::detail {

template <class L>
struct check_feeds_impl {
  static constexpr bool value = true;
};
template <class P, class... Rest>
struct check_feeds_impl<mp::mp_list<P, Rest...>> {
  static_assert(you_must_feed_a_value_for_placeholder<P::name>::value,
                "run(fetch) needs a value for a placeholder on the fetch's computation path: "
                "pass typeflow::feed(placeholder, value)");
  static constexpr bool value = false;
};

template <class Named, std::size_t I = graph::first_duplicate_name<Named>>
struct check_names_impl {
  static constexpr bool value = true;
};
template <class Named, std::size_t I>
  requires(I < mp::mp_size<Named>::value)
struct check_names_impl<Named, I> {
  using dup = mp::mp_at_c<Named, I>;
  static_assert(two_nodes_of_the_graph_have_the_name<dup::name>::value,
                "names are unique per graph: two different nodes (another dtype, shape or kind) "
                "have the same full name; rename one of them");
  static constexpr bool value = true;  // the error above is the one to read
};

template <class Vars, class Used>
struct check_vars_impl;
template <class Vars, class... U>
struct check_vars_impl<Vars, mp::mp_list<U...>> {
  template <class V>
  static constexpr bool one() {
    if constexpr (!contains_v<Vars, V>) {
      static_assert(variable_is_not_in_the_sessions_graph<V::name>::value,
                    "the run's path uses a variable that the session does not hold: pass a node "
                    "that reaches it to the session's constructor");
      return false;
    } else {
      return true;
    }
  }
  static constexpr bool value = (one<U>() && ...);
};

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

}  // namespace typeflow::detail
