// typeflow/session/diagnostics.hpp — the types that name the user's mistakes in the
// session's compile errors. Each names the user's names (in its template arguments), and
// its value is false when its check fails, so that the static_assert that uses it prints
// it with the culprit; the checks are in session/detail/checks.hpp, session/detail/steps.hpp
// (named constants) and session/session.hpp (run()).
#pragma once

#include "typeflow/core/fixed_string.hpp"

namespace typeflow {

// --- diagnostics: each names the user's names and states the fix -----------------------

/// In a diagnostic: the run's path reaches this placeholder, and no feed gives it a value.
template <fixed_string Placeholder>
struct you_must_feed_a_value_for_placeholder {
  static constexpr bool value = false;
};

/// In a diagnostic: two different nodes of one graph have this full name.
template <fixed_string Name>
struct two_nodes_of_the_graph_have_the_name {
  static constexpr bool value = false;
};

/// In a diagnostic: the run's path reads this variable, which the session does not hold.
template <fixed_string Variable>
struct variable_is_not_in_the_sessions_graph {
  static constexpr bool value = false;
};

/// In a diagnostic: a run fed one node twice.
template <bool Once>
struct every_node_is_fed_once {
  static constexpr bool value = Once;
};

/// In a diagnostic: a run through a const session reaches this node, which changes a
/// variable or the world (assign, an optimizer's update, an initializer, print); Writes
/// names the first variable it writes, if any.
template <fixed_string Node, fixed_string Writes>
struct a_const_session_runs_no_node_that_changes_state {
  static constexpr bool value = false;
};

/// In a diagnostic: this part of run()'s fetch is neither a node nor a structure of nodes
/// (fetch(...), std::tuple, std::array, hana::tuple, hana::map, a Hana struct).
template <class T>
struct fetch_is_not_a_typeflow_node {
  static constexpr bool value = false;
};

/// In a diagnostic: this argument of run() after the fetch is neither typeflow::feed(node,
/// value) nor a hana::map from nodes to values.
template <class T>
struct run_argument_is_not_a_feed {
  static constexpr bool value = false;
};

namespace session_detail {

/// In a diagnostic: a run reaches this named constant, which the session's roots do not.
template <fixed_string Constant>
struct constant_is_not_in_the_sessions_graph {
  static constexpr bool value = false;
};

}  // namespace session_detail

}  // namespace typeflow
